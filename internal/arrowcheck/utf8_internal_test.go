package arrowcheck

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestValidUTF8AgreesWithTheStandardLibrary(t *testing.T) {
	const seed = 20261201
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	// Every sequence of one or two bytes; every lead byte followed by every
	// sequence of three bytes at the edges of the ranges; then random text
	// of those bytes.
	for x := range 1 << 16 {
		b := []byte{byte(x), byte(x >> 8)}
		require.Equal(t, utf8.Valid(b[:1]), ValidUTF8(b[:1]), "% x", b[:1])
		require.Equal(t, utf8.Valid(b), ValidUTF8(b), "% x", b)
	}
	edges := []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff, 'a'}
	for lead := range 256 {
		for _, b1 := range edges {
			for _, b2 := range edges {
				for _, b3 := range edges {
					b := []byte{byte(lead), b1, b2, b3}
					if utf8.Valid(b) != ValidUTF8(b) { // require.Equal is slow for 4M cases
						t.Fatalf("% x: utf8.Valid says %t", b, utf8.Valid(b))
					}
				}
			}
		}
	}
	for range 200_000 {
		s := make([]byte, r.IntN(12))
		for i := range s {
			s[i] = edges[r.IntN(len(edges))]
		}
		require.Equal(t, utf8.Valid(s), ValidUTF8(s), "% x", s)
	}
	for _, s := range []string{"héllo, 世界, 🙂", "\U0010FFFF", "\xf4\x90\x80\x80", "\xed\xa0\x80", "\xe0\x80\xaf", "\xf0\x8f\xbf\xbf"} {
		require.Equal(t, utf8.ValidString(s), ValidUTF8([]byte(s)), "%q", s)
	}
}
