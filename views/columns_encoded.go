package views

import (
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// DictionaryIndex is the Go types of dictionary indices.
type DictionaryIndex interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

// RunEndIndex is the Go types of run ends.
type RunEndIndex interface{ int16 | int32 | int64 }

// DictionaryColumn is a dictionary-encoded column with indices of type I
// (int32 is what arrow-go and Parquet write) and entries read as a column
// of kind V: row i is entry Index(i) of Dictionary(). Reading through the
// indices keeps each distinct value decoded, compared or hashed once.
type DictionaryColumn[I DictionaryIndex, V Column[V]] struct {
	v       View
	node    *Dictionary[I]
	indices []I // the window's rows'
	nulls   slice.Bitmap
	dict    V
	// entryNulls: some entry is null, so a valid index can still be a null
	// row.
	entryNulls bool
}

// DictionariesOf is the dictionary column over v, whose node must be a
// dictionary with indices of type I and entries V can read.
func DictionariesOf[I DictionaryIndex, V Column[V]](v View) (DictionaryColumn[I, V], error) {
	n, ok := v.node.(*Dictionary[I])
	if !ok {
		return DictionaryColumn[I, V]{}, notColumn(v, fmt.Sprintf("dictionary with %T indices", *new(I)))
	}
	var zero V
	dict, err := zero.From(n.Values())
	if err != nil {
		return DictionaryColumn[I, V]{}, err
	}
	w := v.w
	return DictionaryColumn[I, V]{
		v: v, node: n, indices: n.indices[w.Offset:w.End():w.End()], nulls: n.validity.Slice(w.Offset),
		dict: dict, entryNulls: n.values.lvl().nulls > 0,
	}, nil
}

// From is DictionariesOf.
func (DictionaryColumn[I, V]) From(v View) (DictionaryColumn[I, V], error) {
	return DictionariesOf[I, V](v)
}

// ViewType accepts a dictionary whose entries V reads. The index type is
// checked when the column is bound.
func (DictionaryColumn[I, V]) ViewType(dt arrow.DataType) Type {
	return encodedType[V](dt, dictionaries)
}

// encodedType is the Type of a dictionary or run-end encoded dt (of the
// encoding kind accepts) whose values V reads: V's Type of the value type,
// which also accepts kind, the values being the same column in another
// encoding.
func encodedType[V Column[V]](dt arrow.DataType, kind Accept) Type {
	storage := Storage(dt)
	value, ok := arrowtype.Encoded(storage)
	if !kind.Has(storage.ID()) || !ok || value == nil {
		return Type{Accept: kind}
	}
	var zero V
	t := zero.ViewType(value)
	t.Accept |= kind
	return t
}

// Len is the number of rows of the column.
func (c DictionaryColumn[I, V]) Len() int { return len(c.indices) }

// View is the view the column reads.
func (c DictionaryColumn[I, V]) View() View { return c.v }

// Index is the entry of row i in Dictionary(), or -1 for a null row: a
// null index, or one that refers to a null entry.
func (c *DictionaryColumn[I, V]) Index(i int) int {
	k := int(c.indices[i])
	if c.nulls.IsNull(i) || c.entryNulls && c.node.values.IsNull(k) {
		return -1
	}
	return k
}

// IsNull reports whether row i is null.
func (c *DictionaryColumn[I, V]) IsNull(i int) bool { return c.Index(i) < 0 }

// Indices is the index of every row, aliasing the array's buffer. The
// index of a row whose index is null is unspecified, and may be out of
// range.
func (c DictionaryColumn[I, V]) Indices() []I { return c.indices }

// Dictionary is every entry, which rows refer to by index.
func (c DictionaryColumn[I, V]) Dictionary() V { return c.dict }

// All yields each row and its entry, as Index.
func (c DictionaryColumn[I, V]) All() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := range c.indices {
			if !yield(i, c.Index(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c DictionaryColumn[I, V]) Slice(i, j int) DictionaryColumn[I, V] {
	c.v = c.v.Slice(i, j)
	c.indices, c.nulls = c.indices[i:j:j], c.nulls.Slice(i)
	return c
}

// SliceFrom sets c to rows [i, j) of src, a *DictionaryColumn; see [Column].
func (c *DictionaryColumn[I, V]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// RunEndColumn is a run-end encoded column with run ends of type R and
// run values read as a column of kind V: row i is value Run(i) of Values().
// Code that works run by run reads each value once.
type RunEndColumn[R RunEndIndex, V Column[V]] struct {
	v      View
	node   *RunEnd[R]
	runs   slice.Window // the node's runs the window's rows are in
	values V            // their values, run 0 the one row 0 is in
}

// RunEndsOf is the run-end encoded column over v, whose node must have run
// ends of type R and values V can read.
func RunEndsOf[R RunEndIndex, V Column[V]](v View) (RunEndColumn[R, V], error) {
	n, ok := v.node.(*RunEnd[R])
	if !ok {
		return RunEndColumn[R, V]{}, notColumn(v, fmt.Sprintf("run_end_encoded with %T run ends", *new(R)))
	}
	runs := n.Runs(v.w)
	var zero V
	values, err := zero.From(n.Values().Slice(runs.Offset, runs.End()))
	if err != nil {
		return RunEndColumn[R, V]{}, err
	}
	return RunEndColumn[R, V]{v: v, node: n, runs: runs, values: values}, nil
}

// From is RunEndsOf.
func (RunEndColumn[R, V]) From(v View) (RunEndColumn[R, V], error) { return RunEndsOf[R, V](v) }

// ViewType accepts a run-end encoded array whose values V reads. The run
// end type is checked when the column is bound.
func (RunEndColumn[R, V]) ViewType(dt arrow.DataType) Type {
	return encodedType[V](dt, runEnds)
}

// Len is the number of rows of the column.
func (c RunEndColumn[R, V]) Len() int { return c.v.Len() }

// View is the view the column reads.
func (c RunEndColumn[R, V]) View() View { return c.v }

// Values is the value of each run the rows are in, in order.
func (c RunEndColumn[R, V]) Values() V { return c.values }

// NumRuns is the number of runs the rows are in: Values().Len().
func (c RunEndColumn[R, V]) NumRuns() int { return c.runs.Len }

// Run is the run row i is in: an index into Values().
func (c *RunEndColumn[R, V]) Run(i int) int {
	checkRow(i, c.v.w.Len)
	return c.node.Physical(c.v.w.Offset+i) - c.runs.Offset
}

// RunEnd is the row after the last row of run k, at most Len(): run k
// covers rows [RunEnd(k-1), RunEnd(k)), run 0 from row 0.
func (c *RunEndColumn[R, V]) RunEnd(k int) int {
	if uint(k) >= uint(c.runs.Len) {
		panic(outOfRange{"run", k, c.runs.Len})
	}
	end := int(c.node.runEnds[c.runs.Offset+k]) - c.node.off - c.v.w.Offset
	return min(end, c.v.w.Len)
}

// IsNull reports whether row i is null: whether its run's value is.
func (c *RunEndColumn[R, V]) IsNull(i int) bool {
	return c.node.values.IsNull(c.runs.Offset + c.Run(i))
}

// All yields each row and its run, as Run, in one pass over the runs.
func (c RunEndColumn[R, V]) All() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		i := 0
		for k := range c.runs.Len {
			for end := c.RunEnd(k); i < end; i++ {
				if !yield(i, k) {
					return
				}
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c RunEndColumn[R, V]) Slice(i, j int) RunEndColumn[R, V] {
	v := c.v.Slice(i, j)
	runs := c.node.Runs(v.w)
	lo := runs.Offset - c.runs.Offset
	return RunEndColumn[R, V]{v: v, node: c.node, runs: runs, values: c.values.Slice(lo, lo+runs.Len)}
}

// SliceFrom sets c to rows [i, j) of src, a *RunEndColumn; see [Column].
func (c *RunEndColumn[R, V]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }
