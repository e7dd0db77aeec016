package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/require"
)

type intervalRow struct {
	M  arrow.MonthInterval                   `arrow:"m"`
	D  *arrow.DayTimeInterval                `arrow:"d"`
	N  arrow.MonthDayNanoInterval            `arrow:"n,nullable"`
	L  []arrow.MonthDayNanoInterval          `arrow:"l"`
	K  map[arrow.DayTimeInterval]string      `arrow:"k"`
	NN *arrow.MonthDayNanoInterval           `arrow:"nn"`
	_  struct{}                              `arrow:"-"`
	X  map[string]arrow.MonthDayNanoInterval `arrow:"x"`
}

type intervalColumns struct {
	N views.PrimitiveColumn[arrow.MonthDayNanoInterval] `arrow:"n,nullable"`
	M views.PrimitiveColumn[arrow.MonthInterval]        `arrow:"m"`
}

func intervalRows() []intervalRow {
	mdn := func(m, d int32, ns int64) arrow.MonthDayNanoInterval {
		return arrow.MonthDayNanoInterval{Months: m, Days: d, Nanoseconds: ns}
	}
	dt := func(d, ms int32) arrow.DayTimeInterval { return arrow.DayTimeInterval{Days: d, Milliseconds: ms} }
	return []intervalRow{
		{M: 14, D: &arrow.DayTimeInterval{Days: 1, Milliseconds: 500}, N: mdn(1, 2, 3), L: []arrow.MonthDayNanoInterval{mdn(0, 0, -1), mdn(-5, 3, 1<<40)},
			K: map[arrow.DayTimeInterval]string{dt(2, 0): "b", dt(1, 9): "a"}, NN: &arrow.MonthDayNanoInterval{Months: 7}, X: map[string]arrow.MonthDayNanoInterval{"q": mdn(1, 1, 1)}},
		{M: -3},
		{M: 0, D: &arrow.DayTimeInterval{Days: -2, Milliseconds: -1}, L: []arrow.MonthDayNanoInterval{}},
		{M: 1 << 30, N: mdn(-1, -1, -1), L: []arrow.MonthDayNanoInterval{mdn(12, 31, 86_400_000_000_000)}},
		{M: 5, N: mdn(2, 0, 0)},
	}
}

func TestIntervals(t *testing.T) {
	fxRun(t, []fxCase{
		{"intervals encode to their Arrow types and decode back, nulls, lists and map keys included", func(t *testing.T, mem memory.Allocator) {
			rows := intervalRows()
			rec, err := mapper.Encode(rows, mapper.Allocator(mem))
			require.NoError(t, err)
			defer rec.Release()
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.MonthInterval, rec.Column(0).DataType()))
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.DayTimeInterval, rec.Column(1).DataType()))
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.MonthDayNanoInterval, rec.Column(2).DataType()))
			// Checked against arrow-go's own accessors.
			require.Equal(t, arrow.MonthInterval(14), rec.Column(0).(*array.MonthInterval).Value(0))
			require.True(t, rec.Column(1).IsNull(1))
			require.Equal(t, arrow.DayTimeInterval{Days: -2, Milliseconds: -1}, rec.Column(1).(*array.DayTimeInterval).Value(2))
			require.Equal(t, rows[3].N, rec.Column(2).(*array.MonthDayNanoInterval).Value(3))
			require.True(t, rec.Column(5).IsNull(1), "a nil interval pointer is null")
			require.Equal(t, rows, fxDecodeAll[intervalRow](t, rec))
			cols, err := mapper.Columns[intervalColumns](rec)
			require.NoError(t, err)
			require.Equal(t, rows[3].N, cols.N.Value(3))
			require.False(t, cols.N.IsNull(1), "a zero value is written as a value")
			require.Equal(t, arrow.MonthInterval(1<<30), cols.M.Value(3))
		}},
		{"an interval reads its own interval type only", func(t *testing.T, mem memory.Allocator) {
			for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.DayTimeInterval, arrow.FixedWidthTypes.MonthDayNanoInterval, arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Duration_s} {
				_, err := mapper.New[struct {
					M arrow.MonthInterval `arrow:"m"`
				}](fxSchema("m", dt))
				fxRequireError(t, err, mapper.ErrTypeMismatch, "M", "m", -1)
			}
			_, err := mapper.New[struct {
				M int32 `arrow:"m"`
			}](fxSchema("m", arrow.FixedWidthTypes.MonthInterval))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "M", "m", -1)
		}},
	})
}
