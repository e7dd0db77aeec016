package mapper_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runRow is a row of 4 KiB, its padding no column's: ReadAll's 64 MiB of
// rows are 16,384 of them, so that the tests meet the limit's edges
// decoding few rows.
type runRow struct {
	V   int64      `arrow:"v"`
	Pad [4088]byte `arrow:"-"`
}

// runRecord is a record of one run-end-encoded int64 column "v" of one
// run of n rows of 7: 16 bytes of buffers, whatever n.
func runRecord(n int64) arrow.RecordBatch {
	ends := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{n}))}, nil, 0, 0))
	defer ends.Release()
	values := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{7}))}, nil, 0, 0))
	defer values.Release()
	col := array.NewRunEndEncodedArray(ends, values, int(n), 0)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: col.DataType()}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, n)
}

// readAllOf reads recs with ReadAll, with opts.
func readAllOf[T any](t *testing.T, recs []arrow.RecordBatch, opts ...mapper.ReadOption) ([]T, error) {
	t.Helper()
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewReader[T](rr, opts...)
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.Equal(t, err, r.Err(), "the error that ended reading")
	return rows, err
}

func release(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

// runLimit is the runRow rows ReadAll holds for records of 16 bytes each,
// k of them, with ratio bytes a byte: 64 MiB + ratio × 16k bytes.
func runLimit(k, ratio int64) int64 { return (64<<20 + ratio*16*k) / 4096 }

func TestReadAllHoldsRowsUpToItsLimitAndRefusesARowMore(t *testing.T) {
	tests := []struct {
		name  string
		rows  int64
		opts  []mapper.ReadOption
		error bool
	}{
		{"a record of the limit's rows is read", runLimit(1, 64), nil, false},
		{"a row more is refused", runLimit(1, 64) + 1, nil, true},
		{"MaxExpansion raises the limit", runLimit(1, 1<<16), []mapper.ReadOption{mapper.MaxExpansion(1 << 16)}, false},
		{"MaxExpansion refuses a row past its limit", runLimit(1, 1<<16) + 1, []mapper.ReadOption{mapper.MaxExpansion(1 << 16)}, true},
		{"MaxExpansion of 0 is the default", runLimit(1, 64) + 1, []mapper.ReadOption{mapper.MaxExpansion(0)}, true},
		{"MaxExpansion of math.MaxInt lifts the limit", runLimit(1, 64) + 1, []mapper.ReadOption{mapper.MaxExpansion(math.MaxInt)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := []arrow.RecordBatch{runRecord(tt.rows)}
			defer release(recs)
			rows, err := readAllOf[runRow](t, recs, tt.opts...)
			if !tt.error {
				require.NoError(t, err)
				require.Len(t, rows, int(tt.rows))
				assert.Equal(t, int64(7), rows[len(rows)-1].V)
				return
			}
			require.ErrorIs(t, err, mapper.ErrTooLarge)
			assert.Empty(t, rows)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, 0, e.Row)
			assert.Equal(t, 0, e.Record)
			assert.Contains(t, err.Error(), fmt.Sprintf("%d rows of mapper_test.runRow (4096 bytes each)", tt.rows))
		})
	}
}

func TestReadAllCountsTheBytesOfEveryRecordReadAndNamesTheRecordPastTheLimit(t *testing.T) {
	// Records of 2,048 rows and 16 bytes each: the eighth is within
	// 64 MiB + 64 × 128 bytes of rows, the ninth past 64 MiB + 64 × 144.
	var recs []arrow.RecordBatch
	for range 12 {
		recs = append(recs, runRecord(2048))
	}
	defer release(recs)
	rows, err := readAllOf[runRow](t, recs)
	require.ErrorIs(t, err, mapper.ErrTooLarge)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 8, e.Record)
	assert.Equal(t, 8*2048, e.Row)
	assert.Len(t, rows, 8*2048, "the rows of the records before")
	assert.Contains(t, err.Error(), "after 16384 held, for the 144 bytes of the records read")

	// Reading them in pages holds a page, whatever they claim.
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewReader[runRow](rr)
	require.NoError(t, err)
	defer r.Release()
	n := 0
	for page, err := range r.Pages(1000) {
		require.NoError(t, err)
		n += len(page)
	}
	assert.Equal(t, 12*2048, n)
}

