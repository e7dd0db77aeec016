package pagewriter

import (
	"encoding/binary"
	"slices"

	"github.com/klauspost/compress/s2"
)

// snappyPiece is the most bytes of a page that appendSnappy compresses in
// one call of the encoder, as golang/snappy's Encode does (its blocks are
// 64 KiB): the encoder's hash tables stay of one size from page to page.
const snappyPiece = 64 << 10

// appendSnappy appends srcs, end to end, compressed as one standard snappy
// block, which every snappy decoder reads: their length, then the
// literals and copies of each piece of each source as s2's
// snappy-compatible encoder writes the piece alone, whose copies reach
// back no further than the piece's start. So a page's levels and values
// are compressed without being copied end to end first. scratch is the
// encoder's output, reused from call to call.
//
// The encoder is s2's standard mode, not the "better" mode arrow-go's and
// parquet-go's snappy codecs call (klauspost/compress/snappy.Encode): on the
// flat benchmark file it writes 25% faster for a file 6% larger (20.9 MiB
// against 19.7; parquet-go's is 20.1), and "better" keeps its 576 KiB and
// 80 KiB tables in one sync.Pool, which pages on both sides of 64 KiB
// throw away page after page (s2.encodeBlockBetterSnappy, v1.19.2).
func appendSnappy(dst []byte, scratch *[]byte, srcs ...[]byte) []byte {
	n := 0
	for _, src := range srcs {
		n += len(src)
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	for _, src := range srcs {
		for len(src) > 0 {
			k := min(len(src), snappyPiece)
			if cap(*scratch) < s2.MaxEncodedLen(snappyPiece) {
				*scratch = make([]byte, s2.MaxEncodedLen(snappyPiece))
			}
			piece := s2.EncodeSnappy((*scratch)[:cap(*scratch)], src[:k])
			_, header := binary.Uvarint(piece) // the piece's own length
			dst = append(dst, piece[header:]...)
			src = src[k:]
		}
	}
	return dst
}

// snappyBound is the most appendSnappy appends of n bytes in sources
// sources: the length, and each source in pieces.
func snappyBound(n, sources int) int {
	return binary.MaxVarintLen64 + (n/snappyPiece+sources)*s2.MaxEncodedLen(snappyPiece)
}

// appendSnappyBetter appends src compressed as one standard snappy block by
// s2's "better" mode, as arrow-go's snappy codec compresses: slower than
// appendSnappy, and smaller on text whose repeats are far apart. The
// direct writer compresses dictionary pages with it, a page a chunk: on
// TPC-H's lineitem, whose l_comment fills a 1 MiB dictionary every row
// group, the file is 19.87 MB with it and 20.30 MB with appendSnappy
// (DuckDB's is 19.03). It is kept for pages past snappyPiece: s2 keeps the
// tables of its blocks past 64 KiB and of its blocks of 4 to 16 KiB in one
// sync.Pool, so that blocks of both sizes would make it allocate 576 KiB
// or 80 KiB a block (s2.encodeBlockBetterSnappy, v1.19.2). src is at most
// a few MiB (a dictionary page of the size limit and one row), which s2
// takes whole.
func appendSnappyBetter(dst, src []byte) []byte {
	n := s2.MaxEncodedLen(len(src))
	dst = slices.Grow(dst, n)
	out := s2.EncodeSnappyBetter(dst[len(dst):len(dst)+n], src) // within dst's room: no allocation
	return dst[:len(dst)+len(out)]
}
