package parquet

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/mapper"
)

// arrowSchemaKey is the key of the file metadata that holds the Arrow
// schema, the one pqarrow's reader applies over what it derives from the
// Parquet schema.
const arrowSchemaKey = "ARROW:schema"

// goSchemaKey holds, beside arrowSchemaKey, the Arrow schema written (of
// T, or of a RecordWriter's records) when it differs from the one stored
// for pqarrow (in a type, a name or metadata): what every reader of ours
// reads columns back as.
const goSchemaKey = "arrowmap:schema"

// storageType is dt as the file stores it: the type pqarrow writes, and
// reads back from the file's ARROW:schema, for a column of dt. Where the
// two differ the file keeps dt under goSchemaKey, and every reader of ours
// converts the arrays pqarrow reads back to dt (fromStorage):
//
//   - duration as its int64 counts, the month interval as its int32 months;
//   - date64 as date32 (each value a whole day), time32[s] as time32[ms],
//     timestamp[s] as timestamp[ms] (Parquet has no seconds);
//   - decimal32 and decimal64 as decimal128 of the same precision and scale;
//   - utf8_view and binary_view as utf8 and binary, list_view and
//     large_list_view as list and large_list;
//   - a run-end encoded column as its values, decoded;
//   - a dictionary as its values, decoded, unless it is a top-level column
//     of numbers, text or binary (which pqarrow writes as a Parquet
//     dictionary);
//   - extension types as their storage.
//
// A type Parquet has no storage for is an error wrapping
// mapper.ErrUnsupported: unions, the day_time and month_day_nano
// intervals (Parquet's INTERVAL is unsigned months, days and milliseconds:
// it holds no signed Arrow interval exactly), and decimals of a scale
// DECIMAL does not take. changed reports whether the
// storage type differs from dt.
func storageType(dt arrow.DataType) (_ arrow.DataType, changed bool, err error) {
	return storageOf(dt, true)
}

// storageOf is storageType, top when dt is a top-level column's type.
func storageOf(dt arrow.DataType, top bool) (_ arrow.DataType, changed bool, err error) {
	r := arrowtype.OfType(dt)
	switch {
	case integerStorage(r) != nil:
		return integerStorage(r).Make(), true, nil
	case r.Temporal == arrowtype.Interval:
		return nil, false, fmt.Errorf("%w: Parquet cannot store %s: its INTERVAL is unsigned months, days and milliseconds, which hold no signed Arrow interval exactly", mapper.ErrUnsupported, dt)
	case r.Layout == arrowtype.Union:
		return nil, false, fmt.Errorf("%w: Parquet cannot store %s: it has no union type", mapper.ErrUnsupported, dt)
	case r.MillisecondDate(): // Parquet's DATE counts days
		return arrow.FixedWidthTypes.Date32, true, nil
	case second(dt):
		// Parquet counts no seconds: time32[s] and timestamp[s] are stored
		// in milliseconds.
		zone, _ := arrowtype.Zone(dt)
		ms, err := r.WithUnit(arrow.Millisecond, zone)
		return ms, true, err
	case r.Decimal && !decimalFits(dt):
		// pqarrow panics on such a DECIMAL, and Arrow allows it: a
		// negative scale, or one past the precision, in any file.
		return nil, false, fmt.Errorf("%w: Parquet cannot store %s: its DECIMAL takes a precision of 1 or more and a scale from 0 to the precision", mapper.ErrUnsupported, dt)
	case r.Decimal && r.Bytes < decimal128Row.Bytes: // decimal32, decimal64
		precision, scale, _ := arrowtype.Precision(dt)
		return decimal128Row.DecimalOf(precision, scale), true, nil
	case r.Layout == arrowtype.View && r.Text:
		return arrow.BinaryTypes.String, true, nil
	case r.Layout == arrowtype.View:
		return arrow.BinaryTypes.Binary, true, nil
	case r.Layout == arrowtype.ListView:
		elem, _, err := storageField(dt.(arrow.ListLikeType).ElemField())
		if err != nil {
			return nil, false, err
		}
		return listOfField(r.Large, elem), true, nil
	case r.Layout == arrowtype.RunEnd:
		values, _ := arrowtype.Encoded(dt)
		st, _, err := storageOf(values, top)
		return st, true, err
	case r.Layout == arrowtype.Extension:
		st, _, err := storageOf(arrowtype.Storage(dt), top)
		return st, true, err
	case r.Layout == arrowtype.Dictionary:
		values, _ := arrowtype.Encoded(dt)
		st, vchanged, err := storageOf(values, false)
		if err != nil || !top || vchanged || !flatDictionary(st) {
			return st, true, err
		}
	case r.Map:
		mp, _ := arrowtype.MapParts(dt)
		key, item := mp.Key, mp.Item
		key, kchanged, err := storageField(key)
		if err != nil {
			return nil, false, err
		}
		item, ichanged, err := storageField(item)
		if err != nil {
			return nil, false, err
		}
		m, _ := arrowtype.MapLike(dt, key, item)
		return m, kchanged || ichanged, nil
	case r.Layout == arrowtype.List || r.Layout == arrowtype.FixedList:
		elem, changed, err := storageField(dt.(arrow.ListLikeType).ElemField())
		if err != nil {
			return nil, false, err
		}
		st, _ := arrowtype.WithElem(dt, elem)
		return st, changed, nil
	case r.Layout == arrowtype.Struct:
		fields := dt.(arrow.NestedType).Fields()
		for i, f := range fields {
			sf, fchanged, err := storageField(f)
			if err != nil {
				return nil, false, err
			}
			fields[i], changed = sf, changed || fchanged
		}
		return arrow.StructOf(fields...), changed, nil
	}
	return dt, false, nil
}

