package duckdb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// DuckDB's Arrow import (1.5) refuses float16 and decimal256, reads a
// day_time_interval's milliseconds as microseconds and truncates to
// microseconds the nanoseconds of a zoned timestamp (TIMESTAMPTZ holds µs),
// a duration and a month_day_nano_interval (INTERVAL holds µs), silently;
// it has no dense union and no decimal of more than 38 digits; and its
// scan of a list whose element is a dictionary or run-end encoding fails
// with an INTERNAL error, which invalidates the database, in a batch whose
// lists reach none of the element. The view gives it what it reads
// exactly: each such value converted in Arrow, losslessly, at any depth,
// before the view (float32, decimal128, month_day_nano_interval,
// timestamp[us], duration[us], a list's encoded element as its values; a
// value with nanoseconds is refused, naming its row), and a column of a
// type DuckDB has none for is refused before any row.

// path is where values go into DuckDB: an Arrow view, the Appender, or
// the empty view a table is created from.
type path uint8

const (
	viewPath path = iota
	appenderPath
	createPath
)

// carriedType is dt as the path gives it to DuckDB, and whether it differs
// from dt. Each child (a struct's field, a union's variant, a list's
// element, an encoding's values) is carried as it would be at the top; a
// dense union goes to the Appender as it is, its variants carried, and is
// created as the sparse union of the same variants.
func carriedType(dt arrow.DataType, at string, p path) (arrow.DataType, bool, error) {
	return carriedLevel(dt, at, p, false)
}

// carriedLevel is carriedType of dt, a list's element when elem is true.
func carriedLevel(dt arrow.DataType, at string, p path, elem bool) (arrow.DataType, bool, error) {
	row := arrowtype.OfType(dt)
	if values, encoded := arrowtype.Encoded(dt); encoded && elem && p != appenderPath {
		// DuckDB's Arrow scan (1.5) fails with an INTERNAL error, which
		// invalidates the whole database, on a list whose element is a
		// dictionary or run-end encoding in a batch whose lists reach none
		// of it: the view gives it the values instead.
		t, _, err := carriedLevel(values, at, p, false)
		return t, true, err
	}
	switch {
	case row.Float && row.Bytes < duckdbFloatBytes: // float16
		return floatOf(duckdbFloatBytes), true, nil
	case row.Value == arrowtype.DayTimeInterval:
		t, _ := arrowtype.Plain(arrow.INTERVAL_MONTH_DAY_NANO)
		return t, true, nil
	case row.Counts():
		unit, _ := arrowtype.Unit(dt)
		zone, _ := arrowtype.Zone(dt)
		if p == appenderPath && unit == arrow.Nanosecond && row.Times() && !row.Instant() {
			// duckdb-go's Appender (v2.10506.0) is created on no table with
			// a TIME_NS column: "unsupported data type: unknown type".
			return nil, false, unsupported(at, dt, "DuckDB's Appender writes no TIME_NS: ingest it without IngestConfig.Appender, or tag it unit=us")
		}
		if unit != arrow.Nanosecond || (zone == "" && row.Times()) {
			return dt, false, nil // TIMESTAMP_NS and TIME_NS hold nanoseconds
		}
		t, err := row.WithUnit(arrow.Microsecond, zone)
		return t, true, err
	case row.Value == arrowtype.MonthDayNanoInterval:
		return dt, true, nil // the same type, its nanoseconds checked
	case row.Value == arrowtype.Decimal256:
		p, s, _ := arrowtype.Precision(dt)
		if p > 38 {
			return nil, false, unsupported(at, dt, "DuckDB's DECIMAL holds at most 38 digits: decimal(38,s) or less")
		}
		d128, _ := arrowtype.DecimalFor(38)
		return d128.DecimalOf(p, s), true, nil
	case row.Dense && p == createPath: // the same UNION, its variants carried
		sparse := arrow.SparseUnionOf(dt.(arrow.NestedType).Fields(), dt.(arrow.UnionType).TypeCodes())
		t, _, err := carriedLevel(sparse, at, p, false)
		return t, true, err
	case row.Dense && p == viewPath:
		return nil, false, unsupported(at, dt, "DuckDB's Arrow import reads sparse unions only: tag the field sparse_union")
	}
	children := arrowtype.Children(dt)
	if len(children) == 0 {
		return dt, false, nil
	}
	// A struct's fields, a sparse union's variants, a list's element, the
	// values of an encoding.
	_, list := dt.(arrow.ListLikeType)
	changed := false
	for i, f := range children {
		t, ch, err := carriedLevel(f.Type, childPath(at, dt, f), p, list)
		if err != nil {
			return nil, false, err
		}
		if ch {
			if !changed {
				children = slices.Clone(children)
			}
			children[i].Type, changed = t, true
		}
	}
	if !changed {
		return dt, false, nil
	}
	out, ok := arrowtype.WithChildren(dt, children)
	if !ok {
		return nil, false, unsupported(at, dt, "its children carried to DuckDB's types make no such type")
	}
	return out, true, nil
}

