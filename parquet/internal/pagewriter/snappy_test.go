package pagewriter

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
	"github.com/stretchr/testify/require"
)

func TestAppendSnappyIsOneSnappyBlockOfItsSourcesEndToEnd(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 64))
	codec, err := compress.GetCodec(compress.Codecs.Snappy)
	require.NoError(t, err)
	// Text that repeats across piece boundaries, and noise that does not
	// compress: a copy must not reach into the piece before, and a literal
	// may end a piece.
	repeating := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefgh"[i%8] + byte(i/100_000)
		}
		return b
	}
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	var scratch []byte
	for _, c := range []struct {
		name string
		src  []byte
	}{
		{"an empty page", nil},
		{"a page of one byte", []byte{7}},
		{"a page one byte short of a piece", repeating(snappyPiece - 1)},
		{"a page of exactly one piece", repeating(snappyPiece)},
		{"a page one byte past a piece", repeating(snappyPiece + 1)},
		{"a page of four pieces and a bit, repeating", repeating(4*snappyPiece + 123)},
		{"a page of noise over several pieces", noise(3*snappyPiece + 5)},
		{"noise then repetition", append(noise(snappyPiece/2), repeating(2*snappyPiece)...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			prefix := []byte("levels")
			// In two sources, cut anywhere (a page's levels and values).
			cut := r.IntN(len(c.src) + 1)
			out := appendSnappy(append([]byte{}, prefix...), &scratch, c.src[:cut], c.src[cut:])
			require.Equal(t, prefix, out[:len(prefix)], "what was in dst stays")
			got, err := codec.(interface {
				DecodeWithError(dst, src []byte) ([]byte, error)
			}).DecodeWithError(nil, out[len(prefix):])
			require.NoError(t, err)
			require.Equal(t, len(c.src), len(got))
			require.True(t, string(c.src) == string(got), "decodes to the page")
			if len(c.src) > snappyPiece {
				whole := s2.EncodeSnappy(nil, c.src)
				require.LessOrEqual(t, len(out)-len(prefix), len(whole)+len(whole)/20+64,
					"compresses about as well as the encoder does the page in one call")
			}
		})
	}
}

// appendSnappy appends no more than snappyBound of its sources, which the
// direct writer sizes its page scratch by: incompressible sources of every
// length around a piece's end, one and two of them (a page's levels and
// values).
func TestAppendSnappyStaysWithinItsBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 3*snappyPiece+2)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	var scratch []byte
	for _, n := range []int{0, 1, snappyPiece - 1, snappyPiece, snappyPiece + 1, 2*snappyPiece + 1, 3*snappyPiece + 2} {
		one := appendSnappy(nil, &scratch, noise[:n])
		require.LessOrEqual(t, len(one), snappyBound(n, 1), "one source of %d bytes", n)
		for _, split := range []int{1, n / 2, n - 1} {
			if split <= 0 || split >= n {
				continue
			}
			two := appendSnappy(nil, &scratch, noise[:split], noise[split:n])
			require.LessOrEqual(t, len(two), snappyBound(n, 2), "two sources of %d and %d bytes", split, n-split)
		}
	}
}
