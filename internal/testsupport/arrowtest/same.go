// Package arrowtest holds what the tests of several packages compare Arrow
// data with. It imports nothing of arrowmap's, so that a comparison never
// shares code with what it checks.
package arrowtest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// dictionaryArray and structArray are what arrow-go's dictionary and
// struct arrays give (arrowtype names them too, but this package imports
// nothing of arrowmap's).
type (
	dictionaryArray interface {
		arrow.Array
		Dictionary() arrow.Array
		GetValueIndex(i int) int
	}
	structArray interface {
		arrow.Array
		NumField() int
		Field(i int) arrow.Array
	}
)

// SameValue reports whether row i of a and row j of b, arrays of one type,
// hold the same value as Arrow defines it: the same nullness, then the same
// dictionary value, elements, fields or entries (a map's in order), or the
// same primitive. array.Equal also compares what the format leaves
// unspecified — the children of a null struct row, which a Go pointer does
// not keep — and a dictionary's layout rather than its values.
func SameValue(a arrow.Array, i int, b arrow.Array, j int) bool {
	if IsNull(a, i) || IsNull(b, j) {
		return IsNull(a, i) && IsNull(b, j)
	}
	switch a := a.(type) {
	case dictionaryArray:
		b, ok := b.(dictionaryArray)
		return ok && SameValue(a.Dictionary(), a.GetValueIndex(i), b.Dictionary(), b.GetValueIndex(j))
	case array.ExtensionArray:
		b, ok := b.(array.ExtensionArray)
		return ok && SameValue(a.Storage(), i, b.Storage(), j)
	case structArray:
		b, ok := b.(structArray)
		if !ok || a.NumField() != b.NumField() {
			return false
		}
		for k := range a.NumField() {
			if !SameValue(a.Field(k), i, b.Field(k), j) {
				return false
			}
		}
		return true
	case array.ListLike:
		b, ok := b.(array.ListLike)
		if !ok {
			return false
		}
		as, ae := a.ValueOffsets(i)
		bs, be := b.ValueOffsets(j)
		if ae-as != be-bs {
			return false
		}
		for k := range ae - as {
			if !SameValue(a.ListValues(), int(as+k), b.ListValues(), int(bs+k)) {
				return false
			}
		}
		return true
	}
	return array.SliceEqual(a, int64(i), int64(i+1), b, int64(j), int64(j+1))
}

// IsNull reports whether row i of a is null, a dictionary's row also when
// its index points to a null entry.
func IsNull(a arrow.Array, i int) bool {
	if d, ok := a.(dictionaryArray); ok && d.IsValid(i) {
		return d.Dictionary().IsNull(d.GetValueIndex(i))
	}
	return a.IsNull(i)
}
