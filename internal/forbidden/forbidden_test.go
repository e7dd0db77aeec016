package forbidden

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shortBuffer is a buffer of n bytes whose slice goes on to 2n, as a
// buffer sliced from an IPC message body does: arrow-go's arrays take it
// without complaint and read past its end.
func shortBuffer(n int) *memory.Buffer {
	return memory.NewBufferBytes(make([]byte, 2*n)[:n])
}

// record is a record of one column named name, of data.
func record(name string, data arrow.ArrayData) arrow.RecordBatch {
	arr := array.MakeFromData(data)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: data.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// A record whose buffers are not what its types say is refused before a
// writer reads it, naming the column's path: what a reader's View would
// refuse in the file written.
func TestRefuseRefusesAMalformedRecord(t *testing.T) {
	int32s := func(n int) arrow.ArrayData {
		return array.NewData(arrow.PrimitiveTypes.Int32, n, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 4*n))}, nil, 0, 0)
	}
	pair := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32})
	words := array.NewStringBuilder(memory.DefaultAllocator)
	defer words.Release()
	words.AppendValues([]string{"a", "b"}, nil)
	values := words.NewArray()
	defer values.Release()
	indices := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 3, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2}))}, nil, 0, 0))
	defer indices.Release()
	dictionary := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, indices, values)
	defer dictionary.Release()
	for _, tc := range []struct {
		name   string
		rec    arrow.RecordBatch
		column string
		row    int // counted from 500, -1: a buffer at fault
		detail string
	}{
		{
			"an int64 column whose values buffer holds half its rows",
			record("id", array.NewData(arrow.PrimitiveTypes.Int64, 3000, []*memory.Buffer{nil, shortBuffer(12_000)}, nil, 0, 0)),
			"id", -1, "values buffer of 12000 bytes for 3000 values",
		},
		{
			"a month_day_nano interval column whose values buffer is short",
			record("span", array.NewData(arrow.FixedWidthTypes.MonthDayNanoInterval, 1000, []*memory.Buffer{nil, shortBuffer(8_000)}, nil, 0, 0)),
			"span", -1, "values buffer of 8000 bytes for 1000 values",
		},
		{
			"a fixed-size list whose child is half as long as its lists",
			record("quad", array.NewData(arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Int32), 100, []*memory.Buffer{nil}, []arrow.ArrayData{int32s(200)}, 0, 0)),
			"quad", -1, "child of 200 rows for 100 lists of 4",
		},
		{
			"the second of two struct children of one name, too short",
			record("pair", array.NewData(pair, 10, []*memory.Buffer{nil}, []arrow.ArrayData{int32s(10), int32s(5)}, 0, 0)),
			"pair", -1, "",
		},
		{
			"a list whose offsets run past its child",
			record("tags", array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), 2, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 3, 9}))}, []arrow.ArrayData{int32s(4)}, 0, 0)),
			"tags", 501, "offset 9 past the end of the child (4)",
		},
		{
			"a dictionary index past its dictionary in a list's entry: no row of the record",
			record("tags", array.NewData(arrow.ListOf(dictionary.DataType()), 2, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 3}))}, []arrow.ArrayData{dictionary.Data()}, 0, 0)),
			"tags.item", -1, "dictionary index 2 out of range for 2 entries",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer tc.rec.Release()
			err := Refuse(tc.rec, nil, 500)
			require.Error(t, err)
			var e *mapper.Error
			require.True(t, errors.As(err, &e), "%T: %v", err, err)
			assert.ErrorIs(t, err, mapper.ErrInvalidData)
			assert.Equal(t, tc.column, e.Column)
			assert.Equal(t, tc.row, e.Row)
			assert.Contains(t, err.Error(), tc.detail)
			t.Log(err)
		})
	}
}

// A well-formed record passes, whatever its nesting and encodings, with
// two struct children of one name; a forbidden value is still refused,
// its row counted from base.
func TestRefuseTakesWellFormedRecordsAndNamesTheRowOfAForbiddenValue(t *testing.T) {
	type line struct {
		SKU string            `arrow:"sku"`
		Qty *int32            `arrow:"qty"`
		Tag map[string]string `arrow:"tag"`
	}
	type row struct {
		ID     int64   `arrow:"id"`
		Region string  `arrow:"region,dict"`
		Lines  []line  `arrow:"lines"`
		Fixed  [3]byte `arrow:"fixed"`
		Note   *string `arrow:"note"`
	}
	n := int32(2)
	rec, err := mapper.Encode([]row{
		{1, "north", []line{{"a", &n, map[string]string{"k": "v"}}}, [3]byte{1, 2, 3}, nil},
		{2, "south", nil, [3]byte{}, new(string)},
	})
	require.NoError(t, err)
	defer rec.Release()
	require.NoError(t, Refuse(rec, nil, 0))

	pair := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "x", Type: arrow.BinaryTypes.String})
	b := array.NewStructBuilder(memory.DefaultAllocator, pair)
	defer b.Release()
	b.Append(true)
	b.FieldBuilder(0).(*array.Int32Builder).Append(1)
	b.FieldBuilder(1).(*array.StringBuilder).Append("\xff")
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "pair", Type: pair}}, nil)
	twice := array.NewRecordBatch(schema, []arrow.Array{arr}, 1)
	defer twice.Release()
	require.NoError(t, Refuse(twice, nil, 0), "two children of one name, well formed")

	err = Refuse(twice, []int{0}, 41)
	require.ErrorIs(t, err, mapper.ErrInvalidData, "text that is not UTF-8")
	var e *mapper.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, 41, e.Row)
}

// BenchmarkRefuse is the cost of what the record writers check of
// TPC-H's lineitem, read by pqarrow in records of 64K rows: the whole
// check, and its part the malformed check (views) is.
func BenchmarkRefuse(b *testing.B) {
	path, why := tpch.Path("lineitem")
	if path == "" {
		b.Skip(why)
	}
	f, err := os.Open(path)
	require.NoError(b, err)
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	require.NoError(b, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	require.NoError(b, err)
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	require.NoError(b, err)
	defer rr.Release()
	var recs []arrow.RecordBatch
	var rows, size int64
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		defer rec.Release()
		recs = append(recs, rec)
		rows += rec.NumRows()
		for _, col := range rec.Columns() {
			size += int64(col.Data().SizeInBytes())
		}
	}
	cols := arrowcheck.Columns(recs[0].Schema())
	for _, c := range []struct {
		name  string
		check func(rec arrow.RecordBatch) error
	}{
		{"whole", func(rec arrow.RecordBatch) error { return Refuse(rec, cols, 0) }},
		{"malformed", func(rec arrow.RecordBatch) error { return malformed(rec, 0) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			start := cpuTime(b)
			for b.Loop() {
				for _, rec := range recs {
					if err := c.check(rec); err != nil {
						b.Fatal(err)
					}
				}
			}
			// The process's CPU time, not the wall's: on a shared machine
			// the wall time is mostly other processes'.
			b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(int64(b.N)*rows), "cpu-ns/row")
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &u))
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
