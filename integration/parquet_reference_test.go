package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// The conformance test's reference: a reader of pqarrow's arrays through
// arrow-go's accessors (refValue), and a reader of the rows the test wrote
// (plainOf), both into one plain form that shares no code with the mapper.
// The plain form of a value is
//
//   - nil for a null;
//   - bool, int64 (every signed width), uint64 (every unsigned width),
//     float32 (float16 widened, exactly), float64, string; a NaN as the
//     text "NaN(bits)" of its bits, so that NaNs compare, payload and all;
//   - []byte for binary and fixed-size binary;
//   - time.Time in UTC for timestamps and dates;
//   - a decimal's exact text at its scale ("-12.34");
//   - []any for a list, []mapEntry for a map (its entries in order, a key
//     twice as often as the map has it, keys of any type, []byte too),
//     map[string]any for a struct (by field name) and for a row (by column
//     name).

// mapEntry is one entry of a map in the plain form.
type mapEntry struct{ Key, Value any }

// refRows is every row of rec in the plain form, read with arrow-go's
// accessors.
func refRows(rec arrow.RecordBatch) []map[string]any {
	rows := make([]map[string]any, rec.NumRows())
	for i := range rows {
		row := map[string]any{}
		for k, f := range rec.Schema().Fields() {
			row[f.Name] = refValue(rec.Column(k), i)
		}
		rows[i] = row
	}
	return rows
}

// refValue is row i of arr in the plain form.
func refValue(arr arrow.Array, i int) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return uint64(a.Value(i))
	case *array.Uint16:
		return uint64(a.Value(i))
	case *array.Uint32:
		return uint64(a.Value(i))
	case *array.Uint64:
		return a.Value(i)
	case *array.Float16:
		return plainHalf(a.Value(i).Uint16())
	case *array.Float32:
		return plainFloat32(a.Value(i))
	case *array.Float64:
		return plainFloat64(a.Value(i))
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return append([]byte{}, a.Value(i)...)
	case *array.FixedSizeBinary:
		return append([]byte{}, a.Value(i)...)
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit).UTC()
	case *array.Date32:
		return a.Value(i).ToTime().UTC()
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal256Type).Scale)
	case *array.Map: // not an *array.List, though it embeds one
		start, end := a.ValueOffsets(i)
		m := []mapEntry{}
		for j := int(start); j < int(end); j++ {
			m = append(m, mapEntry{Key: refValue(a.Keys(), j), Value: refValue(a.Items(), j)})
		}
		return m
	case *array.List:
		start, end := a.ValueOffsets(i)
		l := []any{}
		for j := int(start); j < int(end); j++ {
			l = append(l, refValue(a.ListValues(), j))
		}
		return l
	case *array.Struct:
		s := map[string]any{}
		for k, f := range a.DataType().(*arrow.StructType).Fields() {
			s[f.Name] = refValue(a.Field(k), i)
		}
		return s
	}
	panic(fmt.Sprintf("the reference reads no %s", arr.DataType()))
}

// plainRows is rows, a slice of structs with one field per column of
// schema in order, in the plain form.
func plainRows(rows reflect.Value, schema *arrow.Schema) []map[string]any {
	out := make([]map[string]any, rows.Len())
	for i := range out {
		out[i] = plainStruct(rows.Index(i), schema.Fields())
	}
	return out
}

func plainStruct(v reflect.Value, fields []arrow.Field) map[string]any {
	if v.NumField() != len(fields) {
		panic(fmt.Sprintf("%s has %d fields for %d columns", v.Type(), v.NumField(), len(fields)))
	}
	s := map[string]any{}
	for k, f := range fields {
		s[f.Name] = plainOf(v.Field(k), f.Type)
	}
	return s
}

// plainOf is the Go value v, written for a column of type dt, in the plain
// form; dt says what v alone does not (a decimal's scale, field names).
func plainOf(v reflect.Value, dt arrow.DataType) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice:
		if v.IsNil() {
			return nil
		}
	}
	if v.Kind() == reflect.Pointer {
		return plainOf(v.Elem(), dt)
	}
	switch x := v.Interface().(type) {
	case time.Time:
		return x.UTC()
	case float16.Num:
		return plainHalf(x.Uint16())
	case decimal.Decimal128:
		return x.ToString(dt.(*arrow.Decimal128Type).Scale)
	case decimal.Decimal256:
		return x.ToString(dt.(*arrow.Decimal256Type).Scale)
	case []byte:
		return append([]byte{}, x...)
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Float32:
		return plainFloat32(float32(v.Float()))
	case reflect.Float64:
		return plainFloat64(v.Float())
	case reflect.String:
		return v.String()
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			return b
		}
	case reflect.Slice:
		if mt, ok := dt.(*arrow.MapType); ok {
			// A map's entries, as GoTypeOf's type holds them: structs
			// (or pointers to them) with a Key and a Value.
			m := []mapEntry{}
			for j := range v.Len() {
				e := reflect.Indirect(v.Index(j))
				m = append(m, mapEntry{Key: plainOf(e.FieldByName("Key"), mt.KeyType()), Value: plainOf(e.FieldByName("Value"), mt.ItemType())})
			}
			return m
		}
		elem := dt.(arrow.ListLikeType).Elem()
		l := []any{}
		for j := range v.Len() {
			l = append(l, plainOf(v.Index(j), elem))
		}
		return l
	case reflect.Struct:
		return plainStruct(v, dt.(*arrow.StructType).Fields())
	}
	panic(fmt.Sprintf("the reference has no plain form of %s", v.Type()))
}

func plainHalf(bits uint16) any {
	if bits&0x7c00 == 0x7c00 && bits&0x3ff != 0 {
		return fmt.Sprintf("NaN(%#04x)", bits)
	}
	return float32(halfFloat(bits))
}

func plainFloat32(f float32) any {
	if f != f {
		return fmt.Sprintf("NaN(%#08x)", math.Float32bits(f))
	}
	return f
}

func plainFloat64(f float64) any {
	if f != f {
		return fmt.Sprintf("NaN(%#016x)", math.Float64bits(f))
	}
	return f
}

// hasSpecial tells whether a plain value holds a NaN or an infinity,
// which encoding/json does not write.
func hasSpecial(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.HasPrefix(x, "NaN(")
	case float32:
		return math.IsInf(float64(x), 0)
	case float64:
		return math.IsInf(x, 0)
	case []any:
		return slices.ContainsFunc(x, hasSpecial)
	case map[string]any:
		for _, e := range x {
			if hasSpecial(e) {
				return true
			}
		}
	case []mapEntry:
		return slices.ContainsFunc(x, func(e mapEntry) bool { return hasSpecial(e.Key) || hasSpecial(e.Value) })
	case []map[string]any:
		for _, e := range x {
			if hasSpecial(e) {
				return true
			}
		}
	}
	return false
}

// halfFloat is the IEEE 754 half-precision number of bits. arrow-go's
// float16.Num.Float32 (v18.8.0) reads a subnormal as the float32 subnormal
// of the same fraction bits, 2⁻¹⁴⁹ for the bits 0x0001 instead of 2⁻²⁴:
// the reference does not use it.
func halfFloat(bits uint16) float64 {
	sign := 1.0
	if bits&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(bits>>10&0x1f), float64(bits&0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// jsonRow is a row of schema in the plain form as `arrowmap head` prints
// it: an object of the columns in schema order.
func jsonRow(row map[string]any, schema *arrow.Schema) jsonObject {
	return jsonable(row, arrow.StructOf(schema.Fields()...)).(jsonObject)
}

// jsonable is a plain value of Arrow type dt as `arrowmap head` prints it:
// a struct an object of its fields in order; a map an object of its
// entries in order, a key twice as often as the map has it, a key as its
// JSON text (unquoted when a string); NaN and the infinities as the
// strings "NaN", "+Inf" and "-Inf"; everything else as encoding/json
// writes it.
func jsonable(v any, dt arrow.DataType) any {
	if v == nil {
		return nil
	}
	switch dt := dt.(type) {
	case *arrow.StructType:
		s := v.(map[string]any)
		o := jsonObject{}
		for _, f := range dt.Fields() {
			o = append(o, jsonMember{Name: f.Name, Value: jsonable(s[f.Name], f.Type)})
		}
		return o
	case *arrow.MapType:
		o := jsonObject{}
		for _, e := range v.([]mapEntry) {
			key, err := json.Marshal(jsonable(e.Key, dt.KeyType()))
			if err != nil {
				panic(err)
			}
			name := string(key)
			if s, err := strconv.Unquote(name); err == nil && strings.HasPrefix(name, `"`) {
				name = s
			}
			o = append(o, jsonMember{Name: name, Value: jsonable(e.Value, dt.ItemType())})
		}
		return o
	case arrow.ListLikeType:
		x := v.([]any)
		l := make([]any, len(x))
		for j, e := range x {
			l[j] = jsonable(e, dt.Elem())
		}
		return l
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		f := math.NaN() // the plain form's NaN is a string
		switch x := v.(type) {
		case float32: // marshalled as a float32, as head does, not widened
			f = float64(x)
		case float64:
			f = x
		}
		switch {
		case math.IsNaN(f):
			return "NaN"
		case math.IsInf(f, 1):
			return "+Inf"
		case math.IsInf(f, -1):
			return "-Inf"
		}
	}
	return v
}

// jsonMember is a member of a JSON object: its name and value.
type jsonMember struct {
	Name  string
	Value any
}

// jsonObject is a JSON object as written: its members in order, a name
// twice kept twice, which a Go map does not keep.
type jsonObject []jsonMember

// MarshalJSON writes the members in order.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(m.Name)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, name...), ':'), value...)
	}
	return append(b, '}'), nil
}

// orderedJSON is the one JSON value of text, its objects as jsonObject
// (members in order, a name twice kept twice) and its numbers as their
// text (json.Number), so that an int64 keeps every digit.
func orderedJSON(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := readJSON(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value in %q", text)
	}
	return v, nil
}

// readJSON reads the next JSON value of dec.
func readJSON(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := jsonObject{}
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, jsonMember{Name: name.(string), Value: v})
		}
		_, err := dec.Token() // }
		return o, err
	case json.Delim('['):
		l := []any{}
		for dec.More() {
			v, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token() // ]
		return l, err
	}
	return tok, nil // a string, json.Number, bool or nil
}
