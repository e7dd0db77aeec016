package pagewriter

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDistinctHashesCountsWithinAFewPercent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var bitmap []uint64
	for _, distinct := range []int{0, 1, 2, 10, 1000, 100_000, 1_000_000} {
		values := make([]uint64, distinct)
		for i := range values {
			values[i] = r.Uint64()
		}
		hashes := append([]uint64(nil), values...)
		for range distinct { // every value about twice
			if distinct > 0 {
				hashes = append(hashes, values[r.IntN(distinct)])
			}
		}
		got := float64(distinctHashes(hashes, &bitmap))
		require.InDelta(t, float64(distinct), got, 0.03*float64(distinct)+1, "%d distinct values of %d hashes (seed 7)", distinct, len(hashes))
	}
	saturated := make([]uint64, distinctBits)
	for i := range saturated {
		saturated[i] = uint64(i)
	}
	require.Equal(t, uint32(1<<32-1), distinctHashes(saturated, &bitmap), "every bit set: past what a filter holds")
}
