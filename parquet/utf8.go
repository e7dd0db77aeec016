package parquet

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
)

// textColumns is the indexes of the columns of schema that hold utf8,
// large_utf8 or utf8_view values at any depth: the columns checkUTF8
// looks at.
func textColumns(schema *arrow.Schema) []int {
	var cols []int
	for i, f := range schema.Fields() {
		if holdsText(f.Type) {
			cols = append(cols, i)
		}
	}
	return cols
}

func holdsText(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return true
	case *arrow.DictionaryType:
		return holdsText(t.ValueType)
	case *arrow.RunEndEncodedType:
		return holdsText(t.Encoded())
	case arrow.ExtensionType:
		return holdsText(t.StorageType())
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if holdsText(f.Type) {
				return true
			}
		}
	}
	return false
}

// checkUTF8 refuses a record whose columns cols (textColumns) hold a text
// value a row reaches that is not UTF-8, which the Arrow spec forbids and
// readers of the file refuse: an *mapper.Error wrapping
// mapper.ErrInvalidData, naming the column's path to the value and the
// row, counted from base (the rows of rec are the file's from base). What
// a null row holds beneath it is no value, and is not checked.
func checkUTF8(rec arrow.RecordBatch, cols []int, base int64) error {
	for _, c := range cols {
		if err := checkColumnUTF8(rec.Column(c), rec.Schema().Field(c).Name, base); err != nil {
			return err
		}
	}
	return nil
}

func checkColumnUTF8(col arrow.Array, name string, base int64) (err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go's accessors panic on offsets or indexes out of bounds
			err = &mapper.Error{Column: name, Row: -1, Err: fmt.Errorf("%w: reading the column's text: %v", mapper.ErrInvalidData, p)}
		}
	}()
	if allUTF8(col) {
		return nil
	}
	for i := range col.Len() {
		if path, bad := notUTF8(col, i); bad {
			return &mapper.Error{Column: joinColumn(name, path), Row: int(base) + i, Err: fmt.Errorf("%w: a text value that is not UTF-8", mapper.ErrInvalidData)}
		}
	}
	return nil
}

func joinColumn(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// allUTF8 reports whether every text value under a, null or not, is
// UTF-8: the fast path, which validates the bytes of an array of offsets
// at once. Valid as a whole, they split into valid values where no value
// starts inside a character (on a continuation byte). false says a value
// may not be UTF-8: notUTF8 then finds the row that reaches it.
func allUTF8(a arrow.Array) bool {
	if a.Len() == 0 {
		return true
	}
	switch a := a.(type) {
	case *array.String:
		return offsetsUTF8(a.ValueBytes(), a.ValueOffsets())
	case *array.LargeString:
		return offsetsUTF8(a.ValueBytes(), a.ValueOffsets())
	case *array.StringView:
		for i := range a.Len() {
			if a.IsValid(i) && !utf8.ValidString(a.Value(i)) {
				return false
			}
		}
		return true
	case *array.Struct:
		for j := range a.NumField() {
			if !allUTF8(a.Field(j)) {
				return false
			}
		}
		return true
	case *array.Dictionary:
		return allUTF8(a.Dictionary())
	case *array.RunEndEncoded:
		return allUTF8(a.Values())
	case array.ExtensionArray:
		return allUTF8(a.Storage())
	case array.ListLike:
		values := a.ListValues()
		if !holdsText(values.DataType()) {
			return true
		}
		if id := a.DataType().ID(); id == arrow.LIST_VIEW || id == arrow.LARGE_LIST_VIEW {
			return allUTF8(values) // a view's rows may be anywhere in its child
		}
		// The child rows of a's window, contiguous.
		start, _ := a.ValueOffsets(0)
		_, end := a.ValueOffsets(a.Len() - 1)
		if start == 0 && end == int64(values.Len()) {
			return allUTF8(values)
		}
		window := array.NewSlice(values, start, end)
		defer window.Release()
		return allUTF8(window)
	}
	return true
}

// offsetsUTF8 reports whether the values of data, at offsets (of the
// array's window, relative to data's start at offsets[0]), are all UTF-8.
func offsetsUTF8[O int32 | int64](data []byte, offsets []O) bool {
	if !utf8.Valid(data) {
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

// notUTF8 reports whether row i of a reaches a text value that is not
// UTF-8, and the path below a's column to it (the names of the fields on
// the way, "" for a's own value).
func notUTF8(a arrow.Array, i int) (string, bool) {
	if a.IsNull(i) {
		return "", false
	}
	switch a := a.(type) {
	case *array.String:
		return "", !utf8.ValidString(a.Value(i))
	case *array.LargeString:
		return "", !utf8.ValidString(a.Value(i))
	case *array.StringView:
		return "", !utf8.ValidString(a.Value(i))
	case *array.Struct:
		fields := a.DataType().(*arrow.StructType).Fields()
		for j := range a.NumField() {
			if path, bad := notUTF8(a.Field(j), i); bad {
				return joinColumn(fields[j].Name, path), true
			}
		}
	case *array.Dictionary:
		return notUTF8(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return notUTF8(a.Values(), a.GetPhysicalIndex(i))
	case array.ExtensionArray:
		return notUTF8(a.Storage(), i)
	case array.ListLike:
		elem := a.DataType().(arrow.NestedType).Fields()[0].Name // a map's entries
		values := a.ListValues()
		start, end := a.ValueOffsets(i)
		for k := start; k < end; k++ {
			if path, bad := notUTF8(values, int(k)); bad {
				return joinColumn(elem, path), true
			}
		}
	}
	return "", false
}
