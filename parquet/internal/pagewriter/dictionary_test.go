package pagewriter

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A dictionary gives every distinct value one index in the order first
// seen, as a map does, and gives the value back by its index and plain
// encoded, through many grows of its table: values of every width it
// keeps (1 to 8 bytes hashed by their bits, wider ones and byte arrays by
// maphash), that differ in a high bit only, or in the low bits the slots
// are taken from.
func TestADictionaryIndexesAsAMap(t *testing.T) {
	for _, width := range []int{1, 2, 3, 4, 5, 7, 8, 12, 16, 0} {
		d := newByteDict()
		d.width = width
		want := map[string]uint32{}
		var plain []byte
		seed := rand.Uint64()
		r := rand.New(rand.NewPCG(seed, uint64(width)))
		var indices []uint32
		for i := range 100_000 {
			var x uint64
			switch i % 4 {
			case 0:
				x = uint64(r.IntN(5000)) // repeats
			case 1:
				x = uint64(r.IntN(64)) << 58 // high bits only
			case 2:
				x = uint64(r.IntN(1024)) << 10 // the same low bits
			default:
				x = r.Uint64() // mostly new
			}
			v := binary.LittleEndian.AppendUint64(nil, x)
			if width > 8 {
				v = append(v, v...)[:width]
			} else if width > 0 {
				v = v[:width]
			} else {
				v = v[:r.IntN(9)] // byte arrays of 0 to 8 bytes
			}
			idx, seen := want[string(v)]
			if !seen {
				idx = uint32(len(want))
				want[string(v)] = idx
			}
			got := d.index(v)
			require.Equal(t, idx, got, "width %d, seed %d: value %x at %d", width, seed, v, i)
			require.True(t, bytes.Equal(v, d.value(int(got))), "width %d: value %x at %d given back as %x", width, v, i, d.value(int(got)))
			indices = append(indices, got)
			if width == 0 {
				plain = binary.LittleEndian.AppendUint32(plain, uint32(len(v)))
			}
			plain = append(plain, v...)
		}
		require.Equal(t, len(want), d.len())
		require.Equal(t, plain, d.appendPlainOf(nil, indices), "the values of the indices, plain")
		require.Equal(t, len(d.appendPlain(nil)), d.plainBytes())
		d.reset()
		require.Equal(t, 0, d.len())
		v := make([]byte, max(width, 3))[:max(width, 3)]
		if width > 0 {
			v = v[:width]
		}
		require.Equal(t, uint32(0), d.index(v), "after reset")
	}
}
