package slice

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Bitmap is a validity bitmap: row i is valid when bit Offset+i of Bits is
// set (least significant bit first, as in Arrow). A nil Bits means every row
// is valid.
type Bitmap struct {
	Bits   []byte
	Offset int
}

// IsValid reports whether row i is valid.
func (b Bitmap) IsValid(i int) bool { return b.Bit(i) != 0 }

// IsNull reports whether row i is null.
func (b Bitmap) IsNull(i int) bool { return !b.IsValid(i) }

// Bit is 1 when row i is valid and 0 when it is null: IsValid as a number,
// for code that masks with it rather than branching on rows that are null at
// random.
func (b Bitmap) Bit(i int) int {
	if b.Bits == nil {
		return 1
	}
	i += b.Offset
	return int(b.Bits[i>>3]>>(i&7)) & 1
}

// Slice is the bitmap of rows [i, ...) of b.
func (b Bitmap) Slice(i int) Bitmap {
	if b.Bits == nil {
		return b
	}
	return Bitmap{Bits: b.Bits, Offset: b.Offset + i}
}

// CountNulls is the number of null rows in w.
func (b Bitmap) CountNulls(w Window) int {
	if b.Bits == nil || w.Len == 0 {
		return 0
	}
	return w.Len - countSet(b.Bits, b.Offset+w.Offset, w.Len)
}

// FirstNull is the first null row in w, or -1 when every row of w is valid.
func (b Bitmap) FirstNull(w Window) int {
	if b.Bits == nil {
		return -1
	}
	i := w.Offset
	end := w.End()
	// Bit by bit up to a byte boundary, then 32 and 8 bytes at a time, then
	// a byte at a time.
	for ; i < end && (b.Offset+i)&7 != 0; i++ {
		if !b.IsValid(i) {
			return i
		}
	}
	for ; i+256 <= end; i += 256 { // four words a test while all are set
		at := (b.Offset + i) >> 3
		q := b.Bits[at : at+32 : at+32]
		le := binary.LittleEndian
		if le.Uint64(q)&le.Uint64(q[8:])&le.Uint64(q[16:])&le.Uint64(q[24:]) != math.MaxUint64 {
			break
		}
	}
	for ; i+64 <= end; i += 64 {
		at := (b.Offset + i) >> 3
		if word := binary.LittleEndian.Uint64(b.Bits[at : at+8]); word != math.MaxUint64 {
			return i + bits.TrailingZeros64(^word)
		}
	}
	for ; i+8 <= end; i += 8 {
		if by := b.Bits[(b.Offset+i)>>3]; by != 0xff {
			return i + bits.TrailingZeros8(^by)
		}
	}
	for ; i < end; i++ {
		if !b.IsValid(i) {
			return i
		}
	}
	return -1
}

// countSet counts the set bits of bitmap in [offset, offset+n).
func countSet(bitmap []byte, offset, n int) int {
	count := 0
	end := offset + n
	i := offset
	for ; i < end && i&7 != 0; i++ {
		count += int(bitmap[i>>3]>>(i&7)) & 1
	}
	le := binary.LittleEndian
	for ; i+256 <= end; i += 256 { // four words a step, four counts in flight
		q := bitmap[i>>3 : i>>3+32 : i>>3+32]
		count += bits.OnesCount64(le.Uint64(q)) + bits.OnesCount64(le.Uint64(q[8:])) +
			bits.OnesCount64(le.Uint64(q[16:])) + bits.OnesCount64(le.Uint64(q[24:]))
	}
	for ; i+64 <= end; i += 64 {
		count += bits.OnesCount64(le.Uint64(bitmap[i>>3 : i>>3+8]))
	}
	for ; i+8 <= end; i += 8 {
		count += bits.OnesCount8(bitmap[i>>3])
	}
	for ; i < end; i++ {
		count += int(bitmap[i>>3]>>(i&7)) & 1
	}
	return count
}
