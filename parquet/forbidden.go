package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/mapper"
)

// refuseForbidden refuses a record whose columns cols (arrowcheck.Columns)
// hold a value a row reaches that the Arrow spec forbids, which the file
// would store as another value or readers of it refuse: an *mapper.Error
// wrapping mapper.ErrNull for a null where the field is not nullable,
// mapper.ErrInvalidData otherwise, naming the column's path to the value
// and the row, counted from base (the rows of rec are the file's from
// base).
func refuseForbidden(rec arrow.RecordBatch, cols []int, base int64) error {
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
