package mapper_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

type allocFlat struct {
	ID     int64     `arrow:"id"`
	Small  int32     `arrow:"small"`
	Price  float64   `arrow:"price"`
	OK     bool      `arrow:"ok"`
	Name   string    `arrow:"name"`
	Note   *string   `arrow:"note"`
	At     time.Time `arrow:"at"`
	Weight float32   `arrow:"weight"`
}

func allocFlatRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "small", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}},
		{Name: "weight", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int32Builder).Append(int32(-i))
		b.Field(2).(*array.Float64Builder).Append(float64(i) / 8)
		b.Field(3).(*array.BooleanBuilder).Append(i%2 == 0)
		b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i))
		if i%4 == 0 {
			b.Field(5).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(5).(*array.StringBuilder).Append("a note")
		}
		b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1000))
		b.Field(7).(*array.Float32Builder).Append(float32(i))
	}
	return b.NewRecordBatch()
}

type allocLine struct {
	SKU   string  `arrow:"sku"`
	Price float64 `arrow:"price"`
}

type allocNested struct {
	ID      int64       `arrow:"id"`
	Tags    []string    `arrow:"tags"`
	Lines   []allocLine `arrow:"lines"`
	Weights []float32   `arrow:"weights"`
}

func allocNestedRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	line := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "lines", Type: arrow.ListOf(line)},
		{Name: "weights", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		tags := b.Field(1).(*array.ListBuilder)
		if i%7 == 0 {
			tags.AppendNull()
		} else {
			tags.Append(true)
			for k := range i % 3 {
				tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("tag-%d", k))
			}
		}
		lines := b.Field(2).(*array.ListBuilder)
		lines.Append(true)
		sb := lines.ValueBuilder().(*array.StructBuilder)
		for k := range i % 4 {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append(fmt.Sprintf("sku-%d-%d", i, k))
			sb.FieldBuilder(1).(*array.Float64Builder).Append(float64(k) + 0.5)
		}
		weights := b.Field(3).(*array.ListBuilder)
		weights.Append(true)
		for k := range i % 5 {
			weights.ValueBuilder().(*array.Float32Builder).Append(float32(k))
		}
	}
	return b.NewRecordBatch()
}

// allocsOfDecode counts the allocations of decoding rec with m: all of
// Mapper.Decode (viewing included), and Batch.Append into a slice that
// already has room.
func allocsOfDecode[T any](t *testing.T, m *mapper.Mapper[T], rec arrow.RecordBatch) (decode, appendInPlace float64) {
	t.Helper()
	rows, err := m.Decode(rec)
	require.NoError(t, err)
	require.Len(t, rows, int(rec.NumRows()))
	b, err := m.View(rec)
	require.NoError(t, err)
	dst := make([]T, 0, rec.NumRows())
	decode = fewestAllocs(func() {
		if _, err := m.Decode(rec); err != nil {
			panic(err)
		}
	})
	appendInPlace = fewestAllocs(func() { dst = b.Append(dst[:0]) })
	require.Equal(t, rows, dst)
	return decode, appendInPlace
}

// fewestAllocs is the fewest allocations per call of f in three rounds of
// testing.AllocsPerRun. It counts the whole process's allocations, so a
// background goroutine (a GC worker, a test's leftovers) can add to one
// round, under -race and a loaded machine most of all; none can take away.
func fewestAllocs(f func()) float64 {
	fewest := testing.AllocsPerRun(5, f)
	for range 2 {
		fewest = min(fewest, testing.AllocsPerRun(5, f))
	}
	return fewest
}

func TestAllocationsDoNotGrowWithRows(t *testing.T) {
	tests := []struct {
		name  string
		count func(t *testing.T, mem memory.Allocator, n int) (decode, appendInPlace float64)
	}{
		{"decoding a flat struct allocates per column, not per row", func(t *testing.T, mem memory.Allocator, n int) (float64, float64) {
			rec := allocFlatRecord(mem, n)
			defer rec.Release()
			m, err := mapper.New[allocFlat](rec.Schema())
			require.NoError(t, err)
			return allocsOfDecode(t, m, rec)
		}},
		{"decoding a nested struct allocates per column, not per row", func(t *testing.T, mem memory.Allocator, n int) (float64, float64) {
			rec := allocNestedRecord(mem, n)
			defer rec.Release()
			m, err := mapper.New[allocNested](rec.Schema())
			require.NoError(t, err)
			return allocsOfDecode(t, m, rec)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			smallDecode, smallAppend := tc.count(t, mem, 1_000)
			bigDecode, bigAppend := tc.count(t, mem, 100_000)
			t.Logf("allocations: Mapper.Decode %v at 1k rows, %v at 100k; Batch.Append in place %v at 1k, %v at 100k",
				smallDecode, bigDecode, smallAppend, bigAppend)
			require.Equal(t, smallDecode, bigDecode, "Mapper.Decode")
			require.Equal(t, smallAppend, bigAppend, "Batch.Append")
		})
	}
}

var fxSinkBatch mapper.Batch[allocNested]

func TestBatchSliceDoesNotAllocate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := allocNestedRecord(mem, 1_000)
	defer rec.Release()
	m, err := mapper.New[allocNested](rec.Schema())
	require.NoError(t, err)
	b, err := m.View(rec)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		fxSinkBatch = b.Slice(10, 990).Slice(5, 900).Slice(100, 200)
	})
	require.Zero(t, allocs)
	require.Equal(t, 100, fxSinkBatch.Len())
	full, err := m.Decode(rec)
	require.NoError(t, err)
	require.Equal(t, full[115:215], fxSinkBatch.Append(nil))
}
