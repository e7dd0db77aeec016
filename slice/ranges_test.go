package slice

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		ws   []Window
		want Ranges
	}{
		{"no windows are no ranges", nil, nil},
		{"empty windows are dropped", []Window{{Offset: 3, Len: 0}, {Offset: 0, Len: 0}}, nil},
		{"one window stays as it is", []Window{{Offset: 2, Len: 3}}, Ranges{{Offset: 2, Len: 3}}},
		{"windows out of order are sorted", []Window{{Offset: 8, Len: 1}, {Offset: 2, Len: 3}}, Ranges{{Offset: 2, Len: 3}, {Offset: 8, Len: 1}}},
		{"adjacent windows merge", []Window{{Offset: 5, Len: 2}, {Offset: 2, Len: 3}}, Ranges{{Offset: 2, Len: 5}}},
		{"overlapping windows merge", []Window{{Offset: 2, Len: 4}, {Offset: 4, Len: 4}}, Ranges{{Offset: 2, Len: 6}}},
		{"a window inside another disappears", []Window{{Offset: 2, Len: 8}, {Offset: 4, Len: 2}}, Ranges{{Offset: 2, Len: 8}}},
		{"windows with the same start keep the longest", []Window{{Offset: 4, Len: 5}, {Offset: 4, Len: 1}}, Ranges{{Offset: 4, Len: 5}}},
		{"an empty window between two does not join them", []Window{{Offset: 0, Len: 2}, {Offset: 3, Len: 0}, {Offset: 4, Len: 1}}, Ranges{{Offset: 0, Len: 2}, {Offset: 4, Len: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Normalize(tt.ws))
		})
	}
}

func TestNormalizeMatchesBruteForce(t *testing.T) {
	rng := newRand(t)
	for c := range 5000 {
		ws := make([]Window, rng.IntN(9))
		for k := range ws {
			ws[k] = Window{Offset: rng.IntN(31), Len: rng.IntN(7)}
		}
		in := slices.Clone(ws)
		var union []bool
		for _, w := range ws {
			union = mark(union, w.Offset, w.Len)
		}
		got := Normalize(ws)
		requireRanges(t, got, members(union), "case %d: Normalize(%v)", c, in)
		require.Equal(t, in, ws, "case %d: Normalize changed its input", c)
	}
}

func TestFirstNullInMatchesBruteForce(t *testing.T) {
	rng := newRand(t)
	for c := range 5000 {
		n := rng.IntN(21)
		b, valid := randomBitmap(rng, n, 9)
		r, _ := randomRanges(rng, n)
		first := -1
		for _, i := range rowsOf(r) {
			if !valid[i] && first < 0 {
				first = i
			}
		}
		require.Equal(t, first, b.FirstNullIn(r), "case %d: %+v FirstNullIn(%v)", c, b, r)
	}
}

func TestValidRowsMatchesBruteForce(t *testing.T) {
	rng := newRand(t)
	for c := range 5000 {
		n := rng.IntN(21)
		b, valid := randomBitmap(rng, n, 9)
		r, in := randomRanges(rng, n)
		want := make([]bool, n)
		for i := range n {
			want[i] = in[i] && valid[i]
		}
		requireRanges(t, ValidRows(r, b), members(want), "case %d: ValidRows(%v, %+v)", c, r, b)
	}
}

func TestListChildrenMatchesBruteForce(t *testing.T) {
	t.Run("with int32 offsets", func(t *testing.T) { checkListChildren[int32](t, newRand(t)) })
	t.Run("with int64 offsets", func(t *testing.T) { checkListChildren[int64](t, newRand(t)) })
}

func checkListChildren[O Offset](t *testing.T, rng *rand.Rand) {
	for c := range 5000 {
		n := rng.IntN(21)
		offsets := randomOffsets[O](rng, n)
		parent, valid := randomBitmap(rng, n, 9)
		r, _ := randomRanges(rng, n)
		var reached []bool
		for _, i := range rowsOf(r) {
			if valid[i] {
				reached = mark(reached, int(offsets[i]), int(offsets[i+1]-offsets[i]))
			}
		}
		requireRanges(t, ListChildren(r, parent, offsets), members(reached),
			"case %d: ListChildren(%v, %+v, %v)", c, r, parent, offsets)
	}
}