func TestReadAllHoldsTheRowsOfNullColumnsUpToItsFloorOrAllWithMaxExpansionOfMaxInt(t *testing.T) {
	type nullRow struct {
		V   mapper.Null `arrow:"v"`
		Pad [4096]byte  `arrow:"-"` // 16,384 rows of it are 64 MiB
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.Null, Nullable: true}}, nil)
	record := func(n int) []arrow.RecordBatch {
		null := array.NewNull(n)
		defer null.Release()
		return []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{null}, int64(n))}
	}
	floor := record(16384)
	defer release(floor)
	rows, err := readAllOf[nullRow](t, floor)
	require.NoError(t, err)
	assert.Len(t, rows, 16384)

	past := record(16384 + 1)
	defer release(past)
	_, err = readAllOf[nullRow](t, past, mapper.MaxExpansion(1<<40))
	require.ErrorIs(t, err, mapper.ErrTooLarge, "no ratio raises what no bytes back")
	rows, err = readAllOf[nullRow](t, past, mapper.MaxExpansion(math.MaxInt))
	require.NoError(t, err)
	assert.Len(t, rows, 16384+1)
}

func TestReadAllRefusesTrillionsOfRowsInAFewBytesBeforeAllocatingThem(t *testing.T) {
	type nullRow struct {
		V mapper.Null `arrow:"v"`
	}
	null := array.NewNull(1 << 40)
	defer null.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.Null, Nullable: true}}, nil)
	nulls := array.NewRecordBatch(schema, []arrow.Array{null}, 1<<40)
	defer nulls.Release()
	_, err := readAllOf[nullRow](t, []arrow.RecordBatch{nulls})
	require.ErrorIs(t, err, mapper.ErrTooLarge, "a null column")

	run := runRecord(1 << 40)
	defer run.Release()
	_, err = readAllOf[runRow](t, []arrow.RecordBatch{run})
	require.ErrorIs(t, err, mapper.ErrTooLarge, "a run-end-encoded column")
}

func TestReadAllReadsPastItsFloorEightBooleansAByteAndAnInt8DictionaryIndexAByte(t *testing.T) {
	// Past the 64 MiB of rows any record may claim, within 64 bytes of
	// rows a byte of the record: tens of millions of rows of a byte.
	racetest.Skip(t, "77 million rows take minutes under the race detector")
	type boolRow struct {
		Ok bool `arrow:"ok"`
	}
	type cityRow struct {
		City string `arrow:"city"`
	}
	const bools, cities = 72 << 20, 5 << 20
	bits := make([]byte, bools/8)
	for i := range bits {
		bits[i] = 0x55
	}
	okCol := array.NewBooleanData(array.NewData(arrow.FixedWidthTypes.Boolean, bools, []*memory.Buffer{nil, memory.NewBufferBytes(bits)}, nil, 0, 0))
	defer okCol.Release()
	indices := make([]byte, cities)
	for i := range indices {
		indices[i] = byte(i % 2)
	}
	names := array.NewStringBuilder(memory.DefaultAllocator)
	names.AppendValues([]string{"Oslo", "Lima"}, nil)
	dict := names.NewArray()
	names.Release()
	defer dict.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	idx := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, cities, []*memory.Buffer{nil, memory.NewBufferBytes(indices)}, nil, 0, 0))
	defer idx.Release()
	cityCol := array.NewDictionaryArray(dt, idx, dict)
	defer cityCol.Release()

	okRec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "ok", Type: okCol.DataType()}}, nil), []arrow.Array{okCol}, bools)
	defer okRec.Release()
	oks, err := readAllOf[boolRow](t, []arrow.RecordBatch{okRec})
	require.NoError(t, err)
	require.Len(t, oks, bools)
	assert.Equal(t, []boolRow{{true}, {false}}, oks[bools-2:]) // 0x55: the even rows true

	cityRec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "city", Type: dt}}, nil), []arrow.Array{cityCol}, cities)
	defer cityRec.Release()
	got, err := readAllOf[cityRow](t, []arrow.RecordBatch{cityRec})
	require.NoError(t, err)
	require.Len(t, got, cities)
	assert.Equal(t, []cityRow{{"Oslo"}, {"Lima"}}, got[cities-2:])
}
