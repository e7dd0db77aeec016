// Package arrowtype is arrowmap's one table of Arrow's types: for each type
// its layout, the Go type of its buffer values, its byte width, the Go type
// GoTypeOf gives it, its units and maximum precision, and how to make it.
//
// Every other package reads Arrow's types through this table: views, the
// decoder, the encoder and its builders, GoTypeOf, the Parquet writer, the
// IPC dictionary code and the CLI ask a row's [Layout] and [Temporal] (to
// walk a nested type, or for what a layout truly does), never
// [arrow.Type]. Adding a type is a row here plus what is truly new about
// it (docs/adding-a-type.md).
//
// Go has no generic methods, so a visitor cannot hand a type parameter to
// code in another package. Code that instantiates a generic function per
// buffer type does so in a file generated from the table (go generate runs
// ./gen, which renders each *_gen.go.tmpl of the repository over [EveryValue]
// into its *_gen.go): a package writes what it instantiates per class of
// Value (integer, float, decimal, interval) once, and a new Value reaches
// it by regenerating. decimal.go is what the table knows of the decimal
// widths, so that decimal code is generic over them. [ValueOf] is the reverse, for generic code that
// starts from its type parameter.
package arrowtype

//go:generate go run ./gen -root ../..

import (
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// Layout is how an Arrow type lays its values out in buffers and children.
type Layout uint8

const (
	Unsupported Layout = iota
	Null               // no buffers: every row null
	Boolean            // a bitmap of values
	Fixed              // fixed-width values in buffer 1, of Go type Value
	Binary             // 32- or 64-bit offsets (Row.Large) and data bytes
	View               // 16-byte views and data buffers
	FixedBinary        // ByteWidth bytes a value
	List               // offsets (Row.Large) and one child; a map is a list of entries
	ListView           // offsets, sizes (Row.Large) and one child
	FixedList          // list_size values of one child a row
	Struct             // one child a field
	Union              // type ids (and offsets, when dense) over one child a variant
	Dictionary         // indices into a dictionary
	RunEnd             // run ends and values, as two children
	Extension          // an extension over its storage type
)

var layoutNames = [...]string{"unsupported", "null", "boolean", "fixed-width", "binary", "view",
	"fixed-size binary", "list", "list view", "fixed-size list", "struct", "union", "dictionary",
	"run-end encoded", "extension"}

func (l Layout) String() string { return layoutNames[l] }

// Value is the Go type of a fixed-width type's buffer values.
type Value uint8

const (
	NoValue Value = iota
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
	Decimal32
	Decimal64
	Decimal128
	Decimal256
	MonthInterval
	DayTimeInterval
	MonthDayNanoInterval
	numValues
)

// Temporal is what a fixed-width value counts: a date, a time of day, an
// instant or a duration, in the type's unit.
type Temporal uint8

const (
	NotTemporal Temporal = iota
	Date                 // days (date32) or milliseconds (date64) since the epoch
	TimeOfDay            // units since midnight
	Timestamp            // units since the epoch, in a zone or naive
	Duration             // units
	Interval             // months, days and time, as arrow-go's interval structs
)

// Row is one Arrow type of the table.
type Row struct {
	ID     arrow.Type
	Name   string // as arrowmap spells it in tags and errors (decimal128, utf8_view)
	Layout Layout
	// Value is the Go type of the buffer values of a Fixed layout; the run
	// ends of a RunEnd and the indices of a Dictionary are Int16–Int64 by
	// their own type.
	Value Value
	// Bytes is the byte width of a value of a Fixed layout, 0 otherwise.
	Bytes int
	// Large is true for 64-bit offsets and sizes (Binary, List, ListView).
	Large bool
	// Text is true for UTF-8 strings (Binary, View).
	Text bool
	// Signed is true for the signed integers (and the types they store).
	Signed   bool
	Integer  bool // an integer: Int8–Uint64 as such, not a temporal or a decimal
	Float    bool // a floating-point number
	Decimal  bool // a decimal of MaxPrecision digits
	Temporal Temporal
	// Units are the units the type takes (none for date32, date64 and the
	// intervals); DefaultUnit is arrowmap's when a tag names none.
	Units       []arrow.TimeUnit
	DefaultUnit arrow.TimeUnit
	// MaxPrecision is a decimal's number of digits.
	MaxPrecision int32
	// GoType is the Go type GoTypeOf gives a column of the type, nil where
	// the type has children or GoTypeOf decides from its parameters.
	GoType reflect.Type
	// Map, Dense: the list of entries that is a map; the dense union.
	Map, Dense bool

	// The row's constructors, by the parameters of its type.
	plain    arrow.DataType
	withUnit func(arrow.TimeUnit, string) arrow.DataType
	decimal  func(precision, scale int32) arrow.DataType
}

// Of is the row of id, or a row of Layout Unsupported.
func Of(id arrow.Type) *Row {
	if id >= 0 && int(id) < len(byID) && byID[id] != nil {
		return byID[id]
	}
	return &unsupported
}

// OfType is the row of dt's ID.
func OfType(dt arrow.DataType) *Row { return Of(dt.ID()) }

// Rows is every row of the table, in the order of Arrow's type IDs.
func Rows() []*Row { return rows }

// IDs is the IDs of the rows r accepts, in the order of the table.
func IDs(accept func(r *Row) bool) []arrow.Type {
	var ids []arrow.Type
	for _, r := range rows {
		if accept(r) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// ByName is the row a tag names: "date64", "large_utf8", "time32".
func ByName(name string) (*Row, bool) {
	for _, r := range rows {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

var (
	unsupported = Row{Layout: Unsupported}
	rows        []*Row
	byID        []*Row
)

func init() {
	for i := range table {
		r := &table[i]
		if r.Value != NoValue {
			r.Bytes = valueBytes[r.Value]
		}
		classify(r)
		rows = append(rows, r)
		for int(r.ID) >= len(byID) {
			byID = append(byID, nil)
		}
		byID[r.ID] = r
	}
	for _, r := range rows {
		if r.Decimal {
			decimals = append(decimals, r)
		}
	}
	slices.SortFunc(decimals, func(a, b *Row) int { return int(a.MaxPrecision - b.MaxPrecision) })
}

// MillisecondDate reports whether r is a date that counts milliseconds
// (date64), not days (date32).
func (r *Row) MillisecondDate() bool { return r.Temporal == Date && r.Value == Int64 }

// Counts reports whether r's values count time in units, days or
// milliseconds (a date, a time of day, a timestamp, a duration): its
// storage is an integer of r.Bytes.
func (r *Row) Counts() bool { return r.Temporal != NotTemporal && r.Temporal != Interval }

// Variant reports whether r is a layout that is not its family's plain
// one: large, a view of bytes, or fixed-size binary. A list view is the
// plain one of the list views.
func (r *Row) Variant() bool {
	return r.Large || r.Layout == View || r.Layout == FixedBinary
}

// VarBinary reports whether r's values are bytes of any length each, in
// a Binary or a View layout: strings (see Text) or bytes.
func (r *Row) VarBinary() bool { return r.Layout == Binary || r.Layout == View }

// AnyList reports whether r is a list of any layout: a list, large list
// or map, a list view, or a fixed-size list.
func (r *Row) AnyList() bool {
	return r.Layout == List || r.Layout == ListView || r.Layout == FixedList
}

// VarList reports whether r is a list of values of any length each that
// is not a map: a list or a list view, large or not (what a Go slice is).
func (r *Row) VarList() bool { return r.Layout == List && !r.Map || r.Layout == ListView }

// Encoding reports whether r encodes the values of another type: a
// dictionary or a run-end encoding (see [Encoded]).
func (r *Row) Encoding() bool { return r.Layout == Dictionary || r.Layout == RunEnd }

// Viewed reports whether r is a view layout: of strings, bytes or lists.
func (r *Row) Viewed() bool { return r.Layout == View || r.Layout == ListView }

// Offsets32 reports whether r's rows are delimited by 32-bit offsets into
// its values: utf8, binary, a list or a map, not large, not a view. Their
// values end by 2³¹-1 bytes, or elements.
func (r *Row) Offsets32() bool { return (r.Layout == Binary || r.Layout == List) && !r.Large }

// PlainLayout reports whether r is the plain layout of its family, the
// one a Go type is written as when no tag pins another: utf8, binary,
// list.
func (r *Row) PlainLayout() bool {
	return (r.Layout == Binary || r.Layout == List) && !r.Large && !r.Map
}
