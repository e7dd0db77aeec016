package views

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveDecrease is firstDecrease written the obvious way.
func naiveDecrease[O int32 | int64](o []O) int {
	for i := 0; i+1 < len(o); i++ {
		if o[i+1] < o[i] {
			return i
		}
	}
	return -1
}

// TestFirstDecreaseAgreesWithTheObviousLoop covers every length up to a few
// chunks, a decrease at every position, several decreases, equal runs and
// the int32 extremes whose difference overflows.
func TestFirstDecreaseAgreesWithTheObviousLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		up := make([]int32, n)
		for i := 1; i < n; i++ {
			up[i] = up[i-1] + int32(r.IntN(3)) // equal steps included
		}
		if got := firstDecrease(up); got != -1 {
			t.Fatalf("n=%d: non-decreasing offsets: got %d", n, got)
		}
		for at := 1; at < n; at++ {
			for _, bad := range []int32{up[at-1] - 1, math.MinInt32, -1} {
				o := append([]int32(nil), up...)
				o[at] = bad
				if got, want := firstDecrease(o), naiveDecrease(o); got != want || want != at-1 {
					t.Fatalf("n=%d at=%d bad=%d: got %d, want %d", n, at, bad, got, want)
				}
			}
			// A second decrease later must not hide the first.
			o := append([]int32(nil), up...)
			o[at] = up[at-1] - 1
			o[n-1] = math.MinInt32
			if got, want := firstDecrease(o), naiveDecrease(o); got != want {
				t.Fatalf("n=%d at=%d, two decreases: got %d, want %d", n, at, got, want)
			}
		}
	}
	// Extremes: a jump from MaxInt32 to MinInt32 is a decrease, not an
	// overflowing difference.
	o := []int32{0, math.MaxInt32, math.MinInt32, 0, 0, 0, 0, 0, 0, 0}
	if got := firstDecrease(o); got != 1 {
		t.Fatalf("MaxInt32 then MinInt32: got %d, want 1", got)
	}
	large := []int64{0, math.MaxInt64, math.MinInt64, 0, 0, 0, 0, 0, 0, 0, 0}
	if got := firstDecrease(large); got != 1 {
		t.Fatalf("MaxInt64 then MinInt64: got %d, want 1", got)
	}
	for range 2000 {
		o := make([]int64, r.IntN(100))
		for i := range o {
			o[i] = int64(r.IntN(50)) + int64(i)*int64(r.IntN(2))
		}
		if got, want := firstDecrease(o), naiveDecrease(o); got != want {
			t.Fatalf("%v: got %d, want %d", o, got, want)
		}
	}
}
