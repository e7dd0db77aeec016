package views

import (
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// ListColumn is a column of list or large_list rows, each a column of
// kind E over its elements: ListColumn[PrimitiveColumn[float64]] reads row
// i as the PrimitiveColumn[float64] of its elements, without building
// anything.
type ListColumn[E Column[E]] struct {
	v     View
	off32 []int32 // the window's rows' offsets into the child, len rows+1
	off64 []int64
	nulls slice.Bitmap
	elems E // the child rows the window reaches, from the first row's offset
}

// ListsOf is the list column over v, whose node must be a list or
// large_list array with elements E can read.
func ListsOf[E Column[E]](v View) (ListColumn[E], error) {
	c := ListColumn[E]{v: v}
	w := v.w
	var child View
	switch n := v.node.(type) {
	case *List[int32]:
		c.off32, c.nulls, child = n.offsets[w.Offset:w.End()+1], n.validity.Slice(w.Offset), n.Child(w)
	case *List[int64]:
		c.off64, c.nulls, child = n.offsets[w.Offset:w.End()+1], n.validity.Slice(w.Offset), n.Child(w)
	default:
		return ListColumn[E]{}, notColumn(v, "list|large_list")
	}
	var zero E
	elems, err := zero.From(child)
	if err != nil {
		return ListColumn[E]{}, err
	}
	c.elems = elems
	return c, nil
}

// From is ListsOf.
func (ListColumn[E]) From(v View) (ListColumn[E], error) { return ListsOf[E](v) }

// ViewType accepts list and large_list, with elements as E's ViewType.
func (ListColumn[E]) ViewType(dt arrow.DataType) Type {
	return Type{Accept: lists, Elem: elemType[E](dt, lists)}
}

// Len is the number of rows of the column.
func (c ListColumn[E]) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *ListColumn[E]) IsNull(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c ListColumn[E]) View() View { return c.v }

// offset is the child offset of row i, where it starts; offset(Len()) is
// where the last row ends.
func (c *ListColumn[E]) offset(i int) int {
	if c.off64 != nil {
		return int(c.off64[i])
	}
	return int(c.off32[i])
}

// start is where row i starts in Elements.
func (c *ListColumn[E]) start(i int) int { return c.offset(i) - c.offset(0) }

// Offsets is where each row starts in the list's child, and where the last
// ends: len Len()+1, aliasing the array's buffer, as the array has them — a
// null row may span elements there, which ValueLen and Value do not count.
// It is nil for a large_list: see LargeOffsets.
func (c ListColumn[E]) Offsets() []int32 { return c.off32 }

// LargeOffsets is Offsets for a large_list, nil for a list.
func (c ListColumn[E]) LargeOffsets() []int64 { return c.off64 }

// ValueLen is the number of elements of row i, 0 for a null row (whatever
// its offsets say: the Arrow format leaves a null row's span unspecified).
// It masks with the row's validity bit rather than branching on it, which
// mispredicts on rows null at random: a loop summing it over 100k rows, one
// in eight null at random, takes the time of arrow-go's IsValid and
// ValueOffsets loop (bench/RESULTS.md). It tells list from large_list
// itself, not through offset, to stay cheap enough to inline.
func (c *ListColumn[E]) ValueLen(i int) int {
	var n int
	if off := c.off32; off != nil {
		n = int(off[i+1] - off[i])
	} else {
		n = int(c.off64[i+1] - c.off64[i])
	}
	return n & -c.nulls.Bit(i)
}

// Value is the elements of row i, none for a null row.
func (c *ListColumn[E]) Value(i int) E {
	start := c.start(i)
	return c.elems.Slice(start, start+c.ValueLen(i))
}

// Elements is the elements of every row of the column, in order: a valid
// row i is Elements().Slice(start, end) for the offsets of row i relative
// to row 0.
func (c ListColumn[E]) Elements() E { return c.elems }

// All yields each row and its elements, as Value.
func (c ListColumn[E]) All() iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c ListColumn[E]) Slice(i, j int) ListColumn[E] {
	v := c.v.Slice(i, j)
	out := ListColumn[E]{v: v, nulls: c.nulls.Slice(i), elems: c.elems.Slice(c.start(i), c.start(j))}
	if c.off64 != nil {
		out.off64 = c.off64[i : j+1]
	} else {
		out.off32 = c.off32[i : j+1]
	}
	return out
}

// SliceFrom sets c to rows [i, j) of src, a *ListColumn; see [Column].
func (c *ListColumn[E]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// FixedSizeListColumn is a column of fixed_size_list rows of Size()
// elements each, each row a column of kind E over its elements.
type FixedSizeListColumn[E Column[E]] struct {
	v     View
	size  int
	nulls slice.Bitmap
	elems E // the child rows of the window's rows, Size() a row
}

// FixedSizeListsOf is the fixed-size list column over v, whose node must be
// a fixed_size_list array with elements E can read.
func FixedSizeListsOf[E Column[E]](v View) (FixedSizeListColumn[E], error) {
	n, ok := v.node.(*FixedSizeList)
	if !ok {
		return FixedSizeListColumn[E]{}, notColumn(v, "fixed_size_list")
	}
	var zero E
	elems, err := zero.From(n.Child(v.w))
	if err != nil {
		return FixedSizeListColumn[E]{}, err
	}
	return FixedSizeListColumn[E]{v: v, size: n.size, nulls: n.validity.Slice(v.w.Offset), elems: elems}, nil
}

// From is FixedSizeListsOf.
func (FixedSizeListColumn[E]) From(v View) (FixedSizeListColumn[E], error) {
	return FixedSizeListsOf[E](v)
}

// ViewType accepts fixed_size_list of any size, with elements as E's
// ViewType.
func (FixedSizeListColumn[E]) ViewType(dt arrow.DataType) Type {
	return Type{Accept: FixedLists, Elem: elemType[E](dt, FixedLists)}
}

// elemType is the Type of the elements of a list-like dt of the kind
// accepts for elements of kind E: E's ViewType of dt's element type, or an
// empty Type when dt is not of that kind, which the caller's Accept then
// rejects.
func elemType[E Column[E]](dt arrow.DataType, kind Accept) *Type {
	l, ok := Storage(dt).(arrow.ListLikeType)
	if !ok || !kind.Has(l.ID()) {
		return &Type{}
	}
	var zero E
	elem := zero.ViewType(l.Elem())
	return &elem
}

// Len is the number of rows of the column.
func (c FixedSizeListColumn[E]) Len() int { return c.v.Len() }

// IsNull reports whether row i is null. A null row still has Size()
// elements, whose values are unspecified.
func (c *FixedSizeListColumn[E]) IsNull(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c FixedSizeListColumn[E]) View() View { return c.v }

// Size is the number of elements of every row.
func (c FixedSizeListColumn[E]) Size() int { return c.size }

// Value is the elements of row i.
func (c *FixedSizeListColumn[E]) Value(i int) E {
	checkRow(i, c.v.w.Len)
	return c.elems.Slice(i*c.size, (i+1)*c.size)
}

// Elements is the elements of every row, Size() a row: row i is
// Elements().Slice(i*Size(), (i+1)*Size()).
func (c FixedSizeListColumn[E]) Elements() E { return c.elems }

// All yields each row and its elements, as Value.
func (c FixedSizeListColumn[E]) All() iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c FixedSizeListColumn[E]) Slice(i, j int) FixedSizeListColumn[E] {
	v := c.v.Slice(i, j)
	return FixedSizeListColumn[E]{v: v, size: c.size, nulls: c.nulls.Slice(i), elems: c.elems.Slice(i*c.size, j*c.size)}
}

