// Package arrowcheck finds, in a record, the values the Arrow spec forbids
// that a row reaches: text that is not UTF-8, a decimal with more digits
// than its precision, a date64 that is not a whole day, and a null where
// the field, or a child field, list element, map key or value on the way,
// is not nullable. The record writers of the IO packages call it before
// they write anything of a record, and wrap what it finds into their own
// errors:
//
//	cols := arrowcheck.Columns(schema) // once
//	if e := arrowcheck.Record(rec, cols); e != nil { ... }
//
// What a null row holds beneath it, a dictionary entry no row refers to
// and the rows a slice leaves out are no values, and are not checked.
package arrowcheck

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// MsPerDay is the milliseconds of a day: a date64 is a whole number of
// them.
const MsPerDay = 86_400_000

// Problem is what is wrong with the value an Error names.
type Problem uint8

const (
	// Malformed is a column whose buffers are not what its type says: no
	// row can be named.
	Malformed Problem = iota
	// NotUTF8 is a utf8, large_utf8 or utf8_view value that is not UTF-8.
	NotUTF8
	// PastPrecision is a decimal with more digits than its type's precision.
	PastPrecision
	// NotWholeDay is a date64 that is not a whole number of days.
	NotWholeDay
	// Null is a null where the field is not nullable.
	Null
)

// Error is the first forbidden value Record or Array found.
type Error struct {
	Column  string  // the path to the value: field names from the column's down, "tags.item"
	Row     int     // the row of the record (or array) that reaches it, -1 for Malformed
	Problem Problem // what is wrong
	Detail  string  // what is wrong, in words: "1234.5 has more digits than decimal(4, 1) holds"
}

func (e *Error) Error() string {
	if e.Row < 0 {
		return fmt.Sprintf("column %q: %s", e.Column, e.Detail)
	}
	return fmt.Sprintf("column %q, row %d: %s", e.Column, e.Row, e.Detail)
}

// Columns is the indexes of the fields of schema that may hold a value the
// spec forbids: those Record looks at.
func Columns(schema *arrow.Schema) []int {
	var cols []int
	for i, f := range schema.Fields() {
		if mayForbid(f.Type, f.Nullable) {
			cols = append(cols, i)
		}
	}
	return cols
}

func mayForbid(dt arrow.DataType, nullable bool) bool {
	dt = arrowtype.Storage(dt)
	r := arrowtype.OfType(dt)
	if !nullable && r.Layout != arrowtype.Null {
		return true
	}
	switch {
	case r.Text || r.Decimal || r.MillisecondDate():
		return true
	case r.Encoding():
		values, _ := arrowtype.Encoded(dt)
		return mayForbid(values, nullable)
	}
	if t, ok := dt.(arrow.NestedType); ok {
		for _, f := range t.Fields() {
			if mayForbid(f.Type, f.Nullable) {
				return true
			}
		}
	}
	return false
}

// Record returns the first value of rec's columns cols (Columns of its
// schema) that the spec forbids and a row reaches, column by column, or
// nil when there is none.
func Record(rec arrow.RecordBatch, cols []int) *Error {
	for _, c := range cols {
		if e := Array(rec.Column(c), rec.Schema().Field(c)); e != nil {
			return e
		}
	}
	return nil
}

// Array returns the first row of a, the values of field, that reaches a
// value the spec forbids, or nil when no row does. Error.Column starts
// with field's name.
func Array(a arrow.Array, field arrow.Field) (e *Error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go's accessors panic on offsets or indexes out of bounds
			e = &Error{Column: field.Name, Row: -1, Problem: Malformed, Detail: fmt.Sprintf("reading the column's values: %v", p)}
		}
	}()
	if allowed(a, field.Nullable) {
		return nil
	}
	for i := range a.Len() {
		if e := find(a, field.Nullable, i); e != nil {
			e.Column, e.Row = join(field.Name, e.Column), i
			return e
		}
	}
	return nil
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// hasNulls reports whether a's validity bitmap says a null. Run-end
// encoded arrays and unions have none: their children say.
func hasNulls(a arrow.Array) bool {
	switch arrowtype.OfType(a.DataType()).Layout {
	case arrowtype.Null, arrowtype.RunEnd, arrowtype.Union:
		return false
	}
	return a.NullN() > 0
}

