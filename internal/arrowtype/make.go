package arrowtype

// How a row makes its Arrow type (by its ID, in a unit and zone, with a
// precision and scale), and what a type's parameters and values are.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Make is the parameterless type of r's ID: the integers, floats, bool,
// null, the strings and binaries, date32, date64 and the intervals. It
// panics for a type with parameters: use the constructor of its kind.
func (r *Row) Make() arrow.DataType {
	if r.plain == nil {
		panic("arrowtype: " + r.Name + " has parameters")
	}
	return r.plain
}

// Plain is the type of id when it has no parameters.
func Plain(id arrow.Type) (arrow.DataType, bool) {
	r := Of(id)
	return r.plain, r.plain != nil
}

// WithUnit is the temporal type of r's ID in unit, and zone for a
// timestamp ("" is naive). Date32 and date64 take no unit; a unit the type
// does not take is an error.
func (r *Row) WithUnit(unit arrow.TimeUnit, zone string) (arrow.DataType, error) {
	if !r.TakesUnit(unit) {
		return nil, fmt.Errorf("%s takes no unit %s", r.Name, unit)
	}
	return r.withUnit(unit, zone), nil
}

// TakesUnit is whether unit is one of r's units.
func (r *Row) TakesUnit(unit arrow.TimeUnit) bool {
	for _, u := range r.Units {
		if u == unit {
			return true
		}
	}
	return false
}

// DecimalOf is the decimal type of r's ID with precision and scale.
func (r *Row) DecimalOf(precision, scale int32) arrow.DataType {
	if r.decimal == nil {
		panic("arrowtype: " + r.Name + " is no decimal")
	}
	return r.decimal(precision, scale)
}

// Decimals is the decimal rows, narrowest first.
func Decimals() []*Row { return decimals }

var decimals []*Row // set by init, once byID is

// DecimalFor is the narrowest decimal row that holds precision digits.
func DecimalFor(precision int32) (*Row, bool) {
	for _, r := range decimals {
		if precision <= r.MaxPrecision {
			return r, true
		}
	}
	return nil, false
}

// Precision is a decimal's precision and scale; false when dt is no
// decimal.
func Precision(dt arrow.DataType) (precision, scale int32, ok bool) {
	if t, ok := dt.(arrow.DecimalType); ok {
		return t.GetPrecision(), t.GetScale(), true
	}
	return 0, 0, false
}

// Decoded is dt without its extensions and encodings: the type of the
// values a reader meets, through any depth of extension, dictionary and
// run-end encoding.
func Decoded(dt arrow.DataType) arrow.DataType {
	for {
		dt = Storage(dt)
		values, ok := Encoded(dt)
		if !ok {
			return dt
		}
		dt = values
	}
}

// Values is the values of the fixed-width array d, as T, from its offset:
// for every type whose buffers hold T (see [Holding]), what arrow-go's
// typed arrays give. It is nil when d's buffer is too short for its length.
func Values[T FixedValue](d arrow.ArrayData) []T {
	bufs := d.Buffers()
	if len(bufs) < 2 || bufs[1] == nil || d.Len() == 0 {
		return nil
	}
	all := arrow.GetData[T](bufs[1].Bytes())
	if d.Offset() < 0 || d.Len() > len(all)-d.Offset() {
		return nil
	}
	return all[d.Offset() : d.Offset()+d.Len()]
}

// IntegerOf is the integer type whose buffers hold values of v (int32 for
// date32 and time32): the type a column's storage integers are read as.
func IntegerOf(v Value) (arrow.DataType, bool) {
	for _, r := range rows {
		if r.Integer && r.Value == v {
			return r.plain, true
		}
	}
	return nil, false
}

// MapLike is the map of key and item whose keys are sorted as those of
// the map like; false where WithElem is.
func MapLike(like arrow.DataType, key, item arrow.Field) (arrow.DataType, bool) {
	return WithElem(like, arrow.Field{Name: "entries", Type: arrow.StructOf(key, item)})
}

// Named is the row ByName finds for name, which must be one (a name the
// code spells): it panics for another.
func Named(name string) *Row {
	r, ok := ByName(name)
	if !ok {
		panic("arrowtype: no type " + name)
	}
	return r
}

// MustWithUnit is r.WithUnit for a unit the code knows r takes: it panics
// for another.
func (r *Row) MustWithUnit(unit arrow.TimeUnit, zone string) arrow.DataType {
	dt, err := r.WithUnit(unit, zone)
	if err != nil {
		panic("arrowtype: " + err.Error())
	}
	return dt
}
