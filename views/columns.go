package views

import (
	"fmt"
	"iter"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/zone"
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
// receiver, so call them on the zero value. Every column of this package
// also has SliceFrom(src any, i, j int) on its pointer, which sets it to
// rows [i, j) of src, a pointer to a column of its kind: Slice for code
// that holds columns of several kinds by address, without reflection, as
// mapper.ColumnsReader does for each page of a struct of columns.
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

// sliceFrom sets *dst to rows [i, j) of src, a *C: every column's SliceFrom.
func sliceFrom[C Column[C]](dst *C, src any, i, j int) { *dst = (*src.(*C)).Slice(i, j) }

// Fixed is the Go types of the values of fixed-width arrays, as
// [Primitive] holds them: the signed and unsigned integers, float16.Num,
// float32, float64, the four decimals and arrow's three interval structs.
type Fixed interface{ arrowtype.FixedValue }

// fixedIDs is the Arrow types whose values a Primitive[T] holds.
func fixedIDs[T Fixed]() Accept { return AcceptOf(arrowtype.Holding(arrowtype.ValueOf[T]())...) }

// notColumn is the error of binding a column of the kind want to v.
func notColumn(v View, want string) *Error {
	got := "no array"
	if n, ok := v.node.(interface{ DataType() arrow.DataType }); ok {
		got = n.DataType().String()
	} else if v.node != nil {
		got = fmt.Sprintf("%T", v.node)
	}
	return mismatchAt(v, "", fmt.Sprintf("got %s, want %s", got, want))
}

// mismatchAt is an ErrTypeMismatch of binding a column to v, at its child
// column ("" for v itself), labelled as v's Type is.
func mismatchAt(v View, column, detail string) *Error {
	e := &Error{Column: column, Row: -1, Err: ErrTypeMismatch, Detail: detail}
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
func (c *PrimitiveColumn[T]) IsNull(i int) bool {
	checkRow(i, len(c.values))
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c PrimitiveColumn[T]) View() View { return c.v }

// Values is the value of every row, aliasing the array's buffer. The value
// of a null row is unspecified.
func (c PrimitiveColumn[T]) Values() []T { return c.values }

// Value is the value of row i, the zero T for a null row.
func (c *PrimitiveColumn[T]) Value(i int) T {
	x := c.values[i]
	if c.nulls.IsNull(i) {
		var zero T
		return zero
	}
	return x
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

// SliceFrom sets c to rows [i, j) of src, a *PrimitiveColumn; see [Column].
func (c *PrimitiveColumn[T]) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// BoolColumn is a column of booleans, read from the array's bitmap.
type BoolColumn struct {
	v     View
	bits  slice.Bitmap // the values, row 0 at the window's first row
	nulls slice.Bitmap
}

// BoolsOf is the bool column over v, whose node must be a bool array.
func BoolsOf(v View) (BoolColumn, error) {
	n, ok := v.node.(*Bool)
	if !ok {
		return BoolColumn{}, notColumn(v, "bool")
	}
	w := v.w
	return BoolColumn{v: v, bits: slice.Bitmap{Bits: n.bits, Offset: n.off + w.Offset}, nulls: n.validity.Slice(w.Offset)}, nil
}

// From is BoolsOf.
func (BoolColumn) From(v View) (BoolColumn, error) { return BoolsOf(v) }

// ViewType accepts bool.
func (BoolColumn) ViewType(arrow.DataType) Type { return Type{Accept: Bools} }

// Len is the number of rows of the column.
func (c BoolColumn) Len() int { return c.v.w.Len }

// IsNull reports whether row i is null.
func (c *BoolColumn) IsNull(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsNull(i)
}

// View is the view the column reads.
func (c BoolColumn) View() View { return c.v }

// Bits is the values bitmap, row 0 of the column at bit Offset: aliasing
// the array's buffer, for code that counts or combines bits a word at a
// time. The bit of a null row is unspecified.
func (c BoolColumn) Bits() slice.Bitmap { return c.bits }

// Value is the value of row i, false for a null row.
func (c *BoolColumn) Value(i int) bool {
	checkRow(i, c.v.w.Len)
	return c.nulls.IsValid(i) && c.bits.IsValid(i)
}

// All yields each row and its value, as Value.
func (c BoolColumn) All() iter.Seq2[int, bool] {
	return func(yield func(int, bool) bool) {
		for i := range c.v.w.Len {
			if !yield(i, c.Value(i)) {
				return
			}
		}
	}
}

// Slice is the column of rows [i, j).
func (c BoolColumn) Slice(i, j int) BoolColumn {
	v := c.v.Slice(i, j)
	return BoolColumn{v: v, bits: slice.Bitmap{Bits: c.bits.Bits, Offset: c.bits.Offset + i}, nulls: c.nulls.Slice(i)}
}

// SliceFrom sets c to rows [i, j) of src, a *BoolColumn; see [Column].
func (c *BoolColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// byteRows reads the rows of a utf8, binary or view node as bytes.
type byteRows struct {
	off32 []int32 // the window's rows' offsets into data, len rows+1
	off64 []int64
	data  []byte
	bv    *BinaryView
	width int // of a fixed_size_binary node, whose rows data holds back to back
	base  int // node row of row 0, for bv and fixed_size_binary
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
	case *FixedSizeBinary:
		if !utf8 {
			r.data, r.width, r.nulls = n.data, n.width, n.validity.Slice(w.Offset)
			return r, nil
		}
	}
	return byteRows{}, notColumn(v, want)
}

func (r *byteRows) at(i int) []byte {
	checkRow(i, r.n)
	switch {
	case r.off32 != nil:
		return r.data[r.off32[i]:r.off32[i+1]:r.off32[i+1]]
	case r.off64 != nil:
		return r.data[r.off64[i]:r.off64[i+1]:r.off64[i+1]]
	}
	if r.bv == nil {
		at := (r.base + i) * r.width
		return r.data[at : at+r.width : at+r.width]
	}
	return r.bv.At(r.base + i)
}

// isNull reports whether row i is null.
func (r *byteRows) isNull(i int) bool {
	checkRow(i, r.n)
	return r.nulls.IsNull(i)
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
func (c *StringColumn) IsNull(i int) bool { return c.rows.isNull(i) }

// View is the view the column reads.
func (c StringColumn) View() View { return c.v }

// Value is the string of row i, "" for a null row. It aliases the array's
// buffer: it is valid while the array is, and must not outlive it.
func (c *StringColumn) Value(i int) string {
	if c.rows.isNull(i) {
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

// SliceFrom sets c to rows [i, j) of src, a *StringColumn; see [Column].
func (c *StringColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// BinaryColumn is a column of binary, large_binary, binary_view or
// fixed_size_binary values.
type BinaryColumn struct {
	v    View
	rows byteRows
}

// BinariesOf is the binary column over v, whose node must be a binary,
// large_binary, binary_view or fixed_size_binary array.
func BinariesOf(v View) (BinaryColumn, error) {
	r, err := bytesOf(v, false, binaries.String())
	if err != nil {
		return BinaryColumn{}, err
	}
	return BinaryColumn{v: v, rows: r}, nil
}

// From is BinariesOf.
func (BinaryColumn) From(v View) (BinaryColumn, error) { return BinariesOf(v) }

// ViewType accepts binary, large_binary, binary_view and fixed_size_binary.
func (BinaryColumn) ViewType(arrow.DataType) Type { return Type{Accept: binaries} }

// binaries is what a BinaryColumn reads.
var binaries = Binaries | FixedBinaries

// Len is the number of rows of the column.
func (c BinaryColumn) Len() int { return c.rows.n }

// IsNull reports whether row i is null.
func (c *BinaryColumn) IsNull(i int) bool { return c.rows.isNull(i) }

// View is the view the column reads.
func (c BinaryColumn) View() View { return c.v }

// Value is the bytes of row i, nil for a null row, aliasing the array's
// buffer: do not modify them.
func (c *BinaryColumn) Value(i int) []byte {
	if c.rows.isNull(i) {
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

// SliceFrom sets c to rows [i, j) of src, a *BinaryColumn; see [Column].
func (c *BinaryColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

// TimestampColumn is a column of timestamps, read as time.Time in the
// column's time zone (UTC when it has none), or as raw integers in its unit.
type TimestampColumn struct {
	ints PrimitiveColumn[int64]
	unit arrow.TimeUnit
	loc  *time.Location
}

// timestamps is the one rule of what a TimestampColumn reads: the table's
// timestamp rows.
var timestamps = acceptRows(func(r *arrowtype.Row) bool { return r.Temporal == arrowtype.Timestamp })

// TimestampsOf is the timestamp column over v, whose node must be a
// timestamp array.
func TimestampsOf(v View) (TimestampColumn, error) {
	n, ok := v.node.(*Primitive[int64])
	if !ok || !timestamps.Has(n.dt.ID()) {
		return TimestampColumn{}, notColumn(v, "timestamp")
	}
	tz, _ := arrowtype.Zone(n.dt)
	unit, _ := arrowtype.Unit(n.dt)
	loc, err := zone.OfTimestamp(tz)
	if err != nil {
		return TimestampColumn{}, notColumn(v, fmt.Sprintf("a known time zone (%v)", err))
	}
	ints, _ := PrimitivesOf[int64](v)
	return TimestampColumn{ints: ints, unit: unit, loc: loc}, nil
}

// From is TimestampsOf.
func (TimestampColumn) From(v View) (TimestampColumn, error) { return TimestampsOf(v) }

// ViewType accepts timestamps.
func (TimestampColumn) ViewType(arrow.DataType) Type {
	return Type{Accept: timestamps}
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
	if c.ints.IsNull(i) {
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

// SliceFrom sets c to rows [i, j) of src, a *TimestampColumn; see [Column].
func (c *TimestampColumn) SliceFrom(src any, i, j int) { sliceFrom(c, src, i, j) }

var (
	_ Column[PrimitiveColumn[float64]]                      = PrimitiveColumn[float64]{}
	_ Column[StringColumn]                                  = StringColumn{}
	_ Column[BinaryColumn]                                  = BinaryColumn{}
	_ Column[TimestampColumn]                               = TimestampColumn{}
	_ Column[ListColumn[PrimitiveColumn[int64]]]            = ListColumn[PrimitiveColumn[int64]]{}
	_ Column[StructColumn]                                  = StructColumn{}
	_ Column[MapColumn[StringColumn, ViewColumn]]           = MapColumn[StringColumn, ViewColumn]{}
	_ Column[ViewColumn]                                    = ViewColumn{}
	_ Column[ListColumn[ListColumn[StringColumn]]]          = ListColumn[ListColumn[StringColumn]]{}
	_ Column[BoolColumn]                                    = BoolColumn{}
	_ Column[FixedSizeListColumn[PrimitiveColumn[int32]]]   = FixedSizeListColumn[PrimitiveColumn[int32]]{}
	_ Column[ListViewColumn[StringColumn]]                  = ListViewColumn[StringColumn]{}
	_ Column[DictionaryColumn[int32, StringColumn]]         = DictionaryColumn[int32, StringColumn]{}
	_ Column[RunEndColumn[int32, PrimitiveColumn[float64]]] = RunEndColumn[int32, PrimitiveColumn[float64]]{}
)
