package parquet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
)

// A date, a time of day or a timestamp converts to every other unit or
// width of its kind exactly: a value whole in the new tick that fits its
// width converts to what arrow-go's safe cast gives, any other is
// ErrInvalidData naming its row, whatever the ticks (date32's day,
// date64's millisecond, each unit) and widths, nulls kept. (arrow-go's
// cast of time32[s] to time32[ms] wraps where a value overflows: the
// expected result is worked out exactly, and arrow-go's is compared where
// it is whole and fits.)
func TestATimeConvertsToAnotherTickOfItsKindExactlyOrIsInvalidData(t *testing.T) {
	kinds := [][]arrow.DataType{
		{arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64},
		{arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns},
		{&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"},
			&arrow.TimestampType{Unit: arrow.Microsecond}, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
	}
	values := map[arrow.Type][]int64{
		arrow.DATE32:    {0, 1, -1, 20_000, math.MaxInt32, math.MinInt32},
		arrow.DATE64:    {0, 86_400_000, -86_400_000, 86_400_001, 1, -1, 86_400_000 * math.MaxInt32},
		arrow.TIME32:    {0, 1, 86_399, 86_399_999, 1_000, math.MaxInt32},
		arrow.TIME64:    {0, 1_000, 86_399_999_999, 1_000_000_000, 86_399_999_999_999, 1, math.MaxInt64},
		arrow.TIMESTAMP: {0, 1_000_000_000, -1, 1_700_000_000_123, math.MaxInt64 / 2, math.MinInt64 + 1, 9_223_372_036, -9_223_372_037},
	}
	// nsPerTick is the length of a value of dt, in nanoseconds.
	nsPerTick := func(dt arrow.DataType) int64 {
		switch dt := dt.(type) {
		case *arrow.Date32Type:
			return 86_400 * 1e9
		case *arrow.Date64Type:
			return 1e6
		case arrow.TemporalWithUnit:
			return int64(dt.TimeUnit().Multiplier())
		}
		t.Fatalf("no tick of %s", dt)
		return 0
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, kind := range kinds {
		for _, from := range kind {
			for _, to := range kind {
				t.Run(fmt.Sprintf("%s to %s", from, to), func(t *testing.T) {
					for _, x := range values[from.ID()] {
						if from.(arrow.FixedWidthDataType).BitWidth() == 32 && int64(int32(x)) != x {
							continue
						}
						ns := new(big.Int).Mul(big.NewInt(x), big.NewInt(nsPerTick(from)))
						q, r := new(big.Int).QuoRem(ns, big.NewInt(nsPerTick(to)), new(big.Int))
						fits := q.IsInt64() && (to.(arrow.FixedWidthDataType).BitWidth() == 64 || int64(int32(q.Int64())) == q.Int64())
						a := arrowtest.Ints(mem, from, []int64{0, x}, true)
						defer a.Release()
						got, err := convertArray(a, to, mem)
						if r.Sign() != 0 || !fits {
							require.Error(t, err, "%d %s is %s %s, remainder %s", x, from, q, to, r)
							assert.True(t, errors.Is(err, mapper.ErrInvalidData), "%d: %v", x, err)
							var re *rowError
							if assert.ErrorAs(t, err, &re) {
								assert.Equal(t, 1, re.row, "the row of the value, after a null")
							}
							continue
						}
						require.NoError(t, err, "%d %s is %s %s", x, from, q, to)
						defer got.Release()
						assert.True(t, arrow.TypeEqual(to, got.DataType()), "%s", got.DataType())
						assert.True(t, got.IsNull(0), "the null stays null")
						want, castErr := compute.CastArray(compute.WithAllocator(context.Background(), mem), a, compute.SafeCastOptions(to))
						require.NoError(t, castErr, "%d: arrow-go's safe cast", x)
						defer want.Release()
						assert.True(t, array.Equal(want, got), "%d: %s, arrow-go's %s", x, got, want)
					}
				})
			}
		}
	}
}
