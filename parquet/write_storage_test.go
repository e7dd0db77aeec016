package parquet_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// writeRecords writes recs, of schema, with a RecordWriter and returns the
// file's bytes, or the first error.
func writeRecords(schema *arrow.Schema, recs ...arrow.RecordBatch) ([]byte, error) {
	return writeRecordsWith(amparquet.WriteConfig{}, schema, recs...)
}

// writeRecordsWith is writeRecords with cfg.
func writeRecordsWith(cfg amparquet.WriteConfig, schema *arrow.Schema, recs ...arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w, err := amparquet.NewRecordWriter(&buf, schema, cfg)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			w.Close()
			return nil, err
		}
	}
	err = w.Close()
	return buf.Bytes(), err
}

// readRecords reads every record of data with OpenRecordsReaderAt.
func readRecords(t *testing.T, data []byte) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{})
	require.NoError(t, err)
	defer rr.Release()
	var recs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, rr.Err())
	t.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	return rr.Schema(), recs
}

// oneTable is recs as one record of schema.
func oneTable(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, schema.NumFields())
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for i := range cols {
		var chunks []arrow.Array
		for _, r := range recs {
			chunks = append(chunks, r.Column(i))
		}
		if len(chunks) == 0 {
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, schema.Field(i).Type, 0)
			continue
		}
		var err error
		cols[i], err = array.Concatenate(chunks, memory.DefaultAllocator)
		require.NoError(t, err)
	}
	rec := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	t.Cleanup(rec.Release)
	return rec
}

// requireSameRecord checks that got holds want's values: array.Equal, or
// where the layouts may differ (a dictionary rebuilt, the children of a
// null struct row), the same value row by row as Arrow defines it.
func requireSameRecord(t *testing.T, want, got arrow.RecordBatch) {
	t.Helper()
	require.Equal(t, want.NumRows(), got.NumRows())
	for i := range int(want.NumCols()) {
		w, g := want.Column(i), got.Column(i)
		if array.Equal(w, g) {
			continue
		}
		for r := range w.Len() {
			require.True(t, arrowtest.SameValue(w, r, g, r), "column %s row %d: got %v, want %v", want.ColumnName(i), r, g, w)
		}
	}
}

