package views

import (
	"fmt"
	"iter"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/arrowmap/arrowmap/slice"
)

// Column is what every typed column of this package is: a validated View
// read through the accessors of one encoding, with no error path and no
// allocation per row. Bind one with its constructor (PrimitivesOf,
// StringsOf, ListsOf, …), or with mapper.Columns for a whole record.
//
// Row accessors (IsNull, Value, ValueLen, …) take a pointer receiver, so
// that a loop over rows does not copy the column at every call; hold a
// column in a variable or a struct field to call them.
//
// The methods below let generic code (ListColumn's elements, the mapper)
// build and type columns of kind C; From and ViewType do not read their
// receiver, so call them on the zero value.
type Column[C any] interface {
	// Len is the number of rows of the column.
	Len() int
	// View is the view the column reads.
	View() View
	// Slice is the column of rows [i, j), without validating again. It
	// panics when the bounds are out of range, like a Go slice expression.
	Slice(i, j int) C
	// From is the column of kind C over v, or an *Error wrapping
	// ErrTypeMismatch when v's node is not an encoding C reads.
	From(v View) (C, error)
	// ViewType is the Type to validate an array of datatype dt with before
	// binding a C to it: the encodings C reads, and for the children C does
	// not type, dt's own. No level C types is nullable: the caller sets
	// Nullable where it allows nulls.
	ViewType(dt arrow.DataType) Type
}

// Fixed is the Go types of the values of fixed-width arrays, as
// [Primitive] holds them.
type Fixed interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		float16.Num | float32 | float64 |
		decimal.Decimal32 | decimal.Decimal64 | decimal.Decimal128 | decimal.Decimal256
}

// fixedIDs is the Arrow types whose values a Primitive[T] holds.
func fixedIDs[T Fixed]() Accept {
	switch any(*new(T)).(type) {
	case int8:
		return AcceptOf(arrow.INT8)
	case int16:
		return AcceptOf(arrow.INT16)
	case int32:
		return AcceptOf(arrow.INT32, arrow.DATE32, arrow.TIME32)
	case int64:
		return AcceptOf(arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION)
	case uint8:
		return AcceptOf(arrow.UINT8)
	case uint16:
		return AcceptOf(arrow.UINT16)
	case uint32:
		return AcceptOf(arrow.UINT32)
	case uint64:
		return AcceptOf(arrow.UINT64)
	case float16.Num:
		return AcceptOf(arrow.FLOAT16)
	case float32:
		return AcceptOf(arrow.FLOAT32)
	case float64:
		return AcceptOf(arrow.FLOAT64)
	case decimal.Decimal32:
		return AcceptOf(arrow.DECIMAL32)
	case decimal.Decimal64:
		return AcceptOf(arrow.DECIMAL64)
	case decimal.Decimal128:
		return AcceptOf(arrow.DECIMAL128)
	default:
		return AcceptOf(arrow.DECIMAL256)
	}
}

// notColumn is the error of binding a column of the kind want to v.
func notColumn(v View, want string) *Error {
	got := "no array"
	if n, ok := v.node.(interface{ DataType() arrow.DataType }); ok {
		got = n.DataType().String()
	} else if v.node != nil {
		got = fmt.Sprintf("%T", v.node)
	}
	e := &Error{Row: -1, Err: ErrTypeMismatch, Detail: fmt.Sprintf("got %s, want %s", got, want)}
	if v.t != nil {
		e.Label = v.t.Label
	}
	return e
}

// PrimitiveColumn is a column of fixed-width values: integers, floats,
// decimals, and temporal types as their storage integers.
type PrimitiveColumn[T Fixed] struct {
	v      View
	values []T // the window's rows
	nulls  slice.Bitmap
}

// PrimitivesOf is the column of T values over v, whose node must be a
// Primitive[T].
func PrimitivesOf[T Fixed](v View) (PrimitiveColumn[T], error) {
	n, ok := v.node.(*Primitive[T])
	if !ok {
		return PrimitiveColumn[T]{}, notColumn(v, fixedIDs[T]().String())
	}
	w := v.w
	return PrimitiveColumn[T]{v: v, values: n.values[w.Offset:w.End():w.End()], nulls: n.validity.Slice(w.Offset)}, nil
}

