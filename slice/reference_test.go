package slice

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The brute-force model the property tests compare against: validity is a
// []bool, a set of rows is a []bool indexed by row, and every answer is a
// loop over single rows.

// seed is fixed so that a failure reproduces; every property test logs it.
const seed = 0x5eed_a770

// newRand is the seeded source of one property test.
func newRand(t *testing.T) *rand.Rand {
	t.Helper()
	t.Logf("seed %#x", seed)
	return rand.New(rand.NewPCG(seed, seed))
}

// randomBitmap is an n-row bitmap at a random bit offset in [0, maxOffset],
// with the validity it encodes. One in six is nil Bits (every row valid, the
// offset ignored). Densities run from all-null to all-valid so the byte and
// word fast paths see full, empty and mixed bytes.
func randomBitmap(rng *rand.Rand, n, maxOffset int) (Bitmap, []bool) {
	valid := make([]bool, n)
	off := rng.IntN(maxOffset + 1)
	if rng.IntN(6) == 0 {
		for i := range valid {
			valid[i] = true
		}
		return Bitmap{Offset: off}, valid
	}
	p := []float64{0, 0.02, 0.1, 0.5, 0.9, 0.98, 1}[rng.IntN(7)]
	// Exactly as many bytes as the rows need, so a read past the end
	// panics; the padding bits around the rows are random, so a read outside
	// them gives a wrong answer.
	bits := make([]byte, (off+n+7)/8)
	for i := range bits {
		bits[i] = byte(rng.Uint32())
	}
	for i := range n {
		valid[i] = rng.Float64() < p
		bit := off + i
		if valid[i] {
			bits[bit>>3] |= 1 << (bit & 7)
		} else {
			bits[bit>>3] &^= 1 << (bit & 7)
		}
	}
	return Bitmap{Bits: bits, Offset: off}, valid
}

// randomRanges is a random set of the rows [0, n) as Ranges, built from a
// random []bool by collecting maximal runs, with that []bool.
func randomRanges(rng *rand.Rand, n int) (Ranges, []bool) {
	in := make([]bool, n)
	p := rng.Float64()
	for i := range in {
		in[i] = rng.Float64() < p
	}
	return runsOf(in), in
}

// runsOf is the maximal runs of true in set, one window each.
func runsOf(set []bool) Ranges {
	var r Ranges
	for i := 0; i < len(set); {
		if !set[i] {
			i++
			continue
		}
		j := i
		for j < len(set) && set[j] {
			j++
		}
		r = append(r, Window{Offset: i, Len: j - i})
		i = j
	}
	return r
}

// rowsOf is every row of the windows ws, in order, repeats kept.
func rowsOf(ws []Window) []int {
	rows := []int{}
	for _, w := range ws {
		for i := w.Offset; i < w.End(); i++ {
			rows = append(rows, i)
		}
	}
	return rows
}

// members is the rows where set is true, in order.
func members(set []bool) []int {
	rows := []int{}
	for i, in := range set {
		if in {
			rows = append(rows, i)
		}
	}
	return rows
}

// mark sets the rows [offset, offset+n) of set, growing it as needed.
func mark(set []bool, offset, n int) []bool {
	for len(set) < offset+n {
		set = append(set, false)
	}
	for i := offset; i < offset+n; i++ {
		set[i] = true
	}
	return set
}

// requireRanges checks that r holds the Ranges invariants (every window
// non-empty and non-negative, sorted, disjoint and not adjacent) and covers
// exactly the rows want. format and args say which case r came from.
func requireRanges(t *testing.T, r Ranges, want []int, format string, args ...any) {
	t.Helper()
	what := fmt.Sprintf(format, args...)
	for k, w := range r {
		require.Positive(t, w.Len, "%s: window %d of %v is empty", what, k, r)
		require.GreaterOrEqual(t, w.Offset, 0, "%s: window %d of %v starts before row 0", what, k, r)
		if k > 0 {
			require.Less(t, r[k-1].End(), w.Offset,
				"%s: windows %d and %d of %v overlap, touch or are out of order", what, k-1, k, r)
		}
	}
	require.Equal(t, want, rowsOf(r), "%s: rows of %v", what, r)
}

// refCountNulls is the number of rows of w that are not valid.
func refCountNulls(valid []bool, w Window) int {
	n := 0
	for i := w.Offset; i < w.End(); i++ {
		if !valid[i] {
			n++
		}
	}
	return n
}

// refFirstNull is the first row of w that is not valid, or -1.
func refFirstNull(valid []bool, w Window) int {
	for i := w.Offset; i < w.End(); i++ {
		if !valid[i] {
			return i
		}
	}
	return -1
}

// randomOffsets is n+1 monotone list offsets starting anywhere in [0, 5],
// as a sliced list's offsets do, with many empty rows.
func randomOffsets[O Offset](rng *rand.Rand, n int) []O {
	offsets := make([]O, n+1)
	offsets[0] = O(rng.IntN(6))
	for i := 1; i <= n; i++ {
		step := 0
		if rng.IntN(3) > 0 {
			step = rng.IntN(5)
		}
		offsets[i] = offsets[i-1] + O(step)
	}
	return offsets
}

// randomWindow is a random window of [0, n).
func randomWindow(rng *rand.Rand, n int) Window {
	i := rng.IntN(n + 1)
	j := i + rng.IntN(n-i+1)
	return Window{Offset: i, Len: j - i}
}

// reachableNulls is how many nulls of a list's child the rows w of the list
// reach, through ListChildren: nulls under null list rows or outside w do
// not count.
func reachableNulls[O Offset](child Bitmap, parent Bitmap, offsets []O, w Window) int {
	n := 0
	for _, cw := range ListChildren(Ranges{w}, parent, offsets) {
		n += child.CountNulls(cw)
	}
	return n
}