// second reports whether dt counts seconds: a time of day or a timestamp
// whose tick is one second.
func second(dt arrow.DataType) bool {
	tick, ok := arrowtype.TickOf(dt)
	return ok && tick == arrowtype.Tick{Unit: arrow.Second, Seconds: 1}
}

// integerStorage is the row of the integers Parquet stores r's values as,
// nil when it stores them as r: a duration's counts and the month
// interval's months, each the signed integer of its width (Parquet's
// INTERVAL holds no month interval exactly, and it has no duration).
// convert takes the one to the other both ways.
func integerStorage(r *arrowtype.Row) *arrowtype.Row {
	if r.Temporal != arrowtype.Duration && r.Value != arrowtype.MonthInterval {
		return nil
	}
	for _, s := range arrowtype.Rows() {
		if s.Integer && s.Signed && s.Bytes == r.Bytes {
			return s
		}
	}
	return nil
}

// decimal128Row is the row of the decimal that decimal32 and decimal64
// are stored as.
var decimal128Row = arrowtype.Of(arrowtype.Holding(arrowtype.Decimal128)[0])

// listOfField is a list of elem, large or not.
func listOfField(large bool, elem arrow.Field) arrow.DataType {
	if large {
		return arrow.LargeListOfField(elem)
	}
	return arrow.ListOfField(elem)
}

// flatDictionary reports whether pqarrow writes a dictionary of values of
// dt as a Parquet dictionary: numbers, text and binary.
func flatDictionary(dt arrow.DataType) bool {
	id := dt.ID()
	return arrow.IsInteger(id) || arrow.IsFloating(id) || arrow.IsBaseBinary(id)
}

func storageField(f arrow.Field) (arrow.Field, bool, error) {
	dt, changed, err := storageOf(f.Type, false)
	f.Type = dt
	return f, changed, err
}

// decimalFits reports whether dt, a decimal type, has a precision and
// scale Parquet's DECIMAL holds.
func decimalFits(dt arrow.DataType) bool {
	precision, scale, _ := arrowtype.Precision(dt)
	return precision >= 1 && scale >= 0 && scale <= precision
}

// storageSchema is schema with storageType's types, and for each column
// whether its type differs. A column Parquet cannot store is an
// *mapper.Error naming it.
func storageSchema(schema *arrow.Schema) (*arrow.Schema, []bool, error) {
	fields := schema.Fields()
	changed := make([]bool, len(fields))
	for i, f := range fields {
		dt, ch, err := storageType(f.Type)
		if err != nil {
			return nil, nil, &mapper.Error{Column: f.Name, Row: -1, Err: err}
		}
		fields[i].Type, changed[i] = dt, ch
	}
	meta := schema.Metadata()
	return arrow.NewSchema(fields, &meta), changed, nil
}

// encodingType is the type of the arrays the file's encoder (pqarrow's or
// the direct writer) takes for a column stored as dt: dt with every
// fixed-size list a list of the same element. pqarrow writes no null row
// of a fixed-size list (the elements such a row holds are a gap in what
// it visits, which it refuses), and a list with the null rows emptied is
// the same Parquet column, a LIST group with the same levels. The file's
// ARROW:schema keeps dt, so readers restore the fixed-size lists (pqarrow
// with the null rows' elements null). changed reports whether it differs
// from dt.
func encodingType(dt arrow.DataType) (_ arrow.DataType, changed bool) {
	switch r := arrowtype.OfType(dt); {
	case r.Layout == arrowtype.FixedList:
		elem, _ := encodingField(dt.(arrow.ListLikeType).ElemField())
		return arrow.ListOfField(elem), true
	case r.Map:
		mp, _ := arrowtype.MapParts(dt)
		key, item := mp.Key, mp.Item
		key, kchanged := encodingField(key)
		item, ichanged := encodingField(item)
		if !kchanged && !ichanged {
			return dt, false
		}
		m, _ := arrowtype.MapLike(dt, key, item)
		return m, true
	case r.Layout == arrowtype.List:
		elem, changed := encodingField(dt.(arrow.ListLikeType).ElemField())
		return listOfField(r.Large, elem), changed
	case r.Layout == arrowtype.Struct:
		fields := dt.(arrow.NestedType).Fields()
		for i, f := range fields {
			var fchanged bool
			fields[i], fchanged = encodingField(f)
			changed = changed || fchanged
		}
		if !changed {
			return dt, false
		}
		return arrow.StructOf(fields...), true
	}
	return dt, false
}