// SliceFrom sets c to rows [i, j) of src, a *FixedSizeListColumn; see [Column].
func (c *FixedSizeListColumn[E]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// ListViewColumn is a column of list_view or large_list_view rows, each a
// column of kind E over its elements. Rows may share elements and refer to
// them in any order: row i is Elements() from its offset, for its size.
type ListViewColumn[E Column[E]] struct {
	v             View
	off32, size32 []int32 // the window's rows'
	off64, size64 []int64
	nulls         slice.Bitmap
	elems         E // the whole child
}

// ListViewsOf is the list view column over v, whose node must be a
// list_view or large_list_view array with elements E can read.
func ListViewsOf[E Column[E]](v View) (ListViewColumn[E], error) {
	c := ListViewColumn[E]{v: v}
	w := v.w
	var child View
	switch n := v.node.(type) {
	case *ListView[int32]:
		c.off32, c.size32, c.nulls, child = n.offsets[w.Offset:w.End()], n.sizes[w.Offset:w.End()], n.validity.Slice(w.Offset), n.Elements()
	case *ListView[int64]:
		c.off64, c.size64, c.nulls, child = n.offsets[w.Offset:w.End()], n.sizes[w.Offset:w.End()], n.validity.Slice(w.Offset), n.Elements()
	default:
		return ListViewColumn[E]{}, notColumn(v, "list_view|large_list_view")
	}
	var zero E
	elems, err := zero.From(child)
	if err != nil {
		return ListViewColumn[E]{}, err
	}
	c.elems = elems
	return c, nil
}

// From is ListViewsOf.
func (ListViewColumn[E]) From(v View) (ListViewColumn[E], error) { return ListViewsOf[E](v) }

// ViewType accepts list_view and large_list_view, with elements as E's
// ViewType.
func (ListViewColumn[E]) ViewType(dt arrow.DataType) Type {
	return Type{Accept: listViews, Elem: elemType[E](dt, listViews)}
}

// Len is the number of rows of the column.
func (c ListViewColumn[E]) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *ListViewColumn[E]) IsNull(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c ListViewColumn[E]) View() View { return c.v }

// span is where row i starts in Elements and how many elements it has: 0,
// 0 for a null row, whose offset and size the array need not keep in range.
// Like ListColumn.ValueLen, it masks with the validity bit, not a branch.
func (c *ListViewColumn[E]) span(i int) (start, n int) {
	if c.off64 != nil {
		start, n = int(c.off64[i]), int(c.size64[i])
	} else {
		start, n = int(c.off32[i]), int(c.size32[i])
	}
	valid := -c.nulls.Bit(i)
	return start & valid, n & valid
}

// ValueLen is the number of elements of row i, 0 for a null row.
func (c *ListViewColumn[E]) ValueLen(i int) int {
	_, n := c.span(i)
	return n
}

// Value is the elements of row i, none for a null row.
func (c *ListViewColumn[E]) Value(i int) E {
	start, n := c.span(i)
	return c.elems.Slice(start, start+n)
}

// Elements is the whole child the rows refer to, including elements no
// row of the window does.
func (c ListViewColumn[E]) Elements() E { return c.elems }

// All yields each row and its elements, as Value.
func (c ListViewColumn[E]) All() iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c ListViewColumn[E]) Slice(i, j int) ListViewColumn[E] {
	c.v = c.v.Slice(i, j)
	if c.off64 != nil {
		c.off64, c.size64 = c.off64[i:j], c.size64[i:j]
	} else {
		c.off32, c.size32 = c.off32[i:j], c.size32[i:j]
	}
	c.nulls = c.nulls.Slice(i)
	return c
}

// SliceFrom sets c to rows [i, j) of src, a *ListViewColumn; see [Column].
func (c *ListViewColumn[E]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// StructColumn is a column of structs, whose fields are views.
type StructColumn struct {
	v    View
	node *Struct
}

// StructsOf is the struct column over v, whose node must be a struct array.
// Its fields are those v's Type names.
func StructsOf(v View) (StructColumn, error) {
	n, ok := v.node.(*Struct)
	if !ok {
		return StructColumn{}, notColumn(v, "struct")
	}
	return StructColumn{v: v, node: n}, nil
}

// From is StructsOf.
func (StructColumn) From(v View) (StructColumn, error) { return StructsOf(v) }

// ViewType accepts a struct, with every field of dt, each nullable and in
// its own encoding.
func (StructColumn) ViewType(dt arrow.DataType) Type {
	if !Structs.Has(Storage(dt).ID()) {
		return Type{Accept: Structs}
	}
	t := TypeOf(dt)
	t.Nullable = false
	return t
}

// Len is the number of rows of the column.
func (c StructColumn) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *StructColumn) IsNull(i int) bool { return c.v.IsNull(i) }

// View is the view the column reads.
func (c StructColumn) View() View { return c.v }

// NumField is the number of fields.
func (c StructColumn) NumField() int { return c.node.NumField() }

