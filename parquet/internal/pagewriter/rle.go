package pagewriter

import "encoding/binary"

// appendHybrid appends vals in Parquet's RLE / bit-packed hybrid encoding
// with width bits a value (no length prefix): a run of 8 or more equal
// values as one RLE run, the others bit-packed in groups of 8. Definition
// and repetition levels and dictionary indices are written this way.
func appendHybrid[T int16 | uint32](dst []byte, vals []T, width int) []byte {
	lit := 0 // the first value not yet written
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		run := j - i
		if run >= 8 {
			// A bit-packed run holds whole groups of 8: the values of the
			// RLE run before its start fill the last group.
			if pad := (8 - (i-lit)%8) % 8; pad > 0 {
				if run-pad < 8 {
					i = j
					continue
				}
				i += pad
				run -= pad
			}
			dst = appendBitPacked(dst, vals[lit:i], width)
			dst = binary.AppendUvarint(dst, uint64(run)<<1)
			v := uint32(vals[i])
			for b := 0; b < (width+7)/8; b++ {
				dst = append(dst, byte(v>>(8*b)))
			}
			i = j
			lit = j
			continue
		}
		i = j
	}
	return appendBitPacked(dst, vals[lit:], width)
}

// maxGroups is the most groups of 8 of one bit-packed run: the count fits
// the one-byte header every reader handles.
const maxGroups = 63

// appendBitPacked appends vals as bit-packed runs, the last group padded
// with zeros: only the last run of a page may be padded, which the callers
// ensure (every run but the last holds a multiple of 8 values).
func appendBitPacked[T int16 | uint32](dst []byte, vals []T, width int) []byte {
	for len(vals) > 0 {
		n := min(len(vals), maxGroups*8)
		groups := (n + 7) / 8
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		var acc uint64
		bits := 0
		for k := range groups * 8 {
			var v uint64
			if k < n {
				v = uint64(uint32(vals[k]))
			}
			acc |= v << bits
			bits += width
			for bits >= 8 {
				dst = append(dst, byte(acc))
				acc >>= 8
				bits -= 8
			}
		}
		// groups*8*width is a multiple of 8: no bits are left over.
		vals = vals[n:]
	}
	return dst
}

// hybridBound is more than appendHybrid appends of n values of width
// bits: every 8 values bit-packed in width bytes or run-length encoded in
// at most 9 (a count's varint and a value of 4 bytes), and the headers of
// the bit-packed runs.
func hybridBound(n, width int) int {
	return (n/8+2)*max(width, 9) + n/(8*maxGroups) + 16
}
