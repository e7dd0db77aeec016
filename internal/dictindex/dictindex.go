// Package dictindex is what arrowmap knows of dictionary index types: the
// largest index each holds, and the array of indices of each, written
// once for the encoders of mapper, the IPC dictionary code and the Parquet
// reader's restored dictionaries.
package dictindex

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Max is the largest index of the integer index type dt: of its row's
// width and sign; the largest uint64 for a type that is no integer.
func Max(dt arrow.DataType) uint64 {
	r := arrowtype.OfType(dt)
	if !r.Integer {
		return math.MaxUint64
	}
	bits := 8 * r.Bytes
	if r.Signed {
		bits--
	}
	return math.MaxUint64 >> (64 - bits)
}

// Array is an array of the integer index type dt holding indices, each at
// most Max(dt), a negative one null; an int64 array for a type that is no
// integer.
func Array(mem memory.Allocator, dt arrow.DataType, indices []int) arrow.Array {
	return arrayOfValue(arrowtype.OfType(dt).Value)(mem, dt, indices)
}

func arrayOf[I int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](mem memory.Allocator, dt arrow.DataType, indices []int) arrow.Array {
	n := len(indices)
	values := memory.NewResizableBuffer(mem)
	values.Resize(n * int(unsafe.Sizeof(I(0))))
	out := unsafe.Slice((*I)(unsafe.Pointer(unsafe.SliceData(values.Bytes()))), n)
	var bitmap *memory.Buffer
	nulls := 0
	for i, idx := range indices {
		if idx < 0 {
			if bitmap == nil {
				bitmap = memory.NewResizableBuffer(mem)
				bitmap.Resize(int(bitutil.BytesForBits(int64(n))))
				bitutil.SetBitsTo(bitmap.Bytes(), 0, int64(n), true)
			}
			bitutil.ClearBit(bitmap.Bytes(), i)
			nulls++
			idx = 0
		}
		out[i] = I(idx)
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, values}, nil, nulls, 0)
	defer data.Release()
	values.Release()
	if bitmap != nil {
		bitmap.Release()
	}
	return array.MakeFromData(data)
}

// OutOfRange is the position in d of its first valid index, of type
// indexType, that is not below size, and that index; -1 when there is
// none. It is an error when d's buffers are shorter than its rows or
// indexType is no integer.
func OutOfRange(d arrow.ArrayData, indexType arrow.DataType, size int) (int, int64, error) {
	if out := outOfRangeOf(arrowtype.OfType(indexType).Value); out != nil {
		return out(d, size)
	}
	return 0, 0, fmt.Errorf("dictionary index type %s is not an integer", indexType)
}

func outOfRange[I int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](d arrow.ArrayData, size int) (int, int64, error) {
	n := d.Len()
	if n == 0 {
		return -1, 0, nil
	}
	indices := arrowtype.Values[I](d)
	if len(indices) != n {
		return 0, 0, fmt.Errorf("the indices' buffer is shorter than the %d rows of the dictionary array", n)
	}
	var valid []byte
	if b := d.Buffers()[0]; b != nil {
		valid = b.Bytes()
		if int64(len(valid)) < bitutil.BytesForBits(int64(d.Offset()+n)) {
			return 0, 0, fmt.Errorf("the validity bitmap is shorter than the %d rows of the dictionary array", n)
		}
	}
	for i, index := range indices {
		// A negative index is a huge uint64: one comparison catches both.
		if uint64(int64(index)) >= uint64(size) && (valid == nil || bitutil.BitIsSet(valid, d.Offset()+i)) {
			return i, int64(index), nil
		}
	}
	return -1, 0, nil
}
