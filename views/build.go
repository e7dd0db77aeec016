package views

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// build makes the node of one array whose datatype checkType accepted,
// checking its buffers on the way: after build, no read of the node can go
// out of range.
func build(d arrow.ArrayData, t *Type, p path) (builtin, error) {
	l, err := newLevel(d, arrowtype.Storage(d.DataType()), t, p)
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
	switch r := arrowtype.OfType(l.dt); r.Layout {
	case arrowtype.Null:
		return newNull(l), nil
	case arrowtype.Boolean:
		return newBool(d, l)
	case arrowtype.Fixed:
		if newNode := nodesOf(r.Value).primitive; newNode != nil {
			return newNode(d, l)
		}
	case arrowtype.Binary:
		if r.Large {
			return newBinary[int64](d, l)
		}
		return newBinary[int32](d, l)
	case arrowtype.View:
		return newBinaryView(d, l)
	case arrowtype.FixedBinary:
		return newFixedSizeBinary(d, l)
	case arrowtype.List:
		if r.Map && l.p.t.Elem == nil {
			// A map viewed by its keys and values; with an Elem type, as the
			// list of entries it is stored as, in order, duplicates and all.
			return newMap(d, l)
		}
		if r.Large {
			return newList[int64](d, l)
		}
		return newList[int32](d, l)
	case arrowtype.ListView:
		if r.Large {
			return newListView[int64](d, l)
		}
		return newListView[int32](d, l)
	case arrowtype.FixedList:
		return newFixedSizeList(d, l)
	case arrowtype.Struct:
		return newStruct(d, l)
	case arrowtype.Dictionary:
		return newDictionary(d, l)
	case arrowtype.RunEnd:
		return newRunEnd(d, l)
	case arrowtype.Union:
		return newUnion(d, l)
	}
	return nil, l.p.fail(ErrTypeMismatch, -1, "%s is not supported", l.dt)
}

// nodes are the constructors of the nodes whose buffer holds values of one
// Go type: as the values of a fixed-width array, as dictionary indices, as
// run ends. A nil constructor is a use the Go type has none of.
type nodes struct {
	primitive, dictionary, runEnd func(d arrow.ArrayData, l *level) (builtin, error)
}

func primitive[T any](d arrow.ArrayData, l *level) (builtin, error) { return newPrimitive[T](d, l) }

func dictionary[I integer](d arrow.ArrayData, l *level) (builtin, error) {
	return newDictionaryOf[I](d, l)
}

func runEnd[R int16 | int32 | int64](d arrow.ArrayData, l *level) (builtin, error) {
	return newRunEndOf[R](d, l)
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
	switch arrowtype.OfType(dt).Layout {
	case arrowtype.Null:
		l.nulls = l.n // no bitmap: the Null node answers for itself
	case arrowtype.RunEnd, arrowtype.Union:
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

// within is d cut to its first n rows, or d itself when n is all of
// them: what OfPrefix validates of a child, the rows its parent's rows
// reach. The null count of a cut is unknown, so newLevel counts it.
func within(d arrow.ArrayData, n int) arrow.ArrayData {
	if n >= d.Len() {
		return d
	}
	return prefixData{ArrayData: d, n: max(n, 0)}
}

// prefixData is the first n rows of an array's data.
type prefixData struct {
	arrow.ArrayData
	n int
}

func (d prefixData) Len() int   { return d.n }
func (d prefixData) NullN() int { return -1 }

// reach is d cut, under OfPrefix, to the first n rows that its parent's
// rows reach; otherwise d whole.
func reach(d arrow.ArrayData, n int, p *path) arrow.ArrayData {
	if !p.prefix {
		return d
	}
	return within(d, n)
}

// child is child i of d, or an error when d has too few children.
func child(d arrow.ArrayData, i int, p *path) (arrow.ArrayData, error) {
	children := d.Children()
	if i >= len(children) || children[i] == nil {
		return nil, p.fail(ErrInvalidData, -1, "missing child %d", i)
	}
	return children[i], nil
}