// allowed reports whether every value under a, reached by a row or not, is
// allowed, nulls where nullable is false aside: the fast path, a loop over
// each buffer with no call per value. false says a value may be forbidden:
// find then looks for the row that reaches it.
func allowed(a arrow.Array, nullable bool) bool {
	if a.Len() == 0 {
		return true
	}
	if !nullable && hasNulls(a) {
		return false
	}
	if ext, ok := a.(array.ExtensionArray); ok {
		return allowed(ext.Storage(), nullable)
	}
	switch r := arrowtype.OfType(a.DataType()); {
	case r.Text && r.Layout == arrowtype.Binary && r.Large:
		a := a.(arrowtype.OffsetsArray[int64])
		return offsetsUTF8(a.ValueBytes(), a.ValueOffsets())
	case r.Text && r.Layout == arrowtype.Binary:
		a := a.(arrowtype.OffsetsArray[int32])
		return offsetsUTF8(a.ValueBytes(), a.ValueOffsets())
	case r.Text:
		a := a.(arrowtype.TextArray)
		for i := range a.Len() {
			if a.IsValid(i) && !validString(a.Value(i)) {
				return false
			}
		}
		return true
	case r.Decimal:
		fit, _ := decimals(a, r.Value, -1)
		return fit
	case r.MillisecondDate():
		values := arrowtype.Values[int64](a.Data())
		var rem int64 // any value's remainder, without a branch per value
		for _, x := range values {
			rem |= x % MsPerDay
		}
		return rem == 0 && values != nil
	case r.Layout == arrowtype.Struct:
		a := a.(arrowtype.StructArray)
		fields := a.DataType().(arrow.NestedType).Fields()
		for j := range a.NumField() {
			child := a.Field(j)
			if !fields[j].Nullable && hasNulls(child) && !nullsUnderNulls(a, child) {
				return false
			}
			if !allowed(child, true) {
				return false
			}
		}
		return true
	case r.Layout == arrowtype.Dictionary:
		return allowed(a.(arrowtype.DictionaryArray).Dictionary(), nullable)
	case r.Layout == arrowtype.RunEnd:
		return allowed(a.(arrowtype.RunEndArray).Values(), nullable)
	case r.AnyList():
		a := a.(array.ListLike)
		elem := a.DataType().(arrow.ListLikeType).ElemField()
		values := a.ListValues()
		if r.Layout == arrowtype.ListView {
			return allowed(values, elem.Nullable) // a view's rows may be anywhere in its child
		}
		// The child rows of a's window, contiguous.
		start, _ := a.ValueOffsets(0)
		_, end := a.ValueOffsets(a.Len() - 1)
		if start == 0 && end == int64(values.Len()) {
			return allowed(values, elem.Nullable)
		}
		window := array.NewSlice(values, start, end)
		defer window.Release()
		return allowed(window, elem.Nullable)
	case r.Layout == arrowtype.Union:
		a := a.(array.Union)
		fields := a.DataType().(arrow.UnionType).Fields()
		for j := range a.NumFields() {
			if !allowed(a.Field(j), fields[j].Nullable) {
				return false
			}
		}
		return true
	}
	return true
}

// nullsUnderNulls reports whether every null of child, a struct's child,
// is in a null row of the struct s, where no row reaches it.
func nullsUnderNulls(s arrow.Array, child arrow.Array) bool {
	if !hasNulls(s) {
		return false
	}
	for i := range s.Len() {
		if child.IsNull(i) && s.IsValid(i) {
			return false
		}
	}
	return true
}

// offsetsUTF8 reports whether the values of data, at offsets (of the
// array's window, relative to data's start at offsets[0]), are all UTF-8.
// Valid as a whole, the bytes split into valid values where no value
// starts inside a character (on a continuation byte).
func offsetsUTF8[O int32 | int64](data []byte, offsets []O) bool {
	if !ValidUTF8(data) {
		return false
	}
	base := offsets[0]
	for _, o := range offsets[:len(offsets)-1] {
		if k := o - base; k < O(len(data)) && !utf8.RuneStart(data[k]) {
			return false
		}
	}
	return true
}

