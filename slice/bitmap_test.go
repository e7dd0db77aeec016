package slice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBitmap(t *testing.T) {
	// Rows 0..9 at bit offset 3: valid, null, valid, valid, null, null,
	// valid, valid, valid, null. Bits 0..2 and 13..15 are padding, set so
	// a read outside the rows would show.
	b := Bitmap{Bits: []byte{0b0110_1111, 0b1110_1110}, Offset: 3}
	tests := []struct {
		name          string
		b             Bitmap
		w             Window
		wantNulls     int
		wantFirstNull int
	}{
		{"a nil bitmap has no nulls", Bitmap{}, Window{Offset: 0, Len: 100}, 0, -1},
		{"a nil bitmap ignores its offset", Bitmap{Offset: 5}, Window{Offset: 3, Len: 10}, 0, -1},
		{"an empty window has no nulls", b, Window{Offset: 4, Len: 0}, 0, -1},
		{"every row of an offset bitmap counts from its offset", b, Whole(10), 4, 1},
		{"a window after the first null finds the next", b, Window{Offset: 2, Len: 5}, 2, 4},
		{"a window of valid rows has no nulls", b, Window{Offset: 6, Len: 3}, 0, -1},
		{"a window across the byte boundary counts both bytes", b, Window{Offset: 4, Len: 6}, 3, 4},
		{"a sliced bitmap counts from the slice", b.Slice(6), Window{Offset: 0, Len: 4}, 1, 3},
		{"a sliced nil bitmap stays nil", Bitmap{}.Slice(6), Whole(4), 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantNulls, tt.b.CountNulls(tt.w), "CountNulls")
			assert.Equal(t, tt.wantFirstNull, tt.b.FirstNull(tt.w), "FirstNull")
		})
	}
}

func TestBitmapIsValidAndIsNull(t *testing.T) {
	b := Bitmap{Bits: []byte{0b0110_1111, 0b1110_1110}, Offset: 3}
	want := []bool{true, false, true, true, false, false, true, true, true, false}
	for i, v := range want {
		assert.Equal(t, v, b.IsValid(i), "IsValid(%d)", i)
		assert.Equal(t, !v, b.IsNull(i), "IsNull(%d)", i)
		assert.Equal(t, map[bool]int{true: 1, false: 0}[v], b.Bit(i), "Bit(%d)", i)
	}
	assert.True(t, Bitmap{}.IsValid(1000), "a nil bitmap has every row valid")
	assert.Equal(t, 1, Bitmap{Offset: 5}.Bit(1000), "a nil bitmap has every bit set")
	assert.False(t, Bitmap{Offset: 3}.IsNull(0), "a nil bitmap has no null rows")
}

// checkBitmap compares b against valid on every row and on the windows ws.
func checkBitmap(t *testing.T, b Bitmap, valid []bool, ws []Window, c int) {
	t.Helper()
	for i, v := range valid {
		require.Equal(t, v, b.IsValid(i), "case %d: %+v IsValid(%d)", c, b, i)
		require.Equal(t, !v, b.IsNull(i), "case %d: %+v IsNull(%d)", c, b, i)
		require.Equal(t, v, b.Bit(i) == 1, "case %d: %+v Bit(%d)", c, b, i)
	}
	for _, w := range ws {
		require.Equal(t, refCountNulls(valid, w), b.CountNulls(w), "case %d: %+v CountNulls(%+v)", c, b, w)
		require.Equal(t, refFirstNull(valid, w), b.FirstNull(w), "case %d: %+v FirstNull(%+v)", c, b, w)
	}
	// Slicing the bitmap at k shifts every row down by k.
	k := len(valid) / 3
	s := b.Slice(k)
	for i := k; i < len(valid); i++ {
		require.Equal(t, valid[i], s.IsValid(i-k), "case %d: %+v.Slice(%d).IsValid(%d)", c, b, k, i-k)
	}
	w := Whole(len(valid) - k)
	require.Equal(t, refCountNulls(valid[k:], w), s.CountNulls(w), "case %d: %+v.Slice(%d).CountNulls", c, b, k)
	require.Equal(t, refFirstNull(valid[k:], w), s.FirstNull(w), "case %d: %+v.Slice(%d).FirstNull", c, b, k)
}

func TestBitmapMatchesBruteForceOnSmallBitmaps(t *testing.T) {
	rng := newRand(t)
	// Every window of every small bitmap: up to 20 rows at bit offsets 0..9.
	for c := range 5000 {
		n := rng.IntN(21)
		b, valid := randomBitmap(rng, n, 9)
		var ws []Window
		for i := 0; i <= n; i++ {
			for j := i; j <= n; j++ {
				ws = append(ws, Window{Offset: i, Len: j - i})
			}
		}
		checkBitmap(t, b, valid, ws, c)
	}
}

func TestBitmapMatchesBruteForceAcrossWords(t *testing.T) {
	rng := newRand(t)
	// Up to 700 rows at bit offsets 0..70: windows cross byte, 64-bit word
	// and four-word boundaries at every alignment.
	for c := range 1000 {
		n := rng.IntN(701)
		b, valid := randomBitmap(rng, n, 70)
		ws := []Window{Whole(n)}
		for range 60 {
			ws = append(ws, randomWindow(rng, n))
		}
		// Windows ending at the last row read the bitmap's last byte.
		for range 5 {
			i := rng.IntN(n + 1)
			ws = append(ws, Window{Offset: i, Len: n - i})
		}
		checkBitmap(t, b, valid, ws, c)
	}
}

func TestBitmapFindsASingleNullAnywhere(t *testing.T) {
	// One null among valid rows, at every row and bit offset: the byte and
	// word loops must find it wherever it sits.
	for _, n := range []int{1, 7, 8, 9, 63, 64, 65, 130, 200, 255, 256, 257, 520} {
		for off := 0; off <= 70; off++ {
			for null := range n {
				bits := make([]byte, (off+n+7)/8)
				for i := range bits {
					bits[i] = 0xff
				}
				bits[(off+null)>>3] &^= 1 << ((off + null) & 7)
				b := Bitmap{Bits: bits, Offset: off}
				require.Equal(t, 1, b.CountNulls(Whole(n)), "n=%d offset=%d null=%d", n, off, null)
				require.Equal(t, null, b.FirstNull(Whole(n)), "n=%d offset=%d null=%d", n, off, null)
				require.Equal(t, -1, b.FirstNull(Window{Offset: null + 1, Len: n - null - 1}),
					"n=%d offset=%d null=%d: a window after the null", n, off, null)
				require.Equal(t, 0, b.CountNulls(Window{Offset: 0, Len: null}),
					"n=%d offset=%d null=%d: a window before the null", n, off, null)
			}
		}
	}
}