func fromJSON(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

func TestEveryStorableArrowTypeRoundTripsThroughRecordWriter(t *testing.T) {
	dictOf := func(idx, val arrow.DataType) *arrow.DictionaryType {
		return &arrow.DictionaryType{IndexType: idx, ValueType: val}
	}
	tests := []struct {
		name string
		dt   arrow.DataType
		js   string
	}{
		{"duration", arrow.FixedWidthTypes.Duration_s, `[1, null, -7]`},
		{"date64 of whole days, before 1970 too", arrow.FixedWidthTypes.Date64, `[86400000, null, -172800000]`},
		{"time32[s]", arrow.FixedWidthTypes.Time32s, `[1, null, 86399]`},
		{"timestamp[s]", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Asia/Tokyo"}, `[1709287200, null, -1]`},
		{"large_string", arrow.BinaryTypes.LargeString, `["a", null, "bé"]`},
		{"utf8_view", arrow.BinaryTypes.StringView, `["short", null, "a string longer than twelve bytes"]`},
		{"binary_view", arrow.BinaryTypes.BinaryView, `["AAEC", null, ""]`},
		{"list_view", arrow.ListViewOf(arrow.PrimitiveTypes.Int32), `[[1, 2], null, [], [3]]`},
		{"large_list_view", arrow.LargeListViewOf(arrow.BinaryTypes.String), `[["a"], null, ["b", "c"]]`},
		{"decimal32", &arrow.Decimal32Type{Precision: 9, Scale: 2}, `["1234567.89", null, "-0.01"]`},
		{"decimal64", &arrow.Decimal64Type{Precision: 18, Scale: 3}, `["123456789012345.678", null, "-1"]`},
		{"decimal256 of 39 digits, in 17 bytes", &arrow.Decimal256Type{Precision: 39, Scale: 2}, `["1234567890123456789012345678901234567.89", null, "-0.01", "1.5"]`},
		{"month interval", arrow.FixedWidthTypes.MonthInterval, `[{"months": 1}, null, {"months": -13}]`},
		{"run-end encoded", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), `["a", "a", "b", null, null, "c"]`},
		{"run-end encoded with int16 run ends", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int64), `[7, 7, null, 8, 8, 8]`},
		{"run-end encoded with int64 run ends", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String), `["x", null, null, "y"]`},
		{"a dictionary with a null entry", dictOf(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String), `["a", null, "b", "a"]`},
		{"a dictionary of numbers", dictOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int64), `[5, null, 7, 5]`},
		{"a dictionary inside a list", arrow.ListOf(dictOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)), `[["x", "y"], null, ["x"]]`},
		{"a dictionary inside a struct", arrow.StructOf(arrow.Field{Name: "d", Type: dictOf(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String), Nullable: true}), `[{"d": "p"}, null, {"d": null}]`},
		{"a struct of views", arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.StringView, Nullable: true}, arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date64, Nullable: true}), `[{"s": "x", "d": 0}, null]`},
		{"a map of durations", arrow.MapOf(arrow.BinaryTypes.String, arrow.FixedWidthTypes.Duration_ms), `[[{"key": "a", "value": 1}], null]`},
		{"an extension type (arrow.uuid)", extensions.NewUUIDType(), `["f81d4fae-7dec-11d0-a765-00a0c91e6bf6", null]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			field := arrow.Field{Name: "c", Type: tt.dt, Nullable: true, Metadata: arrow.NewMetadata([]string{"k"}, []string{"v"})}
			meta := arrow.NewMetadata([]string{"pandas"}, []string{"{}"})
			schema := arrow.NewSchema([]arrow.Field{field}, &meta)
			col := fromJSON(t, tt.dt, tt.js)
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
			defer rec.Release()
			data, err := writeRecords(schema, rec)
			require.NoError(t, err)
			gotSchema, recs := readRecords(t, data)
			require.True(t, schema.Equal(gotSchema), "got %s\nwant %s", gotSchema, schema)
			require.True(t, meta.Equal(gotSchema.Metadata()), "schema metadata: %v", gotSchema.Metadata())
			got := oneTable(t, gotSchema, recs)
			if !array.RecordEqual(rec, got) {
				requireSameRecord(t, rec, got)
			}
			readSchema, err := amparquet.ReadSchema(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			require.True(t, schema.Equal(readSchema), "ReadSchema gives %s", readSchema)
		})
	}
}

func TestWhatParquetHasNoTypeForIsRefusedAtNewRecordWriterNamingTheColumn(t *testing.T) {
	union := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, []arrow.UnionTypeCode{0})
	for _, dt := range []arrow.DataType{union, arrow.FixedWidthTypes.DayTimeInterval, arrow.FixedWidthTypes.MonthDayNanoInterval, arrow.ListOf(arrow.FixedWidthTypes.DayTimeInterval)} {
		t.Run(dt.String(), func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "ok", Type: arrow.PrimitiveTypes.Int8}, {Name: "bad", Type: dt, Nullable: true}}, nil)
			var buf bytes.Buffer
			_, err := amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{})
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrUnsupported)
			require.Equal(t, "bad", me.Column)
			require.Zero(t, buf.Len(), "nothing written")
			if dt.ID() != arrow.SPARSE_UNION {
				require.ErrorContains(t, err, "unsigned months, days and milliseconds")
			}
		})
	}
}

// Arrow allows a decimal's scale to be negative or past its precision;
// Parquet's DECIMAL does not, and pqarrow panicked building its schema
// (convert of such an IPC file ended in "reading failed", naming no
// column).
func TestADecimalScaleParquetCannotHoldIsRefusedAtNewRecordWriterNamingTheColumn(t *testing.T) {
	for _, dt := range []arrow.DataType{
		&arrow.Decimal128Type{Precision: 38, Scale: -5},
		&arrow.Decimal128Type{Precision: 10, Scale: 12},
		&arrow.Decimal32Type{Precision: 5, Scale: -1},
		&arrow.Decimal256Type{Precision: 40, Scale: -2},
		&arrow.Decimal128Type{Precision: 0, Scale: 0},
		arrow.StructOf(arrow.Field{Name: "d", Type: arrow.ListOf(&arrow.Decimal128Type{Precision: 38, Scale: 39}), Nullable: true}),
	} {
		t.Run(dt.String(), func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "ok", Type: &arrow.Decimal128Type{Precision: 38, Scale: 38}}, {Name: "bad", Type: dt, Nullable: true}}, nil)
			var buf bytes.Buffer
			var err error
			require.NotPanics(t, func() { _, err = amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{}) })
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrUnsupported)
			require.Equal(t, "bad", me.Column)
			require.ErrorContains(t, err, "a scale from 0 to the precision")
			require.Zero(t, buf.Len(), "nothing written")
		})
	}
}

func TestADate64ThatIsNotAWholeDayIsRefusedNamingColumnAndRow(t *testing.T) {
	for _, tt := range []struct {
		name string
		js   string
	}{{"after 1970", `[0, 86400000, 86400001]`}, {"before 1970", `[0, 86400000, -1]`}} {
		t.Run(tt.name, func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "day", Type: arrow.FixedWidthTypes.Date64, Nullable: true}}, nil)
			first := fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 0]`)
			bad := fromJSON(t, arrow.FixedWidthTypes.Date64, tt.js)
			var buf bytes.Buffer
			w, err := amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{})
			require.NoError(t, err)
			r1 := array.NewRecordBatch(schema, []arrow.Array{first}, 2)
			defer r1.Release()
			r2 := array.NewRecordBatch(schema, []arrow.Array{bad}, 3)
			defer r2.Release()
			require.NoError(t, w.Write(r1))
			err = w.Write(r2)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			require.Equal(t, "day", me.Column)
			require.Equal(t, 4, me.Row, "counting from the first row written")
			require.NoError(t, w.Close())
			_, recs := readRecords(t, buf.Bytes())
			got := oneTable(t, schema, recs)
			require.True(t, array.RecordEqual(r1, got), "the file holds the rows before the refused record: %v", got)
		})
	}
}

