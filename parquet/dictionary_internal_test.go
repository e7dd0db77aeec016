package parquet

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A dictionary of 4- and 8-byte values, whose hash is the value's own
// bits mixed, gives every distinct value one index in the order first
// seen, as a map does: values that differ in a high bit only, or in the
// low bits the slots are taken from, included, through many grows.
func TestADictionaryOfWordsIndexesAsAMap(t *testing.T) {
	for _, width := range []int{4, 8} {
		d := newByteDict()
		d.width = width
		want := map[uint64]uint32{}
		r := rand.New(rand.NewPCG(1, uint64(width)))
		v := make([]byte, 8)
		for i := range 200_000 {
			var x uint64
			switch i % 4 {
			case 0:
				x = uint64(r.IntN(5000)) // repeats
			case 1:
				x = uint64(r.IntN(64)) << (8*width - 6) // high bits only
			case 2:
				x = uint64(r.IntN(1024)) << 10 // the same low bits
			default:
				x = r.Uint64() // mostly new
			}
			if width == 4 {
				x = uint64(uint32(x))
				binary.LittleEndian.PutUint32(v, uint32(x))
			} else {
				binary.LittleEndian.PutUint64(v, x)
			}
			idx, seen := want[x]
			if !seen {
				idx = uint32(len(want))
				want[x] = idx
			}
			got := d.index(v[:width])
			require.Equal(t, idx, got, "value %#x at %d", x, i)
			require.Equal(t, v[:width], d.value(int(got)))
		}
		require.Equal(t, len(want), d.len())
		d.reset()
		binary.LittleEndian.PutUint64(v, 7)
		require.Equal(t, uint32(0), d.index(v[:width]), "after reset")
	}
}
