package mapper_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// daCase decodes an array arrow-go builds from JSON into []E.
type daCase struct {
	name string
	run  func(t *testing.T, mem memory.Allocator)
}

// daElem is a struct element type, its fields in the order of its
// column's children, as accessorValue reads them.
type daElem struct {
	SKU string `arrow:"sku"`
	Qty *int32 `arrow:"qty"`
}

// daFor checks DecodeArray[E] of the array of dt built from values: every
// element as arrow-go's accessors read it, in the whole array and in a
// slice of it, and EncodeArray of what it decoded is the column Encode
// writes for a field of type E; when sameLayout, that is the array itself.
func daFor[E any](name string, dt arrow.DataType, values string, sameLayout bool) daCase {
	return daCase{name, func(t *testing.T, mem memory.Allocator) {
		arr, _, err := array.FromJSON(mem, dt, strings.NewReader(values))
		require.NoError(t, err)
		defer arr.Release()
		got, err := mapper.DecodeArray[E](arr)
		require.NoError(t, err)
		daRequireAccessorValues(t, arr, got)

		n := arr.Len()
		part := array.NewSlice(arr, 1, int64(n))
		defer part.Release()
		gotPart, err := mapper.DecodeArray[E](part)
		require.NoError(t, err)
		require.Len(t, gotPart, n-1, "only the window of a slice")
		daRequireAccessorValues(t, part, gotPart)

		enc, err := mapper.EncodeArray(got, mapper.Allocator(mem))
		require.NoError(t, err)
		defer enc.Release()
		rec, err := mapper.Encode(daRows(got), mapper.Allocator(mem))
		require.NoError(t, err)
		defer rec.Release()
		assert.True(t, array.Equal(enc, rec.Column(0)), "EncodeArray:\n%v\nEncode's column:\n%v", enc, rec.Column(0))
		if sameLayout {
			assert.True(t, array.Equal(enc, arr), "EncodeArray:\n%v\nwant\n%v", enc, arr)
		}
	}}
}

// daRow is what EncodeArray's result is checked against: a struct field of
// type E, untagged.
type daRow[E any] struct{ V E }

func daRows[E any](values []E) []daRow[E] {
	rows := make([]daRow[E], len(values))
	for i, v := range values {
		rows[i].V = v
	}
	return rows
}

func daRequireAccessorValues[E any](t *testing.T, arr arrow.Array, got []E) {
	t.Helper()
	require.Len(t, got, arr.Len())
	typ := reflect.TypeFor[E]()
	for i := range got {
		want := accessorValue(arr, i, typ)
		if d := gtDifference(fmt.Sprintf("[%d]", i), reflect.ValueOf(&got[i]).Elem(), want); d != "" {
			t.Fatal(d)
		}
	}
}

func TestDecodeArrayDecodesElementsOfEveryKind(t *testing.T) {
	item := arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	)
	cases := []daCase{
		daFor[int64]("int64 from int64", arrow.PrimitiveTypes.Int64, `[1, -2, 3, 9007199254740993]`, true),
		daFor[int64]("int64 from int32, widened", arrow.PrimitiveTypes.Int32, `[1, -2, 2147483647]`, false),
		daFor[*int64]("a null-heavy *int64 keeps its nulls nil", arrow.PrimitiveTypes.Int64, `[null, null, 1, null, null, null, -1, null]`, true),
		daFor[bool]("bool", arrow.FixedWidthTypes.Boolean, `[true, false, true]`, true),
		daFor[float64]("float64", arrow.PrimitiveTypes.Float64, `[0.5, -1e300, 0]`, true),
		daFor[float16.Num]("float16.Num", arrow.FixedWidthTypes.Float16, `[0.5, -2, 1]`, true),
		daFor[string]("string", arrow.BinaryTypes.String, `["a", "", "Zoë"]`, true),
		daFor[*string]("*string from large_utf8", arrow.BinaryTypes.LargeString, `["a", null, "c"]`, false),
		daFor[[]byte]("[]byte", arrow.BinaryTypes.Binary, `["AAE=", null, ""]`, true),
		daFor[[4]byte]("[4]byte", &arrow.FixedSizeBinaryType{ByteWidth: 4}, `["AAECAw==", "/////w==", "AAAAAA=="]`, true),
		daFor[time.Time]("time.Time from a zoned timestamp", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}, `[0, 1700000000123, -1]`, false),
		daFor[time.Time]("time.Time from date32", arrow.FixedWidthTypes.Date32, `[0, 19000, -1]`, false),
		daFor[time.Duration]("time.Duration from duration[s]", arrow.FixedWidthTypes.Duration_s, `[1, -5, 3600]`, false),
		daFor[decimal.Decimal128]("decimal.Decimal128", &arrow.Decimal128Type{Precision: 38, Scale: 0}, `["1", "-12345678901234567890", "0"]`, true),
		daFor[[]string]("[]string from a list, a null list nil", arrow.ListOfNonNullable(arrow.BinaryTypes.String), `[["a", "b"], null, [], ["c"]]`, false),
		daFor[[]*int32]("[]*int32 from a list_view", arrow.ListViewOf(arrow.PrimitiveTypes.Int32), `[[1, null], [], null, [3]]`, false),
		daFor[[][]int16]("[][]int16 from a list of large lists", arrow.ListOfNonNullable(arrow.LargeListOfNonNullable(arrow.PrimitiveTypes.Int16)), `[[[1], []], [], [[2, 3]]]`, false),
		daFor[[2]float64]("[2]float64 from a fixed_size_list", arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Float64), `[[1, 2], [0, -1], [3, 4]]`, true),
		daFor[map[string]int32]("map[string]int32", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": 1}, {"key": "b", "value": 2}], null, []]`, false),
		daFor[daElem]("a struct", item, `[{"sku": "a", "qty": 1}, {"sku": "b", "qty": null}, {"sku": "", "qty": 3}]`, true),
		daFor[*daElem]("a pointer to a struct, nil for a null row", item, `[{"sku": "a", "qty": 1}, null, {"sku": "c", "qty": null}]`, false),
		daFor[string]("string from a dictionary", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, `["x", "y", "x", "x"]`, false),
		daFor[int64]("int64 from run-end encoding", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int64), `[7, 7, 7, 8]`, false),
		daFor[*struct{}]("the null type into a *struct{}", arrow.Null, `[null, null, null]`, false),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			c.run(t, mem)
		})
	}
}

func TestDecodeArrayDecodesAListsChild(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	arr, _, err := array.FromJSON(mem, arrow.ListOfNonNullable(arrow.BinaryTypes.String), strings.NewReader(`[["a", "b"], ["c"], [], ["d"]]`))
	require.NoError(t, err)
	defer arr.Release()
	list := arr.(*array.List)
	all, err := mapper.DecodeArray[string](list.ListValues())
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c", "d"}, all)

	// The elements of rows 1 and 2, by the list's offsets.
	start, end := list.ValueOffsets(1)
	_, end2 := list.ValueOffsets(2)
	require.Equal(t, end, end2)
	child := array.NewSlice(list.ListValues(), start, end)
	defer child.Release()
	some, err := mapper.DecodeArray[string](child)
	require.NoError(t, err)
	assert.Equal(t, []string{"c"}, some)
}

func TestDecodeArrayOfNoValuesIsNil(t *testing.T) {
	arr, _, err := array.FromJSON(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, strings.NewReader(`[1, 2]`))
	require.NoError(t, err)
	defer arr.Release()
	empty := array.NewSlice(arr, 1, 1)
	defer empty.Release()
	got, err := mapper.DecodeArray[int64](empty)
	require.NoError(t, err)
	assert.Nil(t, got)

	enc, err := mapper.EncodeArray[int64](nil)
	require.NoError(t, err)
	defer enc.Release()
	assert.Equal(t, 0, enc.Len())
	assert.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Int64, enc.DataType()))
}