func TestListViewChildrenMatchesBruteForce(t *testing.T) {
	t.Run("with int32 offsets", func(t *testing.T) { checkListViewChildren[int32](t, newRand(t)) })
	t.Run("with int64 offsets", func(t *testing.T) { checkListViewChildren[int64](t, newRand(t)) })
}

func checkListViewChildren[O Offset](t *testing.T, rng *rand.Rand) {
	for c := range 5000 {
		n := rng.IntN(21)
		// Views in any order, overlapping, sharing and skipping child rows.
		offsets, sizes := make([]O, n), make([]O, n)
		for i := range n {
			offsets[i] = O(rng.IntN(16))
			sizes[i] = O(rng.IntN(6))
		}
		parent, valid := randomBitmap(rng, n, 9)
		r, _ := randomRanges(rng, n)
		var reached []bool
		for _, i := range rowsOf(r) {
			if valid[i] {
				reached = mark(reached, int(offsets[i]), int(sizes[i]))
			}
		}
		requireRanges(t, ListViewChildren(r, parent, offsets, sizes), members(reached),
			"case %d: ListViewChildren(%v, %+v, %v, %v)", c, r, parent, offsets, sizes)
	}
}

func TestFixedSizeListChildrenMatchesBruteForce(t *testing.T) {
	rng := newRand(t)
	for c := range 5000 {
		n := rng.IntN(21)
		base, size := rng.IntN(6), rng.IntN(5)
		parent, valid := randomBitmap(rng, n, 9)
		r, _ := randomRanges(rng, n)
		var reached []bool
		for _, i := range rowsOf(r) {
			if valid[i] {
				// Row i of a list at array offset base owns child rows
				// [(base+i)*size, (base+i+1)*size).
				reached = mark(reached, (base+i)*size, size)
			}
		}
		requireRanges(t, FixedSizeListChildren(r, parent, base, size), members(reached),
			"case %d: FixedSizeListChildren(%v, %+v, base %d, size %d)", c, r, parent, base, size)
	}
}

// The reachable-null tests count, where views only looks for the first, to
// check every null ListChildren reaches, not only the first.

func TestReachableNulls(t *testing.T) {
	// [[1, null], null, [null, 4, 5], []]: null row 1 still points at child
	// row 2, which is null and must not count.
	offsets := []int32{0, 2, 3, 6, 6}
	parent := Bitmap{Bits: []byte{0b1101}}
	child := Bitmap{Bits: []byte{0b110001}}
	tests := []struct {
		name   string
		child  Bitmap
		parent Bitmap
		w      Window
		want   int
	}{
		{"nulls under valid rows count", child, parent, Whole(4), 2},
		{"a null under a null row does not count", child, parent, Window{Offset: 1, Len: 1}, 0},
		{"nulls outside the window do not count", child, parent, Window{Offset: 2, Len: 2}, 1},
		{"an empty window reaches no nulls", child, parent, Window{Offset: 1, Len: 0}, 0},
		{"every null counts when every row is valid", child, Bitmap{}, Whole(4), 3},
		{"a child without a bitmap has no nulls", Bitmap{}, parent, Whole(4), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, reachableNulls(tt.child, tt.parent, offsets, tt.w))
		})
	}
}

func TestReachableNullsMatchesBruteForce(t *testing.T) {
	t.Run("with int32 offsets", func(t *testing.T) { checkReachableNulls[int32](t, newRand(t)) })
	t.Run("with int64 offsets", func(t *testing.T) { checkReachableNulls[int64](t, newRand(t)) })
}

func checkReachableNulls[O Offset](t *testing.T, rng *rand.Rand) {
	for c := range 5000 {
		n := rng.IntN(21)
		offsets := randomOffsets[O](rng, n)
		parent, parentValid := randomBitmap(rng, n, 9)
		child, childValid := randomBitmap(rng, int(offsets[n]), 9)
		w := randomWindow(rng, n)
		want := 0
		for i := w.Offset; i < w.End(); i++ {
			if !parentValid[i] {
				continue
			}
			for k := int(offsets[i]); k < int(offsets[i+1]); k++ {
				if !childValid[k] {
					want++
				}
			}
		}
		require.Equal(t, want, reachableNulls(child, parent, offsets, w),
			"case %d: reachableNulls(%+v, %+v, %v, %+v)", c, child, parent, offsets, w)
	}
}
