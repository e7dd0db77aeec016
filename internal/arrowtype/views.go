package arrowtype

import "github.com/apache/arrow-go/v18/arrow"

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
