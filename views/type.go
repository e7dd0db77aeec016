package views

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Type is the logical type a view is checked against: the Arrow encodings
// accepted at this level, whether this level may hold nulls, and the types of
// the children.
type Type struct {
	// Accept is the set of Arrow type IDs accepted at this level. With
	// arrow.DICTIONARY or arrow.RUN_END_ENCODED in the set, dictionary- or
	// run-end-encoded arrays are accepted when their values are. Extension
	// arrays are viewed through their storage.
	Accept Accept
	// Nullable says whether this level may hold nulls. A null that a row of
	// the array can reach at a level that is not nullable fails New.
	Nullable bool
	// Size is the width a fixed_size_binary or the size a fixed_size_list
	// must have; 0 accepts any.
	Size int
	// Elem is the type of the elements of a list, list view or fixed-size list.
	Elem *Type
	// Key and Value are the types of a map's keys and values.
	Key, Value *Type
	// Fields are the struct children to view, by name. Children the type does
	// not name are neither viewed nor validated. A union's Fields must name
	// every child: any row may select any of them.
	Fields []Field
	// Label names this level in errors; the mapper puts the Go field path here.
	Label string
}

// Field is one struct child of a [Type].
type Field struct {
	Name string
	Type Type
	// Pos, when not nil, is the child's position among the struct's
	// children, whose name must be Name: the way to view one of several
	// children of a name. nil views the one child called Name.
	Pos *int
}

// childIndex is the position of the child f views in dt, or why there is
// none.
func childIndex(dt *arrow.StructType, f *Field) (int, string) {
	if f.Pos != nil {
		if i := *f.Pos; i >= 0 && i < dt.NumFields() && dt.Field(i).Name == f.Name {
			return i, ""
		}
		return -1, fmt.Sprintf("%s has no field %q at position %d", dt, f.Name, *f.Pos)
	}
	switch idx := dt.FieldIndices(f.Name); len(idx) {
	case 0:
		return -1, fmt.Sprintf("%s has no field %q", dt, f.Name)
	case 1:
		return idx[0], ""
	default:
		return -1, fmt.Sprintf("%s has %d fields named %q", dt, len(idx), f.Name)
	}
}

// Accept is a set of Arrow type IDs.
type Accept uint64

// AcceptOf is the set of the given type IDs.
func AcceptOf(ids ...arrow.Type) Accept {
	var a Accept
	for _, id := range ids {
		a |= 1 << uint(id)
	}
	return a
}

// Has reports whether id is in a.
func (a Accept) Has(id arrow.Type) bool { return id < 64 && a&(1<<uint(id)) != 0 }

// Without is a less the given IDs.
func (a Accept) Without(ids ...arrow.Type) Accept { return a &^ AcceptOf(ids...) }

// String lists the IDs of a, as "int32|int64".
func (a Accept) String() string {
	var names []string
	for rest := uint64(a); rest != 0; rest &= rest - 1 {
		names = append(names, strings.ToLower(arrow.Type(bits.TrailingZeros64(rest)).String()))
	}
	return strings.Join(names, "|")
}

// Common sets of encodings of one logical kind.
var (
	Strings      = AcceptOf(arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW)
	Binaries     = AcceptOf(arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW)
	Lists        = AcceptOf(arrow.LIST, arrow.LARGE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW)
	Decimals     = AcceptOf(arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256)
	Encodings    = AcceptOf(arrow.DICTIONARY, arrow.RUN_END_ENCODED)
	SignedInts   = AcceptOf(arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64)
	UnsignedInts = AcceptOf(arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64)
)

// TypeOf is the Type that accepts dt as it is: its own encodings at every
// level, every level nullable, every struct field. New(arr, TypeOf(dt))
// views any array of datatype dt; StructColumn's fields and ViewColumn
// read what they leave untyped this way.
func TypeOf(dt arrow.DataType) Type {
	dt = Storage(dt)
	t := Type{Accept: AcceptOf(dt.ID()), Nullable: true}
	switch d := dt.(type) {
	case *arrow.DictionaryType:
		v := TypeOf(d.ValueType)
		v.Accept |= t.Accept
		return v
	case *arrow.RunEndEncodedType:
		v := TypeOf(d.Encoded())
		v.Accept |= t.Accept
		return v
	case *arrow.MapType:
		k, v := TypeOf(d.KeyType()), TypeOf(d.ItemType())
		t.Key, t.Value = &k, &v
	case arrow.ListLikeType:
		e := TypeOf(d.Elem())
		t.Elem = &e
	case *arrow.StructType:
		for _, f := range d.Fields() {
			if len(d.FieldIndices(f.Name)) == 1 {
				t.Fields = append(t.Fields, Field{Name: f.Name, Type: TypeOf(f.Type)})
			}
		}
	case arrow.UnionType:
		for _, f := range d.Fields() {
			t.Fields = append(t.Fields, Field{Name: f.Name, Type: TypeOf(f.Type)})
		}
	}
	return t
}
