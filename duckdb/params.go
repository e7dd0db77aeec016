package duckdb

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// bindings is params as the arguments of one execution each: P's columns
// as mapper.Encode makes them, in their order, each value the driver value
// database/sql would give DuckDB's driver for the field (nil for a null).
// A column of a type database/sql has no driver value for is refused,
// named, whether or not params has rows.
func bindings[P any](params []P, opts []mapper.WriteOption) ([][]any, error) {
	rec, err := mapper.Encode(params, opts...)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	rows, cols := int(rec.NumRows()), int(rec.NumCols())
	args := make([][]any, rows)
	flat := make([]any, rows*cols)
	for i := range args {
		args[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
	}
	for j, col := range rec.Columns() {
		values, err := driverValues(col)
		if err != nil {
			var merr *mapper.Error
			if errors.As(err, &merr) {
				merr.Column, merr.Path = rec.Schema().Field(j).Name, ""
				return nil, merr
			}
			return nil, &mapper.Error{Column: rec.Schema().Field(j).Name, Row: -1, Err: err}
		}
		for i, v := range values {
			args[i][j] = v
		}
	}
	return args, nil
}

// driverValues is col's values as the driver values database/sql makes of
// the Go values mapper.Encode makes col's type of: every integer an int64,
// every float a float64, a date or timestamp a time.Time, text a string,
// bytes a []byte; nil for a null. The table says which a type is; mapper
// decodes it.
func driverValues(col arrow.Array) ([]any, error) {
	row := arrowtype.OfType(col.DataType())
	switch {
	case row == nil:
	case row.Layout == arrowtype.Null:
		return make([]any, col.Len()), nil
	case row.Layout == arrowtype.Boolean:
		return decoded[bool](col, nil)
	case row.Instant():
		// DuckDB's driver binds a time.Time as microseconds, truncating the
		// rest, which Ingest refuses: so does a parameter. (A date has
		// none.)
		return decoded(col, func(t time.Time) (any, error) {
			if t.Nanosecond()%1000 != 0 {
				return nil, fmt.Errorf("%w: %s has nanoseconds, which DuckDB (microseconds) cannot hold: tag the field unit=us to bind it truncated, or round it",
					mapper.ErrOverflow, t.Format(time.RFC3339Nano))
			}
			return t, nil
		})
	case row.Temporal != arrowtype.NotTemporal:
		// A time of day, a duration or an interval: database/sql has none.
	case row.Layout == arrowtype.Fixed && row.Value.Integer() && row.Value.Signed():
		return decoded[int64](col, nil)
	case row.Layout == arrowtype.Fixed && row.Value.Integer():
		return decoded(col, func(v uint64) (any, error) {
			if v > math.MaxInt64 {
				return nil, fmt.Errorf("%w: %d: database/sql binds no uint64 past the largest int64", mapper.ErrOverflow, v)
			}
			return int64(v), nil
		})
	case row.Layout == arrowtype.Fixed && row.Value.Float() && row.Value.Bytes() >= 4:
		return decoded[float64](col, nil)
	case row.VarBinary() && row.Text:
		return decoded[string](col, nil)
	case row.VarBinary():
		return decoded[[]byte](col, nil)
	}
	return nil, fmt.Errorf("%w: DuckDB binds no parameter of Arrow type %s as database/sql gives it (integers, floats, strings, []byte, bool, dates and timestamps it does)",
		mapper.ErrUnsupported, col.DataType())
}

// decoded is col decoded into values of E, each made a driver value by as
// (the value itself when as is nil); nil for a null.
func decoded[E any](col arrow.Array, as func(E) (any, error)) ([]any, error) {
	ptrs, err := mapper.DecodeArray[*E](col)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(ptrs))
	for i, p := range ptrs {
		switch {
		case p == nil:
		case as == nil:
			out[i] = *p
		default:
			if out[i], err = as(*p); err != nil {
				return nil, &mapper.Error{Row: i, Err: err}
			}
		}
	}
	return out, nil
}

// encodeOptions is what of a query's mapper options acts on its
// parameters too: the ones that are WriteOptions (SnakeCase, As).
func encodeOptions(opts []mapper.ReadOption) []mapper.WriteOption {
	var w []mapper.WriteOption
	for _, o := range opts {
		if o, ok := o.(mapper.WriteOption); ok {
			w = append(w, o)
		}
	}
	return w
}