// From is PrimitivesOf.
func (PrimitiveColumn[T]) From(v View) (PrimitiveColumn[T], error) { return PrimitivesOf[T](v) }

// ViewType accepts the Arrow types whose values are T.
func (PrimitiveColumn[T]) ViewType(arrow.DataType) Type { return Type{Accept: fixedIDs[T]()} }

// Len is the number of rows of the column.
func (c PrimitiveColumn[T]) Len() int { return len(c.values) }

// IsNull reports whether row i is null.
func (c *PrimitiveColumn[T]) IsNull(i int) bool { return c.nulls.IsNull(i) }

// View is the view the column reads.
func (c PrimitiveColumn[T]) View() View { return c.v }

// Values is the value of every row, aliasing the array's buffer. The value
// of a null row is unspecified.
func (c PrimitiveColumn[T]) Values() []T { return c.values }

// Value is the value of row i, the zero T for a null row.
func (c *PrimitiveColumn[T]) Value(i int) T {
	if c.nulls.IsNull(i) {
		var zero T
		return zero
	}
	return c.values[i]
}

// All yields each row and its value, the zero T for a null row.
func (c PrimitiveColumn[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, x := range c.values {
			if c.nulls.IsNull(i) {
				var zero T
				x = zero
			}
			if !yield(i, x) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c PrimitiveColumn[T]) Slice(i, j int) PrimitiveColumn[T] {
	return PrimitiveColumn[T]{v: c.v.Slice(i, j), values: c.values[i:j:j], nulls: c.nulls.Slice(i)}
}

// byteRows reads the rows of a utf8, binary or view node as bytes.
type byteRows struct {
	off32 []int32 // the window's rows' offsets into data, len rows+1
	off64 []int64
	data  []byte
	bv    *BinaryView
	base  int // node row of row 0, for bv
	n     int
	nulls slice.Bitmap
}

func bytesOf(v View, utf8 bool, want string) (byteRows, error) {
	w := v.w
	r := byteRows{base: w.Offset, n: w.Len}
	switch n := v.node.(type) {
	case *Binary[int32]:
		if n.utf8 == utf8 {
			r.off32, r.data, r.nulls = n.offsets[w.Offset:w.End()+1], n.data, n.validity.Slice(w.Offset)
			return r, nil
		}
	case *Binary[int64]:
		if n.utf8 == utf8 {
			r.off64, r.data, r.nulls = n.offsets[w.Offset:w.End()+1], n.data, n.validity.Slice(w.Offset)
			return r, nil
		}
	case *BinaryView:
		if n.utf8 == utf8 {
			r.bv, r.nulls = n, n.validity.Slice(w.Offset)
			return r, nil
		}
	}
	return byteRows{}, notColumn(v, want)
}

func (r *byteRows) at(i int) []byte {
	switch {
	case r.off32 != nil:
		return r.data[r.off32[i]:r.off32[i+1]:r.off32[i+1]]
	case r.off64 != nil:
		return r.data[r.off64[i]:r.off64[i+1]:r.off64[i+1]]
	}
	if uint(i) >= uint(r.n) {
		panic(fmt.Sprintf("arrowmap: row %d out of range for %d rows", i, r.n))
	}
	return r.bv.At(r.base + i)
}

// slice is the rows [i, j); the caller has checked the bounds.
func (r byteRows) slice(i, j int) byteRows {
	if r.off32 != nil {
		r.off32 = r.off32[i : j+1]
	}
	if r.off64 != nil {
		r.off64 = r.off64[i : j+1]
	}
	r.base, r.n, r.nulls = r.base+i, j-i, r.nulls.Slice(i)
	return r
}

// StringColumn is a column of utf8, large_utf8 or utf8_view strings.
type StringColumn struct {
	v    View
	rows byteRows
}

// StringsOf is the string column over v, whose node must be a utf8,
// large_utf8 or utf8_view array.
func StringsOf(v View) (StringColumn, error) {
	r, err := bytesOf(v, true, Strings.String())
	if err != nil {
		return StringColumn{}, err
	}
	return StringColumn{v: v, rows: r}, nil
}

// From is StringsOf.
func (StringColumn) From(v View) (StringColumn, error) { return StringsOf(v) }

// ViewType accepts utf8, large_utf8 and utf8_view.
func (StringColumn) ViewType(arrow.DataType) Type { return Type{Accept: Strings} }

// Len is the number of rows of the column.
func (c StringColumn) Len() int { return c.rows.n }

// IsNull reports whether row i is null.
func (c *StringColumn) IsNull(i int) bool { return c.rows.nulls.IsNull(i) }

// View is the view the column reads.
func (c StringColumn) View() View { return c.v }

// Value is the string of row i, "" for a null row. It aliases the array's
// buffer: it is valid while the array is, and must not outlive it.
func (c *StringColumn) Value(i int) string {
	if c.rows.nulls.IsNull(i) {
		return ""
	}
	b := c.rows.at(i)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// All yields each row and its string, as Value.
func (c StringColumn) All() iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i := range c.rows.n {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c StringColumn) Slice(i, j int) StringColumn {
	v := c.v.Slice(i, j)
	return StringColumn{v: v, rows: c.rows.slice(i, j)}
}

// BinaryColumn is a column of binary, large_binary or binary_view values.
type BinaryColumn struct {
	v    View
	rows byteRows
}

// BinariesOf is the binary column over v, whose node must be a binary,
// large_binary or binary_view array.
func BinariesOf(v View) (BinaryColumn, error) {
	r, err := bytesOf(v, false, Binaries.String())
	if err != nil {
		return BinaryColumn{}, err
	}
	return BinaryColumn{v: v, rows: r}, nil
}

// From is BinariesOf.
func (BinaryColumn) From(v View) (BinaryColumn, error) { return BinariesOf(v) }

// ViewType accepts binary, large_binary and binary_view.
func (BinaryColumn) ViewType(arrow.DataType) Type { return Type{Accept: Binaries} }

// Len is the number of rows of the column.
func (c BinaryColumn) Len() int { return c.rows.n }

// IsNull reports whether row i is null.
func (c *BinaryColumn) IsNull(i int) bool { return c.rows.nulls.IsNull(i) }

// View is the view the column reads.
func (c BinaryColumn) View() View { return c.v }

// Value is the bytes of row i, nil for a null row, aliasing the array's
// buffer: do not modify them.
func (c *BinaryColumn) Value(i int) []byte {
	if c.rows.nulls.IsNull(i) {
		return nil
	}
	return c.rows.at(i)
}

// All yields each row and its bytes, as Value.
func (c BinaryColumn) All() iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for i := range c.rows.n {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c BinaryColumn) Slice(i, j int) BinaryColumn {
	v := c.v.Slice(i, j)
	return BinaryColumn{v: v, rows: c.rows.slice(i, j)}
}

// TimestampColumn is a column of timestamps, read as time.Time in the
// column's time zone (UTC when it has none), or as raw integers in its unit.
type TimestampColumn struct {
	ints PrimitiveColumn[int64]
	unit arrow.TimeUnit
	loc  *time.Location
}

// TimestampsOf is the timestamp column over v, whose node must be a
// timestamp array.
func TimestampsOf(v View) (TimestampColumn, error) {
	n, ok := v.node.(*Primitive[int64])
	if !ok || n.dt.ID() != arrow.TIMESTAMP {
		return TimestampColumn{}, notColumn(v, "timestamp")
	}
	dt := n.dt.(*arrow.TimestampType)
	loc, err := dt.GetZone()
	if err != nil {
		return TimestampColumn{}, notColumn(v, fmt.Sprintf("a known time zone (%v)", err))
	}
	ints, _ := PrimitivesOf[int64](v)
	return TimestampColumn{ints: ints, unit: dt.Unit, loc: loc}, nil
}

// From is TimestampsOf.
func (TimestampColumn) From(v View) (TimestampColumn, error) { return TimestampsOf(v) }

// ViewType accepts timestamps.
func (TimestampColumn) ViewType(arrow.DataType) Type {
	return Type{Accept: AcceptOf(arrow.TIMESTAMP)}
}

// Len is the number of rows of the column.
func (c TimestampColumn) Len() int { return c.ints.Len() }

// IsNull reports whether row i is null.
func (c *TimestampColumn) IsNull(i int) bool { return c.ints.IsNull(i) }

// View is the view the column reads.
func (c TimestampColumn) View() View { return c.ints.v }

// Unit is the unit of Values.
func (c TimestampColumn) Unit() arrow.TimeUnit { return c.unit }

// Location is the time zone of the times Value returns.
func (c TimestampColumn) Location() *time.Location { return c.loc }

// Values is the raw value of every row, in Unit since the Unix epoch,
// aliasing the array's buffer. The value of a null row is unspecified.
func (c TimestampColumn) Values() []int64 { return c.ints.values }

// Value is the time of row i in Location, the zero time.Time for a null
// row.
func (c *TimestampColumn) Value(i int) time.Time {
	if c.ints.nulls.IsNull(i) {
		return time.Time{}
	}
	x := c.ints.values[i]
	var t time.Time
	switch c.unit {
	case arrow.Second:
		t = time.Unix(x, 0)
	case arrow.Millisecond:
		t = time.UnixMilli(x)
	case arrow.Microsecond:
		t = time.UnixMicro(x)
	default:
		t = time.Unix(0, x)
	}
	return t.In(c.loc)
}

// All yields each row and its time, as Value.
func (c TimestampColumn) All() iter.Seq2[int, time.Time] {
	return func(yield func(int, time.Time) bool) {
		for i := range c.ints.values {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c TimestampColumn) Slice(i, j int) TimestampColumn {
	c.ints = c.ints.Slice(i, j)
	return c
}

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
	t := Type{Accept: AcceptOf(arrow.LIST, arrow.LARGE_LIST), Elem: &Type{}}
	if l, ok := Storage(dt).(arrow.ListLikeType); ok && t.Accept.Has(l.ID()) {
		var zero E
		elem := zero.ViewType(l.Elem())
		t.Elem = &elem
	}
	return t
}

// Len is the number of rows of the column.
func (c ListColumn[E]) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *ListColumn[E]) IsNull(i int) bool { return c.nulls.IsNull(i) }

// View is the view the column reads.
func (c ListColumn[E]) View() View { return c.v }

// start is where row i starts in Elements; start(Len()) is where the last
// row ends.
func (c *ListColumn[E]) start(i int) int {
	if c.off64 != nil {
		return int(c.off64[i] - c.off64[0])
	}
	return int(c.off32[i] - c.off32[0])
}

// Offsets is where each row starts in the list's child, and where the last
// ends: len Len()+1, aliasing the array's buffer. It is nil for a
// large_list: see LargeOffsets.
func (c ListColumn[E]) Offsets() []int32 { return c.off32 }

// LargeOffsets is Offsets for a large_list, nil for a list.
func (c ListColumn[E]) LargeOffsets() []int64 { return c.off64 }

// ValueLen is the number of elements of row i (0 for a null row, unless the
// array says otherwise).
func (c *ListColumn[E]) ValueLen(i int) int {
	if off := c.off32; off != nil {
		return int(off[i+1] - off[i])
	}
	return int(c.off64[i+1] - c.off64[i])
}

// Value is the elements of row i.
func (c *ListColumn[E]) Value(i int) E { return c.elems.Slice(c.start(i), c.start(i+1)) }

// Elements is the elements of every row of the column, in order: row i is
// Elements().Slice(start, end) for the offsets of row i relative to row 0.
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
	if Storage(dt).ID() != arrow.STRUCT {
		return Type{Accept: AcceptOf(arrow.STRUCT)}
	}
	t := typeOf(dt)
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

// Slice is the column of rows [i, j).
func (c StructColumn) Slice(i, j int) StructColumn {
	return StructColumn{v: c.v.Slice(i, j), node: c.node}
}

// MapColumn is a column of maps, each row a view of keys and a view of
// values.
type MapColumn struct {
	v            View
	off          []int32 // the window's rows' offsets into the entries, len rows+1
	nulls        slice.Bitmap
	keys, values View // the entries the window reaches
}

// MapsOf is the map column over v, whose node must be a map array.
func MapsOf(v View) (MapColumn, error) {
	n, ok := v.node.(*Map)
	if !ok {
		return MapColumn{}, notColumn(v, "map")
	}
	w := v.w
	return MapColumn{v: v, off: n.offsets[w.Offset : w.End()+1], nulls: n.validity.Slice(w.Offset), keys: n.Keys(w), values: n.Values(w)}, nil
}

// From is MapsOf.
func (MapColumn) From(v View) (MapColumn, error) { return MapsOf(v) }

// ViewType accepts a map, with its keys and values in their own encoding,
// values nullable.
func (MapColumn) ViewType(dt arrow.DataType) Type {
	t := Type{Accept: AcceptOf(arrow.MAP), Key: &Type{}, Value: &Type{}}
	if m, ok := Storage(dt).(*arrow.MapType); ok {
		k, val := typeOf(m.KeyType()), typeOf(m.ItemType())
		t.Key, t.Value = &k, &val
	}
	return t
}

// Len is the number of rows of the column.
func (c MapColumn) Len() int { return c.v.Len() }

// IsNull reports whether row i is null.
func (c *MapColumn) IsNull(i int) bool { return c.nulls.IsNull(i) }

// View is the view the column reads.
func (c MapColumn) View() View { return c.v }

// Offsets is where each row's entries start, and where the last ends: len
// Len()+1, aliasing the array's buffer.
func (c MapColumn) Offsets() []int32 { return c.off }

// ValueLen is the number of entries of row i.
func (c *MapColumn) ValueLen(i int) int { return int(c.off[i+1] - c.off[i]) }

// Keys is the view of the keys of row i.
func (c *MapColumn) Keys(i int) View {
	return c.keys.Slice(int(c.off[i]-c.off[0]), int(c.off[i+1]-c.off[0]))
}

// Values is the view of the values of row i, in the order of its keys.
func (c *MapColumn) Values(i int) View {
	return c.values.Slice(int(c.off[i]-c.off[0]), int(c.off[i+1]-c.off[0]))
}

// Slice is the column of rows [i, j).
func (c MapColumn) Slice(i, j int) MapColumn {
	v := c.v.Slice(i, j)
	lo, hi := int(c.off[i]-c.off[0]), int(c.off[j]-c.off[0])
	return MapColumn{v: v, off: c.off[i : j+1], nulls: c.nulls.Slice(i), keys: c.keys.Slice(lo, hi), values: c.values.Slice(lo, hi)}
}

// typeOf is the Type that accepts dt's own encodings at every level, every
// level nullable: what a column reads as plain views.
func typeOf(dt arrow.DataType) Type {
	dt = Storage(dt)
	t := Type{Accept: AcceptOf(dt.ID()), Nullable: true}
	switch d := dt.(type) {
	case *arrow.DictionaryType:
		v := typeOf(d.ValueType)
		v.Accept |= t.Accept
		return v
	case *arrow.RunEndEncodedType:
		v := typeOf(d.Encoded())
		v.Accept |= t.Accept
		return v
	case *arrow.MapType:
		k, v := typeOf(d.KeyType()), typeOf(d.ItemType())
		t.Key, t.Value = &k, &v
	case arrow.ListLikeType:
		e := typeOf(d.Elem())
		t.Elem = &e
	case *arrow.StructType:
		for _, f := range d.Fields() {
			if len(d.FieldIndices(f.Name)) == 1 {
				t.Fields = append(t.Fields, Field{Name: f.Name, Type: typeOf(f.Type)})
			}
		}
	}
	return t
}

var (
	_ Column[PrimitiveColumn[float64]]             = PrimitiveColumn[float64]{}
	_ Column[StringColumn]                         = StringColumn{}
	_ Column[BinaryColumn]                         = BinaryColumn{}
	_ Column[TimestampColumn]                      = TimestampColumn{}
	_ Column[ListColumn[PrimitiveColumn[int64]]]   = ListColumn[PrimitiveColumn[int64]]{}
	_ Column[StructColumn]                         = StructColumn{}
	_ Column[MapColumn]                            = MapColumn{}
	_ Column[ListColumn[ListColumn[StringColumn]]] = ListColumn[ListColumn[StringColumn]]{}
)
