// Package forbidden is what the record writers of parquet and ipc refuse
// before they write a record from outside arrowmap's encoder: a malformed
// record, which views (the validation every reader of arrowmap does)
// refuses, and the values the Arrow spec forbids that internal/arrowcheck
// finds, each as the *mapper.Error every arrowmap package reports.
package forbidden

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// Refuse refuses a record that a reader of the output would refuse or
// take for other values, checking first what a reader's View checks of
// every column — buffers long enough for the rows, offsets monotone and in
// bounds, children long enough, dictionary indexes, run ends, view-buffer
// indexes, null counts — then the columns cols (arrowcheck.Columns) for a
// value a row reaches that the Arrow spec forbids. The error is an
// *mapper.Error wrapping mapper.ErrNull for a null where the field is not
// nullable, mapper.ErrInvalidData otherwise, naming the column's path and
// the row when one row is at fault, counted from base (the rows of rec are
// the output's from base); a malformed buffer names no row (Row -1).
func Refuse(rec arrow.RecordBatch, cols []int, base int64) error {
	if err := malformed(rec, base); err != nil {
		return err
	}
	e := arrowcheck.Record(rec, cols)
	if e == nil {
		return nil
	}
	sentinel, row := mapper.ErrInvalidData, e.Row
	if e.Problem == arrowcheck.Null {
		sentinel = mapper.ErrNull
	}
	if row >= 0 {
		row += int(base)
	}
	return &mapper.Error{Column: e.Column, Row: row, Err: fmt.Errorf("%w: %s", sentinel, e.Detail)}
}

// malformed refuses a record whose columns are not what their types say,
// by the rule a reader's View applies (package views), each column viewed
// as its own datatype, every level nullable (nulls are arrowcheck's), every
// struct child by its position: an *mapper.Error wrapping
// mapper.ErrInvalidData that names the column's path, and the row, counted
// from base, when views names one of the column's own level.
func malformed(rec arrow.RecordBatch, base int64) error {
	rows := rec.NumRows()
	schema := rec.Schema()
	if int64(rec.NumCols()) != int64(schema.NumFields()) {
		return &mapper.Error{Row: -1, Err: fmt.Errorf("%w: a record of %d columns for a schema of %d fields", mapper.ErrInvalidData, rec.NumCols(), schema.NumFields())}
	}
	for i, f := range schema.Fields() {
		col := rec.Column(i)
		if col == nil || f.Type == nil {
			return &mapper.Error{Column: f.Name, Row: -1, Err: fmt.Errorf("%w: no column or no datatype", mapper.ErrInvalidData)}
		}
		t := views.WholeTypeOf(col.DataType())
		v, err := views.Of(col, &t)
		if err != nil {
			return viewError(f.Name, err, base)
		}
		if int64(v.Len()) != rows {
			return &mapper.Error{Column: f.Name, Row: -1, Err: fmt.Errorf("%w: %d rows in a record of %d", mapper.ErrInvalidData, v.Len(), rows)}
		}
	}
	return nil
}

// viewError is err, an error of views.Of on the column named column, as an
// *mapper.Error.
func viewError(column string, err error, base int64) error {
	var ve *views.Error
	if !errors.As(err, &ve) {
		return &mapper.Error{Column: column, Row: -1, Err: fmt.Errorf("%w: %v", mapper.ErrInvalidData, err)}
	}
	// views names the row of the level at fault: below the column's own
	// level, an entry of a list, not a row of the record.
	row := ve.Row
	if ve.Column != "" {
		column += "." + ve.Column
		row = -1
	}
	if row >= 0 {
		row += int(base)
	}
	what := ve.Err
	if ve.Detail != "" {
		what = fmt.Errorf("%w: %s", ve.Err, ve.Detail)
	}
	return &mapper.Error{Column: column, Row: row, Err: what}
}