func encodingField(f arrow.Field) (arrow.Field, bool) {
	dt, changed := encodingType(f.Type)
	f.Type = dt
	return f, changed
}

// encodingSchema is stored, a schema of storage types, with encodingType's
// types, and for each column whether its type differs.
func encodingSchema(stored *arrow.Schema) (*arrow.Schema, []bool) {
	fields := stored.Fields()
	changed := make([]bool, len(fields))
	for i, f := range fields {
		fields[i].Type, changed[i] = encodingType(f.Type)
	}
	if !slices.Contains(changed, true) {
		return stored, changed
	}
	meta := stored.Metadata()
	return arrow.NewSchema(fields, &meta), changed
}

// retype is d's buffers as an array of dt, of the same layout as d's type.
func retype(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	var children []arrow.ArrayData
	switch t := dt.(type) {
	case arrow.NestedType:
		fields := t.Fields() // a map's one child is its entries struct
		for i, c := range d.Children() {
			children = append(children, retype(c, fields[i].Type))
		}
		defer func() {
			for _, c := range children {
				c.Release()
			}
		}()
	default:
		children = d.Children()
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		valueType, _ := arrowtype.Encoded(dt)
		values := retype(dict, valueType)
		defer values.Release()
		return array.NewDataWithDictionary(dt, d.Len(), d.Buffers(), d.NullN(), d.Offset(), values.(*array.Data))
	}
	return array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
}

// storedSchema is the value of arrowSchemaKey for schema: an IPC stream of
// the schema alone, in base64, as pqarrow stores it, with list elements
// named "element" as in the Parquet schema (readers that map the stored
// names to Parquet paths need that).
func storedSchema(schema *arrow.Schema, mem memory.Allocator) (string, error) {
	fields := schema.Fields()
	for i, f := range fields {
		fields[i] = elementNames(f)
	}
	meta := schema.Metadata()
	return encodeSchema(arrow.NewSchema(fields, &meta), mem)
}

