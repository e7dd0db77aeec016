package views

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// Null is the view node of a null array: every row is null.
type Null struct{ level }

func newNull(l *level) *Null { return &Null{level: *l} }

// Value is nil.
func (*Null) Value(int) any { return nil }

// IsNull is true: every row of a null array is null.
func (*Null) IsNull(int) bool { return true }

func (*Null) firstNull(rows slice.Ranges) int {
	for _, w := range rows {
		if w.Len > 0 {
			return w.Offset
		}
	}
	return -1
}

// nullsIn is a bitmap of w.Len nulls, made for the window only: a null
// array may claim any length without buffers to back it.
func (*Null) nullsIn(w slice.Window) slice.Bitmap {
	return slice.Bitmap{Bits: make([]byte, bytesFor(w.Len))}
}

// Bool is the view node of a boolean array.
type Bool struct {
	level
	bits []byte
	off  int
}

func newBool(d arrow.ArrayData, l *level) (*Bool, error) {
	bits := buffer(d, 1)
	if l.n > 0 && len(bits) < bytesFor(d.Offset()+l.n) {
		return nil, l.p.fail(ErrInvalidData, -1, "values bitmap of %d bytes for %d rows at offset %d", len(bits), l.n, d.Offset())
	}
	return &Bool{level: *l, bits: bits, off: d.Offset()}, nil
}

// At is the value of row i (false for a null).
func (b *Bool) At(i int) bool {
	i += b.off
	return b.bits[i>>3]&(1<<(i&7)) != 0
}

// Bits is the values bitmap and the bit offset of row 0 in it.
func (b *Bool) Bits() ([]byte, int) { return b.bits, b.off }

// Value is row i as a bool, or nil.
func (b *Bool) Value(i int) any {
	if b.IsNull(i) {
		return nil
	}
	return b.At(i)
}

// Primitive is the view node of a fixed-width array: integers, floats,
// float16, decimals, and temporal types as their storage integers (date32
// and time32 as int32; date64, time64, timestamp and duration as int64).
// Read the unit or scale from DataType.
type Primitive[T any] struct {
	level
	values []T
}

func newPrimitive[T any](d arrow.ArrayData, l *level) (*Primitive[T], error) {
	values, err := fixed[T](d, 1, d.Offset(), l.n, &l.p, "values")
	if err != nil {
		return nil, err
	}
	return &Primitive[T]{level: *l, values: values}, nil
}

// Values is the values of all rows, indexed by row, aliasing the array's
// buffer. The value of a null row is unspecified.
func (a *Primitive[T]) Values() []T { return a.values }

// Value is row i as a T, or nil.
func (a *Primitive[T]) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return a.values[i]
}

// FixedSizeBinary is the view node of a fixed_size_binary array.
type FixedSizeBinary struct {
	level
	data  []byte // from row 0
	width int
}

func newFixedSizeBinary(d arrow.ArrayData, l *level) (*FixedSizeBinary, error) {
	width := arrowtype.ByteWidth(l.dt)
	if width < 0 {
		return nil, l.p.fail(ErrInvalidData, -1, "negative byte width %d", width)
	}
	data := buffer(d, 1)
	if width > 0 && len(data)/width < d.Offset()+l.n {
		return nil, l.p.fail(ErrInvalidData, -1, "values buffer of %d bytes for %d values of %d bytes at offset %d", len(data), l.n, width, d.Offset())
	}
	if l.n > 0 {
		data = data[d.Offset()*width : (d.Offset()+l.n)*width]
	}
	return &FixedSizeBinary{level: *l, data: data, width: width}, nil
}

// Width is the byte width of each value.
func (b *FixedSizeBinary) Width() int { return b.width }

// Data is the bytes of all rows, row i at [i*Width, (i+1)*Width).
func (b *FixedSizeBinary) Data() []byte { return b.data }

// At is the bytes of row i, aliasing the array's buffer.
func (b *FixedSizeBinary) At(i int) []byte {
	return b.data[i*b.width : (i+1)*b.width : (i+1)*b.width]
}

// Value is row i as a []byte, or nil.
func (b *FixedSizeBinary) Value(i int) any {
	if b.IsNull(i) {
		return nil
	}
	return b.At(i)
}
