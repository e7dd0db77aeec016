// Package forbidden is what the record writers of parquet and ipc refuse
// before they write a record from outside arrowmap's encoder: the values
// the Arrow spec forbids that internal/arrowcheck finds, as the
// *mapper.Error every arrowmap package reports.
package forbidden

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/mapper"
)

// Refuse refuses a record whose columns cols (arrowcheck.Columns) hold a
// value a row reaches that the Arrow spec forbids, which readers of the
// output refuse or take for another value: an *mapper.Error wrapping
// mapper.ErrNull for a null where the field is not nullable,
// mapper.ErrInvalidData otherwise, naming the column's path to the value
// and the row, counted from base (the rows of rec are the output's from
// base).
func Refuse(rec arrow.RecordBatch, cols []int, base int64) error {
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
