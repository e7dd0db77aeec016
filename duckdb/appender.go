package duckdb

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
)

// The Appender path: DuckDB's Appender, fed row by row with the Go values
// duckdb-go's Appender takes, read from the record (after carry, so that
// what DuckDB cannot hold is refused as on the view's path). It carries
// what the view cannot, a dense union, and what IngestConfig.Appender
// asks; it is slower (bench/RESULTS.md).

// valueOf reads slot i of an array as the Go value duckdb-go's Appender
// takes for its DuckDB type; nil for a null.
type valueOf func(i int) (driver.Value, error)

// valuesOf is the valueOf of arr, whose struct fields and union variants
// are named as in named, the table's type of the column, where it has one
// of the same name without case: DuckDB's identifiers ignore case, and the
// Appender finds a STRUCT's field only by its own spelling. A nil named
// keeps arr's names.
func valuesOf(arr arrow.Array, named arrow.DataType) (valueOf, error) {
	dt := arr.DataType()
	row := arrowtype.OfType(dt)
	if row.Layout == arrowtype.Null {
		return func(int) (driver.Value, error) { return nil, nil }, nil
	}
	v, err := nonNullValuesOf(arr, row, named)
	if err != nil {
		return nil, err
	}
	if row.Layout == arrowtype.Union {
		return v, nil // a union has no nulls of its own: its variants have
	}
	return func(i int) (driver.Value, error) {
		if arr.IsNull(i) {
			return nil, nil
		}
		return v(i)
	}, nil
}

