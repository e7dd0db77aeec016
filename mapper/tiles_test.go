package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// TestDecodeAgreesWithAReferenceDecoderInSmallTiles runs the property
// cases with tiles of 3 rows, so that the in-place columns cross many tile
// boundaries inside every record and every window.
func TestDecodeAgreesWithAReferenceDecoderInSmallTiles(t *testing.T) {
	seed := propertySeedFor(t)
	for i := range 300 {
		if msg := runDecodeCase(seed, i, mapper.TileRows(3)); msg != "" {
			t.Fatalf("seed %d, case %d fails in tiles of 3 rows:\n%s", seed, i, msg)
		}
	}
}

// tiledRow has in-place fields (numbers, bools, times, a nullable int)
// next to fields decoded over the whole window (strings, pointers).
type tiledRow struct {
	ID    int64     `arrow:"id"`
	Qty   int64     `arrow:"qty,nullable"`
	OK    bool      `arrow:"ok"`
	At    time.Time `arrow:"at"`
	Name  string    `arrow:"name"`
	Score *float64  `arrow:"score"`
}

// TestAppendIntoReusedRowsClearsEveryTile appends into rows full of stale
// values, serially and on goroutines, in tiles of 7 rows: null rows come
// out zero in every field, and the rows equal a fresh decode.
func TestAppendIntoReusedRowsClearsEveryTile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 10_000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%3 == 0 {
			b.Field(1).(*array.Int64Builder).AppendNull()
			b.Field(5).(*array.Float64Builder).AppendNull()
		} else {
			b.Field(1).(*array.Int64Builder).Append(int64(i * 10))
			b.Field(5).(*array.Float64Builder).Append(float64(i) / 4)
		}
		b.Field(2).(*array.BooleanBuilder).Append(i%2 == 0)
		b.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1e6))
		b.Field(4).(*array.StringBuilder).Append("n" + string(rune('a'+i%26)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	want, err := mapper.Decode[tiledRow](rec)
	require.NoError(t, err)

	stale := 1.5
	for _, p := range []int{1, 2, 3} {
		dst := make([]tiledRow, n)
		for i := range dst {
			dst[i] = tiledRow{ID: -1, Qty: -1, OK: true, At: time.Unix(1, 0), Name: "stale", Score: &stale}
		}
		m, err := mapper.New[tiledRow](schema, mapper.Parallelism(p), mapper.TileRows(7))
		require.NoError(t, err)
		require.Equal(t, 7, mapper.TileRowsOf(m), "the tiles the test is about")
		got, err := m.Append(dst[:0], rec)
		require.NoError(t, err)
		require.Equal(t, want, got, "Parallelism(%d)", p)
		for i := 0; i < n; i += 3 {
			require.Zero(t, got[i].Qty, "row %d", i)
			require.Nil(t, got[i].Score, "row %d", i)
		}
	}
}
