package mapper

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// DecodeArray decodes every value of arr into a []E, for E any type a
// struct field can have: int64, *string, []string, map[string]int32,
// time.Time, a struct, [4]byte, … — a single column, or a list's child,
// without a record. It goes through the plan Decode would compile for a
// struct with one field of type E, cached the same way, with the same
// options and semantics: a null is nil in a pointer, slice or map, and an
// ErrNull in any other E; an Arrow type E cannot hold is an
// ErrTypeMismatch before any value is read. Only the window of a sliced
// arr is decoded. It returns nil when arr has no values.
//
// Errors are *Error values whose Path and Column start at the element: ""
// for arr itself, "[]" and "item" for a list's elements, "Qty" and "qty"
// for the field Qty of a struct E, as the Path and Column of a field of E
// would read without the field. With an error about a value, the values
// before it are returned, as Decode returns the rows before a row's error.
func DecodeArray[E any](arr arrow.Array, opts ...ReadOption) ([]E, error) {
	if arr == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil array")
	}
	dt := arr.DataType()
	if dt == nil || arr.Len() < 0 {
		return nil, newError(ErrInvalidData, "", "", -1, "an array without a data type or a length")
	}
	o, err := optionsFor("DecodeArray", decodeOptions, opts)
	if err != nil {
		return nil, err
	}
	row := elemRowOf(reflect.TypeFor[E]())
	schema := arrow.NewSchema([]arrow.Field{{Name: elemColumn, Type: dt, Nullable: true}}, nil)
	p, err := cachedDecodePlan(row, schema, o)
	if err != nil {
		return nil, arrayError(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	b, err := mapping{plan: p, schema: schema, run: o.run()}.view(rec)
	if err != nil {
		err = arrayError(err)
	}
	if b.w.Len == 0 {
		return nil, err
	}
	// A struct of one field is laid out as the field: the rows are the
	// elements.
	out := make([]E, b.w.Len)
	b.decode(unsafe.Pointer(unsafe.SliceData(out)), nil)
	return out, err
}

// EncodeArray writes values into a new array, exactly the column Encode
// writes for a struct field of type E (untagged), through the same plans:
// a nil pointer, slice or map is null. A value that does not fit is an
// *Error whose Row is its index, Path and Column as DecodeArray's. The
// array must be released by the caller.
func EncodeArray[E any](values []E, opts ...WriteOption) (arrow.Array, error) {
	o, err := optionsFor("EncodeArray", arrayOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(elemRowOf(reflect.TypeFor[E]()), o)
	if err != nil {
		return nil, arrayError(err)
	}
	w := p.writerFor(o.mem)
	defer p.done(w)
	// The elements are the rows of the one-field struct, laid out alike.
	if err := w.append(unsafe.Pointer(unsafe.SliceData(values)), len(values)); err != nil {
		return nil, arrayError(err)
	}
	rec := w.newRecordBatch()
	defer rec.Release()
	col := rec.Column(0)
	col.Retain()
	return col, nil
}

// elemField and elemColumn are the field of the struct DecodeArray and
// EncodeArray wrap their element type in, and its column.
const elemField, elemColumn = "Elem", "elem"

var elemRows sync.Map // element type → its one-field struct type

// elemRowOf is struct{ Elem E `arrow:"elem"` }, whose size, alignment and
// pointers are E's: a []E is a slice of them.
func elemRowOf(e reflect.Type) reflect.Type {
	if t, ok := elemRows.Load(e); ok {
		return t.(reflect.Type)
	}
	t := reflect.StructOf([]reflect.StructField{{Name: elemField, Type: e, Tag: `arrow:"` + elemColumn + `"`}})
	actual, _ := elemRows.LoadOrStore(e, t)
	return actual.(reflect.Type)
}

// arrayError is err with the wrapping field left out of its paths.
func arrayError(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	out := *e
	out.Path = withoutLevel(e.Path, elemField)
	out.Column = withoutLevel(e.Column, elemColumn)
	return &out
}

// withoutLevel is path without its first level, top: "Elem[]" → "[]",
// "Elem.Qty" → "Qty", "Elem" → "".
func withoutLevel(path, top string) string {
	rest, ok := strings.CutPrefix(path, top)
	switch {
	case !ok:
		return path
	case strings.HasPrefix(rest, "."):
		return rest[1:]
	case rest == "" || strings.HasPrefix(rest, "["):
		return rest
	}
	return path
}