func nonNullValuesOf(arr arrow.Array, row *arrowtype.Row, named arrow.DataType) (valueOf, error) {
	dt := arr.DataType()
	switch row.Layout {
	case arrowtype.Extension:
		return extensionValuesOf(arr, named)
	case arrowtype.Boolean:
		b := arr.(interface{ Value(int) bool })
		return func(i int) (driver.Value, error) { return b.Value(i), nil }, nil
	case arrowtype.Fixed:
		return fixedValuesOf(arr, row)
	case arrowtype.Binary, arrowtype.View:
		if row.Text {
			s := arr.(arrowtype.TextArray)
			return func(i int) (driver.Value, error) { return s.Value(i), nil }, nil
		}
		b := arr.(arrowtype.BinaryArray)
		return func(i int) (driver.Value, error) { return []byte(b.ValueString(i)), nil }, nil
	case arrowtype.FixedBinary:
		b := arr.(interface{ Value(int) []byte })
		return func(i int) (driver.Value, error) { return append([]byte(nil), b.Value(i)...), nil }, nil
	case arrowtype.List, arrowtype.ListView, arrowtype.FixedList:
		l := arr.(array.ListLike)
		if row.Map {
			return mapValuesOf(l, elemOf(named))
		}
		elem, err := valuesOf(l.ListValues(), elemOf(named))
		if err != nil {
			return nil, err
		}
		return func(i int) (driver.Value, error) {
			start, end := l.ValueOffsets(i)
			out := make([]any, 0, end-start)
			for j := start; j < end; j++ {
				v, err := elem(int(j))
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			return out, nil
		}, nil
	case arrowtype.Struct:
		s := arr.(arrowtype.StructArray)
		fields := dt.(arrow.NestedType).Fields()
		names := make([]string, len(fields))
		values := make([]valueOf, s.NumField())
		for k := range values {
			var t arrow.DataType
			names[k], t = fieldNamed(named, fields[k].Name)
			v, err := valuesOf(s.Field(k), t)
			if err != nil {
				return nil, err
			}
			values[k] = v
		}
		return func(i int) (driver.Value, error) {
			out := make(map[string]any, len(values))
			for k, v := range values {
				x, err := v(i)
				if err != nil {
					return nil, err
				}
				out[names[k]] = x
			}
			return out, nil
		}, nil
	case arrowtype.Union:
		u := arr.(array.Union)
		fields := dt.(arrow.NestedType).Fields()
		names := make([]string, len(fields))
		values := make([]valueOf, u.NumFields())
		for k := range values {
			var t arrow.DataType
			names[k], t = fieldNamed(named, fields[k].Name)
			v, err := valuesOf(u.Field(k), t)
			if err != nil {
				return nil, err
			}
			values[k] = v
		}
		dense, _ := arr.(arrowtype.DenseUnionArray)
		return func(i int) (driver.Value, error) {
			k := u.ChildID(i)
			slot := i
			if dense != nil {
				slot = int(dense.ValueOffset(i))
			}
			v, err := values[k](slot)
			if err != nil {
				return nil, err
			}
			return duckdb.Union{Tag: names[k], Value: v}, nil
		}, nil
	case arrowtype.Dictionary:
		d := arr.(arrowtype.DictionaryArray)
		values, err := valuesOf(d.Dictionary(), encodedOf(named))
		if err != nil {
			return nil, err
		}
		return func(i int) (driver.Value, error) { return values(d.GetValueIndex(i)) }, nil
	case arrowtype.RunEnd:
		r := arr.(arrowtype.RunEndArray)
		values, err := valuesOf(r.Values(), encodedOf(named))
		if err != nil {
			return nil, err
		}
		return func(i int) (driver.Value, error) { return values(r.GetPhysicalIndex(i)) }, nil
	}
	return nil, fmt.Errorf("DuckDB's Appender takes no %s", dt)
}

// fieldNamed is named's field of name, without case, when named is a
// struct or a union that has one: its name and type; else name and nil.
func fieldNamed(named arrow.DataType, name string) (string, arrow.DataType) {
	if named == nil {
		return name, nil
	}
	if r := arrowtype.OfType(named); r.Layout == arrowtype.Struct || r.Layout == arrowtype.Union {
		for _, f := range arrowtype.Children(named) {
			if strings.EqualFold(f.Name, name) {
				return f.Name, f.Type
			}
		}
	}
	return name, nil
}

// elemOf is the element of named when it is a list of any kind (a map's,
// its entries), else nil.
func elemOf(named arrow.DataType) arrow.DataType {
	if l, ok := named.(arrow.ListLikeType); ok {
		return l.Elem()
	}
	return nil
}

// encodedOf is what named encodes when it is a dictionary or a run-end
// encoding (DuckDB exports an ENUM as a dictionary), else named.
func encodedOf(named arrow.DataType) arrow.DataType {
	if named == nil {
		return nil
	}
	if values, ok := arrowtype.Encoded(named); ok {
		return values
	}
	return named
}

// mapValuesOf reads a map's rows as duckdb-go's OrderedMap, its keys in
// their order; a key of bytes as a string, which an OrderedMap can compare.
// Its keys and items are named as those of named, the table's entries.
func mapValuesOf(l array.ListLike, named arrow.DataType) (valueOf, error) {
	entries := l.ListValues().(arrowtype.StructArray)
	var keyType, itemType arrow.DataType
	if n, ok := named.(arrow.NestedType); ok && len(n.Fields()) == 2 {
		keyType, itemType = n.Fields()[0].Type, n.Fields()[1].Type
	}
	keys, err := valuesOf(entries.Field(0), keyType)
	if err != nil {
		return nil, err
	}
	items, err := valuesOf(entries.Field(1), itemType)
	if err != nil {
		return nil, err
	}
	return func(i int) (driver.Value, error) {
		var m duckdb.OrderedMap
		start, end := l.ValueOffsets(i)
		for j := int(start); j < int(end); j++ {
			k, err := keys(j)
			if err != nil {
				return nil, err
			}
			if b, ok := k.([]byte); ok {
				k = string(b)
			}
			v, err := items(j)
			if err != nil {
				return nil, err
			}
			m.Set(k, v)
		}
		return m, nil
	}, nil
}

func fixedValuesOf(arr arrow.Array, row *arrowtype.Row) (valueOf, error) {
	d := arr.Data()
	dt := arr.DataType()
	if toTime, ok := arrowtype.TimeOf(dt); ok {
		// An instant, or a time of day, which DuckDB's TIME reads from a
		// time.Time's clock.
		loc := time.UTC
		if zone, _ := arrowtype.Zone(dt); zone != "" {
			l, err := time.LoadLocation(zone)
			if err != nil {
				return nil, err
			}
			loc = l
		}
		ticks := int64Values(d, row)
		return func(i int) (driver.Value, error) { return toTime(ticks(i)).In(loc), nil }, nil
	}
	if row.Counts() { // a duration: DuckDB's INTERVAL counts microseconds
		unit, _ := arrowtype.Unit(dt)
		ticks := int64Values(d, row)
		return func(i int) (driver.Value, error) {
			return duckdb.Interval{Micros: ticks(i) * int64(unit.Multiplier()) / int64(time.Microsecond)}, nil
		}, nil
	}
	switch row.Value { // DuckDB's interval of each of arrow-go's that carry leaves
	case arrowtype.MonthInterval:
		v := arrowtype.Values[arrow.MonthInterval](d)
		return func(i int) (driver.Value, error) { return duckdb.Interval{Months: int32(v[i])}, nil }, nil
	case arrowtype.MonthDayNanoInterval:
		v := arrowtype.Values[arrow.MonthDayNanoInterval](d)
		return func(i int) (driver.Value, error) {
			return duckdb.Interval{Months: v[i].Months, Days: v[i].Days, Micros: v[i].Nanoseconds / 1000}, nil
		}, nil
	}
	if values := appenderValuesOf(row.Value); values != nil {
		return values(d, dt)
	}
	return nil, fmt.Errorf("DuckDB's Appender takes no %s", dt)
}

// fixed reads numbers as themselves.
func fixed[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](d arrow.ArrayData, _ arrow.DataType) (valueOf, error) {
	v := arrowtype.Values[T](d)
	return func(i int) (driver.Value, error) { return v[i], nil }, nil
}

// decimals reads decimals as duckdb.Decimal, of the 38 digits DuckDB's
// decimals hold at most.
func decimals[D decimal.DecimalTypes](d arrow.ArrayData, dt arrow.DataType) (valueOf, error) {
	p, s, _ := arrowtype.Precision(dt)
	if p > duckdbMaxPrecision {
		return nil, fmt.Errorf("DuckDB's Appender takes no %s", dt)
	}
	x := arrowtype.Values[D](d)
	return func(i int) (driver.Value, error) {
		return duckdb.Decimal{Width: uint8(p), Scale: uint8(s), Value: arrowtype.DecimalBigInt(x[i])}, nil
	}, nil
}

// duckdbMaxPrecision is the digits of DuckDB's widest decimal.
const duckdbMaxPrecision = 38

// int64Values reads the counts of a temporal type of 32 or 64 bits.
func int64Values(d arrow.ArrayData, row *arrowtype.Row) func(int) int64 {
	if row.Bytes == 4 {
		v := arrowtype.Values[int32](d)
		return func(i int) int64 { return int64(v[i]) }
	}
	v := arrowtype.Values[int64](d)
	return func(i int) int64 { return v[i] }
}

// extensionValuesOf reads the extensions DuckDB has a type of, and any
// other as its storage.
func extensionValuesOf(arr arrow.Array, named arrow.DataType) (valueOf, error) {
	ext, _ := arrowtype.ExtensionOf(arr.DataType())
	storage := arr.(array.ExtensionArray).Storage()
	if named != nil {
		named = arrowtype.Storage(named)
	}
	values, err := valuesOf(storage, named)
	if err != nil {
		return nil, err
	}
	as := func(conv func([]byte) driver.Value) valueOf {
		return func(i int) (driver.Value, error) {
			v, err := values(i)
			if b, ok := v.([]byte); ok && err == nil {
				return conv(b), nil
			}
			return v, err
		}
	}
	switch name, md := ext.ExtensionName(), ext.Serialize(); {
	case name == "arrow.uuid":
		return as(func(b []byte) driver.Value { return duckdb.UUID(b) }), nil
	case name == "arrow.json":
		return func(i int) (driver.Value, error) {
			v, err := values(i)
			if s, ok := v.(string); ok {
				return jsonText(s), err
			}
			return v, err
		}, nil
	case name == "arrow.bool8":
		return func(i int) (driver.Value, error) {
			v, err := values(i)
			if x, ok := v.(int8); ok {
				return x != 0, err
			}
			return v, err
		}, nil
	case md == opaqueMetadata("hugeint"):
		return as(func(b []byte) driver.Value { return HugeInt(b).Big() }), nil
	case md == opaqueMetadata("uhugeint"):
		return as(func(b []byte) driver.Value { return UHugeInt(b).Big() }), nil
	case md == opaqueMetadata("time_tz"):
		return as(func(b []byte) driver.Value { return TimeTZ(b).Time() }), nil
	}
	return values, nil
}

// jsonText is JSON text that duckdb-go's Appender writes as it is: it
// marshals what it is given.
type jsonText string

func (j jsonText) MarshalJSON() ([]byte, error) { return []byte(j), nil }

// opaqueMetadata is the serialized metadata of DuckDB's arrow.opaque type
// of name.
func opaqueMetadata(name string) string {
	return extensions.NewOpaqueType(arrowtype.FixedSizeBinaryOf(16), name, vendor).Serialize()
}
