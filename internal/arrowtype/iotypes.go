package arrowtype

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// StructArray is what a struct array gives beside arrow.Array: its fields,
// each sliced to the struct's offset and length.
type StructArray interface {
	arrow.Array
	NumField() int
	Field(i int) arrow.Array
}

// DictionaryArray is what a dictionary array gives beside arrow.Array: its
// dictionary, and for each slot the index of its value in it.
type DictionaryArray interface {
	arrow.Array
	Dictionary() arrow.Array
	Indices() arrow.Array
	GetValueIndex(i int) int
}

// RunEndArray is what a run-end encoded array gives beside arrow.Array:
// its run ends and values, and the physical slots of its logical window.
type RunEndArray interface {
	arrow.Array
	RunEndsArr() arrow.Array
	Values() arrow.Array
	GetPhysicalOffset() int
	GetPhysicalLength() int
	GetPhysicalIndex(i int) int
}

// OffsetsArray is what a binary or utf8 array (O int32) or a large one
// (O int64) gives beside arrow.Array: the offsets of its window's values
// (one more than its length) and their bytes, from the first one's start.
type OffsetsArray[O int32 | int64] interface {
	arrow.Array
	ValueOffsets() []O
	ValueBytes() []byte
}

// TextArray is what a utf8, large_utf8 or utf8_view array gives beside
// arrow.Array: each value as a string.
type TextArray interface {
	arrow.Array
	Value(i int) string
}

// DenseUnionArray is what a dense union array gives beside array.Union:
// the row of its child that each slot is.
type DenseUnionArray interface {
	array.Union
	ValueOffset(i int) int32
}

// SinceEpoch is x, a value of a date, timestamp or time type of r in unit
// (unit is ignored for dates), as a count of the returned unit: a date32's
// days in seconds, a date64's milliseconds, the others in their own unit.
func (r *Row) SinceEpoch(x int64, unit arrow.TimeUnit) (int64, arrow.TimeUnit) {
	if r.Temporal == Date {
		if r.Bytes == 4 {
			return x * SecondsPerDay, arrow.Second
		}
		return x, arrow.Millisecond
	}
	return x, unit
}

// PerSecond is how many of unit make a second.
func PerSecond(unit arrow.TimeUnit) int64 { return int64(time.Second / unit.Multiplier()) }

// IntegerOf is the integer type whose buffers hold values of v (int32 for
// date32 and time32): the type a column's storage integers are read as.
func IntegerOf(v Value) (arrow.DataType, bool) {
	for _, r := range rows {
		if r.Integer && r.Value == v {
			return r.plain, true
		}
	}
	return nil, false
}

// MapLike is the map of key and item whose keys are sorted as those of
// the map like; false where WithElem is.
func MapLike(like arrow.DataType, key, item arrow.Field) (arrow.DataType, bool) {
	return WithElem(like, arrow.Field{Name: "entries", Type: arrow.StructOf(key, item)})
}

// BinaryArray is what a binary, large_binary or binary_view array gives
// beside arrow.Array: each value's bytes as a string.
type BinaryArray interface {
	arrow.Array
	ValueString(i int) string
}

// Named is the row ByName finds for name, which must be one (a name the
// code spells): it panics for another.
func Named(name string) *Row {
	r, ok := ByName(name)
	if !ok {
		panic("arrowtype: no type " + name)
	}
	return r
}

// MustWithUnit is r.WithUnit for a unit the code knows r takes: it panics
// for another.
func (r *Row) MustWithUnit(unit arrow.TimeUnit, zone string) arrow.DataType {
	dt, err := r.WithUnit(unit, zone)
	if err != nil {
		panic("arrowtype: " + err.Error())
	}
	return dt
}

// Appender, ListAppender, StructAppender and MapAppender are what
// arrow-go's builders do, by the Go values they take: the builder of an
// Arrow type's values is an Appender of its Go type (of [Row.GoType]'s
// buffer value, arrow.Timestamp for a timestamp).
type (
	Appender[T any] interface {
		array.Builder
		Append(T)
		AppendValues(values []T, valid []bool)
	}
	ListAppender interface {
		array.Builder
		Append(bool)
		ValueBuilder() array.Builder
	}
	StructAppender interface {
		array.Builder
		Append(bool)
		FieldBuilder(i int) array.Builder
	}
	MapAppender interface {
		array.Builder
		Append(bool)
		KeyBuilder() array.Builder
		ItemBuilder() array.Builder
	}
)
