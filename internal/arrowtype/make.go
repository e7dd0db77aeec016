package arrowtype

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Make is the parameterless type of r's ID: the integers, floats, bool,
// null, the strings and binaries, date32, date64 and the intervals. It
// panics for a type with parameters: use the constructor of its kind.
func (r *Row) Make() arrow.DataType {
	if dt, ok := plain[r.ID]; ok {
		return dt
	}
	panic("arrowtype: " + r.Name + " has parameters")
}

var plain = map[arrow.Type]arrow.DataType{
	arrow.NULL: arrow.Null, arrow.BOOL: arrow.FixedWidthTypes.Boolean,
	arrow.INT8: arrow.PrimitiveTypes.Int8, arrow.INT16: arrow.PrimitiveTypes.Int16,
	arrow.INT32: arrow.PrimitiveTypes.Int32, arrow.INT64: arrow.PrimitiveTypes.Int64,
	arrow.UINT8: arrow.PrimitiveTypes.Uint8, arrow.UINT16: arrow.PrimitiveTypes.Uint16,
	arrow.UINT32: arrow.PrimitiveTypes.Uint32, arrow.UINT64: arrow.PrimitiveTypes.Uint64,
	arrow.FLOAT16: arrow.FixedWidthTypes.Float16, arrow.FLOAT32: arrow.PrimitiveTypes.Float32,
	arrow.FLOAT64: arrow.PrimitiveTypes.Float64,
	arrow.STRING:  arrow.BinaryTypes.String, arrow.LARGE_STRING: arrow.BinaryTypes.LargeString,
	arrow.STRING_VIEW: arrow.BinaryTypes.StringView, arrow.BINARY: arrow.BinaryTypes.Binary,
	arrow.LARGE_BINARY: arrow.BinaryTypes.LargeBinary, arrow.BINARY_VIEW: arrow.BinaryTypes.BinaryView,
	arrow.DATE32: arrow.FixedWidthTypes.Date32, arrow.DATE64: arrow.FixedWidthTypes.Date64,
	arrow.INTERVAL_MONTHS: arrow.FixedWidthTypes.MonthInterval, arrow.INTERVAL_DAY_TIME: arrow.FixedWidthTypes.DayTimeInterval,
	arrow.INTERVAL_MONTH_DAY_NANO: arrow.FixedWidthTypes.MonthDayNanoInterval,
}

// Plain is the type of id when it has no parameters.
func Plain(id arrow.Type) (arrow.DataType, bool) {
	dt, ok := plain[id]
	return dt, ok
}

// WithUnit is the temporal type of r's ID in unit, and zone for a
// timestamp ("" is naive). Date32 and date64 take no unit; a unit the type
// does not take is an error.
func (r *Row) WithUnit(unit arrow.TimeUnit, zone string) (arrow.DataType, error) {
	if !r.TakesUnit(unit) {
		return nil, fmt.Errorf("%s takes no unit %s", r.Name, unit)
	}
	switch r.ID {
	case arrow.TIMESTAMP:
		return &arrow.TimestampType{Unit: unit, TimeZone: zone}, nil
	case arrow.TIME32:
		return &arrow.Time32Type{Unit: unit}, nil
	case arrow.TIME64:
		return &arrow.Time64Type{Unit: unit}, nil
	case arrow.DURATION:
		return &arrow.DurationType{Unit: unit}, nil
	}
	return nil, fmt.Errorf("%s takes no unit", r.Name)
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

// TimestampOf is timestamp[unit, zone].
func TimestampOf(unit arrow.TimeUnit, zone string) arrow.DataType {
	return &arrow.TimestampType{Unit: unit, TimeZone: zone}
}

// DecimalOf is the decimal type of r's ID with precision and scale.
func (r *Row) DecimalOf(precision, scale int32) arrow.DataType {
	switch r.ID {
	case arrow.DECIMAL32:
		return &arrow.Decimal32Type{Precision: precision, Scale: scale}
	case arrow.DECIMAL64:
		return &arrow.Decimal64Type{Precision: precision, Scale: scale}
	case arrow.DECIMAL128:
		return &arrow.Decimal128Type{Precision: precision, Scale: scale}
	case arrow.DECIMAL256:
		return &arrow.Decimal256Type{Precision: precision, Scale: scale}
	}
	panic("arrowtype: " + r.Name + " is no decimal")
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

// FixedSizeBinaryOf is fixed_size_binary[width].
func FixedSizeBinaryOf(width int) arrow.DataType { return &arrow.FixedSizeBinaryType{ByteWidth: width} }

// Unit is dt's time unit, false when dt has none.
func Unit(dt arrow.DataType) (arrow.TimeUnit, bool) {
	if t, ok := dt.(arrow.TemporalWithUnit); ok {
		return t.TimeUnit(), true
	}
	return 0, false
}

// Zone is a timestamp's zone ("" when naive); false when dt is no
// timestamp.
func Zone(dt arrow.DataType) (string, bool) {
	t, ok := dt.(*arrow.TimestampType)
	if !ok {
		return "", false
	}
	return t.TimeZone, true
}

// ByteWidth is the bytes of a value of a fixed-width dt (a fixed-size
// binary's width), 0 for the others.
func ByteWidth(dt arrow.DataType) int {
	if t, ok := dt.(*arrow.FixedSizeBinaryType); ok {
		return t.ByteWidth
	}
	if r := OfType(dt); r.Layout == Fixed {
		return r.Bytes
	}
	return 0
}

// Precision is a decimal's precision and scale; false when dt is no
// decimal.
func Precision(dt arrow.DataType) (precision, scale int32, ok bool) {
	if t, ok := dt.(arrow.DecimalType); ok {
		return t.GetPrecision(), t.GetScale(), true
	}
	return 0, 0, false
}

// Storage is dt without its extension types, the type its arrays are laid
// out as.
func Storage(dt arrow.DataType) arrow.DataType {
	for {
		ext, ok := dt.(arrow.ExtensionType)
		if !ok {
			return dt
		}
		dt = ext.StorageType()
	}
}

// Encoded is the values a dictionary or run-end encoded dt encodes, and
// true; dt and false for any other.
func Encoded(dt arrow.DataType) (arrow.DataType, bool) {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return t.ValueType, true
	case *arrow.RunEndEncodedType:
		return t.Encoded(), true
	}
	return dt, false
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

// RunEnds is the type of a run-end encoded dt's run ends; false for any
// other.
func RunEnds(dt arrow.DataType) (arrow.DataType, bool) {
	if t, ok := dt.(*arrow.RunEndEncodedType); ok {
		return t.RunEnds(), true
	}
	return nil, false
}

// RunEndEncodedOf is run_end_encoded<runEnds, values>, its values
// nullable.
func RunEndEncodedOf(runEnds, values arrow.DataType) arrow.DataType {
	return arrow.RunEndEncodedOf(runEnds, values)
}
