package parquet

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// snappyPiece is the most bytes of a page that appendSnappy compresses in
// one call of the codec.
//
// arrow-go's snappy is klauspost/compress's s2 in its snappy-compatible
// "better" mode, which takes its hash tables from sync.Pools by input size;
// its pool 0 holds both the 576 KiB table of inputs over 64 KiB and the
// 80 KiB one of inputs of 4–16 KiB (s2.encodeBlockBetterSnappy in v1.19.2),
// so a column chunk whose pages fall on both sides (pages of dictionary
// indices next to pages of plain values) throws a table away and allocates
// one for nearly every page. Pieces of at most 64 KiB never ask for the
// large table. It is what golang/snappy's Encode does with any input too:
// its blocks are 64 KiB.
const snappyPiece = 64 << 10

// appendSnappy appends src compressed as one standard snappy block, which
// every snappy decoder reads: the length of src, then the literals and
// copies of each piece of it as codec (snappy) compresses the piece alone,
// whose copies reach back no further than the piece's start. scratch is
// the codec's output, reused from call to call.
func appendSnappy(dst, src []byte, codec compress.Codec, scratch *[]byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(src)))
	for len(src) > 0 {
		n := min(len(src), snappyPiece)
		if bound := int(codec.CompressBound(int64(n))); cap(*scratch) < bound {
			*scratch = make([]byte, int(codec.CompressBound(snappyPiece)))
		}
		piece := codec.Encode((*scratch)[:cap(*scratch)], src[:n])
		_, header := binary.Uvarint(piece) // the piece's own length
		dst = append(dst, piece[header:]...)
		src = src[n:]
	}
	return dst
}
