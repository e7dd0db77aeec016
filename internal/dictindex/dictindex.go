// Package dictindex is what arrowmap knows of dictionary index types: the
// largest index each holds, and the array of indices of each, written
// once for the encoders of mapper, the IPC dictionary code and the Parquet
// reader's restored dictionaries.
package dictindex

import (
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
