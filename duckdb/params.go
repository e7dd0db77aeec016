package duckdb

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
)

// bindings is params as the arguments of one execution each: P's columns
// as mapper.Encode makes them, in their order, each value the driver value
// database/sql would give DuckDB's driver for the field (nil for a null). A column
// of a type the driver binds no Go value as is refused, named, whether or
// not params has rows.
func bindings[P any](params []P, opts []mapper.WriteOption) ([][]any, error) {
	rec, err := mapper.Encode(params, opts...)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	rows, cols := int(rec.NumRows()), int(rec.NumCols())
	values := make([]func(int) (any, error), cols)
	for j, col := range rec.Columns() {
		if values[j] = bindingOf(col); values[j] == nil {
			f := rec.Schema().Field(j)
			return nil, &mapper.Error{Column: f.Name, Row: -1, Err: fmt.Errorf(
				"%w: DuckDB binds no parameter of Arrow type %s (integers, floats, strings, []byte, bool and time.Time it does)",
				mapper.ErrUnsupported, f.Type)}
		}
	}
	args := make([][]any, rows)
	flat := make([]any, rows*cols)
	for i := range args {
		args[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
		for j, col := range rec.Columns() {
			if col.IsNull(i) {
				continue // nil: NULL
			}
			v, err := values[j](i)
			if err != nil {
				return nil, &mapper.Error{Column: rec.Schema().Field(j).Name, Row: i, Err: err}
			}
			args[i][j] = v
		}
	}
	return args, nil
}

// bindingOf is the Go value of row i of col that database/sql gives
// DuckDB's driver for the Go type mapper.Encode makes the column's type
// of, nil for a type the driver binds none as.
func bindingOf(col arrow.Array) func(i int) (any, error) {
	switch a := col.(type) {
	case *array.Null:
		return func(int) (any, error) { return nil, nil }
	case *array.Boolean:
		return func(i int) (any, error) { return a.Value(i), nil }
	// database/sql makes every integer an int64 and every float a float64
	// before its driver binds it: so does QueryWith, so that a parameter
	// is of the type database/sql gives it.
	case *array.Int8:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Int16:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Int32:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Int64:
		return func(i int) (any, error) { return a.Value(i), nil }
	case *array.Uint8:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Uint16:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Uint32:
		return func(i int) (any, error) { return int64(a.Value(i)), nil }
	case *array.Uint64:
		return func(i int) (any, error) {
			if v := a.Value(i); v <= math.MaxInt64 {
				return int64(v), nil
			}
			return nil, fmt.Errorf("%w: %d: database/sql binds no uint64 past the largest int64", mapper.ErrOverflow, a.Value(i))
		}
	case *array.Float32:
		return func(i int) (any, error) { return float64(a.Value(i)), nil }
	case *array.Float64:
		return func(i int) (any, error) { return a.Value(i), nil }
	case *array.String:
		return func(i int) (any, error) { return a.Value(i), nil }
	case *array.LargeString:
		return func(i int) (any, error) { return a.Value(i), nil }
	case *array.StringView:
		return func(i int) (any, error) { return a.Value(i), nil }
	// The bytes are copied: the record they are in is released before the
	// query runs.
	case *array.Binary:
		return func(i int) (any, error) { return append([]byte{}, a.Value(i)...), nil }
	case *array.LargeBinary:
		return func(i int) (any, error) { return append([]byte{}, a.Value(i)...), nil }
	case *array.BinaryView:
		return func(i int) (any, error) { return append([]byte{}, a.Value(i)...), nil }
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return func(i int) (any, error) { return a.Value(i).ToTime(unit), nil }
	case *array.Date32:
		return func(i int) (any, error) { return a.Value(i).ToTime(), nil }
	case *array.Date64:
		return func(i int) (any, error) { return a.Value(i).ToTime(), nil }
	}
	return nil
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
