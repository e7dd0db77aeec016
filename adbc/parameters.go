package adbc

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// ErrParameters is the kind of error of parameters that do not match the
// statement's parameter schema: their number, or a parameter's type. It is
// wrapped in a *mapper.Error naming the parameter's column; a type that
// differs is also a mapper.ErrTypeMismatch.
var ErrParameters = errors.New("parameters do not match the statement")

// checkParameters compares have, the schema of the parameters about to be
// bound, with the statement's parameter schema when the driver knows it.
// Parameters bind by position, so positions are compared, not names: a
// driver may name them "", "?", "$1" or "parameter_1". A parameter of
// unknown type (NA) takes any type, and nullability is not compared: a
// nullable column of P may well hold no null.
func checkParameters(entry, query string, stmt adbc.Statement, have *arrow.Schema) error {
	want, err := stmt.GetParameterSchema()
	if err != nil {
		var ae adbc.Error
		if errors.As(err, &ae) && ae.Code == adbc.StatusNotImplemented {
			return nil
		}
		return adbcError(entry, query, "GetParameterSchema", err)
	}
	if want == nil {
		return nil
	}
	if want.NumFields() != have.NumFields() {
		return &mapper.Error{Row: -1, Err: fmt.Errorf("%w: %s %q takes %d parameters (%s), P has %d columns (%s)",
			ErrParameters, entry, shorten(query), want.NumFields(), fieldList(want), have.NumFields(), fieldList(have))}
	}
	for i, w := range want.Fields() {
		h := have.Field(i)
		if arrowtype.OfType(w.Type).Layout == arrowtype.Null || arrow.TypeEqual(w.Type, h.Type) {
			continue
		}
		return &mapper.Error{Column: h.Name, Row: -1, Err: fmt.Errorf("%w: %w: parameter %d%s of %s %q is %s, P's column %q is %s",
			ErrParameters, mapper.ErrTypeMismatch, i+1, parameterName(w), entry, shorten(query), w.Type, h.Name, h.Type)}
	}
	return nil
}

func parameterName(f arrow.Field) string {
	if f.Name == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", f.Name)
}

// fieldList is a schema's fields as "name type, …", for an error message.
func fieldList(s *arrow.Schema) string {
	b := make([]byte, 0, 16*s.NumFields())
	for i, f := range s.Fields() {
		if i > 0 {
			b = append(b, ", "...)
		}
		if f.Name != "" {
			b = append(b, f.Name...)
			b = append(b, ' ')
		}
		b = append(b, f.Type.String()...)
	}
	return string(b)
}