// childPath is the path of f, a child of dt at at, in errors: at[] for a
// list's element, at itself for what an encoding encodes, at.name for a
// field or variant.
func childPath(at string, dt arrow.DataType, f arrow.Field) string {
	if _, ok := dt.(arrow.ListLikeType); ok {
		return at + "[]"
	}
	if _, ok := arrowtype.Encoded(dt); ok {
		return at
	}
	return at + "." + f.Name
}

// duckdbFloatBytes is the width of DuckDB's narrowest float, FLOAT: a
// narrower Arrow float is carried as it, which holds each of its values
// exactly.
const duckdbFloatBytes = 4

// floatOf is the Arrow float of width bytes.
func floatOf(bytes int) arrow.DataType {
	for _, r := range arrowtype.Rows() {
		if r.Float && r.Bytes == bytes {
			return r.Make()
		}
	}
	return nil
}

func unsupported(at string, dt arrow.DataType, why string) error {
	return &mapper.Error{Column: at, Row: -1, Err: fmt.Errorf("%w: %s: %s", mapper.ErrUnsupported, dt, why)}
}

// carriedSchema is the schema the path gives DuckDB for schema, nil when
// it is schema itself.
func carriedSchema(schema *arrow.Schema, p path) (*arrow.Schema, error) {
	fields := schema.Fields()
	changed := false
	for i, f := range fields {
		t, ch, err := carriedType(f.Type, f.Name, p)
		if err != nil {
			return nil, err
		}
		if ch {
			fields[i].Type, changed = t, true
		}
	}
	if !changed {
		return nil, nil
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md), nil
}

// carry converts rec to carried, a carriedSchema of its schema.
func carry(mem memory.Allocator, rec arrow.RecordBatch, carried *arrow.Schema) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, col := range rec.Columns() {
		d, err := carryData(mem, col.Data(), carried.Field(i).Type)
		if err != nil {
			var me *mapper.Error
			if errors.As(err, &me) && me.Column == "" {
				named := *me
				named.Column = carried.Field(i).Name
				return nil, &named
			}
			return nil, fmt.Errorf("column %q: %w", carried.Field(i).Name, err)
		}
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecordBatch(carried, cols, rec.NumRows()), nil
}

// carryData is d as type to, which differs from d's type only in its
// leaves' types and extensions: d retained when it is of to already; its
// buffers under to where to is an extension over d's type; its values
// converted where a leaf's type differs; its nesting kept.
func carryData(mem memory.Allocator, d arrow.ArrayData, to arrow.DataType) (arrow.ArrayData, error) {
	if arrowtype.OfType(d.DataType()).Value == arrowtype.MonthDayNanoInterval {
		if err := checkIntervalNanoseconds(d); err != nil {
			return nil, err
		}
	}
	if arrow.TypeEqual(d.DataType(), to) {
		d.Retain()
		return d, nil
	}
	if ext, ok := arrowtype.ExtensionOf(to); ok {
		storage, err := carryData(mem, d, ext.StorageType())
		if err != nil {
			return nil, err
		}
		defer storage.Release()
		return withType(storage, to), nil
	}
	if _, ok := arrowtype.ExtensionOf(d.DataType()); ok {
		return carryData(mem, withType(d, arrowtype.Storage(d.DataType())), to)
	}
	if _, encoded := arrowtype.Encoded(d.DataType()); encoded {
		if _, still := arrowtype.Encoded(to); !still {
			decoded, err := decode(mem, d)
			if err != nil {
				return nil, err
			}
			defer decoded.Release()
			return carryData(mem, decoded, to)
		}
	}
	row := arrowtype.OfType(d.DataType())
	switch {
	case row.Value == arrowtype.DayTimeInterval:
		return dayTimeAsMonthDayNano(mem, d, to)
	case row.Layout == arrowtype.Fixed:
		arr := array.MakeFromData(d)
		defer arr.Release()
		out, err := compute.CastArray(compute.WithAllocator(context.Background(), mem), arr, compute.SafeCastOptions(to))
		if err != nil {
			if row.Counts() { // a zoned timestamp[ns] or a duration[ns]
				return nil, nanosecondsError(d)
			}
			return nil, err
		}
		defer out.Release()
		od := out.Data()
		od.Retain()
		return od, nil
	}
	if _, ok := arrowtype.DictionaryIndices(to); ok { // the values are no child but the dictionary
		values, _ := arrowtype.Encoded(to)
		carried, err := carryData(mem, d.Dictionary(), values)
		if err != nil {
			return nil, inParentRow(d, 0, err)
		}
		defer carried.Release()
		return array.NewDataWithDictionary(to, d.Len(), d.Buffers(), d.NullN(), d.Offset(), carried.(*array.Data)), nil
	}
	children, childTypes := d.Children(), arrowtype.DataChildren(to)
	if len(children) != len(childTypes) {
		return nil, fmt.Errorf("%s: %d children carried as %s, of %d", d.DataType(), len(children), to, len(childTypes))
	}
	kids := make([]arrow.ArrayData, len(children))
	defer func() {
		for _, k := range kids {
			if k != nil {
				k.Release()
			}
		}
	}()
	for i, c := range children {
		k, err := carryData(mem, c, childTypes[i])
		if err != nil {
			return nil, inParentRow(d, i, err)
		}
		kids[i] = k
	}
	return array.NewData(to, d.Len(), d.Buffers(), kids, d.NullN(), d.Offset()), nil
}

