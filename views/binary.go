package views

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// Binary is the view node of a utf8, binary, large_utf8 or large_binary
// array: row i is Data()[Offsets()[i]:Offsets()[i+1]].
type Binary[O slice.Offset] struct {
	level
	offsets []O // indexed by row, len n+1
	data    []byte
	utf8    bool
}

func newBinary[O slice.Offset](d arrow.ArrayData, l *level) (*Binary[O], error) {
	offsets, err := checkOffsets[O](d, l, len(buffer(d, 2)), "data buffer")
	if err != nil {
		return nil, err
	}
	return &Binary[O]{level: *l, offsets: offsets, data: buffer(d, 2), utf8: arrowtype.OfType(l.dt).Text}, nil
}

// checkOffsets reads the n+1 offsets of d from buffer 1 and checks that they
// are monotone and within [0, limit].
func checkOffsets[O slice.Offset](d arrow.ArrayData, l *level, limit int, of string) ([]O, error) {
	if l.n == 0 {
		return []O{0}, nil
	}
	offsets, err := fixed[O](d, 1, d.Offset(), l.n+1, &l.p, "offsets")
	if err != nil {
		return nil, err
	}
	if offsets[0] < 0 {
		return nil, l.p.fail(ErrInvalidData, 0, "negative offset %d", offsets[0])
	}
	// The first faulty row is named: the first whose end passes the limit
	// or comes before its start. Up to the first decrease the offsets
	// grow, so the first past the limit there is found by bisection.
	i := firstDecrease(offsets)
	grown := offsets
	if i >= 0 {
		grown = offsets[:i+1]
	}
	if last := grown[len(grown)-1]; int64(last) > int64(limit) {
		past, _ := slices.BinarySearchFunc(grown, limit, func(o O, limit int) int { return cmp.Compare(int64(o), int64(limit)+1) })
		return nil, l.p.fail(ErrInvalidData, max(past-1, 0), "offset %d past the end of the %s (%d)", grown[past], of, limit)
	}
	if i >= 0 {
		return nil, l.p.fail(ErrInvalidData, i, "offsets go backwards: %d then %d", offsets[i], offsets[i+1])
	}
	return offsets, nil
}

// Offsets is the start of each row in Data, and the end of the last: indexed
// by row, len Len()+1.
func (b *Binary[O]) Offsets() []O { return b.offsets }

// Data is the bytes the offsets point into.
func (b *Binary[O]) Data() []byte { return b.data }

// At is the bytes of row i, aliasing the array's buffer.
func (b *Binary[O]) At(i int) []byte {
	return b.data[b.offsets[i]:b.offsets[i+1]:b.offsets[i+1]]
}

// Value is row i as a string (utf8) or []byte (binary), or nil.
func (b *Binary[O]) Value(i int) any {
	if b.IsNull(i) {
		return nil
	}
	if b.utf8 {
		return string(b.At(i))
	}
	return b.At(i)
}

// BinaryView is the view node of a utf8_view or binary_view array.
type BinaryView struct {
	level
	headers []arrow.ViewHeader // indexed by row
	data    [][]byte
	utf8    bool
}

func newBinaryView(d arrow.ArrayData, l *level) (*BinaryView, error) {
	headers, err := fixed[arrow.ViewHeader](d, 1, d.Offset(), l.n, &l.p, "views")
	if err != nil {
		return nil, err
	}
	bufs := d.Buffers()
	data := make([][]byte, 0, max(len(bufs)-2, 0))
	for i := 2; i < len(bufs); i++ {
		data = append(data, buffer(d, i))
	}
	for i := range headers {
		if l.validity.IsNull(i) {
			continue // the header of a null row is never read
		}
		h := &headers[i]
		size := h.Len()
		switch {
		case size < 0:
			return nil, l.p.fail(ErrInvalidData, i, "negative view length %d", size)
		case h.IsInline():
		case h.BufferIndex() < 0 || int(h.BufferIndex()) >= len(data):
			return nil, l.p.fail(ErrInvalidData, i, "view buffer index %d out of range for %d buffers", h.BufferIndex(), len(data))
		case h.BufferOffset() < 0 || int64(h.BufferOffset())+int64(size) > int64(len(data[h.BufferIndex()])):
			return nil, l.p.fail(ErrInvalidData, i, "view [%d, +%d) past the end of buffer %d (%d bytes)", h.BufferOffset(), size, h.BufferIndex(), len(data[h.BufferIndex()]))
		}
	}
	return &BinaryView{level: *l, headers: headers, data: data, utf8: arrowtype.OfType(l.dt).Text}, nil
}

// At is the bytes of row i, aliasing the array's buffers.
func (b *BinaryView) At(i int) []byte {
	h := &b.headers[i]
	size := h.Len()
	if h.IsInline() {
		// The inline bytes follow the 4-byte length in the 16-byte header.
		return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(h), 4)), size)[:size:size]
	}
	off := int(h.BufferOffset())
	return b.data[h.BufferIndex()][off : off+size : off+size]
}

// Value is row i as a string (utf8_view) or []byte (binary_view), or nil.
func (b *BinaryView) Value(i int) any {
	if b.IsNull(i) {
		return nil
	}
	if b.utf8 {
		return string(b.At(i))
	}
	return b.At(i)
}

// firstDecrease is the first i with o[i+1] < o[i], or -1. It tests eight
// steps per branch: this check is the one pass over every offset that
// validating a list or string column costs, and a branch per offset made it
// twice as slow.
func firstDecrease[O slice.Offset](o []O) int {
	i := 0
	for ; i+8 < len(o); i += 8 {
		w := o[i : i+9 : i+9]
		if w[1] < w[0] || w[2] < w[1] || w[3] < w[2] || w[4] < w[3] ||
			w[5] < w[4] || w[6] < w[5] || w[7] < w[6] || w[8] < w[7] {
			break
		}
	}
	for ; i+1 < len(o); i++ {
		if o[i+1] < o[i] {
			return i
		}
	}
	return -1
}
