package mapper

import (
	"reflect"
	"time"
	"unsafe"
)

// strided is a column of destinations in memory: the i-th at base+i*stride.
// A field of consecutive structs is strided by the struct size; the
// elements of a slice's backing array by the element size.
type strided struct {
	base   unsafe.Pointer
	stride uintptr
}

// at is the address of destination i. Every element address in the
// decoders goes through it (or from), so that it is computed one way.
func (s strided) at(i int) unsafe.Pointer { return unsafe.Add(s.base, uintptr(i)*s.stride) }

// from is the destinations from i on: a run of them that starts at i. i must
// be a destination, not one past the last, or the base would point outside
// its allocation, which checkptr (-race) rejects.
func (s strided) from(i int) strided { return strided{s.at(i), s.stride} }

// field is the column of field at offset off of each destination.
func (s strided) field(off uintptr) strided { return strided{unsafe.Add(s.base, off), s.stride} }

// sliceHeader is the memory layout of every Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// zeroBase is where empty, non-nil slices point, as the runtime's own do.
var zeroBase [0]uint64

// newArray allocates n zeroed values of t, in one allocation.
func newArray(st reflect.Type, n int) unsafe.Pointer {
	if n == 0 {
		return unsafe.Pointer(&zeroBase)
	}
	return reflect.MakeSlice(st, n, n).UnsafePointer()
}

// setSlice writes the slice of n values at data into dst. An empty slice
// still points somewhere, so that it is not nil.
func setSlice(dst, data unsafe.Pointer, n int) {
	if n == 0 {
		data = unsafe.Pointer(&zeroBase)
	}
	*(*sliceHeader)(dst) = sliceHeader{data: data, len: n, cap: n}
}

// mover copies one value of a Go type from src to dst, with the write
// barriers the garbage collector needs for the pointers it holds.
type mover func(dst, src unsafe.Pointer)

func moverOf(t reflect.Type) mover {
	size := t.Size()
	if !hasPointers(t) {
		return func(dst, src unsafe.Pointer) {
			copy(unsafe.Slice((*byte)(dst), size), unsafe.Slice((*byte)(src), size))
		}
	}
	switch {
	case t.Kind() == reflect.String:
		return func(dst, src unsafe.Pointer) { *(*string)(dst) = *(*string)(src) }
	case t.Kind() == reflect.Slice:
		return func(dst, src unsafe.Pointer) { *(*sliceHeader)(dst) = *(*sliceHeader)(src) }
	case t.Kind() == reflect.Pointer || t.Kind() == reflect.Map:
		return func(dst, src unsafe.Pointer) { *(*unsafe.Pointer)(dst) = *(*unsafe.Pointer)(src) }
	case t == timeType:
		return func(dst, src unsafe.Pointer) { *(*time.Time)(dst) = *(*time.Time)(src) }
	}
	// A struct or array holding pointers: rare enough (dictionary-encoded
	// structs) to copy through reflection.
	return func(dst, src unsafe.Pointer) {
		reflect.NewAt(t, dst).Elem().Set(reflect.NewAt(t, src).Elem())
	}
}

func hasPointers(t reflect.Type) bool {
	switch reflectKinds[t.Kind()] {
	case kindBool, kindInt, kindUint, kindFloat:
		return false
	}
	switch t.Kind() {
	case reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

// holdsReferences reports whether values of t can share mutable memory:
// they hold slices, maps or pointers (strings are immutable, and so shared
// safely).
func holdsReferences(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Chan, reflect.UnsafePointer:
		return t != timeType
	case reflect.Array:
		return t.Len() > 0 && holdsReferences(t.Elem())
	case reflect.Struct:
		if t == timeType {
			return false // its *Location is shared by design
		}
		for i := range t.NumField() {
			if holdsReferences(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
