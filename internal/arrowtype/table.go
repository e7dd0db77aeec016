package arrowtype

// The table itself: a Row for each Arrow type arrowmap reads and writes,
// and the lookups by ID, by Value and by Go type.

import (
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	stringType   = reflect.TypeFor[string]()
	bytesType    = reflect.TypeFor[[]byte]()
	subSecond    = []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond}
)

// table is every Arrow type arrowmap reads, by ID.
var table = [...]Row{
	{ID: arrow.NULL, plain: arrow.Null, Name: "null", Layout: Null},
	{ID: arrow.BOOL, plain: arrow.FixedWidthTypes.Boolean, Name: "bool", Layout: Boolean, GoType: reflect.TypeFor[bool]()},
	{ID: arrow.UINT8, plain: arrow.PrimitiveTypes.Uint8, Name: "uint8", Layout: Fixed, Value: Uint8, Integer: true, GoType: reflect.TypeFor[uint8]()},
	{ID: arrow.INT8, plain: arrow.PrimitiveTypes.Int8, Name: "int8", Layout: Fixed, Value: Int8, Integer: true, Signed: true, GoType: reflect.TypeFor[int8]()},
	{ID: arrow.UINT16, plain: arrow.PrimitiveTypes.Uint16, Name: "uint16", Layout: Fixed, Value: Uint16, Integer: true, GoType: reflect.TypeFor[uint16]()},
	{ID: arrow.INT16, plain: arrow.PrimitiveTypes.Int16, Name: "int16", Layout: Fixed, Value: Int16, Integer: true, Signed: true, GoType: reflect.TypeFor[int16]()},
	{ID: arrow.UINT32, plain: arrow.PrimitiveTypes.Uint32, Name: "uint32", Layout: Fixed, Value: Uint32, Integer: true, GoType: reflect.TypeFor[uint32]()},
	{ID: arrow.INT32, plain: arrow.PrimitiveTypes.Int32, Name: "int32", Layout: Fixed, Value: Int32, Integer: true, Signed: true, GoType: reflect.TypeFor[int32]()},
	{ID: arrow.UINT64, plain: arrow.PrimitiveTypes.Uint64, Name: "uint64", Layout: Fixed, Value: Uint64, Integer: true, GoType: reflect.TypeFor[uint64]()},
	{ID: arrow.INT64, plain: arrow.PrimitiveTypes.Int64, Name: "int64", Layout: Fixed, Value: Int64, Integer: true, Signed: true, GoType: reflect.TypeFor[int64]()},
	{ID: arrow.FLOAT16, plain: arrow.FixedWidthTypes.Float16, Name: "float16", Layout: Fixed, Value: Float16, Float: true, Signed: true, GoType: reflect.TypeFor[float16.Num]()},
	{ID: arrow.FLOAT32, plain: arrow.PrimitiveTypes.Float32, Name: "float32", Layout: Fixed, Value: Float32, Float: true, Signed: true, GoType: reflect.TypeFor[float32]()},
	{ID: arrow.FLOAT64, plain: arrow.PrimitiveTypes.Float64, Name: "float64", Layout: Fixed, Value: Float64, Float: true, Signed: true, GoType: reflect.TypeFor[float64]()},
	{ID: arrow.STRING, plain: arrow.BinaryTypes.String, Name: "utf8", Layout: Binary, Text: true, GoType: stringType},
	{ID: arrow.BINARY, plain: arrow.BinaryTypes.Binary, Name: "binary", Layout: Binary, GoType: bytesType},
	{ID: arrow.FIXED_SIZE_BINARY, Name: "fixed_size_binary", Layout: FixedBinary},
	{ID: arrow.DATE32, plain: arrow.FixedWidthTypes.Date32, Name: "date32", Layout: Fixed, Value: Int32, Signed: true, Temporal: Date, GoType: timeType},
	{ID: arrow.DATE64, plain: arrow.FixedWidthTypes.Date64, Name: "date64", Layout: Fixed, Value: Int64, Signed: true, Temporal: Date, GoType: timeType},
	{ID: arrow.TIMESTAMP, Name: "timestamp", withUnit: func(u arrow.TimeUnit, zone string) arrow.DataType {
		return &arrow.TimestampType{Unit: u, TimeZone: zone}
	}, Layout: Fixed, Value: Int64, Signed: true, Temporal: Timestamp,
		Units: subSecond, DefaultUnit: arrow.Nanosecond, GoType: timeType},
	{ID: arrow.TIME32, Name: "time32", withUnit: func(u arrow.TimeUnit, _ string) arrow.DataType { return &arrow.Time32Type{Unit: u} }, Layout: Fixed, Value: Int32, Signed: true, Temporal: TimeOfDay,
		Units: subSecond[:2], DefaultUnit: arrow.Millisecond, GoType: durationType},
	{ID: arrow.TIME64, Name: "time64", withUnit: func(u arrow.TimeUnit, _ string) arrow.DataType { return &arrow.Time64Type{Unit: u} }, Layout: Fixed, Value: Int64, Signed: true, Temporal: TimeOfDay,
		Units: subSecond[2:], DefaultUnit: arrow.Nanosecond, GoType: durationType},
	{ID: arrow.INTERVAL_MONTHS, plain: arrow.FixedWidthTypes.MonthInterval, Name: "month_interval", Layout: Fixed, Value: MonthInterval, Temporal: Interval,
		GoType: reflect.TypeFor[arrow.MonthInterval]()},
	{ID: arrow.INTERVAL_DAY_TIME, plain: arrow.FixedWidthTypes.DayTimeInterval, Name: "day_time_interval", Layout: Fixed, Value: DayTimeInterval, Temporal: Interval,
		GoType: reflect.TypeFor[arrow.DayTimeInterval]()},
	{ID: arrow.DECIMAL128, Name: "decimal128", decimal: func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }, Layout: Fixed, Value: Decimal128, Signed: true, Decimal: true,
		MaxPrecision: 38, GoType: reflect.TypeFor[decimal.Decimal128]()},
	{ID: arrow.DECIMAL256, Name: "decimal256", decimal: func(p, s int32) arrow.DataType { return &arrow.Decimal256Type{Precision: p, Scale: s} }, Layout: Fixed, Value: Decimal256, Signed: true, Decimal: true,
		MaxPrecision: 76, GoType: reflect.TypeFor[decimal.Decimal256]()},
	{ID: arrow.LIST, Name: "list", Layout: List},
	{ID: arrow.STRUCT, Name: "struct", Layout: Struct},
	{ID: arrow.SPARSE_UNION, Name: "sparse_union", Layout: Union},
	{ID: arrow.DENSE_UNION, Name: "dense_union", Layout: Union, Dense: true},
	{ID: arrow.DICTIONARY, Name: "dictionary", Layout: Dictionary},
	{ID: arrow.MAP, Name: "map", Layout: List, Map: true},
	{ID: arrow.EXTENSION, Name: "extension", Layout: Extension},
	{ID: arrow.FIXED_SIZE_LIST, Name: "fixed_size_list", Layout: FixedList},
	{ID: arrow.DURATION, Name: "duration", withUnit: func(u arrow.TimeUnit, _ string) arrow.DataType { return &arrow.DurationType{Unit: u} }, Layout: Fixed, Value: Int64, Signed: true, Temporal: Duration,
		Units: subSecond, DefaultUnit: arrow.Nanosecond, GoType: durationType},
	{ID: arrow.LARGE_STRING, plain: arrow.BinaryTypes.LargeString, Name: "large_utf8", Layout: Binary, Large: true, Text: true, GoType: stringType},
	{ID: arrow.LARGE_BINARY, plain: arrow.BinaryTypes.LargeBinary, Name: "large_binary", Layout: Binary, Large: true, GoType: bytesType},
	{ID: arrow.LARGE_LIST, Name: "large_list", Layout: List, Large: true},
	{ID: arrow.INTERVAL_MONTH_DAY_NANO, plain: arrow.FixedWidthTypes.MonthDayNanoInterval, Name: "month_day_nano_interval", Layout: Fixed, Value: MonthDayNanoInterval,
		Temporal: Interval, GoType: reflect.TypeFor[arrow.MonthDayNanoInterval]()},
	{ID: arrow.RUN_END_ENCODED, Name: "run_end_encoded", Layout: RunEnd},
	{ID: arrow.STRING_VIEW, plain: arrow.BinaryTypes.StringView, Name: "utf8_view", Layout: View, Text: true, GoType: stringType},
	{ID: arrow.BINARY_VIEW, plain: arrow.BinaryTypes.BinaryView, Name: "binary_view", Layout: View, GoType: bytesType},
	{ID: arrow.LIST_VIEW, Name: "list_view", Layout: ListView},
	{ID: arrow.LARGE_LIST_VIEW, Name: "large_list_view", Layout: ListView, Large: true},
	{ID: arrow.DECIMAL32, Name: "decimal32", decimal: func(p, s int32) arrow.DataType { return &arrow.Decimal32Type{Precision: p, Scale: s} }, Layout: Fixed, Value: Decimal32, Signed: true, Decimal: true,
		MaxPrecision: 9, GoType: reflect.TypeFor[decimal.Decimal32]()},
	{ID: arrow.DECIMAL64, Name: "decimal64", decimal: func(p, s int32) arrow.DataType { return &arrow.Decimal64Type{Precision: p, Scale: s} }, Layout: Fixed, Value: Decimal64, Signed: true, Decimal: true,
		MaxPrecision: 18, GoType: reflect.TypeFor[decimal.Decimal64]()},
}

// valueBytes and valueTypes are each Value's byte width and Go type.
var (
	valueBytes = [numValues]int{Int8: 1, Int16: 2, Int32: 4, Int64: 8, Uint8: 1, Uint16: 2, Uint32: 4, Uint64: 8,
		Float16: 2, Float32: 4, Float64: 8, Decimal32: 4, Decimal64: 8, Decimal128: 16, Decimal256: 32,
		MonthInterval: 4, DayTimeInterval: 8, MonthDayNanoInterval: 16}
	valueTypes = [numValues]reflect.Type{
		Int8: reflect.TypeFor[int8](), Int16: reflect.TypeFor[int16](), Int32: reflect.TypeFor[int32](),
		Int64: reflect.TypeFor[int64](), Uint8: reflect.TypeFor[uint8](), Uint16: reflect.TypeFor[uint16](),
		Uint32: reflect.TypeFor[uint32](), Uint64: reflect.TypeFor[uint64](), Float16: reflect.TypeFor[float16.Num](),
		Float32: reflect.TypeFor[float32](), Float64: reflect.TypeFor[float64](),
		Decimal32: reflect.TypeFor[decimal.Decimal32](), Decimal64: reflect.TypeFor[decimal.Decimal64](),
		Decimal128: reflect.TypeFor[decimal.Decimal128](), Decimal256: reflect.TypeFor[decimal.Decimal256](),
		MonthInterval: reflect.TypeFor[arrow.MonthInterval](), DayTimeInterval: reflect.TypeFor[arrow.DayTimeInterval](),
		MonthDayNanoInterval: reflect.TypeFor[arrow.MonthDayNanoInterval](),
	}
)

// FixedValue is the Go types of fixed-width buffer values, one a Value.
type FixedValue interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		float16.Num | float32 | float64 |
		decimal.Decimal32 | decimal.Decimal64 | decimal.Decimal128 | decimal.Decimal256 |
		arrow.MonthInterval | arrow.DayTimeInterval | arrow.MonthDayNanoInterval
}

// GoType is the Go type of v's values; nil for NoValue.
func (v Value) GoType() reflect.Type {
	if v >= numValues {
		return nil
	}
	return valueTypes[v]
}

// Bytes is the byte width of v's values.
func (v Value) Bytes() int {
	if v >= numValues {
		return 0
	}
	return valueBytes[v]
}

func (v Value) String() string {
	if t := v.GoType(); t != nil {
		return t.String()
	}
	return "no value"
}

// valueAliases spell the Go types of the wide decimals as users write them,
// by their aliases in package decimal, as the narrow ones are named.
var valueAliases = [numValues]string{Decimal128: "decimal.Decimal128", Decimal256: "decimal.Decimal256"}

// GoSource is how Go code spells t and the path of the package it imports
// for it ("" for a predeclared type): reflect names an alias by the type it
// stands for, a decimal.Decimal128 decimal128.Num, which GoSource spells by
// the alias.
func GoSource(t reflect.Type) (name, pkgPath string) {
	for v, alias := range valueAliases {
		if alias != "" && valueTypes[v] == t {
			return alias, reflect.TypeFor[decimal.Decimal32]().PkgPath()
		}
	}
	return t.String(), t.PkgPath()
}

// ValueOf is the Value whose Go type is T.
func ValueOf[T FixedValue]() Value {
	t := reflect.TypeFor[T]()
	for v := Int8; v < numValues; v++ {
		if valueTypes[v] == t {
			return v
		}
	}
	panic("arrowtype: " + t.String() + " has no row") // the constraint admits none
}

// Holding is the IDs of the Fixed types whose buffers hold Go values of
// type v: Int32 is int32, date32 and time32.
func Holding(v Value) []arrow.Type {
	return IDs(func(r *Row) bool { return r.Layout == Fixed && r.Value == v })
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

// ---- ipcdict

// DictionaryIndices is the type of the indices of a dictionary dt, and
// true; nil and false for any other.
func DictionaryIndices(dt arrow.DataType) (arrow.DataType, bool) {
	if t, ok := dt.(*arrow.DictionaryType); ok {
		return t.IndexType, true
	}
	return nil, false
}

// ---- encode

// DictionaryOf is dictionary<index, values>, ordered as asked.
func DictionaryOf(index, values arrow.DataType, ordered bool) arrow.DataType {
	return &arrow.DictionaryType{IndexType: index, ValueType: values, Ordered: ordered}
}

// ExtensionOf is dt as an extension type; false when dt is none.
func ExtensionOf(dt arrow.DataType) (arrow.ExtensionType, bool) {
	t, ok := dt.(arrow.ExtensionType)
	return t, ok
}

// appendValues is AppendValues of arrow-go's builders of fixed-width
// values, over the Go types they take: the buffer's Go type, or for the
// temporal types arrow-go's named integers of it.
func appendValues[V FixedValue](b any) (func(values []V, valid []bool), bool) {
	if a, ok := b.(interface{ AppendValues([]V, []bool) }); ok {
		return a.AppendValues, true
	}
	for _, f := range [...]func(any) (func([]V, []bool), bool){
		appendAs[V, arrow.Date32], appendAs[V, arrow.Date64], appendAs[V, arrow.Time32],
		appendAs[V, arrow.Time64], appendAs[V, arrow.Timestamp], appendAs[V, arrow.Duration],
	} {
		if f, ok := f(b); ok {
			return f, true
		}
	}
	return nil, false
}

// ---- views

// ListSize is the number of elements of every row of a fixed-size list dt;
// false for any other.
func ListSize(dt arrow.DataType) (int, bool) {
	if t, ok := dt.(*arrow.FixedSizeListType); ok {
		return int(t.Len()), true
	}
	return 0, false
}

// ---- decode

// ExtensionName is the name and serialized metadata of the extension type
// dt, and true; false for any other type.
func ExtensionName(dt arrow.DataType) (name, metadata string, ok bool) {
	ext, ok := dt.(arrow.ExtensionType)
	if !ok {
		return "", "", false
	}
	return ext.ExtensionName(), ext.Serialize(), true
}

// ExtensionStorage is the storage type of the extension type dt, one
// level down, and true; dt and false for any other type.
func ExtensionStorage(dt arrow.DataType) (arrow.DataType, bool) {
	if ext, ok := dt.(arrow.ExtensionType); ok {
		return ext.StorageType(), true
	}
	return dt, false
}

// DictionaryParts is the index and value types of the dictionary type dt and
// whether it is ordered; ok is false for any other type.
func DictionaryParts(dt arrow.DataType) (index, values arrow.DataType, ordered, ok bool) {
	d, ok := dt.(*arrow.DictionaryType)
	if !ok {
		return nil, nil, false, false
	}
	return d.IndexType, d.ValueType, d.Ordered, true
}

// RunEndParts is the run-end and value types of the run-end encoded type dt
// and whether its values may be null; ok is false for any other type.
func RunEndParts(dt arrow.DataType) (runEnds, values arrow.DataType, valuesNullable, ok bool) {
	r, ok := dt.(*arrow.RunEndEncodedType)
	if !ok {
		return nil, nil, false, false
	}
	return r.RunEnds(), r.Encoded(), r.ValueNullable, true
}

// MapFields are the fields of a map type: its entries (the list's
// element, a struct of the key and the item), the key and the item.
type MapFields struct {
	Entries, Key, Item arrow.Field
	KeysSorted         bool
}

// MapParts is the fields of the map type dt; false for any other type.
func MapParts(dt arrow.DataType) (MapFields, bool) {
	m, ok := dt.(*arrow.MapType)
	if !ok {
		return MapFields{}, false
	}
	return MapFields{Entries: m.ElemField(), Key: m.KeyField(), Item: m.ItemField(), KeysSorted: m.KeysSorted}, true
}

// ---- iotypes

// WithEncodedValues is dt, a dictionary or run-end encoded type, with
// values as the type of what it encodes: its index or run-end type, its
// order and its values' nullability kept. False for any other dt.
func WithEncodedValues(dt, values arrow.DataType) (arrow.DataType, bool) {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return &arrow.DictionaryType{IndexType: t.IndexType, ValueType: values, Ordered: t.Ordered}, true
	case *arrow.RunEndEncodedType:
		ree := arrow.RunEndEncodedOf(t.RunEnds(), values)
		ree.ValueNullable = t.ValueNullable
		return ree, true
	}
	return dt, false
}

// WithElem is the list-like dt with elem as its element: a list, large
// list, list view or large list view of elem, a fixed-size list of elem of
// dt's size, a map whose entries are elem, a struct of a key and an item
// (its keys' order kept, the key not nullable). False for any other dt, a
// fixed size below 1, entries of another shape, or a nil element type:
// arrow-go's constructors panic on those.
func WithElem(dt arrow.DataType, elem arrow.Field) (arrow.DataType, bool) {
	if elem.Type == nil {
		return dt, false
	}
	switch t := dt.(type) {
	case *arrow.ListType:
		return arrow.ListOfField(elem), true
	case *arrow.LargeListType:
		return arrow.LargeListOfField(elem), true
	case *arrow.ListViewType:
		return arrow.ListViewOfField(elem), true
	case *arrow.LargeListViewType:
		return arrow.LargeListViewOfField(elem), true
	case *arrow.FixedSizeListType:
		if t.Len() < 1 {
			return dt, false
		}
		return arrow.FixedSizeListOfField(t.Len(), elem), true
	case *arrow.MapType:
		entries, ok := elem.Type.(*arrow.StructType)
		if !ok || entries.NumFields() != 2 || entries.Field(0).Type == nil || entries.Field(1).Type == nil {
			return dt, false
		}
		key := entries.Field(0)
		key.Nullable = false
		m := arrow.MapOfFields(key, entries.Field(1))
		m.KeysSorted = t.KeysSorted
		return m, true
	}
	return dt, false
}

// Children is the fields of the types directly below dt, which a walk of
// a type descends into: a list's, list view's, fixed-size list's or map's
// element (a map's, the struct of its key and item); a struct's fields; a
// union's variants; what a dictionary or run-end encoding encodes, as a
// field named "values". None for any other type, an extension type among
// them (its storage is [Storage]). [WithChildren] puts them back.
func Children(dt arrow.DataType) []arrow.Field {
	switch OfType(dt).Layout {
	case List, ListView, FixedList:
		return []arrow.Field{dt.(arrow.ListLikeType).ElemField()}
	case Struct, Union:
		return dt.(arrow.NestedType).Fields()
	case Dictionary:
		return []arrow.Field{{Name: "values", Type: dt.(*arrow.DictionaryType).ValueType, Nullable: true}}
	case RunEnd:
		ree := dt.(*arrow.RunEndEncodedType)
		return []arrow.Field{{Name: "values", Type: ree.Encoded(), Nullable: ree.ValueNullable}}
	}
	return nil
}

// DataChildren is the types of the children of an array of type dt, as
// arrow-go's ArrayData holds them: a list-like's element; a struct's
// fields; a union's variants; a run-end encoding's run ends and values.
// None for a dictionary, whose values are its Dictionary, not a child, nor
// for any type without children.
func DataChildren(dt arrow.DataType) []arrow.DataType {
	switch OfType(dt).Layout {
	case RunEnd:
		ree := dt.(*arrow.RunEndEncodedType)
		return []arrow.DataType{ree.RunEnds(), ree.Encoded()}
	case Dictionary:
		return nil
	}
	var out []arrow.DataType
	for _, f := range Children(dt) {
		out = append(out, f.Type)
	}
	return out
}

