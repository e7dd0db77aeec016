package pagewriter

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// appendHybrid appends no more than hybridBound of any values: runs long
// and short, of every width, including the worst, runs of 8 equal values
// between single values.
func TestTheHybridEncodingStaysWithinItsBound(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 9))
	for width := 1; width <= 32; width++ {
		top := uint32(1<<width - 1)
		for range 50 {
			var vals []uint32
			for len(vals) < r.IntN(5000) {
				v := r.Uint32() & top
				for range []int{1, 8, 9, 15, r.IntN(100)}[r.IntN(5)] {
					vals = append(vals, v)
				}
			}
			got := appendHybrid(nil, vals, width)
			require.LessOrEqual(t, len(got), hybridBound(len(vals), width), "width %d, %d values", width, len(vals))
		}
		worst := make([]uint32, 0, 9*100)
		for k := range 100 {
			worst = append(worst, uint32(k)&top)
			for range 8 {
				worst = append(worst, top)
			}
		}
		require.LessOrEqual(t, len(appendHybrid(nil, worst, width)), hybridBound(len(worst), width), "width %d, runs of 8 between values", width)
	}
}
