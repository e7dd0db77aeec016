package arrowtype

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// What arrow-go's arrays, builders and types of each layout offer, as
// interfaces: code reads and builds them through these, by a row's
// layout, without naming their concrete types.

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

// BinaryArray is what a binary, large_binary or binary_view array gives
// beside arrow.Array: each value's bytes as a string.
type BinaryArray interface {
	arrow.Array
	ValueString(i int) string
}

// FixedBinaryArray is what a fixed_size_binary array gives beside
// arrow.Array: each value's bytes, of the type's width.
type FixedBinaryArray interface {
	arrow.Array
	Value(i int) []byte
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

// StructLike is what a struct type has beyond arrow.NestedType: its fields
// by position and by name, without copying them. Assert it of a type of
// Layout Struct.
type StructLike interface {
	arrow.NestedType
	// Field is field i.
	Field(i int) arrow.Field
	// FieldIndices is the positions of the fields called name.
	FieldIndices(name string) []int
}
