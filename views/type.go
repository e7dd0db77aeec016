package views

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Type is the logical type a view is checked against: the Arrow encodings
// accepted at this level, whether this level may hold nulls, and the types of
// the children.
type Type struct {
	// Accept is the set of Arrow type IDs accepted at this level. With
	// the ID of dictionaries or of run-end encoded arrays in the set (see
	// [Encodings]), dictionary- or run-end-encoded arrays are accepted when
	// their values are. Extension arrays are viewed through their storage.
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
func childIndex(dt arrowtype.StructLike, f *Field) (int, string) {
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
	Strings      = acceptRows(func(r *arrowtype.Row) bool { return r.Text })
	Binaries     = acceptRows(func(r *arrowtype.Row) bool { return r.VarBinary() && !r.Text })
	Lists        = acceptRows((*arrowtype.Row).VarList)
	Decimals     = acceptRows(func(r *arrowtype.Row) bool { return r.Decimal })
	Encodings    = dictionaries | runEnds
	SignedInts   = acceptRows(func(r *arrowtype.Row) bool { return r.Integer && r.Signed })
	UnsignedInts = acceptRows(func(r *arrowtype.Row) bool { return r.Integer && !r.Signed })
)

// The sets of one layout that a Go type reads as it is: the columns of
// this package and mapper's decoders of bool, [N]byte, [N]E, structs and
// maps.
var (
	Bools         = acceptLayout(arrowtype.Boolean)
	FixedBinaries = acceptLayout(arrowtype.FixedBinary)
	FixedLists    = acceptLayout(arrowtype.FixedList)
	Structs       = acceptLayout(arrowtype.Struct)
	Maps          = acceptRows(func(r *arrowtype.Row) bool { return r.Map })
)

// The other sets of one layout, which the columns of this package read.
var (
	lists        = acceptRows(func(r *arrowtype.Row) bool { return r.Layout == arrowtype.List && !r.Map })
	listViews    = acceptLayout(arrowtype.ListView)
	unions       = acceptLayout(arrowtype.Union)
	dictionaries = acceptLayout(arrowtype.Dictionary)
	runEnds      = acceptLayout(arrowtype.RunEnd)
)

// acceptRows is the set of the IDs of the rows of the table accept
// accepts.
func acceptRows(accept func(r *arrowtype.Row) bool) Accept { return AcceptOf(arrowtype.IDs(accept)...) }

// acceptLayout is the set of the IDs of layout l.
func acceptLayout(l arrowtype.Layout) Accept {
	return acceptRows(func(r *arrowtype.Row) bool { return r.Layout == l })
}

// TypeOf is the Type that accepts dt as it is: its own encodings at every
// level, every level nullable, every struct field. New(arr, TypeOf(dt))
// views any array of datatype dt; StructColumn's fields and ViewColumn
// read what they leave untyped this way.
func TypeOf(dt arrow.DataType) Type { return typeOf(dt, false) }

// WholeTypeOf is [TypeOf] with every struct field, by position ([Field.Pos]):
// a name a struct has twice is viewed twice, where TypeOf, which views
// fields by name, leaves both out. New(arr, WholeTypeOf(dt)) validates
// every buffer of arr that its rows reach.
func WholeTypeOf(dt arrow.DataType) Type { return typeOf(dt, true) }

func typeOf(dt arrow.DataType, whole bool) Type {
	dt = Storage(dt)
	t := Type{Accept: AcceptOf(dt.ID()), Nullable: true}
	switch r := arrowtype.OfType(dt); r.Layout {
	case arrowtype.Dictionary, arrowtype.RunEnd:
		values, _ := arrowtype.Encoded(dt)
		v := typeOf(values, whole)
		v.Accept |= t.Accept
		return v
	case arrowtype.List, arrowtype.ListView, arrowtype.FixedList:
		if mp, ok := arrowtype.MapParts(dt); ok {
			k, v := typeOf(mp.Key.Type, whole), typeOf(mp.Item.Type, whole)
			t.Key, t.Value = &k, &v
			break
		}
		e := typeOf(dt.(arrow.ListLikeType).Elem(), whole)
		t.Elem = &e
	case arrowtype.Struct:
		st := dt.(arrowtype.StructLike)
		for i := range st.NumFields() {
			switch f := st.Field(i); {
			case whole:
				t.Fields = append(t.Fields, Field{Name: f.Name, Type: typeOf(f.Type, whole), Pos: &i})
			case len(st.FieldIndices(f.Name)) == 1:
				t.Fields = append(t.Fields, Field{Name: f.Name, Type: typeOf(f.Type, whole)})
			}
		}
	case arrowtype.Union:
		for _, f := range dt.(arrow.UnionType).Fields() {
			t.Fields = append(t.Fields, Field{Name: f.Name, Type: typeOf(f.Type, whole)})
		}
	}
	return t
}
