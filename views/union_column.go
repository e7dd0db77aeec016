package views

import (
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
)

// UnionColumn is a column of a sparse or dense union: row i is row
// ChildRow(i) of Child(ChildIndex(i)), the child its type code selects.
// Type codes were checked to be declared, and dense offsets to be inside
// their child, once, when the column was bound.
type UnionColumn struct {
	v    View
	node *Union
}

// UnionsOf is the column of v, a view of a union node.
func UnionsOf(v View) (UnionColumn, error) {
	n, ok := v.node.(*Union)
	if !ok {
		return UnionColumn{}, notColumn(v, "union")
	}
	return UnionColumn{v: v, node: n}, nil
}

// From is [UnionsOf], for [Column].
func (UnionColumn) From(v View) (UnionColumn, error) { return UnionsOf(v) }

// ViewType accepts a sparse or dense union, with every child of dt, each
// nullable and in its own encoding.
func (UnionColumn) ViewType(dt arrow.DataType) Type {
	if _, ok := Storage(dt).(arrow.UnionType); !ok {
		return Type{Accept: unions}
	}
	return TypeOf(dt)
}

// Len is the number of rows of the column.
func (c UnionColumn) Len() int { return c.v.Len() }

// IsNull reports whether row i is null: whether the child row it selects is.
func (c *UnionColumn) IsNull(i int) bool { return c.v.IsNull(i) }

// View is the view the column reads.
func (c UnionColumn) View() View { return c.v }

// Mode is the union's mode.
func (c UnionColumn) Mode() arrow.UnionMode { return c.node.Mode() }

// Codes are the type codes the union declares, one per child.
func (c UnionColumn) Codes() []arrow.UnionTypeCode { return c.node.Codes() }

// TypeCode is the type code of row i.
func (c *UnionColumn) TypeCode(i int) int8 {
	checkRow(i, c.v.w.Len)
	return c.node.codes[c.v.w.Offset+i]
}

// ChildIndex is the child row i selects.
func (c *UnionColumn) ChildIndex(i int) int {
	checkRow(i, c.v.w.Len)
	return c.node.ChildIndex(c.v.w.Offset + i)
}

// ChildRow is the row of row i in the child it selects: a row of
// Child(ChildIndex(i)).
func (c *UnionColumn) ChildRow(i int) int {
	checkRow(i, c.v.w.Len)
	return c.node.ChildRow(c.v.w.Offset + i)
}

// NumChildren is the number of children.
func (c UnionColumn) NumChildren() int { return c.node.NumChildren() }

// Child is the view of every row of child k, which ChildRow indexes.
func (c UnionColumn) Child(k int) View { return c.node.Child(k) }

// Value is row i as a plain Go value: the selected child's, or nil.
func (c *UnionColumn) Value(i int) any { return c.v.Value(i) }

// All yields each row, as Value.
func (c UnionColumn) All() iter.Seq2[int, any] {
	return func(yield func(int, any) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.v.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c UnionColumn) Slice(i, j int) UnionColumn {
	return UnionColumn{v: c.v.Slice(i, j), node: c.node}
}

// SliceFrom sets c to rows [i, j) of src, a *UnionColumn; see [Column].
func (c *UnionColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }
