package views_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/views"
)

// Types every level of which may hold nulls, so that the slice tests can
// put nulls anywhere.

func nullableOf(ids ...arrow.Type) views.Type {
	return views.Type{Accept: views.AcceptOf(ids...), Nullable: true}
}

func nullableList(accept views.Accept, elem views.Type) views.Type {
	return views.Type{Accept: accept, Nullable: true, Elem: &elem}
}

func nullableStruct(fields ...views.Field) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.STRUCT), Nullable: true, Fields: fields}
}

func nullableMap(key, value views.Type) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.MAP), Nullable: true, Key: &key, Value: &value}
}

// orEncoded is t accepting dictionary- and run-end-encoded arrays too.
func orEncoded(t views.Type) views.Type {
	t.Accept |= views.AcceptOf(arrow.DICTIONARY, arrow.RUN_END_ENCODED)
	return t
}

func notNullable(t views.Type) views.Type {
	t.Nullable = false
	return t
}

var (
	nullableI64  = nullableOf(arrow.INT64)
	nullableUTF8 = nullableOf(arrow.STRING)
)

// jsonArray builds an array of dt from a JSON array.
func jsonArray(t *testing.T, mem memory.Allocator, dt arrow.DataType, s string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(s))
	require.NoError(t, err, "building %s from %s", dt, s)
	return arr
}

// bytesArray builds an array of a binary datatype; a nil value is a null.
func bytesArray(t *testing.T, mem memory.Allocator, dt arrow.DataType, values ...[]byte) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	app, ok := b.(interface {
		Append([]byte)
		AppendNull()
	})
	require.True(t, ok, "%T appends no bytes", b)
	for _, v := range values {
		if v == nil {
			app.AppendNull()
		} else {
			app.Append(v)
		}
	}
	return b.NewArray()
}

// rawArray builds an array from raw buffers copied into mem (a nil buffer
// stays absent) and the given children.
func rawArray(mem memory.Allocator, dt arrow.DataType, n int, bufs [][]byte, children []arrow.Array, offset int) arrow.Array {
	buffers := make([]*memory.Buffer, len(bufs))
	for i, b := range bufs {
		if b == nil {
			continue
		}
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(len(b))
		copy(buf.Bytes(), b)
		buffers[i] = buf
		defer buf.Release()
	}
	childData := make([]arrow.ArrayData, len(children))
	for i, c := range children {
		childData[i] = c.Data()
	}
	d := array.NewData(dt, n, buffers, childData, array.UnknownNullCount, offset)
	defer d.Release()
	return array.MakeFromData(d)
}

// validBits is a validity bitmap: true is a valid row.
func validBits(valid ...bool) []byte {
	out := make([]byte, (len(valid)+7)/8)
	for i, v := range valid {
		if v {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

func int32Bytes(vs ...int32) []byte { return append([]byte(nil), arrow.Int32Traits.CastToBytes(vs)...) }

// dictionaryArrayOf builds a dictionary array from JSON indices and values.
func dictionaryArrayOf(t *testing.T, mem memory.Allocator, index, value arrow.DataType, indices, values string) arrow.Array {
	t.Helper()
	idx := jsonArray(t, mem, index, indices)
	defer idx.Release()
	dict := jsonArray(t, mem, value, values)
	defer dict.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: index, ValueType: value}, idx, dict)
}

// runEndArrayOf builds a run-end-encoded array of n rows from JSON run ends
// and values.
func runEndArrayOf(t *testing.T, mem memory.Allocator, ends, value arrow.DataType, runEnds, values string, n int) arrow.Array {
	t.Helper()
	re := jsonArray(t, mem, ends, runEnds)
	defer re.Release()
	vals := jsonArray(t, mem, value, values)
	defer vals.Release()
	return array.NewRunEndEncodedArray(re, vals, n, 0)
}

// structArrayOf builds a struct array of the given fields with the given
// row validity.
func structArrayOf(t *testing.T, mem memory.Allocator, names []string, fields []arrow.Array, valid ...bool) arrow.Array {
	t.Helper()
	defs := make([]arrow.Field, len(names))
	for i, name := range names {
		defs[i] = arrow.Field{Name: name, Type: fields[i].DataType(), Nullable: true}
		defer fields[i].Release()
	}
	var validity []byte
	if valid != nil {
		validity = validBits(valid...)
	}
	return rawArray(mem, arrow.StructOf(defs...), fields[0].Len(), [][]byte{validity}, fields, 0)
}

// arrowGoValue is row i of arr read through arrow-go's own accessors, in the
// shape views' Value gives, so that views are checked against a reader
// they share no code with. t says which struct fields are viewed.
func arrowGoValue(arr arrow.Array, i int, t *views.Type) any {
	switch a := arr.(type) {
	case array.ExtensionArray:
		return arrowGoValue(a.Storage(), i, t)
	case *array.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return arrowGoValue(a.Dictionary(), a.GetValueIndex(i), t)
	case *array.RunEndEncoded:
		return arrowGoValue(a.Values(), a.GetPhysicalIndex(i), t)
	case *array.Null:
		return nil // with no bitmap, arrow-go's IsNull says false
	}
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return a.Value(i)
	case *array.Uint16:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Uint64:
		return a.Value(i)
	case *array.Float16:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Date64:
		return int64(a.Value(i))
	case *array.Time32:
		return int32(a.Value(i))
	case *array.Time64:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	case *array.Decimal32:
		return a.Value(i)
	case *array.Decimal64:
		return a.Value(i)
	case *array.Decimal128:
		return a.Value(i)
	case *array.Decimal256:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.StringView:
		return a.Value(i)
	case *array.Binary:
		return a.Value(i)
	case *array.LargeBinary:
		return a.Value(i)
	case *array.BinaryView:
		return a.Value(i)
	case *array.FixedSizeBinary:
		return a.Value(i)
	case *array.Map:
		start, end := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		out := make([][2]any, 0, end-start)
		for e := int(start); e < int(end); e++ {
			out = append(out, [2]any{arrowGoValue(entries.Field(0), e, t.Key), arrowGoValue(entries.Field(1), e, t.Value)})
		}
		return out
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for e := int(start); e < int(end); e++ {
			out = append(out, arrowGoValue(a.ListValues(), e, t.Elem))
		}
		return out
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		out := make(map[string]any, len(t.Fields))
		for k := range t.Fields {
			f := &t.Fields[k]
			idx, ok := st.FieldIdx(f.Name)
			if !ok {
				panic(fmt.Sprintf("no field %q in %s", f.Name, st))
			}
			out[f.Name] = arrowGoValue(a.Field(idx), i, &f.Type)
		}
		return out
	}
	panic(fmt.Sprintf("no reference reader for %T", arr))
}

// requireSameRows checks got against want value by value.
func requireSameRows(t *testing.T, want, got views.View, what string) {
	t.Helper()
	require.Equal(t, want.Len(), got.Len(), "%s: Len", what)
	for k := range want.Len() {
		require.Equal(t, want.IsNull(k), got.IsNull(k), "%s: IsNull(%d)", what, k)
		require.Equal(t, want.Value(k), got.Value(k), "%s: Value(%d)", what, k)
	}
}

// requireArrowRows checks v against arrow-go's own reading of arr.
func requireArrowRows(t *testing.T, arr arrow.Array, v views.View, what string) {
	t.Helper()
	require.Equal(t, arr.Len(), v.Len(), "%s: Len", what)
	for k := range arr.Len() {
		want := arrowGoValue(arr, k, v.Type())
		require.Equal(t, want == nil, v.IsNull(k), "%s: IsNull(%d)", what, k)
		require.Equal(t, want, v.Value(k), "%s: Value(%d)", what, k)
	}
}

// testUUIDType is an extension type over fixed_size_binary(16), like arrow-go's
// extensions.UUIDType, which this module does not depend on.
type testUUIDType struct{ arrow.ExtensionBase }

func (testUUIDType) new() *testUUIDType {
	return &testUUIDType{arrow.ExtensionBase{Storage: &arrow.FixedSizeBinaryType{ByteWidth: 16}}}
}

func (*testUUIDType) ArrayType() reflect.Type { return reflect.TypeOf(testUUIDArray{}) }
func (*testUUIDType) ExtensionName() string   { return "arrowmap.test.uuid" }
func (*testUUIDType) Serialize() string       { return "" }

func (u *testUUIDType) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return u.new(), nil
}

func (u *testUUIDType) ExtensionEquals(other arrow.ExtensionType) bool {
	return other.ExtensionName() == u.ExtensionName()
}

type testUUIDArray struct{ array.ExtensionArrayBase }

// sliceCase is an array of one encoding and the type it is viewed as.
type sliceCase struct {
	name  string
	build func(t *testing.T, mem memory.Allocator) arrow.Array
	typ   views.Type
}

// jsonSliceCase is a case built from JSON.
func jsonSliceCase(name string, dt arrow.DataType, typ views.Type, s string) sliceCase {
	return sliceCase{name, func(t *testing.T, mem memory.Allocator) arrow.Array { return jsonArray(t, mem, dt, s) }, typ}
}

const (
	sliceIntRows   = `[null, 1, 2, null, 3, 4, 5, null]`
	sliceFloatRows = `[null, 1.5, -2.25, null, 3, 4.5, 0, null]`
	sliceListRows  = `[[1, 2], null, [], [3, null], [4], null, [5, 6, null], [null]]`
	// Strings over 12 bytes live out of line in a view array.
	sliceStringRows = `[null, "short", "a string long enough to go out of line", "", null,
		"another string that is longer than twelve bytes", "z", null]`
)

func sliceCases() []sliceCase {
	i64 := arrow.PrimitiveTypes.Int64
	utf8 := arrow.BinaryTypes.String
	lists := views.Lists
	listList := arrow.ListOf(arrow.ListOf(i64))
	itemStruct := arrow.StructOf(arrow.Field{Name: "a", Type: i64, Nullable: true}, arrow.Field{Name: "b", Type: utf8, Nullable: true})
	abType := nullableStruct(views.Field{Name: "a", Type: nullableI64}, views.Field{Name: "b", Type: nullableUTF8})
	binaryRows := [][]byte{nil, []byte("short"), []byte("bytes long enough to go out of line"), {}, nil, {0, 1, 2, 255}, []byte("z"), nil}
	fixedRows := [][]byte{nil, []byte("abcd"), []byte("efgh"), nil, []byte("ijkl"), {0, 0, 0, 0}, []byte("mnop"), nil}
	binaryCase := func(name string, dt arrow.DataType, typ views.Type, rows [][]byte) sliceCase {
		return sliceCase{name, func(t *testing.T, mem memory.Allocator) arrow.Array { return bytesArray(t, mem, dt, rows...) }, typ}
	}
	dictCase := func(name string, index arrow.DataType) sliceCase {
		return sliceCase{name, func(t *testing.T, mem memory.Allocator) arrow.Array {
			// Entry 1 is null; entry 4 is referenced by no row.
			return dictionaryArrayOf(t, mem, index, utf8, `[0, null, 1, 2, 3, 0, null, 2]`,
				`["alpha", null, "a dictionary entry long enough", "beta", "unused"]`)
		}, orEncoded(nullableUTF8)}
	}
	runEndCase := func(name string, ends arrow.DataType) sliceCase {
		return sliceCase{name, func(t *testing.T, mem memory.Allocator) arrow.Array {
			return runEndArrayOf(t, mem, ends, i64, `[2, 3, 5, 8]`, `[1, null, 2, null]`, 8)
		}, orEncoded(nullableI64)}
	}
	return []sliceCase{
		jsonSliceCase("bool", arrow.FixedWidthTypes.Boolean, nullableOf(arrow.BOOL), `[null, true, false, null, true, true, false, null]`),
		jsonSliceCase("int8", arrow.PrimitiveTypes.Int8, nullableOf(arrow.INT8), sliceIntRows),
		jsonSliceCase("int16", arrow.PrimitiveTypes.Int16, nullableOf(arrow.INT16), sliceIntRows),
		jsonSliceCase("int32", arrow.PrimitiveTypes.Int32, nullableOf(arrow.INT32), sliceIntRows),
		jsonSliceCase("int64", i64, nullableI64, `[null, 1, -2, null, 3, 9223372036854775807, -9223372036854775808, null]`),
		jsonSliceCase("uint8", arrow.PrimitiveTypes.Uint8, nullableOf(arrow.UINT8), sliceIntRows),
		jsonSliceCase("uint16", arrow.PrimitiveTypes.Uint16, nullableOf(arrow.UINT16), sliceIntRows),
		jsonSliceCase("uint32", arrow.PrimitiveTypes.Uint32, nullableOf(arrow.UINT32), sliceIntRows),
		jsonSliceCase("uint64", arrow.PrimitiveTypes.Uint64, nullableOf(arrow.UINT64), sliceIntRows),
		jsonSliceCase("float16", arrow.FixedWidthTypes.Float16, nullableOf(arrow.FLOAT16), sliceFloatRows),
		jsonSliceCase("float32", arrow.PrimitiveTypes.Float32, nullableOf(arrow.FLOAT32), sliceFloatRows),
		jsonSliceCase("float64", arrow.PrimitiveTypes.Float64, nullableOf(arrow.FLOAT64), sliceFloatRows),
		jsonSliceCase("utf8", utf8, nullableUTF8, sliceStringRows),
		jsonSliceCase("large_utf8", arrow.BinaryTypes.LargeString, nullableOf(arrow.LARGE_STRING), sliceStringRows),
		jsonSliceCase("utf8_view", arrow.BinaryTypes.StringView, nullableOf(arrow.STRING_VIEW), sliceStringRows),
		binaryCase("binary", arrow.BinaryTypes.Binary, nullableOf(arrow.BINARY), binaryRows),
		binaryCase("large_binary", arrow.BinaryTypes.LargeBinary, nullableOf(arrow.LARGE_BINARY), binaryRows),
		binaryCase("binary_view", arrow.BinaryTypes.BinaryView, nullableOf(arrow.BINARY_VIEW), binaryRows),
		binaryCase("fixed_size_binary", &arrow.FixedSizeBinaryType{ByteWidth: 4}, nullableOf(arrow.FIXED_SIZE_BINARY), fixedRows),
		jsonSliceCase("date32", arrow.FixedWidthTypes.Date32, nullableOf(arrow.DATE32), sliceIntRows),
		jsonSliceCase("date64", arrow.FixedWidthTypes.Date64, nullableOf(arrow.DATE64), `[null, 86400000, 0, null, 172800000, 1, 2, null]`),
		jsonSliceCase("time32", arrow.FixedWidthTypes.Time32ms, nullableOf(arrow.TIME32), sliceIntRows),
		jsonSliceCase("time64", arrow.FixedWidthTypes.Time64ns, nullableOf(arrow.TIME64), sliceIntRows),
		jsonSliceCase("timestamp", arrow.FixedWidthTypes.Timestamp_us, nullableOf(arrow.TIMESTAMP), sliceIntRows),
		jsonSliceCase("duration", arrow.FixedWidthTypes.Duration_ms, nullableOf(arrow.DURATION), sliceIntRows),
		jsonSliceCase("decimal32", &arrow.Decimal32Type{Precision: 7, Scale: 2}, nullableOf(arrow.DECIMAL32), `[null, "1.25", "-3.5", null, "12345.67", "0", "1", null]`),
		jsonSliceCase("decimal64", &arrow.Decimal64Type{Precision: 15, Scale: 3}, nullableOf(arrow.DECIMAL64), `[null, "1.25", "-3.5", null, "123456789012.345", "0", "1", null]`),
		jsonSliceCase("decimal128", &arrow.Decimal128Type{Precision: 30, Scale: 4}, nullableOf(arrow.DECIMAL128), `[null, "1.25", "-3.5", null, "12345678901234567890123.4567", "0", "1", null]`),
		jsonSliceCase("decimal256", &arrow.Decimal256Type{Precision: 60, Scale: 5}, nullableOf(arrow.DECIMAL256), `[null, "1.25", "-3.5", null, "1234567890123456789012345678901234567890.12345", "0", "1", null]`),
		jsonSliceCase("list", arrow.ListOf(i64), nullableList(lists, nullableI64), sliceListRows),
		jsonSliceCase("large_list", arrow.LargeListOf(i64), nullableList(lists, nullableI64), sliceListRows),
		jsonSliceCase("list_view", arrow.ListViewOf(i64), nullableList(lists, nullableI64), sliceListRows),
		jsonSliceCase("large_list_view", arrow.LargeListViewOf(i64), nullableList(lists, nullableI64), sliceListRows),
		jsonSliceCase("fixed_size_list", arrow.FixedSizeListOf(2, i64), nullableList(views.AcceptOf(arrow.FIXED_SIZE_LIST), nullableI64),
			`[[1, 2], null, [3, null], [null, 4], [5, 6], null, [7, 8], [null, null]]`),
		jsonSliceCase("struct viewing two of its three fields", arrow.StructOf(
			arrow.Field{Name: "a", Type: i64, Nullable: true},
			arrow.Field{Name: "skipped", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
			arrow.Field{Name: "b", Type: utf8, Nullable: true},
		), abType, `[{"a": 1, "b": "x", "skipped": true}, null, {"a": null, "b": "y"}, {"a": 3, "b": null},
			{"a": 4, "b": "a string long enough to go out of line"}, null, {"a": 6, "b": "w"}, {"a": null, "b": null}]`),
		jsonSliceCase("map", arrow.MapOf(utf8, i64), nullableMap(notNullable(nullableUTF8), nullableI64),
			`[[{"key": "a", "value": 1}], null, [], [{"key": "b", "value": null}, {"key": "c", "value": 3}],
			[{"key": "d", "value": 4}], null, [{"key": "e", "value": 5}], [{"key": "f", "value": null}]]`),
		dictCase("dictionary with int8 indices", arrow.PrimitiveTypes.Int8),
		dictCase("dictionary with uint8 indices", arrow.PrimitiveTypes.Uint8),
		dictCase("dictionary with int16 indices", arrow.PrimitiveTypes.Int16),
		dictCase("dictionary with uint32 indices", arrow.PrimitiveTypes.Uint32),
		dictCase("dictionary with int64 indices", arrow.PrimitiveTypes.Int64),
		runEndCase("run_end_encoded with int16 run ends", arrow.PrimitiveTypes.Int16),
		runEndCase("run_end_encoded with int32 run ends", arrow.PrimitiveTypes.Int32),
		runEndCase("run_end_encoded with int64 run ends", arrow.PrimitiveTypes.Int64),
		{"null", func(t *testing.T, mem memory.Allocator) arrow.Array {
			b := array.NewNullBuilder(mem)
			defer b.Release()
			b.AppendNulls(8)
			return b.NewArray()
		}, nullableOf(arrow.NULL)},
		{"a uuid extension, viewed through its storage", func(t *testing.T, mem memory.Allocator) arrow.Array {
			storage := bytesArray(t, mem, &arrow.FixedSizeBinaryType{ByteWidth: 16},
				nil, []byte("0123456789abcdef"), []byte("fedcba9876543210"), nil,
				make([]byte, 16), []byte("uuid-uuid-uuid-u"), []byte("################"), nil)
			defer storage.Release()
			return array.NewExtensionArrayWithStorage(testUUIDType{}.new(), storage)
		}, views.Type{Accept: views.AcceptOf(arrow.FIXED_SIZE_BINARY), Nullable: true, Size: 16}},

		// Nested encodings.
		jsonSliceCase("list<list<i64>>", listList, nullableList(lists, nullableList(lists, nullableI64)),
			`[[[1, 2], [null]], null, [[3]], [], [[4, null], null, [5]], [[6]], null, [[7, 8], [null]]]`),
		jsonSliceCase("large_list_view<list_view<i64>>", arrow.LargeListViewOf(arrow.ListViewOf(i64)), nullableList(lists, nullableList(lists, nullableI64)),
			`[[[1, 2], [null]], null, [[3]], [], [[4, null], null, [5]], [[6]], null, [[7, 8], [null]]]`),
		jsonSliceCase("list<struct>", arrow.ListOf(itemStruct), nullableList(lists, abType),
			`[[{"a": 1, "b": "x"}, null], null, [], [{"a": null, "b": "y"}], [{"a": 4, "b": null}, {"a": 5, "b": "z"}],
			null, [{"a": 6, "b": "a string long enough to go out of line"}], [null, {"a": null, "b": null}]]`),
		jsonSliceCase("struct<list>", arrow.StructOf(
			arrow.Field{Name: "l", Type: arrow.ListOf(i64), Nullable: true},
			arrow.Field{Name: "s", Type: utf8, Nullable: true},
		), nullableStruct(views.Field{Name: "l", Type: nullableList(lists, nullableI64)}, views.Field{Name: "s", Type: nullableUTF8}),
			`[{"l": [1, null], "s": "x"}, null, {"l": null, "s": "y"}, {"l": [], "s": null}, {"l": [2, 3], "s": "z"},
			null, {"l": [4], "s": "w"}, {"l": [null], "s": null}]`),
		jsonSliceCase("map<utf8, list<i64>>", arrow.MapOf(utf8, arrow.ListOf(i64)), nullableMap(notNullable(nullableUTF8), nullableList(lists, nullableI64)),
			`[[{"key": "a", "value": [1, null]}], null, [], [{"key": "b", "value": null}, {"key": "c", "value": [3]}],
			[{"key": "d", "value": []}], null, [{"key": "e", "value": [5, 6]}], [{"key": "f", "value": [null]}]]`),
		jsonSliceCase("fixed_size_list<list<i64>>", arrow.FixedSizeListOf(2, arrow.ListOf(i64)),
			nullableList(views.AcceptOf(arrow.FIXED_SIZE_LIST), nullableList(lists, nullableI64)),
			`[[[1], [2, null]], null, [[], [3]], [null, [4]], [[5, 6], [7]], null, [[8], null], [[null], [9]]]`),
		{"dictionary<int8, utf8> in a list", func(t *testing.T, mem memory.Allocator) arrow.Array {
			dict := dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Int8, utf8, `[0, 1, null, 2, 3, 0, 2, 1, null, 0]`,
				`["alpha", null, "a dictionary entry long enough", "beta"]`)
			defer dict.Release()
			// Rows 1 and 6 are null and cover child rows.
			return rawArray(mem, arrow.ListOf(dict.DataType()), 8,
				[][]byte{validBits(true, false, true, true, true, true, false, true), int32Bytes(0, 2, 3, 3, 5, 6, 8, 9, 10)},
				[]arrow.Array{dict}, 0)
		}, nullableList(lists, orEncoded(nullableUTF8))},
		{"ree<int32, utf8>", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int32, utf8, `[1, 3, 4, 6, 8]`,
				`[null, "a run value long enough to go out of line", null, "b", "c"]`, 8)
		}, orEncoded(nullableUTF8)},
		{"dictionary<int16, list<i64>>", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Int16, arrow.ListOf(i64), `[0, null, 1, 2, 3, 0, null, 2]`,
				`[[1, null], null, [], [2, 3], [4]]`)
		}, orEncoded(nullableList(lists, nullableI64))},
		{"struct of a run-end and a dictionary field", func(t *testing.T, mem memory.Allocator) arrow.Array {
			r := runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int16, i64, `[2, 3, 6, 8]`, `[1, null, 2, 3]`, 8)
			d := dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Uint32, utf8, `[0, 1, null, 2, 0, 1, 2, 0]`, `["x", null, "y"]`)
			return structArrayOf(t, mem, []string{"r", "d"}, []arrow.Array{r, d}, true, false, true, true, true, false, true, true)
		}, nullableStruct(views.Field{Name: "r", Type: orEncoded(nullableI64)}, views.Field{Name: "d", Type: orEncoded(nullableUTF8)})},
		{"a list with non-nullable items, null only under null rows", func(t *testing.T, mem memory.Allocator) arrow.Array {
			child := jsonArray(t, mem, i64, `[1, 2, null, null, 3, 4, null, 7, 9, null]`)
			defer child.Release()
			return rawArray(mem, arrow.ListOf(i64), 5,
				[][]byte{validBits(true, false, true, false, true), int32Bytes(0, 2, 4, 6, 8, 9)}, []arrow.Array{child}, 0)
		}, nullableList(lists, notNullable(nullableI64))},
		{"a struct with a non-nullable field, null only under null rows", func(t *testing.T, mem memory.Allocator) arrow.Array {
			a := jsonArray(t, mem, i64, `[null, 1, 2, null, 3, 4, null, 5]`)
			return structArrayOf(t, mem, []string{"a"}, []arrow.Array{a}, false, true, true, false, true, true, false, true)
		}, nullableStruct(views.Field{Name: "a", Type: notNullable(nullableI64)})},
	}
}

// sliceWindow is rows [i, j) of a view.
type sliceWindow struct {
	name string
	i, j int
}

func sliceWindowsOf(n int) []sliceWindow {
	return []sliceWindow{
		{"the whole view", 0, n},
		{"a prefix", 0, n / 2},
		{"a suffix", n / 2, n},
		{"one row", n / 2, n/2 + 1},
		{"no rows", n / 2, n / 2},
		{"no rows at the end", n, n},
	}
}

func TestSliceAgreesWithAFreshView(t *testing.T) {
	for _, tc := range sliceCases() {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			built := tc.build(t, mem)
			defer built.Release()
			require.GreaterOrEqual(t, built.Len(), 5)
			// The sliced array keeps rows and child rows outside its window,
			// with their nulls.
			sliced := array.NewSlice(built, 2, int64(built.Len()-1))
			defer sliced.Release()
			for _, input := range []struct {
				name string
				arr  arrow.Array
			}{{"as built", built}, {"already sliced", sliced}} {
				t.Run(input.name, func(t *testing.T) {
					checkSlices(t, input.arr, tc.typ)
				})
			}
		})
	}
}

// checkSlices checks every way of slicing the view of arr against a fresh
// view of the sliced array and against arrow-go's own reading of it.
func checkSlices(t *testing.T, arr arrow.Array, typ views.Type) {
	v, err := views.New(arr, typ)
	require.NoError(t, err)
	requireArrowRows(t, arr, v, "the view of the whole array")
	n := v.Len()
	// fresh is the view New gives of rows [i, j) of arr.
	fresh := func(t *testing.T, i, j int, check func(views.View)) {
		t.Helper()
		part := array.NewSlice(arr, int64(i), int64(j))
		defer part.Release()
		pv, err := views.New(part, typ)
		require.NoError(t, err, "New of rows [%d, %d)", i, j)
		requireArrowRows(t, part, pv, fmt.Sprintf("fresh [%d, %d)", i, j))
		check(pv)
	}
	for _, w := range sliceWindowsOf(n) {
		t.Run(w.name, func(t *testing.T) {
			got := v.Slice(w.i, w.j)
			require.Equal(t, slice.Window{Offset: w.i, Len: w.j - w.i}, got.Window())
			fresh(t, w.i, w.j, func(want views.View) { requireSameRows(t, want, got, "Slice") })
		})
	}
	t.Run("every other window", func(t *testing.T) {
		for i := 0; i <= n; i++ {
			for j := i; j <= n; j++ {
				fresh(t, i, j, func(want views.View) {
					requireSameRows(t, want, v.Slice(i, j), fmt.Sprintf("Slice(%d, %d)", i, j))
				})
			}
		}
	})
	t.Run("slicing a slice lands where slicing once does", func(t *testing.T) {
		for a := 0; a <= n; a++ {
			for b := a; b <= n; b++ {
				outer := v.Slice(a, b)
				for c := 0; c <= b-a; c++ {
					for d := c; d <= b-a; d++ {
						what := fmt.Sprintf("Slice(%d, %d).Slice(%d, %d)", a, b, c, d)
						got := outer.Slice(c, d)
						require.Equal(t, slice.Window{Offset: a + c, Len: d - c}, got.Window(), what)
						requireSameRows(t, v.Slice(a+c, a+d), got, what)
					}
				}
			}
		}
	})
	t.Run("slicing a slice agrees with arrow-go slicing a slice", func(t *testing.T) {
		for _, w := range sliceWindowsOf(n) {
			outer := array.NewSlice(arr, int64(w.i), int64(n))
			inner := array.NewSlice(outer, 0, int64(w.j-w.i))
			requireArrowRows(t, inner, v.Slice(w.i, n).Slice(0, w.j-w.i), w.name)
			inner.Release()
			outer.Release()
		}
	})
}

// TestValueAgreesWithArrowAccessors pins Value to arrow-go's typed
// accessors, written out, so that the cross-checks above do not compare a
// wrong reader to itself.
func TestValueAgreesWithArrowAccessors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	t.Run("an int64 row is arrow's Int64.Value", func(t *testing.T) {
		arr := jsonArray(t, mem, arrow.PrimitiveTypes.Int64, `[7, null, -3, 9, 11]`)
		defer arr.Release()
		part := array.NewSlice(arr, 1, 5)
		defer part.Release()
		v, err := views.New(part, nullableI64)
		require.NoError(t, err)
		ints := part.(*array.Int64)
		require.Nil(t, v.Value(0))
		for i := 1; i < ints.Len(); i++ {
			require.Equal(t, ints.Value(i), v.Value(i))
		}
		require.Equal(t, []any{int64(-3), int64(9)}, []any{v.Slice(1, 3).Value(0), v.Slice(1, 3).Value(1)})
		require.Equal(t, ints.Value(3), v.Node().(*views.Primitive[int64]).Values()[3])
	})

	t.Run("a utf8 row is arrow's String.Value", func(t *testing.T) {
		arr := jsonArray(t, mem, arrow.BinaryTypes.String, sliceStringRows)
		defer arr.Release()
		part := array.NewSlice(arr, 1, 7)
		defer part.Release()
		v, err := views.New(part, nullableUTF8)
		require.NoError(t, err)
		strs := part.(*array.String)
		for i := range strs.Len() {
			if strs.IsNull(i) {
				require.Nil(t, v.Value(i))
				continue
			}
			require.Equal(t, strs.Value(i), v.Value(i), "row %d", i)
		}
		require.Equal(t, "a string long enough to go out of line", v.Slice(1, 3).Value(0))
	})

	t.Run("a list row is the child rows between arrow's offsets", func(t *testing.T) {
		arr := jsonArray(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), sliceListRows)
		defer arr.Release()
		part := array.NewSlice(arr, 2, 8)
		defer part.Release()
		v, err := views.New(part, nullableList(views.Lists, nullableI64))
		require.NoError(t, err)
		list := part.(*array.List)
		items := list.ListValues().(*array.Int64)
		node := v.Node().(*views.List[int32])
		for i := range list.Len() {
			if list.IsNull(i) {
				require.Nil(t, v.Value(i))
				continue
			}
			start, end := list.ValueOffsets(i)
			require.Equal(t, []int32{int32(start), int32(end)}, node.Offsets()[i:i+2], "offsets of row %d", i)
			want := make([]any, 0, end-start)
			for e := start; e < end; e++ {
				if items.IsNull(int(e)) {
					want = append(want, nil)
				} else {
					want = append(want, items.Value(int(e)))
				}
			}
			require.Equal(t, want, v.Value(i), "row %d", i)
		}
		require.Equal(t, []any{int64(3), nil}, v.Value(1))
		require.Equal(t, []any{int64(5), int64(6), nil}, v.Slice(3, 6).Value(1))
	})

	t.Run("a fixed-size list row of a sliced array starts at (offset+i)*size", func(t *testing.T) {
		arr := jsonArray(t, mem, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64), `[[1, 2], [3, 4], [5, 6], [7, 8]]`)
		defer arr.Release()
		part := array.NewSlice(arr, 1, 4)
		defer part.Release()
		v, err := views.New(part, nullableList(views.AcceptOf(arrow.FIXED_SIZE_LIST), nullableI64))
		require.NoError(t, err)
		require.Equal(t, []any{int64(5), int64(6)}, v.Value(1))
		require.Equal(t, []any{int64(7), int64(8)}, v.Slice(1, 3).Slice(1, 2).Value(0))
	})

	t.Run("a dictionary row is the entry its index refers to", func(t *testing.T) {
		arr := dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Uint32, arrow.BinaryTypes.String, `[2, 0, null, 1]`, `["a", "b", "c"]`)
		defer arr.Release()
		v, err := views.New(arr, orEncoded(nullableUTF8))
		require.NoError(t, err)
		dict := arr.(*array.Dictionary)
		entries := dict.Dictionary().(*array.String)
		require.Equal(t, entries.Value(dict.GetValueIndex(0)), v.Value(0))
		require.Equal(t, "c", v.Value(0))
		require.Equal(t, []any{"a", nil, "b"}, []any{v.Slice(1, 4).Value(0), v.Slice(1, 4).Value(1), v.Slice(1, 4).Value(2)})
	})

	t.Run("a run-end row of a sliced array is the value of its run", func(t *testing.T) {
		arr := runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, `[2, 5, 6]`, `[10, 20, 30]`, 6)
		defer arr.Release()
		part := array.NewSlice(arr, 1, 6)
		defer part.Release()
		v, err := views.New(part, orEncoded(nullableI64))
		require.NoError(t, err)
		ree := part.(*array.RunEndEncoded)
		values := ree.Values().(*array.Int64)
		for i := range ree.Len() {
			require.Equal(t, values.Value(ree.GetPhysicalIndex(i)), v.Value(i), "row %d", i)
		}
		require.Equal(t, []any{int64(10), int64(20), int64(20), int64(20), int64(30)},
			[]any{v.Value(0), v.Value(1), v.Value(2), v.Value(3), v.Value(4)})
	})
}

var sliceSink views.View

func TestSliceAllocatesNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ints := func(n int) arrow.Array {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		values := make([]int64, n)
		for i := range values {
			values[i] = int64(i)
		}
		b.AppendValues(values, nil)
		return b.NewArray()
	}
	listList := jsonArray(t, mem, arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64)),
		`[[[1, 2], [null]], null, [[3]], [], [[4, null], null, [5]], [[6]]]`)
	defer listList.Release()
	structs := jsonArray(t, mem, arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	), `[{"a": 1, "b": "x"}, null, {"a": null, "b": "y"}, {"a": 3, "b": null}, {"a": 4, "b": "z"}]`)
	defer structs.Release()
	thousand := ints(1_000)
	defer thousand.Release()
	million := ints(1_000_000)
	defer million.Release()

	tests := []struct {
		name string
		arr  arrow.Array
		typ  views.Type
	}{
		{"a list<list<i64>> view slices without allocating", listList, nullableList(views.Lists, nullableList(views.Lists, nullableI64))},
		{"a struct view slices without allocating", structs,
			nullableStruct(views.Field{Name: "a", Type: nullableI64}, views.Field{Name: "b", Type: nullableUTF8})},
		{"a 1k-row i64 view slices without allocating", thousand, notNullable(nullableI64)},
		{"a 1M-row i64 view slices without allocating", million, notNullable(nullableI64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := views.New(tt.arr, tt.typ)
			require.NoError(t, err)
			n := v.Len()
			require.Zero(t, testing.AllocsPerRun(100, func() { sliceSink = v.Slice(1, n-1) }), "Slice")
			require.Zero(t, testing.AllocsPerRun(100, func() { sliceSink = v.Slice(1, n-1).Slice(1, n-3) }), "Slice of a Slice")
			require.Equal(t, slice.Window{Offset: 2, Len: n - 4}, sliceSink.Window())
		})
	}
}
