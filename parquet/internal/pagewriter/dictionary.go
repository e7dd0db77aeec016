package pagewriter

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
)

// byteDict is the dictionary of one column chunk: the distinct values (byte
// arrays, or the plain bytes of fixed-width values) in the order first
// seen, found again through an open-addressing table of their indices, so
// that a value costs a hash and a comparison, never an allocation.
//
// Fixed-width values are kept end to end and nothing else: value i is at
// i*width, and its hash is made again from it when the table grows. A
// value of 1 to 8 bytes (numbers, dates, decimals of up to 18 digits) is
// hashed by wordHash of its bits. Byte arrays keep where each ends and
// its hash.
type byteDict struct {
	width int // of a fixed-width value, plain encoded without a length; 0 for byte arrays
	seed  maphash.Seed
	// word is the key of the hash of a value of 1 to 8 bytes (wordHash),
	// which the value itself is, zero-extended to 64 bits: no bytes to
	// hash or compare.
	word  uint64
	data  []byte   // the values, end to end
	ends  []int32  // of byte arrays: ends[i] is where value i ends in data
	hash  []uint64 // of byte arrays: of each value, to grow the table without hashing again
	slots []int32  // index+1 of a value, 0 for an empty slot
	n     int      // values
}

func newByteDict() *byteDict {
	return &byteDict{seed: maphash.MakeSeed(), word: rand.Uint64(), slots: make([]int32, 1024)}
}

func (d *byteDict) len() int { return d.n }

func (d *byteDict) value(i int) []byte {
	if d.width > 0 {
		return d.data[i*d.width : (i+1)*d.width]
	}
	start := int32(0)
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.data[start:d.ends[i]]
}

// plainBytes is the size of the dictionary page: each value plain encoded.
func (d *byteDict) plainBytes() int {
	if d.width > 0 {
		return len(d.data)
	}
	return len(d.data) + 4*len(d.ends)
}

// index is v's index, v added when new.
func (d *byteDict) index(v []byte) uint32 {
	switch d.width {
	case 4:
		return d.indexWord(uint64(binary.LittleEndian.Uint32(v)), v)
	case 8:
		return d.indexWord(binary.LittleEndian.Uint64(v), v)
	case 1, 2, 3, 5, 6, 7:
		return d.indexWord(loadWord(v), v)
	}
	h := maphash.Bytes(d.seed, v)
	mask := uint64(len(d.slots) - 1)
	for s := h & mask; ; s = (s + 1) & mask {
		k := d.slots[s]
		if k == 0 {
			return d.add(s, v, h)
		}
		if (d.width > 0 || d.hash[k-1] == h) && bytes.Equal(d.value(int(k-1)), v) {
			return uint32(k - 1)
		}
	}
}

// indexWord is index(v) of a dictionary of values of 1 to 8 bytes, v's
// bits being x: one multiply-and-shift mix (wordHash) and a comparison of
// two words instead of maphash and bytes.Equal, a third of a dictionary's
// time on numbers and dates.
func (d *byteDict) indexWord(x uint64, v []byte) uint32 {
	h := d.wordHash(x)
	mask := uint64(len(d.slots) - 1)
	for s := h & mask; ; s = (s + 1) & mask {
		k := d.slots[s]
		if k == 0 {
			return d.add(s, v, h)
		}
		if loadWord(d.value(int(k-1))) == x {
			return uint32(k - 1)
		}
	}
}

// loadWord is the value of 1 to 8 bytes v, little-endian, zero-extended:
// a load of 8 bytes, masked, where v's capacity has them (values end to
// end in a page or a dictionary), else byte by byte.
func loadWord(v []byte) uint64 {
	switch n := len(v); {
	case n == 8:
		return binary.LittleEndian.Uint64(v)
	case n == 4:
		return uint64(binary.LittleEndian.Uint32(v))
	case cap(v) >= 8:
		return binary.LittleEndian.Uint64(v[:8]) & (1<<(8*n) - 1)
	}
	var x uint64
	for i, b := range v {
		x |= uint64(b) << (8 * i)
	}
	return x
}

// wordHash is MurmurHash3's 64-bit finalizer of x keyed by d.word: a
// bijection of uint64 whose low bits, the slots', depend on every bit of x.
func (d *byteDict) wordHash(x uint64) uint64 {
	x ^= d.word
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashOf is the hash of value i, which index made: the table grows with it.
func (d *byteDict) hashOf(i int) uint64 {
	switch {
	case d.width == 0:
		return d.hash[i]
	case d.width <= 8:
		return d.wordHash(loadWord(d.value(i)))
	}
	return maphash.Bytes(d.seed, d.value(i))
}

// add makes v, of hash h, the next value, its index in the empty slot s.
func (d *byteDict) add(s uint64, v []byte, h uint64) uint32 {
	i := int32(d.n)
	d.data = append(grow(d.data, len(v)), v...)
	if d.width == 0 {
		d.ends = append(grow(d.ends, 1), int32(len(d.data)))
		d.hash = append(grow(d.hash, 1), h)
	}
	d.n++
	d.slots[s] = i + 1
	if 2*d.n > len(d.slots) {
		d.grow()
	}
	return uint32(i)
}

func (d *byteDict) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint64(len(d.slots) - 1)
	for i := range d.n {
		s := d.hashOf(i) & mask
		for d.slots[s] != 0 {
			s = (s + 1) & mask
		}
		d.slots[s] = int32(i + 1)
	}
}

func (d *byteDict) reset() {
	d.data, d.ends, d.hash, d.n = d.data[:0], d.ends[:0], d.hash[:0], 0
	clear(d.slots)
}

// indexWidth is the bit width of the indices into a dictionary of n values.
func indexWidth(n int) int { return max(1, bits.Len(uint(max(n, 1)-1))) }

// appendPlainOf appends the values of indices, plain encoded.
func (d *byteDict) appendPlainOf(dst []byte, indices []uint32) []byte {
	for _, i := range indices {
		v := d.value(int(i))
		if d.width == 0 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v)))
		}
		dst = append(dst, v...)
	}
	return dst
}

// appendPlain appends the dictionary page's values, plain encoded.
func (d *byteDict) appendPlain(dst []byte) []byte {
	if d.width > 0 {
		return append(dst, d.data...)
	}
	for i := range d.ends {
		v := d.value(i)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	return dst
}