// Field is the view of field k over the rows of the column. A field's own
// rows may be valid where the struct's are null.
func (c StructColumn) Field(k int) View { return c.node.Field(k, c.v.w) }

// FieldByName is the view of the field called name, and whether there is
// one.
func (c StructColumn) FieldByName(name string) (View, bool) {
	if c.v.t == nil {
		return View{}, false
	}
	for k, f := range c.v.t.Fields {
		if f.Name == name {
			return c.Field(k), true
		}
	}
	return View{}, false
}

// Value is row i: its fields, each read over that one row.
func (c *StructColumn) Value(i int) StructRow {
	checkRow(i, c.v.w.Len)
	return StructRow{c: *c, i: i}
}

// All yields each row, as Value.
func (c StructColumn) All() iter.Seq2[int, StructRow] {
	return func(yield func(int, StructRow) bool) {
		for i := range c.v.Len() {
			if !yield(i, StructRow{c: c, i: i}) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c StructColumn) Slice(i, j int) StructColumn {
	return StructColumn{v: c.v.Slice(i, j), node: c.node}
}

// SliceFrom sets c to rows [i, j) of src, a *StructColumn; see [Column].
func (c *StructColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// FieldOf is field name of s as a column of kind C, over the rows of s: bind
// it once, then read row i of the struct's field as the column's row i. A
// field's rows may be valid where the struct's are null. It is an *Error
// wrapping ErrTypeMismatch when s has no such field or the field is not an
// encoding C reads.
func FieldOf[C Column[C]](s StructColumn, name string) (C, error) {
	var zero C
	v, ok := s.FieldByName(name)
	if !ok {
		return zero, mismatchAt(s.v, name, fmt.Sprintf("the struct has no field %q", name))
	}
	return zero.From(v)
}

// StructRow is one row of a StructColumn, read field by field. For typed
// reads over many rows, bind each field once with FieldOf instead.
type StructRow struct {
	c StructColumn
	i int
}

// IsNull reports whether the row is null.
func (r StructRow) IsNull() bool { return r.c.IsNull(r.i) }

// NumField is the number of fields.
func (r StructRow) NumField() int { return r.c.NumField() }

// Field is the view of field k over the row: one row long.
func (r StructRow) Field(k int) View { return r.c.Field(k).Slice(r.i, r.i+1) }

// Value is field k of the row as a plain Go value; see [Node.Value].
func (r StructRow) Value(k int) any { return r.c.Field(k).Value(r.i) }

// MapColumn is a column of maps, its keys read as a column of kind K and
// its values of kind V: row i is Value(i), whose Keys.Value(k) maps to
// Values.Value(k). Use ViewColumn for either to read it as plain views.
type MapColumn[K Column[K], V Column[V]] struct {
	v      View
	off    []int32 // the window's rows' offsets into the entries, len rows+1
	nulls  slice.Bitmap
	keys   K // the entries the window reaches
	values V
}

// MapEntries is the entries of a map row: Keys.Value(k) maps to
// Values.Value(k), in the order the array has them.
type MapEntries[K, V any] struct {
	Keys   K
	Values V
}

// MapsOf is the map column over v, whose node must be a map array with
// keys K reads and values V reads.
func MapsOf[K Column[K], V Column[V]](v View) (MapColumn[K, V], error) {
	n, ok := v.node.(*Map)
	if !ok {
		return MapColumn[K, V]{}, notColumn(v, "map")
	}
	w := v.w
	var zeroK K
	keys, err := zeroK.From(n.Keys(w))
	if err != nil {
		return MapColumn[K, V]{}, err
	}
	var zeroV V
	values, err := zeroV.From(n.Values(w))
	if err != nil {
		return MapColumn[K, V]{}, err
	}
	return MapColumn[K, V]{v: v, off: n.offsets[w.Offset : w.End()+1], nulls: n.validity.Slice(w.Offset), keys: keys, values: values}, nil
}

// From is MapsOf.
func (MapColumn[K, V]) From(v View) (MapColumn[K, V], error) { return MapsOf[K, V](v) }

// ViewType accepts a map, with keys as K's ViewType and values as V's.
func (MapColumn[K, V]) ViewType(dt arrow.DataType) Type {
	t := Type{Accept: Maps, Key: &Type{}, Value: &Type{}}
	if mp, ok := arrowtype.MapParts(Storage(dt)); ok {
		var zeroK K
		var zeroV V
		k, val := zeroK.ViewType(mp.Key.Type), zeroV.ViewType(mp.Item.Type)
		t.Key, t.Value = &k, &val
	}
	return t
}

// Len is the number of rows of the column.
func (c MapColumn[K, V]) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *MapColumn[K, V]) IsNull(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c MapColumn[K, V]) View() View { return c.v }

// Offsets is where each row's entries start, and where the last ends: len
// Len()+1, aliasing the array's buffer, as the array has them — a null row
// may span entries there, which ValueLen and Value do not count.
func (c MapColumn[K, V]) Offsets() []int32 { return c.off }

// ValueLen is the number of entries of row i, 0 for a null row (whatever
// its offsets say), without branching on the row's validity.
func (c *MapColumn[K, V]) ValueLen(i int) int {
	n := int(c.off[i+1] - c.off[i])
	return n & -c.nulls.Bit(i)
}

// entries is where row i's entries are in Keys and Values: none for a null
// row.
func (c *MapColumn[K, V]) entries(i int) (lo, hi int) {
	lo = int(c.off[i] - c.off[0])
	return lo, lo + c.ValueLen(i)
}

// Keys is the keys of row i, none for a null row.
func (c *MapColumn[K, V]) Keys(i int) K { return c.keys.Slice(c.entries(i)) }

// Values is the values of row i, in the order of its keys; none for a null
// row.
func (c *MapColumn[K, V]) Values(i int) V { return c.values.Slice(c.entries(i)) }

// Value is the entries of row i, none for a null row.
func (c *MapColumn[K, V]) Value(i int) MapEntries[K, V] {
	lo, hi := c.entries(i)
	return MapEntries[K, V]{Keys: c.keys.Slice(lo, hi), Values: c.values.Slice(lo, hi)}
}

// All yields each row and its entries, as Value.
func (c MapColumn[K, V]) All() iter.Seq2[int, MapEntries[K, V]] {
	return func(yield func(int, MapEntries[K, V]) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c MapColumn[K, V]) Slice(i, j int) MapColumn[K, V] {
	v := c.v.Slice(i, j)
	lo, hi := int(c.off[i]-c.off[0]), int(c.off[j]-c.off[0])
	return MapColumn[K, V]{v: v, off: c.off[i : j+1], nulls: c.nulls.Slice(i), keys: c.keys.Slice(lo, hi), values: c.values.Slice(lo, hi)}
}

// SliceFrom sets c to rows [i, j) of src, a *MapColumn; see [Column].
func (c *MapColumn[K, V]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// ViewColumn is a column read as plain views, in whatever encoding it has:
// the kind for a level a typed column leaves untyped, such as the values of
// a MapColumn[StringColumn, ViewColumn].
type ViewColumn struct{ v View }

// ViewsOf is the column of plain views over v.
func ViewsOf(v View) (ViewColumn, error) {
	if v.node == nil {
		return ViewColumn{}, notColumn(v, "an array")
	}
	return ViewColumn{v: v}, nil
}

// From is ViewsOf.
func (ViewColumn) From(v View) (ViewColumn, error) { return ViewsOf(v) }

// ViewType accepts dt as it is, every level below the first nullable.
func (ViewColumn) ViewType(dt arrow.DataType) Type {
	t := TypeOf(dt)
	t.Nullable = false
	return t
}

// Len is the number of rows of the column.
func (c ViewColumn) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *ViewColumn) IsNull(i int) bool { return c.v.IsNull(i) }

// View is the view the column reads.
func (c ViewColumn) View() View { return c.v }

// Value is row i as a plain Go value; see [Node.Value].
func (c *ViewColumn) Value(i int) any { return c.v.Value(i) }

// All yields each row and its value, as Value.
func (c ViewColumn) All() iter.Seq2[int, any] {
	return func(yield func(int, any) bool) {
		for i := range c.v.Len() {
			if !yield(i, c.v.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c ViewColumn) Slice(i, j int) ViewColumn { return ViewColumn{v: c.v.Slice(i, j)} }

// SliceFrom sets c to rows [i, j) of src, a *ViewColumn; see [Column].
func (c *ViewColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }
