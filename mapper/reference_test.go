package mapper_test

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"time"
	_ "time/tzdata" // the generated time zones, wherever the tests run

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// The reference decoder: a deliberately simple, slow decoder that walks a
// record with arrow-go's own typed accessors, one value at a time through
// reflect.Value.Set, and shares no code with the mapper. The property test
// checks the mapper against it.
//
// It needs no tags beyond the column names: a null at any level decodes to
// the zero value of that level's Go type (a nil pointer, slice or map, or
// a zero value for a `nullable` field), which is what the mapper does
// wherever a null is allowed, and the generator never puts a reachable null
// where it is not.

// referenceRows decodes every row of rec into a []typ.
func referenceRows(typ reflect.Type, rec arrow.RecordBatch) reflect.Value {
	n := int(rec.NumRows())
	if n == 0 {
		return reflect.Zero(reflect.SliceOf(typ))
	}
	rows := reflect.MakeSlice(reflect.SliceOf(typ), n, n)
	schema := rec.Schema()
	for i := range n {
		row := rows.Index(i)
		for f := range typ.NumField() {
			idx := schema.FieldIndices(refColumnName(typ.Field(f)))
			row.Field(f).Set(referenceValue(rec.Column(idx[0]), i, typ.Field(f).Type))
		}
	}
	return rows
}

// refColumnName is the column a struct field reads: the first item of its
// arrow tag.
func refColumnName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("arrow"), ",")
	return name
}

