package parquet

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
)

// byteDict is the dictionary of one column chunk: the distinct values (byte
// arrays, or the plain bytes of fixed-width values) in the order first
// seen, found again through an open-addressing
// table of their indices, so that a value costs a hash and a comparison,
// never an allocation.
type byteDict struct {
	width int // of a fixed-width value, plain encoded without a length; 0 for byte arrays
	seed  maphash.Seed
	// word is the key of the hash of a value of 4 or 8 bytes (wordHash),
	// which the value itself is, zero-extended to 64 bits: no bytes to
	// hash or compare.
	word  uint64
	data  []byte   // the values, end to end
	ends  []int32  // ends[i] is where value i ends in data
	hash  []uint64 // of each value, to grow the table without hashing again
	slots []int32  // index+1 of a value, 0 for an empty slot
}

func newByteDict() *byteDict {
	return &byteDict{seed: maphash.MakeSeed(), word: rand.Uint64(), slots: make([]int32, 1024)}
}

func (d *byteDict) len() int { return len(d.ends) }

func (d *byteDict) value(i int) []byte {
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
	}
	h := maphash.Bytes(d.seed, v)
	mask := uint64(len(d.slots) - 1)
	for s := h & mask; ; s = (s + 1) & mask {
		k := d.slots[s]
		if k == 0 {
			return d.add(s, v, h)
		}
		if d.hash[k-1] == h && bytes.Equal(d.value(int(k-1)), v) {
			return uint32(k - 1)
		}
	}
}

// indexWord is index(v) of a dictionary of 4- or 8-byte values, v's bits
// being x. Its hash is a bijection of x (wordHash), so a slot of the same
// hash holds v: one multiply-and-shift mix instead of maphash and
// bytes.Equal, a third of a dictionary's time on numbers and dates.
func (d *byteDict) indexWord(x uint64, v []byte) uint32 {
	h := wordHash(x ^ d.word)
	mask := uint64(len(d.slots) - 1)
	for s := h & mask; ; s = (s + 1) & mask {
		k := d.slots[s]
		if k == 0 {
			return d.add(s, v, h)
		}
		if d.hash[k-1] == h {
			return uint32(k - 1)
		}
	}
}

// add makes v, of hash h, the next value, its index in the empty slot s.
func (d *byteDict) add(s uint64, v []byte, h uint64) uint32 {
	i := int32(len(d.ends))
	d.data = append(d.data, v...)
	d.ends = append(d.ends, int32(len(d.data)))
	d.hash = append(d.hash, h)
	d.slots[s] = i + 1
	if 2*len(d.ends) > len(d.slots) {
		d.grow()
	}
	return uint32(i)
}

// wordHash is MurmurHash3's 64-bit finalizer: a bijection of uint64 whose
// low bits, the slots', depend on every bit of x.
func wordHash(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

func (d *byteDict) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint64(len(d.slots) - 1)
	for i, h := range d.hash {
		s := h & mask
		for d.slots[s] != 0 {
			s = (s + 1) & mask
		}
		d.slots[s] = int32(i + 1)
	}
}

func (d *byteDict) reset() {
	d.data, d.ends, d.hash = d.data[:0], d.ends[:0], d.hash[:0]
	clear(d.slots)
}

// indexWidth is the bit width of the indices into a dictionary of n values.
func indexWidth(n int) int { return max(1, bits.Len(uint(max(n, 1)-1))) }

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