func TestAListWhoseNullRowsHoldElementsRoundTrips(t *testing.T) {
	// Built by hand: a null row over elements 2..4.
	child := fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, 2, 3, 4, 5]`)
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 4, 5}))
	valid := memory.NewBufferBytes([]byte{0b101})
	d := array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), 3, []*memory.Buffer{valid, offsets}, []arrow.ArrayData{child.Data()}, 1, 0)
	list := array.MakeFromData(d)
	d.Release()
	defer list.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: list.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{list}, 3)
	defer rec.Release()
	data, err := writeRecords(schema, rec)
	require.NoError(t, err)
	gotSchema, recs := readRecords(t, data)
	require.True(t, schema.Equal(gotSchema))
	got := oneTable(t, gotSchema, recs).Column(0).(*array.List)
	require.True(t, got.IsNull(1), "the null row stays null")
	for _, r := range []int{0, 2} {
		require.True(t, arrowtest.SameValue(list, r, got, r), "row %d", r)
	}
}

func TestOtherReadersSeeTheStorageTypesWithTheirValues(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "day", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
		{Name: "at", Type: arrow.FixedWidthTypes.Timestamp_s, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.StringView, Nullable: true},
	}, nil)
	day := fromJSON(t, arrow.FixedWidthTypes.Date64, `[-86400000, 172800000]`)
	at := fromJSON(t, arrow.FixedWidthTypes.Timestamp_s, `[7, null]`)
	name := fromJSON(t, arrow.BinaryTypes.StringView, `["a", "b"]`)
	rec := array.NewRecordBatch(schema, []arrow.Array{day, at, name}, 2)
	defer rec.Release()
	data, err := writeRecords(schema, rec)
	require.NoError(t, err)

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	require.Equal(t, arrow.DATE32, tbl.Schema().Field(0).Type.ID())
	days := tbl.Column(0).Data().Chunk(0).(*array.Date32)
	require.Equal(t, []arrow.Date32{-1, 2}, days.Date32Values(), "date64 as DATE days")
	ts := tbl.Column(1).Data().Chunk(0).(*array.Timestamp)
	require.Equal(t, arrow.Millisecond, ts.DataType().(*arrow.TimestampType).Unit)
	require.Equal(t, arrow.Timestamp(7000), ts.Value(0), "timestamp[s] as TIMESTAMP(ms)")
	require.True(t, ts.IsNull(1))
	require.Equal(t, arrow.STRING, tbl.Schema().Field(2).Type.ID())
	require.Equal(t, `["a" "b"]`, tbl.Column(2).Data().Chunk(0).String())
}

type pinnedTypes struct {
	At     time.Time         `arrow:"at,timestamp,unit=s"`
	Day    time.Time         `arrow:"day,date64"`
	Clock  time.Duration     `arrow:"clock,time32,unit=s"`
	Wait   time.Duration     `arrow:"wait"`
	Small  decimal.Decimal32 `arrow:"small,decimal(9,2)"`
	Medium decimal.Decimal64 `arrow:"medium,decimal(18,4)"`
	Name   string            `arrow:"name,utf8_view"`
	IDs    []int64           `arrow:"ids,list_view"`
	City   string            `arrow:"city,ree"`
	Tags   []string          `arrow:"tags" arrow-elem:"dict"`
}

func TestWriteFileReadFileRoundTripsPinnedTypes(t *testing.T) {
	rows := []pinnedTypes{
		{At: time.Unix(1700000000, 0).UTC(), Day: time.Date(1969, 7, 20, 0, 0, 0, 0, time.UTC), Clock: 3 * time.Hour, Wait: time.Minute,
			Small: decimal.Decimal32(12345), Medium: decimal.Decimal64(-9), Name: "a string longer than twelve bytes", IDs: []int64{1, 2}, City: "Oslo", Tags: []string{"x", "y"}},
		{At: time.Unix(0, 0).UTC(), Day: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), City: "Oslo", Tags: []string{"x"}},
	}
	path := filepath.Join(t.TempDir(), "pinned.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{}))
	got, err := amparquet.ReadFile[pinnedTypes](path)
	require.NoError(t, err)
	require.Equal(t, rows, got)

	want, err := mapper.SchemaOf[pinnedTypes]()
	require.NoError(t, err)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	info, err := f.Stat()
	require.NoError(t, err)
	sc, err := amparquet.ReadSchema(f, info.Size())
	require.NoError(t, err)
	require.True(t, want.Equal(sc), "ReadSchema gives %s\nwant %s", sc, want)
}

// refusedFiles are the Arrow integration files that Parquet cannot hold,
// by the column the writer names and the row (-1 when the schema is
// refused): unions and signed intervals have no Parquet type, and the
// generator's date64 values are not whole days and its decimals have more
// digits than their precision (which the Arrow spec forbids).
var refusedFiles = map[string]struct {
	column string
	row    int
}{
	"generated_union.arrow_file":      {"sparse", -1},
	"generated_interval.arrow_file":   {"f6", -1},
	"generated_datetime.arrow_file":   {"f1", 2},
	"generated_decimal.arrow_file":    {"f0", 0},
	"generated_decimal256.arrow_file": {"f0", 1},
}

func TestEveryArrowIntegrationFileRoundTripsOrIsRefusedNamingTheColumn(t *testing.T) {
	files, err := filepath.Glob("../testdata/arrow-integration/1.0.0-littleendian/*.arrow_file")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			r, err := ipc.NewFileReader(f)
			require.NoError(t, err)
			defer r.Close()
			var recs []arrow.RecordBatch
			for i := range r.NumRecords() {
				rec, err := r.RecordBatchAt(i)
				require.NoError(t, err)
				t.Cleanup(rec.Release)
				recs = append(recs, rec)
			}
			data, err := writeRecords(r.Schema(), recs...)
			want, refused := refusedFiles[name]
			if refused {
				require.Error(t, err, "a refused file now converts: take it out of refusedFiles")
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				require.Equal(t, want.column, me.Column)
				require.Equal(t, want.row, me.Row)
				require.True(t, errors.Is(err, mapper.ErrUnsupported) || errors.Is(err, mapper.ErrInvalidData), "%v", err)
				return
			}
			require.NoError(t, err)
			gotSchema, got := readRecords(t, data)
			require.True(t, r.Schema().Equal(gotSchema), "got %s\nwant %s", gotSchema, r.Schema())
			require.True(t, r.Schema().Metadata().Equal(gotSchema.Metadata()), "schema metadata %v", gotSchema.Metadata())
			requireSameRecord(t, oneTable(t, r.Schema(), recs), oneTable(t, gotSchema, got))
		})
	}
}

// A file pqarrow writes with its Arrow schema stored and its timestamps
// coerced to another unit (WithCoerceTimestamps, as pyarrow's
// coerce_timestamps) reads in the unit the file holds, with the values and
// the type pqarrow's own reader gives, as arrow-cpp reads it; a date64,
// which Parquet holds in days however it is written, reads as written.
func TestATimestampItsWriterCoercedReadsInTheUnitTheFileHolds(t *testing.T) {
	tsNs := &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ns", Type: tsNs, Nullable: true},
		{Name: "s", Type: arrow.FixedWidthTypes.Timestamp_s, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
	}, nil)
	cols := []arrow.Array{
		fromJSON(t, tsNs, `[1700000000123456000, null, -1000]`),
		fromJSON(t, arrow.FixedWidthTypes.Timestamp_s, `[1700000000, -5, null]`),
		fromJSON(t, arrow.FixedWidthTypes.Date64, `[-86400000, null, 172800000]`),
	}
	rec := array.NewRecordBatch(schema, cols, 3)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "coerced.parquet")
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := pqarrow.NewFileWriter(schema, f, nil,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithCoerceTimestamps(arrow.Microsecond)))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())

	theirs := readWithPqarrow(t, path)
	defer theirs.Release()
	require.Equal(t, arrow.Microsecond, theirs.Column(0).DataType().(*arrow.TimestampType).Unit, "pqarrow reads the unit the file holds")

	rr, err := amparquet.OpenRecords(path)
	require.NoError(t, err)
	defer rr.Release()
	require.True(t, rr.Next(), "%v", rr.Err())
	got := rr.RecordBatch()
	for i := range 2 { // both timestamps coerced to microseconds
		require.True(t, arrow.TypeEqual(theirs.Column(i).DataType(), got.Column(i).DataType()), "%s", got.Column(i).DataType())
		require.True(t, array.Equal(theirs.Column(i), got.Column(i)), "%s", got.Column(i))
	}
	require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.Date64, got.Column(2).DataType()), "%s", got.Column(2).DataType())
	require.True(t, array.Equal(cols[2], got.Column(2)), "%s", got.Column(2))
	require.False(t, rr.Next())
	require.NoError(t, rr.Err())

	type row struct {
		NS  *time.Time `arrow:"ns"`
		S   *time.Time `arrow:"s"`
		Day *time.Time `arrow:"day"`
	}
	rows, err := amparquet.ReadFile[row](path)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	require.True(t, time.Unix(1700000000, 123456000).Equal(*rows[0].NS), "%s", rows[0].NS)
	require.True(t, time.Unix(-5, 0).Equal(*rows[1].S), "%s", rows[1].S)
	require.True(t, time.Unix(2*86400, 0).Equal(*rows[2].Day), "%s", rows[2].Day)
}