// Errors are about the element: Path and Column leave out the struct field
// DecodeArray and EncodeArray wrap it in, "" being the array itself.
func TestArrayErrorsNameTheElement(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the arrays' Release, cleaned up after it
	build := func(dt arrow.DataType, values string) arrow.Array {
		arr, _, err := array.FromJSON(mem, dt, strings.NewReader(values))
		require.NoError(t, err)
		t.Cleanup(arr.Release)
		return arr
	}
	ints := build(arrow.PrimitiveTypes.Int64, `[1, null, 3]`)
	intsAfter1 := array.NewSlice(ints, 1, 3)
	t.Cleanup(intsAfter1.Release)
	lists := build(arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1], [2, null]]`)
	items := build(arrow.StructOf(arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int64}), `[{"qty": 1}]`)
	type qty32 struct {
		Qty int32 `arrow:"qty"`
	}
	type missing struct {
		SKU string `arrow:"sku"`
	}
	type decimalText struct {
		Price string `arrow:"price,decimal(5,2)"`
	}
	cases := []struct {
		name   string
		err    func() error
		kind   error
		path   string
		column string
		row    int
	}{
		{"a null in the array itself, said without a field", func() error { _, err := mapper.DecodeArray[int64](ints); return err }, mapper.ErrNull, "", "", 1},
		{"a null in a slice of the array, at its row there",
			func() error { _, err := mapper.DecodeArray[int64](intsAfter1); return err }, mapper.ErrNull, "", "", 0},
		{"a type the element cannot hold, before any value", func() error { _, err := mapper.DecodeArray[int32](ints); return err }, mapper.ErrTypeMismatch, "", "", -1},
		{"a null list element", func() error { _, err := mapper.DecodeArray[[]int64](lists); return err }, mapper.ErrNull, "[]", "item", 1},
		{"a struct field of the wrong type", func() error { _, err := mapper.DecodeArray[qty32](items); return err }, mapper.ErrTypeMismatch, "Qty", "qty", -1},
		{"a struct field without a child", func() error { _, err := mapper.DecodeArray[missing](items); return err }, mapper.ErrMissingColumn, "SKU", "sku", -1},
		{"a nil array", func() error { _, err := mapper.DecodeArray[int64](nil); return err }, mapper.ErrInvalidData, "", "", -1},
		{"an element type Arrow has none for", func() error { _, err := mapper.EncodeArray([]chan int{nil}); return err }, mapper.ErrUnsupported, "", "", -1},
		{"a value that does not fit, at its index", func() error {
			_, err := mapper.EncodeArray([]decimalText{{"1.5"}, {"not a number"}}, mapper.Allocator(mem))
			return err
		}, mapper.ErrInvalidData, "Price", "price", 1},
		{"a time out of range, at its index", func() error {
			_, err := mapper.EncodeArray([]time.Time{time.Unix(0, 0), time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}, mapper.Allocator(mem))
			return err
		}, mapper.ErrOverflow, "", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			require.Error(t, err)
			var e *mapper.Error
			require.True(t, errors.As(err, &e), "%v is an *Error", err)
			assert.Equal(t, c.path, e.Path)
			assert.Equal(t, c.column, e.Column)
			assert.Equal(t, c.row, e.Row)
			if !errors.Is(err, c.kind) {
				t.Errorf("%v is not %v", err, c.kind)
			}
			assert.NotContains(t, err.Error(), "Elem", "the wrapping field is not named")
			assert.NotContains(t, err.Error(), `"elem`, "nor its column")
		})
	}
	t.Run("the message of an error about the array itself starts with its row", func(t *testing.T) {
		_, err := mapper.DecodeArray[int64](ints)
		assert.True(t, strings.HasPrefix(err.Error(), "arrowmap: row 1: "), "%q", err)
	})
}

// EncodeArray writes the column Encode writes for a field of E, for the
// element types of every family, with the allocator given.
func TestEncodeArrayIsTheColumnEncodeWrites(t *testing.T) {
	at := time.Date(2024, 3, 1, 9, 0, 0, 123, time.UTC)
	cases := []struct {
		name  string
		check func(t *testing.T, mem memory.Allocator)
	}{
		{"int64", eaFor([]int64{1, -2, 3})},
		{"*string with nils", eaFor([]*string{nil, ptr("a"), nil})},
		{"[]string with a nil and an empty slice", eaFor([][]string{{"a", "b"}, nil, {}})},
		{"map[string]int32", eaFor([]map[string]int32{{"b": 2, "a": 1}, nil, {}})},
		{"time.Time", eaFor([]time.Time{at, time.Unix(0, 0), at.Add(time.Hour)})},
		{"time.Duration", eaFor([]time.Duration{time.Second, -1})},
		{"a struct", eaFor([]daElem{{"a", ptr[int32](1)}, {"b", nil}})},
		{"a pointer to a struct", eaFor([]*daElem{{"a", nil}, nil})},
		{"[4]byte", eaFor([][4]byte{{1, 2, 3, 4}, {}})},
		{"[]byte", eaFor([][]byte{[]byte("x"), nil, {}})},
		{"decimal.Decimal64", eaFor([]decimal.Decimal64{1, -1})},
		{"[2]*float64", eaFor([][2]*float64{{ptr(1.5), nil}})},
		{"no values", eaFor([]string{})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			c.check(t, mem)
		})
	}
}

func eaFor[E any](values []E) func(t *testing.T, mem memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		arr, err := mapper.EncodeArray(values, mapper.Allocator(mem))
		require.NoError(t, err)
		defer arr.Release()
		rec, err := mapper.Encode(daRows(values), mapper.Allocator(mem))
		require.NoError(t, err)
		defer rec.Release()
		require.Equal(t, len(values), arr.Len())
		assert.True(t, array.Equal(arr, rec.Column(0)), "EncodeArray:\n%v\nEncode's column:\n%v", arr, rec.Column(0))
		back, err := mapper.DecodeArray[E](arr)
		require.NoError(t, err)
		if len(values) == 0 {
			assert.Nil(t, back)
			return
		}
		daRequireAccessorValues(t, arr, back)
	}
}
