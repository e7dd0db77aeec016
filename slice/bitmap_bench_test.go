package slice

import "testing"

var sinkRows int

// BenchmarkBitmapAllValid times what validation does with the bitmap of a
// column of 100k rows that are all valid: find no null (a declared null
// count of 0), or count them (any other count).
func BenchmarkBitmapAllValid(b *testing.B) {
	const n = 100_000
	bits := make([]byte, (n+7)/8)
	for i := range bits {
		bits[i] = 0xff
	}
	bm := Bitmap{Bits: bits}
	b.Run("FirstNull_100k", func(b *testing.B) {
		for b.Loop() {
			sinkRows = bm.FirstNull(Whole(n))
		}
	})
	b.Run("CountNulls_100k", func(b *testing.B) {
		for b.Loop() {
			sinkRows = bm.CountNulls(Whole(n))
		}
	})
}