// encodeSchema is schema as an IPC stream of the schema alone, in base64.
func encodeSchema(schema *arrow.Schema, mem memory.Allocator) (string, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("arrowmap/parquet: storing the Arrow schema: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// elementNames is f with the elements of its lists named "element", at
// every depth.
func elementNames(f arrow.Field) arrow.Field {
	if r := arrowtype.OfType(f.Type); (r.Layout == arrowtype.List && !r.Map) || r.Layout == arrowtype.FixedList {
		return withChildren(f, func(c arrow.Field) arrow.Field {
			c = elementNames(c)
			c.Name = "element"
			return c
		})
	}
	return withChildren(f, elementNames)
}

// withChildren is f with each child field of its list, fixed-size list,
// map or struct type replaced by fn's of it.
func withChildren(f arrow.Field, fn func(arrow.Field) arrow.Field) arrow.Field {
	switch r := arrowtype.OfType(f.Type); {
	case r.Map:
		mp, _ := arrowtype.MapParts(f.Type)
		key, item := mp.Key, mp.Item
		f.Type, _ = arrowtype.MapLike(f.Type, fn(key), fn(item))
	case r.Layout == arrowtype.List || r.Layout == arrowtype.FixedList:
		f.Type, _ = arrowtype.WithElem(f.Type, fn(f.Type.(arrow.ListLikeType).ElemField()))
	case r.Layout == arrowtype.Struct:
		fields := f.Type.(arrow.NestedType).Fields()
		for i, c := range fields {
			fields[i] = fn(c)
		}
		f.Type = arrow.StructOf(fields...)
	}
	return f
}

// decodeSchema is the schema that storedSchema encoded as value.
func decodeSchema(value string, mem memory.Allocator) (*arrow.Schema, error) {
	raw, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		return nil, err
	}
	return ipcschema.Decode(raw, mem)
}

// sameLayout reports whether a and b are the same type but for the names,
// nullability and metadata of their children: arrays of one can be
// retyped as the other.
func sameLayout(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	an, aok := a.(arrow.NestedType)
	bn, bok := b.(arrow.NestedType)
	if !aok || !bok {
		return arrow.TypeEqual(a, b)
	}
	af, bf := an.Fields(), bn.Fields()
	if len(af) != len(bf) {
		return false
	}
	if an, ok := arrowtype.ListSize(a); ok {
		if bn, _ := arrowtype.ListSize(b); an != bn {
			return false
		}
	}
	for i := range af {
		if !sameLayout(af[i].Type, bf[i].Type) {
			return false
		}
	}
	return true
}

// fieldIDKey is the field metadata pqarrow reads a Parquet field id into,
// "-1" for a field with none.
const fieldIDKey = "PARQUET:field_id"

// writtenFields is the top-level fields of a file's Arrow schema as it was
// written: goSchema's (the value of goSchemaKey) when the file has it;
// else what pqarrow reads (read), without the field id "-1" it gives a
// field with none (a real field id is kept), and with the types of
// arrowSchema (the value of arrowSchemaKey, as pyarrow writes it) that
// pqarrow reads as their storage type (date64, time32[s], timestamp[s],
// durations, ...). A goSchema that does not fit the file is an error.
func writtenFields(read *arrow.Schema, goSchema, arrowSchema *string, mem memory.Allocator) ([]arrow.Field, error) {
	if goSchema != nil {
		sc, err := decodeSchema(*goSchema, mem)
		if err != nil {
			return nil, fmt.Errorf("the %s metadata: %w", goSchemaKey, err)
		}
		if sc.NumFields() != read.NumFields() {
			return nil, fmt.Errorf("the %s metadata has %d columns, the file %d", goSchemaKey, sc.NumFields(), read.NumFields())
		}
		for i, f := range sc.Fields() {
			if !fits(read.Field(i).Type, f.Type, mem) {
				return nil, fmt.Errorf("the %s metadata: column %q of type %s does not fit the file's %s", goSchemaKey, f.Name, f.Type, read.Field(i).Type)
			}
		}
		return sc.Fields(), nil
	}
	fields := read.Fields()
	for i, f := range fields {
		fields[i] = withoutFieldIDs(f)
	}
	if arrowSchema == nil {
		return fields, nil
	}
	stored, err := decodeSchema(*arrowSchema, mem)
	if err != nil || stored.NumFields() != len(fields) {
		return fields, nil // pqarrow read it, or not, as it could
	}
	for i, f := range stored.Fields() {
		if !arrow.TypeEqual(f.Type, fields[i].Type) && fits(fields[i].Type, f.Type, mem) {
			fields[i].Type = f.Type
		}
	}
	return fields, nil
}

// fits reports whether a column pqarrow reads as read holds values of
// written, a type of the file's stored schema: written is one Parquet
// stores (storageType), as read or in a type convert takes read to. A
// time in another tick than Parquet's storage of written is not: its
// writer coerced it (pqarrow's WithCoerceTimestamps, pyarrow's
// coerce_timestamps, timestamp[ns] in microseconds), and it is read as
// the file holds it, as pqarrow and arrow-cpp read it (they restore a
// timestamp's zone only where its unit is the file's).
func fits(read, written arrow.DataType, mem memory.Allocator) bool {
	storage, _, err := storageType(written)
	if err != nil {
		return false
	}
	if st, ok := arrowtype.TickOf(storage); ok {
		if rt, _ := arrowtype.TickOf(read); rt != st {
			return false
		}
	}
	return convertible(read, written, mem)
}

// convertible reports whether convert takes arrays of from to to.
func convertible(from, to arrow.DataType, mem memory.Allocator) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	empty := array.MakeArrayOfNull(mem, from, 0)
	defer empty.Release()
	out, err := convert(empty, to, mem)
	if err != nil {
		return false
	}
	out.Release()
	return true
}

// withoutFieldIDs is f without the field id "-1" pqarrow gives a field
// with none, at every depth.
func withoutFieldIDs(f arrow.Field) arrow.Field {
	if i := f.Metadata.FindKey(fieldIDKey); i >= 0 && f.Metadata.Values()[i] == "-1" {
		keys, values := slices.Delete(slices.Clone(f.Metadata.Keys()), i, i+1), slices.Delete(slices.Clone(f.Metadata.Values()), i, i+1)
		f.Metadata = arrow.NewMetadata(keys, values)
	}
	return withChildren(f, withoutFieldIDs)
}

// schemaMetadata is the metadata pqarrow reads for a file's Arrow schema
// (the file's key/value metadata) without the stored schemas.
func schemaMetadata(m arrow.Metadata) arrow.Metadata {
	var keys, values []string
	for i, k := range m.Keys() {
		if k != arrowSchemaKey && k != goSchemaKey {
			keys, values = append(keys, k), append(values, m.Values()[i])
		}
	}
	return arrow.NewMetadata(keys, values)
}