// decimals checks the decimal array a, whose values are of Go type v: for
// row < 0 whether every value fits its precision (a loop over the buffer
// with no call per value), else the value of row, with the error saying
// what is wrong.
func decimals(a arrow.Array, v arrowtype.Value, row int) (bool, *Error) {
	check := decimalCheckOf(v)
	if check == nil {
		return true, nil
	}
	return check(a, row)
}

func checkDecimals[D arrowtype.DecimalNum[D]](a arrow.Array, row int) (bool, *Error) {
	values := arrowtype.Values[D](a.Data())
	if row >= 0 {
		return decimalFits(values[row], a.DataType())
	}
	precision, _, _ := arrowtype.Precision(a.DataType())
	return values != nil && arrowtype.DecimalsFit(values, precision), nil
}

func decimalFits[D arrowtype.DecimalNum[D]](d D, dt arrow.DataType) (bool, *Error) {
	precision, scale, _ := arrowtype.Precision(dt)
	if low, high := arrowtype.DecimalBounds[D](precision); d.Cmp(high) < 0 && d.Cmp(low) > 0 {
		return true, nil
	}
	return false, &Error{Problem: PastPrecision, Detail: fmt.Sprintf("%s has more digits than %s holds", d.ToString(scale), dt)}
}

// find returns the forbidden value that row i of a reaches, with the path
// below a's column to it (the names of the fields on the way, "" for a's
// own value), or nil. nullable says whether a's field takes a null.
func find(a arrow.Array, nullable bool, i int) *Error {
	r := arrowtype.OfType(a.DataType())
	if a.IsNull(i) {
		if nullable || r.Layout == arrowtype.Null {
			return nil
		}
		return &Error{Problem: Null, Detail: "a null where the field is not nullable"}
	}
	if ext, ok := a.(array.ExtensionArray); ok {
		return find(ext.Storage(), nullable, i)
	}
	switch {
	case r.Text:
		return validText(a.(arrowtype.TextArray).Value(i))
	case r.Decimal:
		_, e := decimals(a, r.Value, i)
		return e
	case r.MillisecondDate():
		if x := arrowtype.Values[int64](a.Data())[i]; x%MsPerDay != 0 {
			return &Error{Problem: NotWholeDay, Detail: fmt.Sprintf("date64 %d ms is not a whole number of days", x)}
		}
	case r.Layout == arrowtype.Struct:
		a := a.(arrowtype.StructArray)
		fields := a.DataType().(arrow.NestedType).Fields()
		for j := range a.NumField() {
			if e := find(a.Field(j), fields[j].Nullable, i); e != nil {
				e.Column = join(fields[j].Name, e.Column)
				return e
			}
		}
	case r.Layout == arrowtype.Dictionary:
		a := a.(arrowtype.DictionaryArray)
		return find(a.Dictionary(), nullable, a.GetValueIndex(i))
	case r.Layout == arrowtype.RunEnd:
		a := a.(arrowtype.RunEndArray)
		return find(a.Values(), nullable, a.GetPhysicalIndex(i))
	case r.AnyList():
		a := a.(array.ListLike)
		elem := a.DataType().(arrow.ListLikeType).ElemField() // a map's entries
		values := a.ListValues()
		start, end := a.ValueOffsets(i)
		for k := start; k < end; k++ {
			if e := find(values, elem.Nullable, int(k)); e != nil {
				e.Column = join(elem.Name, e.Column)
				return e
			}
		}
	case r.Dense:
		a := a.(arrowtype.DenseUnionArray)
		return findInUnion(a, a.ChildID(i), int(a.ValueOffset(i)))
	case r.Layout == arrowtype.Union:
		a := a.(array.Union)
		return findInUnion(a, a.ChildID(i), i)
	}
	return nil
}

// findInUnion is find in child j of the union u, at row k of the child.
func findInUnion(u array.Union, j, k int) *Error {
	f := u.DataType().(arrow.UnionType).Fields()[j]
	e := find(u.Field(j), f.Nullable, k)
	if e != nil {
		e.Column = join(f.Name, e.Column)
	}
	return e
}

func validText(s string) *Error {
	if validString(s) {
		return nil
	}
	return &Error{Problem: NotUTF8, Detail: "a text value that is not UTF-8"}
}