// decode is d, a dictionary or run-end encoded array, as the values it
// encodes, row for row.
func decode(mem memory.Allocator, d arrow.ArrayData) (arrow.ArrayData, error) {
	arr := array.MakeFromData(d)
	defer arr.Release()
	ctx := compute.WithAllocator(context.Background(), mem)
	var out arrow.Array
	var err error
	if _, dictionary := arrowtype.DictionaryIndices(d.DataType()); dictionary {
		values, _ := arrowtype.Encoded(d.DataType())
		out, err = compute.CastArray(ctx, arr, compute.SafeCastOptions(values)) // its indices taken
	} else {
		out, err = compute.RunEndDecodeArray(ctx, arr)
	}
	if err != nil {
		return nil, fmt.Errorf("%s decoded for DuckDB: %w", d.DataType(), err)
	}
	defer out.Release()
	od := out.Data()
	od.Retain()
	return od, nil
}

// inParentRow is err, an error of d's child-th child, about the row of d
// that reaches the child's row it names: a list's element names the list.
func inParentRow(d arrow.ArrayData, child int, err error) error {
	var me *mapper.Error
	if !errors.As(err, &me) || me.Row < 0 {
		return err
	}
	up := *me
	up.Row = arrowtype.ParentRow(d, child, me.Row)
	return &up
}

// dayTimeAsMonthDayNano is a day_time_interval's d as
// month_day_nano_interval: days as days, milliseconds as nanoseconds.
func dayTimeAsMonthDayNano(mem memory.Allocator, d arrow.ArrayData, to arrow.DataType) (arrow.ArrayData, error) {
	in := arrowtype.Values[arrow.DayTimeInterval](d)
	b := array.NewBuilder(mem, to)
	defer b.Release()
	appendValues, ok := arrowtype.AppendValues[arrow.MonthDayNanoInterval](b)
	if !ok {
		return nil, fmt.Errorf("no builder of %s", to)
	}
	out := make([]arrow.MonthDayNanoInterval, len(in))
	valid := make([]bool, len(in))
	arr := array.MakeFromData(d)
	defer arr.Release()
	for i, v := range in {
		out[i] = arrow.MonthDayNanoInterval{Days: v.Days, Nanoseconds: int64(v.Milliseconds) * 1e6}
		valid[i] = arr.IsValid(i)
	}
	appendValues(out, valid)
	a := b.NewArray()
	defer a.Release()
	od := a.Data()
	od.Retain()
	return od, nil
}

// withType is d's buffers, children and dictionary as type dt.
func withType(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	if dict := d.Dictionary(); dict != nil {
		return array.NewDataWithDictionary(dt, d.Len(), d.Buffers(), d.NullN(), d.Offset(), dict.(*array.Data))
	}
	return array.NewData(dt, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
}

// nanosecondsError is the error of a timestamp[ns] or duration[ns] whose
// values are not all whole microseconds, which DuckDB's TIMESTAMPTZ and
// INTERVAL hold: it names the first row that is not.
func nanosecondsError(d arrow.ArrayData) error {
	arr := array.MakeFromData(d)
	defer arr.Release()
	for i, v := range arrowtype.Values[int64](d) {
		if arr.IsValid(i) && v%1000 != 0 {
			what := time.Duration(v).String()
			if arrowtype.OfType(d.DataType()).Instant() {
				what = time.Unix(0, v).UTC().Format(time.RFC3339Nano)
			}
			return microsecondsError(i, d.DataType(), what)
		}
	}
	return fmt.Errorf("%s: not whole microseconds", d.DataType())
}

// checkIntervalNanoseconds refuses a month_day_nano_interval whose
// nanoseconds are not whole microseconds, which DuckDB's INTERVAL holds.
func checkIntervalNanoseconds(d arrow.ArrayData) error {
	arr := array.MakeFromData(d)
	defer arr.Release()
	for i, v := range arrowtype.Values[arrow.MonthDayNanoInterval](d) {
		if arr.IsValid(i) && v.Nanoseconds%1000 != 0 {
			return microsecondsError(i, d.DataType(), fmt.Sprintf("%d months %d days %dns", v.Months, v.Days, v.Nanoseconds))
		}
	}
	return nil
}

func microsecondsError(row int, dt arrow.DataType, what string) error {
	return &mapper.Error{Row: row, Err: fmt.Errorf("%w: %s %s has nanoseconds, which DuckDB (microseconds) cannot hold: tag the field unit=us to store it truncated, or round it",
		mapper.ErrOverflow, dt, what)}
}
