package parquet

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// checkDictionaries is an *mapper.Error wrapping mapper.ErrInvalidData for
// the first valid dictionary index of the chunk d of column, at any depth,
// that its dictionary has no entry for; nil when there is none. row is the
// chunk's first row, counted as errors count rows (-1: none), which the
// error's row counts from.
//
// arrow-go's Parquet decoder appends a dictionary page's indices as the
// page holds them, never comparing them with the dictionary (v18.8.0 and
// v18.9.0), and array.Concatenate, which joins the chunks of a batch
// across row groups, transposes them through each chunk's dictionary in
// assembly that trusts them: an index past the dictionary reads past the
// transposition map, a fault no recover stops, or reads whatever lies
// there and hands on an index to some other entry. So every chunk is
// checked before it is concatenated or handed on, as a record reader's
// user passing it to arrow-go would meet the same fault.
func checkDictionaries(d arrow.ArrayData, column string, row int64) error {
	if d == nil {
		return nil
	}
	dt := d.DataType()
	if arrowtype.OfType(dt).Layout == arrowtype.Dictionary {
		dict := d.Dictionary()
		// *array.Data hands back its missing dictionary as a typed nil.
		if data, ok := dict.(*array.Data); dict == nil || ok && data == nil {
			return dictionaryError(column, -1, "a dictionary array without its dictionary")
		}
		indexType, _ := arrowtype.DictionaryIndices(dt)
		i, index, err := dictindex.OutOfRange(d, indexType, dict.Len())
		if err != nil {
			return dictionaryError(column, -1, err.Error())
		}
		if i >= 0 {
			at := int64(-1)
			if row >= 0 {
				at = row + int64(i)
			}
			return dictionaryError(column, at, fmt.Sprintf("dictionary index %d out of range for %d entries", index, dict.Len()))
		}
		return checkDictionaries(dict, column, -1)
	}
	var fields []arrow.Field
	if nested, ok := dt.(arrow.NestedType); ok {
		fields = nested.Fields()
	}
	for k, child := range d.Children() {
		path := column
		if k < len(fields) {
			path += "." + fields[k].Name
		}
		// A child's rows are not the column's rows.
		if err := checkDictionaries(child, path, -1); err != nil {
			return err
		}
	}
	return nil
}

func dictionaryError(column string, row int64, detail string) error {
	return &mapper.Error{Column: column, Row: int(row), Err: fmt.Errorf("%w: %s", mapper.ErrInvalidData, detail)}
}

// checkLayout is an *mapper.Error wrapping mapper.ErrInvalidData when the
// buffers of a, a column as pqarrow decoded it, are malformed (a list's
// offsets past its child, a child shorter than its parent); nil when they
// are sound. row is a's first row, counted as errors count rows.
//
// What arrowmap does to such a column itself, converting it to the type
// written or joining it to the chunk of another row group, reads the
// buffers through arrow-go, which trusts them: array.Concatenate recovers
// its own panic of an index past a buffer and returns it as an error of no
// kind. So a column is checked, once, before either.
func checkLayout(a arrow.Array, column string, row int64) error {
	t := views.WholeTypeOf(a.DataType())
	if _, err := views.Of(a, &t); err != nil {
		var ve *views.Error
		at := -1
		if errors.As(err, &ve) && ve.Row >= 0 && row >= 0 {
			at = int(row) + ve.Row
		}
		return &mapper.Error{Column: column, Row: at, Err: err}
	}
	return nil
}

// checkOffsets is an *mapper.Error wrapping mapper.ErrTooLarge for the
// first array of d, a chunk of column as pqarrow decoded it, at any depth,
// whose values pass what its 32-bit offsets index (2³¹-1 bytes of utf8 or
// binary, elements of a list); nil when none does. arrow-go's builders
// (v18.8.0) append past it, the offsets wrapping to negative: a valid
// file whose record holds more than 2 GiB of one column's strings became
// an array no reader can read, handed on as it was.
func checkOffsets(d arrow.ArrayData, column string) error {
	if d == nil {
		return nil
	}
	if r := arrowtype.OfType(d.DataType()); r.Offsets32() {
		what, n := "elements", 0
		if r.VarBinary() {
			what = "bytes"
			if bufs := d.Buffers(); len(bufs) > 2 && bufs[2] != nil {
				n = bufs[2].Len()
			}
		} else if children := d.Children(); len(children) > 0 {
			n = children[0].Len()
		}
		if n > math.MaxInt32 {
			return &mapper.Error{Column: column, Row: -1, Err: fmt.Errorf(
				"%w: a record of %d %s of %s, past the 2³¹-1 its 32-bit offsets index: read fewer rows a record (ReadConfig.BatchRows)",
				mapper.ErrTooLarge, n, what, d.DataType())}
		}
	}
	for _, child := range d.Children() {
		if err := checkOffsets(child, column); err != nil {
			return err
		}
	}
	if dict := d.Dictionary(); dict != nil {
		if data, ok := dict.(*array.Data); !ok || data != nil {
			return checkOffsets(dict, column)
		}
	}
	return nil
}
