package arrowtype

import "unsafe"

// AppendValues is the bulk append of arrow-go's builder b of a Fixed
// layout, over values of its buffer's Go type V (int32 for date32 and
// time32, whose builders take arrow-go's named integers of it): b's
// AppendValues(values, valid). It is false when b takes no values of V's
// memory.
func AppendValues[V FixedValue](b any) (func(values []V, valid []bool), bool) {
	return appendValues[V](b)
}

// appendAs is the AppendValues of a builder that takes values of T, whose
// memory is V's, over values of V.
func appendAs[V FixedValue, T ~int32 | ~int64](b any) (func([]V, []bool), bool) {
	a, ok := b.(interface{ AppendValues([]T, []bool) })
	if !ok || unsafe.Sizeof(*new(T)) != unsafe.Sizeof(*new(V)) || !integerValue[V]() {
		return nil, false
	}
	return func(values []V, valid []bool) {
		a.AppendValues(unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(values))), len(values)), valid)
	}, true
}

// integerValue is whether V is a signed integer, whose memory a named
// integer of its width shares.
func integerValue[V FixedValue]() bool {
	v := ValueOf[V]()
	return v == Int32 || v == Int64
}