// referenceIsNull reports whether row i of arr is null, looking through
// dictionaries (a null index or a null entry) and run-end encoding (a null
// run), which have no validity bitmap of their own to say so.
func referenceIsNull(arr arrow.Array, i int) bool {
	switch a := arr.(type) {
	case *array.Dictionary:
		return a.IsNull(i) || a.Dictionary().IsNull(a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return a.Values().IsNull(a.GetPhysicalIndex(i))
	case array.Union:
		child, row := referenceUnionRow(a, i)
		return referenceIsNull(child, row)
	}
	return arr.IsNull(i)
}

var (
	refTimeType       = reflect.TypeFor[time.Time]()
	refDecimal128Type = reflect.TypeFor[decimal.Decimal128]()
	refDecimal256Type = reflect.TypeFor[decimal.Decimal256]()
)

// referenceValue decodes row i of arr into a new value of Go type t.
func referenceValue(arr arrow.Array, i int, t reflect.Type) reflect.Value {
	if u, ok := arr.(array.Union); ok && t.Kind() == reflect.Struct {
		return referenceUnion(u, i, t) // a null row keeps its code
	}
	if referenceIsNull(arr, i) {
		return reflect.Zero(t)
	}
	if t.Kind() == reflect.Pointer {
		p := reflect.New(t.Elem())
		p.Elem().Set(referenceValue(arr, i, t.Elem()))
		return p
	}
	out := reflect.New(t).Elem()
	switch a := arr.(type) {
	case *array.Dictionary:
		return referenceValue(a.Dictionary(), a.GetValueIndex(i), t)
	case *array.RunEndEncoded:
		return referenceValue(a.Values(), a.GetPhysicalIndex(i), t)
	case *array.Boolean:
		out.SetBool(a.Value(i))
	case *array.Int8:
		refSetInteger(out, int64(a.Value(i)))
	case *array.Int16:
		refSetInteger(out, int64(a.Value(i)))
	case *array.Int32:
		refSetInteger(out, int64(a.Value(i)))
	case *array.Int64:
		refSetInteger(out, a.Value(i))
	case *array.Uint8:
		refSetUnsigned(out, uint64(a.Value(i)))
	case *array.Uint16:
		refSetUnsigned(out, uint64(a.Value(i)))
	case *array.Uint32:
		refSetUnsigned(out, uint64(a.Value(i)))
	case *array.Uint64:
		refSetUnsigned(out, a.Value(i))
	case *array.Float32:
		out.SetFloat(float64(a.Value(i)))
	case *array.Float64:
		out.SetFloat(a.Value(i))
	case *array.String:
		out.SetString(a.Value(i))
	case *array.LargeString:
		out.SetString(a.Value(i))
	case *array.StringView:
		out.SetString(a.Value(i))
	case *array.Binary:
		out.SetBytes(append([]byte{}, a.Value(i)...))
	case *array.LargeBinary:
		out.SetBytes(append([]byte{}, a.Value(i)...))
	case *array.BinaryView:
		out.SetBytes(append([]byte{}, a.Value(i)...))
	case *array.FixedSizeBinary:
		if t.Kind() == reflect.Array {
			reflect.Copy(out, reflect.ValueOf(a.Value(i)))
		} else {
			out.SetBytes(append([]byte{}, a.Value(i)...))
		}
	case *array.MonthInterval:
		out.Set(reflect.ValueOf(a.Value(i)))
	case *array.DayTimeInterval:
		out.Set(reflect.ValueOf(a.Value(i)))
	case *array.MonthDayNanoInterval:
		out.Set(reflect.ValueOf(a.Value(i)))
	case *array.Date32:
		out.Set(reflect.ValueOf(a.Value(i).ToTime()))
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		out.Set(reflect.ValueOf(a.Value(i).ToTime(dt.Unit).In(referenceLocation(dt.TimeZone))))
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		out.SetInt(int64(a.Value(i)) * int64(unit.Multiplier()))
	case *array.Decimal128:
		x := a.Value(i)
		switch t {
		case refDecimal128Type:
			out.Set(reflect.ValueOf(x))
		case refDecimal256Type:
			out.Set(reflect.ValueOf(decimal256.FromDecimal128(x)))
		default:
			out.SetString(refDecimalText(x.BigInt(), a.DataType().(*arrow.Decimal128Type).Scale))
		}
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		for f := range t.NumField() {
			k, _ := st.FieldIdx(refColumnName(t.Field(f)))
			out.Field(f).Set(referenceValue(a.Field(k), i, t.Field(f).Type))
		}
	case *array.Map: // before array.ListLike, which a map also is
		start, end := a.ValueOffsets(i)
		m := reflect.MakeMapWithSize(t, int(end-start))
		for e := int(start); e < int(end); e++ {
			m.SetMapIndex(referenceValue(a.Keys(), e, t.Key()), referenceValue(a.Items(), e, t.Elem()))
		}
		out.Set(m)
	case array.ListLike: // list, large_list, list_view, large_list_view, fixed_size_list
		start, end := a.ValueOffsets(i)
		n := int(end - start)
		if t.Kind() == reflect.Slice {
			out.Set(reflect.MakeSlice(t, n, n))
		}
		for e := range n {
			out.Index(e).Set(referenceValue(a.ListValues(), int(start)+e, t.Elem()))
		}
	default:
		panic(fmt.Sprintf("reference decoder: %T is not supported", arr))
	}
	return out
}

func refSetInteger(v reflect.Value, x int64) {
	if v.CanInt() {
		v.SetInt(x)
		return
	}
	v.SetUint(uint64(x)) // the generator widens signed only into signed
}

func refSetUnsigned(v reflect.Value, x uint64) {
	if v.CanUint() {
		v.SetUint(x)
		return
	}
	v.SetInt(int64(x)) // a wider signed type holds it
}

// referenceLocation is the location of a timestamp column's time zone: UTC
// without one, a fixed zone named as written for ±HH:MM, else IANA.
func referenceLocation(tz string) *time.Location {
	if tz == "" {
		return time.UTC
	}
	if len(tz) == 6 && (tz[0] == '+' || tz[0] == '-') {
		var h, m int
		if _, err := fmt.Sscanf(tz[1:], "%02d:%02d", &h, &m); err == nil {
			offset := h*3600 + m*60
			if tz[0] == '-' {
				offset = -offset
			}
			return time.FixedZone(tz, offset)
		}
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		panic(err)
	}
	return loc
}

// refDecimalText is the exact text of x·10^-scale, through big.Rat rather than
// digit shuffling: "123.45" for 12345 at scale 2.
func refDecimalText(x *big.Int, scale int32) string {
	denom := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	return new(big.Rat).SetFrac(x, denom).FloatString(int(scale))
}

// refFirstDifference is the path of the first place where got and want differ,
// and how, or "" when they agree. Times are equal when they are the same
// instant in locations of the same name; floats when both are NaN or ==.
// A nil slice or map differs from an empty one, and a decoded slice must
// have no capacity past its length.
func refFirstDifference(path string, got, want reflect.Value) string {
	if got.Type() != want.Type() {
		return fmt.Sprintf("%s: type %s, want %s", path, got.Type(), want.Type())
	}
	t := got.Type()
	switch {
	case t == refTimeType:
		g, w := got.Interface().(time.Time), want.Interface().(time.Time)
		if !g.Equal(w) || g.Location().String() != w.Location().String() {
			return fmt.Sprintf("%s: %s (%s), want %s (%s)", path, g, g.Location(), w, w.Location())
		}
		return ""
	case t == refDecimal128Type || t == refDecimal256Type:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			return fmt.Sprintf("%s: %v, want %v", path, got.Interface(), want.Interface())
		}
		return ""
	}
	switch t.Kind() {
	case reflect.Pointer:
		if got.IsNil() != want.IsNil() {
			return fmt.Sprintf("%s: nil is %v, want %v", path, got.IsNil(), want.IsNil())
		}
		if got.IsNil() {
			return ""
		}
		return refFirstDifference("(*"+path+")", got.Elem(), want.Elem())
	case reflect.Slice, reflect.Map:
		if got.IsNil() != want.IsNil() {
			return fmt.Sprintf("%s: nil is %v, want %v (%#v, want %#v)", path, got.IsNil(), want.IsNil(), got.Interface(), want.Interface())
		}
		if got.Len() != want.Len() {
			return fmt.Sprintf("%s: length %d, want %d (%#v, want %#v)", path, got.Len(), want.Len(), got.Interface(), want.Interface())
		}
		// No spare capacity: appending to one row's slice must not write
		// over the next row's elements, which share its backing array.
		if t.Kind() == reflect.Slice && got.Cap() != got.Len() {
			return fmt.Sprintf("%s: capacity %d beyond length %d", path, got.Cap(), got.Len())
		}
		if t.Kind() == reflect.Map {
			for _, k := range want.MapKeys() {
				g := got.MapIndex(k)
				if !g.IsValid() {
					return fmt.Sprintf("%s: no key %q", path, k.Interface())
				}
				if d := refFirstDifference(fmt.Sprintf("%s[%q]", path, k.Interface()), g, want.MapIndex(k)); d != "" {
					return d
				}
			}
			return ""
		}
		fallthrough
	case reflect.Array:
		for i := range want.Len() {
			if d := refFirstDifference(fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		for f := range t.NumField() {
			if d := refFirstDifference(path+"."+t.Field(f).Name, got.Field(f), want.Field(f)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Float32, reflect.Float64:
		g, w := got.Float(), want.Float()
		if g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
			return fmt.Sprintf("%s: %v, want %v", path, g, w)
		}
		return ""
	}
	if !reflect.DeepEqual(got.Interface(), want.Interface()) {
		return fmt.Sprintf("%s: %#v, want %#v", path, got.Interface(), want.Interface())
	}
	return ""
}

// referenceUnionRow is the child row i of u selects, and its row there.
func referenceUnionRow(u array.Union, i int) (arrow.Array, int) {
	if d, ok := u.(*array.DenseUnion); ok {
		return d.Field(d.ChildID(i)), int(d.ValueOffset(i))
	}
	return u.Field(u.ChildID(i)), i // arrow-go slices a sparse union's children with it
}

// referenceUnion decodes row i of u into a struct of pointer variants: the
// type_code field gets the row's code, the variant of the selected child's
// name its value unless it is null.
func referenceUnion(u array.Union, i int, t reflect.Type) reflect.Value {
	out := reflect.New(t).Elem()
	child, row := referenceUnionRow(u, i)
	name := u.UnionType().Fields()[u.ChildID(i)].Name
	for f := range t.NumField() {
		sf := t.Field(f)
		switch {
		case strings.Contains(sf.Tag.Get("arrow"), "type_code"):
			out.Field(f).SetInt(int64(u.TypeCode(i)))
		case refColumnName(sf) == name && !referenceIsNull(child, row):
			out.Field(f).Set(referenceValue(child, row, sf.Type))
		}
	}
	return out
}
