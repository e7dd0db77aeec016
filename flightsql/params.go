package flightsql

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// checkParameters reports the first way rec does not match want, the
// parameter schema the server gave for a statement, as an *mapper.Error
// whose Column names the parameter: a parameter rec lacks
// (ErrMissingColumn), a column past the last parameter (ErrExtraColumn), a
// column in a parameter's place with another name (ErrMissingColumn) or
// another type (ErrTypeMismatch), a null for a parameter that takes none
// (ErrNull, Row the first such row).
//
// Binding is by position on the wire, so names are compared position by
// position, not looked up: a struct whose fields are in another order than
// the parameters is an error, not a silent swap. A parameter the server
// leaves unnamed is matched by position alone.
func checkParameters(want *arrow.Schema, rec arrow.RecordBatch) error {
	got := rec.Schema()
	for i := range max(want.NumFields(), got.NumFields()) {
		if i >= want.NumFields() {
			col := got.Field(i).Name
			return &mapper.Error{Column: col, Row: -1, Err: fmt.Errorf("%w: the statement takes %d parameters; column %q would be parameter %d",
				mapper.ErrExtraColumn, want.NumFields(), col, i+1)}
		}
		param := want.Field(i)
		name := paramName(param, i)
		if i >= got.NumFields() {
			return &mapper.Error{Column: name, Row: -1, Err: fmt.Errorf("%w: parameter %d of the statement (%s) has no column: the parameters have %d",
				mapper.ErrMissingColumn, i+1, param.Type, got.NumFields())}
		}
		field := got.Field(i)
		if param.Name != "" && param.Name != field.Name {
			return &mapper.Error{Column: name, Row: -1, Err: fmt.Errorf("%w: parameter %d of the statement is %q, and column %d of the parameters is %q",
				mapper.ErrMissingColumn, i+1, param.Name, i+1, field.Name)}
		}
		if !arrow.TypeEqual(param.Type, field.Type) {
			return &mapper.Error{Column: name, Row: -1, Err: fmt.Errorf("%w: parameter %d of the statement is %s, and column %q of the parameters is %s",
				mapper.ErrTypeMismatch, i+1, param.Type, field.Name, field.Type)}
		}
		if col := rec.Column(i); !param.Nullable && col.NullN() > 0 {
			row := 0
			for col.IsValid(row) {
				row++
			}
			return &mapper.Error{Column: name, Row: row, Err: fmt.Errorf("%w: parameter %d of the statement takes no null, and column %q of the parameters has %d",
				mapper.ErrNull, i+1, field.Name, col.NullN())}
		}
	}
	return nil
}

// paramName is how errors name parameter i: by the server's name, or by
// its position when it has none.
func paramName(param arrow.Field, i int) string {
	if param.Name != "" {
		return param.Name
	}
	return fmt.Sprintf("$%d", i+1)
}