// ParentRow is the first row of d, counted as d's arrays count rows (from
// its offset), that reaches element r of its child-th child, in
// [DataChildren]'s order: the row of a struct or sparse union at that
// position, the list whose values hold it, the dense union's row that
// selects it, the row of a run-end encoding's run. For a dictionary,
// child 0 is its dictionary and the row is the first whose index is r.
// -1 when no valid row reaches it: an error about such an element is
// about no row. It is the way an error found in a child names the row a
// user wrote, and is for that path only: it may take time linear in d.
func ParentRow(d arrow.ArrayData, child, r int) int {
	arr := array.MakeFromData(d)
	defer arr.Release()
	n := arr.Len()
	first := func(reaches func(j int) bool) int {
		for j := range n {
			if arr.IsValid(j) && reaches(j) {
				return j
			}
		}
		return -1
	}
	switch OfType(d.DataType()).Layout {
	case Struct:
		return first(func(j int) bool { return j == r-d.Offset() })
	case Union:
		u := arr.(array.Union)
		if dense, ok := arr.(DenseUnionArray); ok {
			return first(func(j int) bool { return u.ChildID(j) == child && int(dense.ValueOffset(j)) == r })
		}
		return first(func(j int) bool { return u.ChildID(j) == child && j == r-d.Offset() })
	case List, ListView, FixedList:
		l := arr.(array.ListLike)
		return first(func(j int) bool {
			start, end := l.ValueOffsets(j)
			return start <= int64(r) && int64(r) < end
		})
	case RunEnd:
		if child != 1 { // the run ends themselves
			return -1
		}
		ree := arr.(RunEndArray)
		return first(func(j int) bool { return ree.GetPhysicalIndex(j) == r })
	case Dictionary:
		dict := arr.(DictionaryArray)
		return first(func(j int) bool { return dict.GetValueIndex(j) == r })
	}
	return -1
}

// WithChildren is dt with children, as many as [Children] has and in its
// order, in place of its own: a list-like's element as [WithElem] takes
// it, a struct's fields, a union's variants (its mode and type codes
// kept), a dictionary's or run-end encoding's values (their nullability
// kept). False for any other dt, another number of children, or what
// WithElem refuses.
func WithChildren(dt arrow.DataType, children []arrow.Field) (arrow.DataType, bool) {
	if len(children) != len(Children(dt)) {
		return dt, false
	}
	for _, c := range children {
		if c.Type == nil {
			return dt, false
		}
	}
	switch OfType(dt).Layout {
	case List, ListView, FixedList:
		return WithElem(dt, children[0])
	case Struct:
		return arrow.StructOf(children...), true
	case Union:
		u := dt.(arrow.UnionType)
		return arrow.UnionOf(u.Mode(), children, u.TypeCodes()), true
	case Dictionary, RunEnd:
		return WithEncodedValues(dt, children[0].Type)
	}
	return dt, false
}

// WithStorage is storage as an array of the extension type dt; false
// when dt is no extension type.
func WithStorage(dt arrow.DataType, storage arrow.Array) (arrow.Array, bool) {
	t, ok := dt.(arrow.ExtensionType)
	if !ok {
		return nil, false
	}
	return array.NewExtensionArrayWithStorage(t, storage), true
}

// EveryValue is every Value of the table, Int8 to MonthDayNanoInterval.
func EveryValue() []Value {
	vs := make([]Value, 0, numValues-1)
	for v := NoValue + 1; v < numValues; v++ {
		vs = append(vs, v)
	}
	return vs
}

// valueClasses is what the rows of Layout Fixed say of each Value's Go
// type, set by init.
var valueClasses [numValues]struct{ integer, signed, float, decimal, interval bool }

// Integer reports whether v is an integer as such (int8–uint64), the Go
// type of dictionary indices.
func (v Value) Integer() bool { return v < numValues && valueClasses[v].integer }

// Signed reports whether v's values are signed.
func (v Value) Signed() bool { return v < numValues && valueClasses[v].signed }

// Float reports whether v is a floating-point number.
func (v Value) Float() bool { return v < numValues && valueClasses[v].float }

// Decimal reports whether v is a decimal of one of arrow-go's widths.
func (v Value) Decimal() bool { return v < numValues && valueClasses[v].decimal }

// Interval reports whether v is one of arrow-go's interval structs.
func (v Value) Interval() bool { return v < numValues && valueClasses[v].interval }

// RunEnds reports whether v is a type Arrow's run ends may have: a signed
// integer of 16 bits or more.
func (v Value) RunEnds() bool { return v.Integer() && v.Signed() && v.Bytes() >= 2 }

// Ordered reports whether v is a number whose Go type compares with <
// (integers, float32, float64; not float16.Num).
func (v Value) Ordered() bool {
	if !v.Integer() && !v.Float() {
		return false
	}
	switch valueTypes[v].Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint16,
		reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func classify(r *Row) {
	if r.Layout != Fixed || r.Value == NoValue {
		return
	}
	c := &valueClasses[r.Value]
	c.integer = c.integer || r.Integer
	c.signed = c.signed || r.Signed
	c.float = c.float || r.Float
	c.decimal = c.decimal || r.Decimal
	c.interval = c.interval || r.Temporal == Interval
}
