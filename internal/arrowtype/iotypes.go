package arrowtype

import "github.com/apache/arrow-go/v18/arrow"

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
}
