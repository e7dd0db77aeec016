package views

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/arrowmap/arrowmap/slice"
)

// build makes the node of one array whose datatype checkType accepted,
// checking its buffers on the way: after build, no read of the node can go
// out of range.
func build(d arrow.ArrayData, t *Type, p path) (builtin, error) {
	l, err := newLevel(d, Storage(d.DataType()), t, p)
	if err != nil {
		return nil, err
	}
	return buildLevel(d, l)
}

// buildChild is build for a child whose datatype its parent declares. The
// parent's datatype is what checkType checked, but build reads the child by
// its own: a child of another datatype would be read unchecked, or as a type
// whose children t does not describe.
func buildChild(d arrow.ArrayData, want arrow.DataType, t *Type, p path) (builtin, error) {
	if !arrow.TypeEqual(d.DataType(), want) {
		return nil, p.fail(ErrInvalidData, -1, "child of datatype %s where its parent declares %s", d.DataType(), want)
	}
	return build(d, t, p)
}

// buildLevel makes the node of d once newLevel has checked its level.
func buildLevel(d arrow.ArrayData, l *level) (builtin, error) {
	switch l.dt.ID() {
	case arrow.NULL:
		return newNull(l), nil
	case arrow.BOOL:
		return newBool(d, l)
	case arrow.INT8:
		return newPrimitive[int8](d, l)
	case arrow.INT16:
		return newPrimitive[int16](d, l)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return newPrimitive[int32](d, l)
	case arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return newPrimitive[int64](d, l)
	case arrow.UINT8:
		return newPrimitive[uint8](d, l)
	case arrow.UINT16:
		return newPrimitive[uint16](d, l)
	case arrow.UINT32:
		return newPrimitive[uint32](d, l)
	case arrow.UINT64:
		return newPrimitive[uint64](d, l)
	case arrow.FLOAT16:
		return newPrimitive[float16.Num](d, l)
	case arrow.FLOAT32:
		return newPrimitive[float32](d, l)
	case arrow.FLOAT64:
		return newPrimitive[float64](d, l)
	case arrow.DECIMAL32:
		return newPrimitive[decimal.Decimal32](d, l)
	case arrow.DECIMAL64:
		return newPrimitive[decimal.Decimal64](d, l)
	case arrow.DECIMAL128:
		return newPrimitive[decimal.Decimal128](d, l)
	case arrow.DECIMAL256:
		return newPrimitive[decimal.Decimal256](d, l)
	case arrow.INTERVAL_MONTHS:
		return newPrimitive[arrow.MonthInterval](d, l)
	case arrow.INTERVAL_DAY_TIME:
		return newPrimitive[arrow.DayTimeInterval](d, l)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return newPrimitive[arrow.MonthDayNanoInterval](d, l)
	case arrow.STRING, arrow.BINARY:
		return newBinary[int32](d, l)
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return newBinary[int64](d, l)
	case arrow.STRING_VIEW, arrow.BINARY_VIEW:
		return newBinaryView(d, l)
	case arrow.FIXED_SIZE_BINARY:
		return newFixedSizeBinary(d, l)
	case arrow.LIST, arrow.MAP:
		return newList[int32](d, l)
	case arrow.LARGE_LIST:
		return newList[int64](d, l)
	case arrow.LIST_VIEW:
		return newListView[int32](d, l)
	case arrow.LARGE_LIST_VIEW:
		return newListView[int64](d, l)
	case arrow.FIXED_SIZE_LIST:
		return newFixedSizeList(d, l)
	case arrow.STRUCT:
		return newStruct(d, l)
	case arrow.DICTIONARY:
		return newDictionary(d, l)
	case arrow.RUN_END_ENCODED:
		return newRunEnd(d, l)
	case arrow.SPARSE_UNION, arrow.DENSE_UNION:
		return newUnion(d, l)
	}
	return nil, l.p.fail(ErrTypeMismatch, -1, "%s is not supported", l.dt)
}

// newLevel checks the length, offset and validity bitmap of d.
func newLevel(d arrow.ArrayData, dt arrow.DataType, t *Type, p path) (*level, error) {
	l := &level{n: d.Len(), dt: dt, p: p}
	l.p.t = t
	off := d.Offset()
	if l.n < 0 || off < 0 || off > maxRows || l.n > maxRows-off {
		return nil, l.p.fail(ErrInvalidData, -1, "length %d at offset %d out of range", l.n, off)
	}
	declared := d.NullN()
	switch id := dt.ID(); {
	case id == arrow.NULL:
		l.nulls = l.n // no bitmap: the Null node answers for itself
	case id == arrow.RUN_END_ENCODED || id == arrow.SPARSE_UNION || id == arrow.DENSE_UNION:
		// No validity bitmap of their own: nulls live in the values.
		if bits := buffer(d, 0); len(bits) > 0 {
			return nil, l.p.fail(ErrInvalidData, -1, "%s with a validity bitmap", dt)
		}
	default:
		bits := buffer(d, 0)
		if bits == nil {
			if declared > 0 {
				return nil, l.p.fail(ErrInvalidData, -1, "null count %d without a validity bitmap", declared)
			}
			break
		}
		if len(bits) < bytesFor(off+l.n) {
			return nil, l.p.fail(ErrInvalidData, -1, "validity bitmap of %d bytes for %d rows at offset %d", len(bits), l.n, off)
		}
		l.validity = slice.Bitmap{Bits: bits, Offset: off}
		// A null count of 0 is checked by finding no null, which stops at
		// the first and tests four words at a time: 3× faster than counting.
		if declared != 0 || l.validity.FirstNull(slice.Whole(l.n)) >= 0 {
			l.nulls = l.validity.CountNulls(slice.Whole(l.n))
		}
		if l.nulls == 0 {
			l.validity = slice.Bitmap{}
		}
		if declared >= 0 && declared != l.nulls {
			return nil, l.p.fail(ErrInvalidData, -1, "null count %d contradicts the validity bitmap, which has %d", declared, l.nulls)
		}
	}
	l.clean = t.Nullable || l.nulls == 0
	return l, nil
}

// maxRows bounds lengths and offsets so that no index arithmetic overflows.
const maxRows = 1 << 48

func bytesFor(bits int) int { return (bits + 7) / 8 }

// buffer is buffer i of d, or nil.
func buffer(d arrow.ArrayData, i int) []byte {
	bufs := d.Buffers()
	if i >= len(bufs) || bufs[i] == nil {
		return nil
	}
	return bufs[i].Bytes()
}

// fixed is buffer i of d as n values of T from element offset off, checked
// long enough. A buffer that is not aligned for T is copied.
func fixed[T any](d arrow.ArrayData, i, off, n int, p *path, what string) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := buffer(d, i)
	if n == 0 {
		return nil, nil
	}
	if len(b)/size < off+n {
		return nil, p.fail(ErrInvalidData, -1, "%s buffer of %d bytes for %d values at offset %d", what, len(b), n, off)
	}
	b = b[off*size : (off+n)*size]
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) != 0 {
		aligned := make([]T, n)
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&aligned[0])), len(b)), b)
		return aligned, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), nil
}

// child is child i of d, or an error when d has too few children.
func child(d arrow.ArrayData, i int, p *path) (arrow.ArrayData, error) {
	children := d.Children()
	if i >= len(children) || children[i] == nil {
		return nil, p.fail(ErrInvalidData, -1, "missing child %d", i)
	}
	return children[i], nil
}
