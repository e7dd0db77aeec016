package views_test

import (
	"bytes"
	"math"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/views"
)

// craftedArray hands views.New an arrow.ArrayData that arrow-go's own
// constructors would panic on: views.New only ever calls Data, so the
// embedded nil arrow.Array is never reached.
type craftedArray struct {
	arrow.Array
	data arrow.ArrayData
}

func (a craftedArray) Data() arrow.ArrayData { return a.data }

// craftedArrayOf is d as an arrow.Array: arrow-go's own array when
// array.MakeFromData accepts d, a craftedArray when it panics on it.
func craftedArrayOf(t testing.TB, d arrow.ArrayData) arrow.Array {
	t.Helper()
	arr, ok := tryMakeFromData(d)
	if !ok {
		return craftedArray{data: d}
	}
	t.Cleanup(arr.Release)
	return arr
}

func tryMakeFromData(d arrow.ArrayData) (arr arrow.Array, ok bool) {
	defer func() {
		if recover() != nil {
			arr, ok = nil, false
		}
	}()
	return array.MakeFromData(d), true
}

// newViewNoPanic calls views.New and fails the test, with the panic and its
// stack, instead of crashing when views.New panics.
func newViewNoPanic(t testing.TB, arr arrow.Array, typ views.Type) (v views.View, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("views.New panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return views.New(arr, typ)
}

// craft is array.NewData with the buffers and children listed inline.
func craft(dt arrow.DataType, n, nulls, offset int, bufs []*memory.Buffer, children ...arrow.ArrayData) *array.Data {
	return array.NewData(dt, n, bufs, children, nulls, offset)
}

// rawBuffers lists the buffers of an array, nil for an absent one.
func rawBuffers(b ...*memory.Buffer) []*memory.Buffer { return b }

func rawBytes(b []byte) *memory.Buffer { return memory.NewBufferBytes(b) }

func rawString(s string) *memory.Buffer { return memory.NewBufferBytes([]byte(s)) }

func rawInt8s(v ...int8) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int8Traits.CastToBytes(v))
}

func rawInt32s(v ...int32) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))
}

func rawInt64s(v ...int64) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))
}

func rawFloat64s(v ...float64) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(v))
}

// craftViewHeader is a utf8_view header of a string of size bytes at
// [offset, offset+size) of data buffer index (the buffer after the views).
func craftViewHeader(size, index, offset int32) arrow.ViewHeader {
	var h arrow.ViewHeader
	h.SetString(string(make([]byte, size)))
	h.SetIndexOffset(index, offset)
	return h
}

func craftInlineHeader(s string) arrow.ViewHeader {
	var h arrow.ViewHeader
	h.SetString(s)
	return h
}

func rawViews(h ...arrow.ViewHeader) *memory.Buffer {
	return memory.NewBufferBytes(arrow.ViewHeaderTraits.CastToBytes(h))
}

// Logical types the tables view their arrays as.
func viewScalarOf(ids ...arrow.Type) views.Type { return views.Type{Accept: views.AcceptOf(ids...)} }

func viewListOf(elem views.Type) views.Type {
	return views.Type{Accept: views.Lists | views.AcceptOf(arrow.FIXED_SIZE_LIST), Elem: &elem}
}

func viewEncoded(t views.Type) views.Type {
	t.Accept |= views.AcceptOf(arrow.DICTIONARY, arrow.RUN_END_ENCODED)
	return t
}

func viewNullable(t views.Type) views.Type {
	t.Nullable = true
	return t
}

var (
	viewInt64  = viewScalarOf(arrow.INT64)
	viewString = views.Type{Accept: views.Strings}
)

// Arrow datatypes of the crafted arrays.
var (
	dtListOfInt64     = arrow.ListOf(arrow.PrimitiveTypes.Int64)
	dtListOfList      = arrow.ListOf(dtListOfInt64)
	dtDictOfStrings   = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	dtDictInt8Strings = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	dtRunsOfInt64     = arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	dtPairsOfInt64    = arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64)
	dtStructOfInt64   = arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64})
	dtListViewOfInt64 = arrow.ListViewOf(arrow.PrimitiveTypes.Int64)
	dtMapOfInt64      = arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	dtTwoBytes        = &arrow.FixedSizeBinaryType{ByteWidth: 2}
)

// Well-formed pieces the malformed arrays are put together from.
func craftInt64s(v ...int64) *array.Data {
	return craft(arrow.PrimitiveTypes.Int64, len(v), 0, 0, rawBuffers(nil, rawInt64s(v...)))
}

func craftStrings(offsets []int32, data string) *array.Data {
	return craft(arrow.BinaryTypes.String, len(offsets)-1, 0, 0, rawBuffers(nil, rawInt32s(offsets...), rawString(data)))
}

func craftListOfInt64s(offsets []int32, child arrow.ArrayData) *array.Data {
	return craft(dtListOfInt64, len(offsets)-1, 0, 0, rawBuffers(nil, rawInt32s(offsets...)), child)
}

func craftEntries(keys, values arrow.ArrayData, n, offset int) *array.Data {
	return craft(dtMapOfInt64.Elem(), n, 0, offset, rawBuffers(nil), keys, values)
}

func craftRuns(n int, ends, values arrow.ArrayData) *array.Data {
	return craft(dtRunsOfInt64, n, 0, 0, rawBuffers(nil), ends, values)
}

func craftWithDictionary(d *array.Data, dict arrow.ArrayData) *array.Data {
	d.SetDictionary(dict)
	return d
}

func viewMap() views.Type {
	key, value := viewString, viewInt64
	return views.Type{Accept: views.AcceptOf(arrow.MAP), Key: &key, Value: &value}
}

func viewStruct(fields ...views.Field) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.STRUCT), Fields: fields}
}

func TestMalformedArraysAreRejected(t *testing.T) {
	// A string too long to inline in a view header.
	const long = "a string of 20 bytes"
	tests := []struct {
		name string
		data arrow.ArrayData
		typ  views.Type
		// want is the sentinel; ErrInvalidData when nil.
		want error
		// column is the Column of the error: the level that is malformed.
		column string
	}{
		// Offsets.
		{
			name: "utf8 offsets that go backwards",
			data: craftStrings([]int32{0, 2, 1}, "abc"),
			typ:  viewString,
		},
		{
			name: "list offsets that go backwards",
			data: craftListOfInt64s([]int32{0, 3, 1}, craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "utf8 offsets past the end of the data buffer",
			data: craftStrings([]int32{0, 2, 5}, "abc"),
			typ:  viewString,
		},
		{
			name: "large_utf8 offsets past the end of the data buffer",
			data: craft(arrow.BinaryTypes.LargeString, 1, 0, 0, rawBuffers(nil, rawInt64s(0, 4), rawString("abc"))),
			typ:  viewString,
		},
		{
			name: "list offsets past the end of the child",
			data: craftListOfInt64s([]int32{0, 2, 4}, craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a negative first offset",
			data: craftStrings([]int32{-1, 2}, "abc"),
			typ:  viewString,
		},
		{
			name: "an offsets buffer shorter than length+offset+1",
			data: craft(arrow.BinaryTypes.String, 2, 0, 1, rawBuffers(nil, rawInt32s(0, 1, 2), rawString("abc"))),
			typ:  viewString,
		},
		{
			name: "a list offsets buffer shorter than length+1",
			data: craft(dtListOfInt64, 3, 0, 0, rawBuffers(nil, rawInt32s(0, 1, 2)), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		// Fixed-width values.
		{
			name: "an int32 values buffer shorter than length+offset",
			data: craft(arrow.PrimitiveTypes.Int32, 3, 0, 1, rawBuffers(nil, rawInt32s(1, 2, 3))),
			typ:  viewScalarOf(arrow.INT32),
		},
		{
			name: "an int64 values buffer shorter than length",
			data: craft(arrow.PrimitiveTypes.Int64, 4, 0, 0, rawBuffers(nil, rawInt64s(1, 2, 3))),
			typ:  viewInt64,
		},
		{
			name: "an int64 values buffer that is missing",
			data: craft(arrow.PrimitiveTypes.Int64, 2, 0, 0, rawBuffers(nil, nil)),
			typ:  viewInt64,
		},
		{
			name: "a float64 values buffer shorter than length+offset",
			data: craft(arrow.PrimitiveTypes.Float64, 2, 0, 2, rawBuffers(nil, rawFloat64s(1, 2, 3))),
			typ:  viewScalarOf(arrow.FLOAT64),
		},
		{
			name: "a bool values bitmap too short",
			data: craft(arrow.FixedWidthTypes.Boolean, 10, 0, 0, rawBuffers(nil, rawBytes([]byte{0xff}))),
			typ:  viewScalarOf(arrow.BOOL),
		},
		{
			name: "a fixed_size_binary buffer too short",
			data: craft(dtTwoBytes, 3, 0, 0, rawBuffers(nil, rawString("abcde"))),
			typ:  views.Type{Accept: views.AcceptOf(arrow.FIXED_SIZE_BINARY)},
		},
		// Validity.
		{
			name: "a validity bitmap shorter than the rows",
			data: craft(arrow.PrimitiveTypes.Int64, 10, 1, 0, rawBuffers(rawBytes([]byte{0xfe}), rawInt64s(make([]int64, 10)...))),
			typ:  viewNullable(viewInt64),
		},
		{
			name: "a validity bitmap shorter than the rows at an offset",
			data: craft(arrow.PrimitiveTypes.Int64, 2, 0, 7, rawBuffers(rawBytes([]byte{0xff}), rawInt64s(make([]int64, 9)...))),
			typ:  viewNullable(viewInt64),
		},
		{
			name: "a null count that contradicts the bitmap",
			data: craft(arrow.PrimitiveTypes.Int64, 3, 2, 0, rawBuffers(rawBytes([]byte{0b101}), rawInt64s(1, 2, 3))),
			typ:  viewNullable(viewInt64),
		},
		{
			name: "a null count of 0 with a null in the bitmap",
			data: craft(arrow.PrimitiveTypes.Int64, 300, 0, 0, rawBuffers(rawBytes(append(bytes.Repeat([]byte{0xff}, 37), 0b1111_0111)), rawInt64s(make([]int64, 300)...))),
			typ:  viewNullable(viewInt64),
		},
		{
			name: "a null count with no bitmap",
			data: craft(arrow.PrimitiveTypes.Int64, 3, 1, 0, rawBuffers(nil, rawInt64s(1, 2, 3))),
			typ:  viewNullable(viewInt64),
		},
		// Lengths and offsets of the array itself.
		{
			name: "a negative length",
			data: craft(arrow.PrimitiveTypes.Int64, -1, 0, 0, rawBuffers(nil, rawInt64s(1))),
			typ:  viewInt64,
		},
		{
			name: "a negative offset",
			data: craft(arrow.PrimitiveTypes.Int64, 1, 0, -1, rawBuffers(nil, rawInt64s(1, 2))),
			typ:  viewInt64,
		},
		{
			name: "a length and offset whose sum overflows",
			data: craft(arrow.PrimitiveTypes.Int64, 2, 0, math.MaxInt-1, rawBuffers(nil, rawInt64s(1, 2))),
			typ:  viewInt64,
		},
		// Dictionaries.
		{
			name: "a dictionary index past the dictionary",
			data: craftWithDictionary(craft(dtDictOfStrings, 2, 0, 0, rawBuffers(nil, rawInt32s(1, 2))), craftStrings([]int32{0, 1, 2}, "xy")),
			typ:  viewEncoded(viewString),
		},
		{
			name: "a negative dictionary index",
			data: craftWithDictionary(craft(dtDictInt8Strings, 2, 0, 0, rawBuffers(nil, rawInt8s(0, -1))), craftStrings([]int32{0, 1, 2}, "xy")),
			typ:  viewEncoded(viewString),
		},
		{
			name: "a dictionary array with no dictionary",
			data: craft(dtDictOfStrings, 2, 0, 0, rawBuffers(nil, rawInt32s(0, 0))),
			typ:  viewEncoded(viewString),
		},
		{
			name: "a dictionary whose craftEntries contradict the value type",
			data: craftWithDictionary(craft(dtDictOfStrings, 2, 0, 0, rawBuffers(nil, rawInt32s(0, 0))), craftInt64s(1)),
			typ:  viewEncoded(viewString),
		},
		{
			name: "a dictionary index type that is not an integer",
			data: craftWithDictionary(craft(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Float64, ValueType: arrow.BinaryTypes.String}, 1, 0, 0, rawBuffers(nil, rawFloat64s(0))), craftStrings([]int32{0, 1}, "x")),
			typ:  viewEncoded(viewString),
		},
		// Run-end encoding.
		{
			name: "run ends that do not increase",
			data: craftRuns(4, craft(arrow.PrimitiveTypes.Int32, 3, 0, 0, rawBuffers(nil, rawInt32s(2, 2, 4))), craftInt64s(1, 2, 3)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "a zero run end",
			data: craftRuns(2, craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(0, 2))), craftInt64s(1, 2)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "a negative run end",
			data: craftRuns(2, craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(-1, 2))), craftInt64s(1, 2)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "runs that do not cover the length",
			data: craftRuns(5, craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(2, 3))), craftInt64s(1, 2)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "run ends with nulls",
			data: craftRuns(3, craft(arrow.PrimitiveTypes.Int32, 2, 1, 0, rawBuffers(rawBytes([]byte{0b10}), rawInt32s(1, 3))), craftInt64s(1, 2)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "fewer run values than runs",
			data: craftRuns(3, craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(1, 3))), craftInt64s(1)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "run ends at an offset that overflows",
			data: craftRuns(3, craft(arrow.PrimitiveTypes.Int32, 2, 0, math.MaxInt-1, rawBuffers(nil, rawInt32s(1, 3))), craftInt64s(1, 2)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "run values whose datatype contradicts the viewEncoded type",
			data: craftRuns(1, craft(arrow.PrimitiveTypes.Int32, 1, 0, 0, rawBuffers(nil, rawInt32s(1))), craftStrings([]int32{0, 1}, "x")),
			typ:  viewEncoded(views.Type{Accept: views.AcceptOf(arrow.INT64, arrow.STRING)}),
		},
		{
			name: "run ends whose datatype contradicts the run-end type",
			data: craftRuns(1, craft(arrow.PrimitiveTypes.Int64, 1, 0, 0, rawBuffers(nil, rawInt64s(1))), craftInt64s(1)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "a run-end array with a validity bitmap",
			data: craft(dtRunsOfInt64, 3, 0, 0, rawBuffers(rawBytes([]byte{0xff})), craft(arrow.PrimitiveTypes.Int32, 1, 0, 0, rawBuffers(nil, rawInt32s(3))), craftInt64s(1)),
			typ:  viewEncoded(viewInt64),
		},
		{
			name: "run ends of a type that is not an integer",
			data: craft(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64), 1, 0, 0, rawBuffers(nil), craft(arrow.PrimitiveTypes.Float64, 1, 0, 0, rawBuffers(nil, rawFloat64s(1))), craftInt64s(1)),
			typ:  viewEncoded(viewInt64),
		},
		// Views.
		{
			name: "a utf8_view buffer index out of range",
			data: craft(arrow.BinaryTypes.StringView, 2, 0, 0, rawBuffers(nil, rawViews(craftInlineHeader("hi"), craftViewHeader(20, 1, 0)), rawString(long))),
			typ:  viewString,
		},
		{
			name: "a binary_view buffer index that is negative",
			data: craft(arrow.BinaryTypes.BinaryView, 1, 0, 0, rawBuffers(nil, rawViews(craftViewHeader(20, -1, 0)), rawString(long))),
			typ:  views.Type{Accept: views.Binaries},
		},
		{
			name: "a view whose offset and length run past its buffer",
			data: craft(arrow.BinaryTypes.StringView, 1, 0, 0, rawBuffers(nil, rawViews(craftViewHeader(20, 0, 5)), rawString(long))),
			typ:  viewString,
		},
		{
			name: "a views buffer shorter than the rows",
			data: craft(arrow.BinaryTypes.StringView, 2, 0, 0, rawBuffers(nil, rawViews(craftInlineHeader("hi")))),
			typ:  viewString,
		},
		// Nested arrays.
		{
			name: "a fixed_size_list child too short",
			data: craft(dtPairsOfInt64, 2, 0, 0, rawBuffers(nil), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a fixed_size_list child too short for its offset",
			data: craft(dtPairsOfInt64, 1, 0, 1, rawBuffers(nil), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a struct child shorter than its parent",
			data: craft(dtStructOfInt64, 3, 0, 0, rawBuffers(nil), craftInt64s(1, 2)),
			typ:  viewStruct(views.Field{Name: "a", Type: viewInt64}),
		},
		{
			name: "a struct with a missing child",
			data: craft(dtStructOfInt64, 1, 0, 0, rawBuffers(nil)),
			typ:  viewStruct(views.Field{Name: "a", Type: viewInt64}),
		},
		{
			name:   "a struct child whose datatype contradicts the field's",
			data:   craft(dtStructOfInt64, 1, 0, 0, rawBuffers(nil), craftStrings([]int32{0, 1}, "x")),
			typ:    viewStruct(views.Field{Name: "a", Type: views.Type{Accept: views.AcceptOf(arrow.INT64, arrow.STRING)}}),
			column: "a",
		},
		{
			name:   "a struct child that is a struct without the viewed field",
			data:   craft(arrow.StructOf(arrow.Field{Name: "s", Type: dtStructOfInt64}), 1, 0, 0, rawBuffers(nil), craft(arrow.StructOf(arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int64}), 1, 0, 0, rawBuffers(nil), craftInt64s(1))),
			typ:    viewStruct(views.Field{Name: "s", Type: viewStruct(views.Field{Name: "a", Type: viewInt64})}),
			column: "s",
		},
		{
			name:   "a bad offset in a struct field",
			data:   craft(arrow.StructOf(arrow.Field{Name: "tags", Type: dtListOfInt64}), 2, 0, 0, rawBuffers(nil), craftListOfInt64s([]int32{0, 2, 1}, craftInt64s(1, 2))),
			typ:    viewStruct(views.Field{Name: "tags", Type: viewListOf(viewInt64)}),
			column: "tags",
		},
		{
			name: "a list_view row past the child",
			data: craft(dtListViewOfInt64, 2, 0, 0, rawBuffers(nil, rawInt32s(0, 2), rawInt32s(2, 2)), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a list_view row of negative size",
			data: craft(dtListViewOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(2), rawInt32s(-1)), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a list_view sizes buffer that is missing",
			data: craft(dtListViewOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0)), craftInt64s(1)),
			typ:  viewListOf(viewInt64),
		},
		{
			name: "a list with a missing child",
			data: craft(dtListOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 0))),
			typ:  viewListOf(viewInt64),
		},
		{
			name:   "a list child whose datatype contradicts the element type",
			data:   craftListOfInt64s([]int32{0, 1}, craftStrings([]int32{0, 1}, "x")),
			typ:    viewListOf(views.Type{Accept: views.AcceptOf(arrow.INT64, arrow.STRING)}),
			column: "item",
		},
		{
			name:   "a list child that is itself a list",
			data:   craftListOfInt64s([]int32{0, 1}, craftListOfInt64s([]int32{0, 1}, craftInt64s(1))),
			typ:    viewListOf(views.Type{Accept: views.AcceptOf(arrow.INT64, arrow.LIST)}),
			column: "item",
		},
		{
			name:   "map craftEntries whose keys are shorter than the entries",
			data:   craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 3)), craftEntries(craftStrings([]int32{0, 1, 2}, "ab"), craftInt64s(1, 2, 3), 3, 0)),
			typ:    viewMap(),
			column: "entries",
		},
		{
			name:   "map craftEntries at a negative offset",
			data:   craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftEntries(craftStrings([]int32{0, 1, 2, 3}, "abc"), craftInt64s(1, 2, 3), 2, -1)),
			typ:    viewMap(),
			column: "entries",
		},
		{
			name:   "map craftEntries at an offset that overflows",
			data:   craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftEntries(craftStrings([]int32{0, 1, 2, 3}, "abc"), craftInt64s(1, 2, 3), 2, math.MaxInt-1)),
			typ:    viewMap(),
			column: "entries",
		},
		{
			name:   "map craftEntries with null entries",
			data:   craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craft(dtMapOfInt64.Elem(), 2, 1, 0, rawBuffers(rawBytes([]byte{0b01})), craftStrings([]int32{0, 1, 2}, "ab"), craftInt64s(1, 2))),
			typ:    viewMap(),
			column: "entries",
		},
		{
			name:   "map values with a short values buffer",
			data:   craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftEntries(craftStrings([]int32{0, 1, 2}, "ab"), craft(arrow.PrimitiveTypes.Int64, 2, 0, 0, rawBuffers(nil, rawInt64s(1))), 2, 0)),
			typ:    viewMap(),
			column: "entries.value",
		},
		{
			name:   "a bad inner offset of a list of lists",
			data:   craft(dtListOfList, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftListOfInt64s([]int32{0, 2, 1}, craftInt64s(1, 2))),
			typ:    viewListOf(viewListOf(viewInt64)),
			column: "item",
		},
		{
			name:   "a short values buffer two levels down a list of lists",
			data:   craft(dtListOfList, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftListOfInt64s([]int32{0, 2, 3}, craft(arrow.PrimitiveTypes.Int64, 3, 0, 0, rawBuffers(nil, rawInt64s(1, 2))))),
			typ:    viewListOf(viewListOf(viewInt64)),
			column: "item.item",
		},
		// Datatypes.
		{
			name: "an int32 array viewed as int64",
			data: craft(arrow.PrimitiveTypes.Int32, 1, 0, 0, rawBuffers(nil, rawInt32s(1))),
			typ:  viewInt64,
			want: views.ErrTypeMismatch,
		},
		{
			name: "an array with no datatype",
			data: craft(nil, 1, 0, 0, rawBuffers(nil, rawInt64s(1))),
			typ:  viewInt64,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == nil {
				want = views.ErrInvalidData
			}
			_, err := newViewNoPanic(t, craftedArrayOf(t, tt.data), tt.typ)
			require.Error(t, err)
			assert.ErrorIs(t, err, want)
			var verr *views.Error
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tt.column, verr.Column, "the column of %v", err)
		})
	}
}

func TestWellFormedArraysAreAccepted(t *testing.T) {
	const long = "a string of 20 bytes"
	key, value := viewString, viewInt64
	tests := []struct {
		name string
		data arrow.ArrayData
		typ  views.Type
		want []any
	}{
		{
			name: "utf8",
			data: craftStrings([]int32{0, 1, 3}, "abc"),
			typ:  viewString,
			want: []any{"a", "bc"},
		},
		{
			name: "large_utf8",
			data: craft(arrow.BinaryTypes.LargeString, 1, 0, 0, rawBuffers(nil, rawInt64s(0, 3), rawString("abc"))),
			typ:  viewString,
			want: []any{"abc"},
		},
		{
			name: "utf8 at an offset",
			data: craft(arrow.BinaryTypes.String, 2, 0, 1, rawBuffers(nil, rawInt32s(0, 1, 2, 3), rawString("abc"))),
			typ:  viewString,
			want: []any{"b", "c"},
		},
		{
			name: "a list of int64",
			data: craftListOfInt64s([]int32{0, 2, 3}, craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
			want: []any{[]any{int64(1), int64(2)}, []any{int64(3)}},
		},
		{
			name: "int32 at an offset",
			data: craft(arrow.PrimitiveTypes.Int32, 2, 0, 1, rawBuffers(nil, rawInt32s(1, 2, 3))),
			typ:  viewScalarOf(arrow.INT32),
			want: []any{int32(2), int32(3)},
		},
		{
			name: "int64 with a null at an offset",
			data: craft(arrow.PrimitiveTypes.Int64, 2, 1, 1, rawBuffers(rawBytes([]byte{0b101}), rawInt64s(1, 2, 3))),
			typ:  viewNullable(viewInt64),
			want: []any{nil, int64(3)},
		},
		{
			name: "int64 with an unknown null count",
			data: craft(arrow.PrimitiveTypes.Int64, 3, array.UnknownNullCount, 0, rawBuffers(rawBytes([]byte{0b101}), rawInt64s(1, 2, 3))),
			typ:  viewNullable(viewInt64),
			want: []any{int64(1), nil, int64(3)},
		},
		{
			name: "float64",
			data: craft(arrow.PrimitiveTypes.Float64, 2, 0, 0, rawBuffers(nil, rawFloat64s(1.5, 2.5))),
			typ:  viewScalarOf(arrow.FLOAT64),
			want: []any{1.5, 2.5},
		},
		{
			name: "bool",
			data: craft(arrow.FixedWidthTypes.Boolean, 3, 0, 0, rawBuffers(nil, rawBytes([]byte{0b101}))),
			typ:  viewScalarOf(arrow.BOOL),
			want: []any{true, false, true},
		},
		{
			name: "fixed_size_binary",
			data: craft(dtTwoBytes, 2, 0, 0, rawBuffers(nil, rawString("abcd"))),
			typ:  views.Type{Accept: views.AcceptOf(arrow.FIXED_SIZE_BINARY)},
			want: []any{[]byte("ab"), []byte("cd")},
		},
		{
			name: "a dictionary",
			data: craftWithDictionary(craft(dtDictOfStrings, 3, 0, 0, rawBuffers(nil, rawInt32s(1, 0, 1))), craftStrings([]int32{0, 1, 2}, "xy")),
			typ:  viewEncoded(viewString),
			want: []any{"y", "x", "y"},
		},
		{
			name: "a dictionary with int8 indices and a null index",
			data: craftWithDictionary(craft(dtDictInt8Strings, 2, 1, 0, rawBuffers(rawBytes([]byte{0b01}), rawInt8s(0, -1))), craftStrings([]int32{0, 1, 2}, "xy")),
			typ:  viewNullable(viewEncoded(viewString)),
			want: []any{"x", nil},
		},
		{
			name: "run-end encoded",
			data: craftRuns(5, craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(2, 5))), craftInt64s(7, 8)),
			typ:  viewEncoded(viewInt64),
			want: []any{int64(7), int64(7), int64(8), int64(8), int64(8)},
		},
		{
			name: "run-end viewEncoded at an offset",
			data: craft(dtRunsOfInt64, 2, 0, 1, rawBuffers(nil), craft(arrow.PrimitiveTypes.Int32, 2, 0, 0, rawBuffers(nil, rawInt32s(2, 3))), craftInt64s(7, 8)),
			typ:  viewEncoded(viewInt64),
			want: []any{int64(7), int64(8)},
		},
		{
			name: "utf8_view",
			data: craft(arrow.BinaryTypes.StringView, 2, 0, 0, rawBuffers(nil, rawViews(craftInlineHeader("hi"), craftViewHeader(15, 0, 5)), rawString(long))),
			typ:  viewString,
			want: []any{"hi", long[5:]},
		},
		{
			name: "a fixed_size_list",
			data: craft(dtPairsOfInt64, 2, 0, 0, rawBuffers(nil), craftInt64s(1, 2, 3, 4)),
			typ:  viewListOf(viewInt64),
			want: []any{[]any{int64(1), int64(2)}, []any{int64(3), int64(4)}},
		},
		{
			name: "a struct",
			data: craft(dtStructOfInt64, 2, 0, 0, rawBuffers(nil), craftInt64s(1, 2)),
			typ:  viewStruct(views.Field{Name: "a", Type: viewInt64}),
			want: []any{map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}},
		},
		{
			name: "a struct at an offset",
			data: craft(dtStructOfInt64, 1, 0, 1, rawBuffers(nil), craftInt64s(1, 2)),
			typ:  viewStruct(views.Field{Name: "a", Type: viewInt64}),
			want: []any{map[string]any{"a": int64(2)}},
		},
		{
			name: "a list_view",
			data: craft(dtListViewOfInt64, 2, 0, 0, rawBuffers(nil, rawInt32s(1, 0), rawInt32s(2, 1)), craftInt64s(1, 2, 3)),
			typ:  viewListOf(viewInt64),
			want: []any{[]any{int64(2), int64(3)}, []any{int64(1)}},
		},
		{
			name: "a map",
			data: craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftEntries(craftStrings([]int32{0, 1, 2}, "kl"), craftInt64s(1, 2), 2, 0)),
			typ:  views.Type{Accept: views.AcceptOf(arrow.MAP), Key: &key, Value: &value},
			want: []any{[][2]any{{"k", int64(1)}, {"l", int64(2)}}},
		},
		{
			name: "a map with craftEntries at an offset",
			data: craft(dtMapOfInt64, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 1)), craftEntries(craftStrings([]int32{0, 1, 2}, "kl"), craftInt64s(1, 2), 1, 1)),
			typ:  views.Type{Accept: views.AcceptOf(arrow.MAP), Key: &key, Value: &value},
			want: []any{[][2]any{{"l", int64(2)}}},
		},
		{
			name: "a list of lists",
			data: craft(dtListOfList, 1, 0, 0, rawBuffers(nil, rawInt32s(0, 2)), craftListOfInt64s([]int32{0, 1, 3}, craftInt64s(1, 2, 3))),
			typ:  viewListOf(viewListOf(viewInt64)),
			want: []any{[]any{[]any{int64(1)}, []any{int64(2), int64(3)}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := newViewNoPanic(t, craftedArrayOf(t, tt.data), tt.typ)
			require.NoError(t, err)
			got := make([]any, v.Len())
			for i := range got {
				got[i] = v.Value(i)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestArrowGoArraysAreAccepted views arrays that arrow-go's builders made,
// so that the checks above agree with what arrow-go itself writes.
func TestArrowGoArraysAreAccepted(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)

	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Int64Builder)
	lb.Append(true)
	vb.AppendValues([]int64{1, 2}, nil)
	lb.AppendNull()
	lb.Append(true)
	vb.Append(3)
	list := lb.NewArray()
	defer list.Release()

	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, false)
	defer mb.Release()
	kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.Int64Builder)
	mb.Append(true)
	kb.Append("k")
	ib.Append(1)
	maps := mb.NewArray()
	defer maps.Release()

	db := array.NewDictionaryBuilder(mem, dtDictOfStrings).(*array.BinaryDictionaryBuilder)
	defer db.Release()
	require.NoError(t, db.AppendString("x"))
	require.NoError(t, db.AppendString("y"))
	require.NoError(t, db.AppendString("x"))
	dict := db.NewArray()
	defer dict.Release()

	rb := array.NewRunEndEncodedBuilder(mem, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	defer rb.Release()
	rb.Append(2)
	rb.ValueBuilder().(*array.Int64Builder).Append(7)
	rb.Append(1)
	rb.ValueBuilder().(*array.Int64Builder).Append(8)
	ree := rb.NewArray()
	defer ree.Release()

	sb := array.NewStringViewBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"hi", "a string of 20 bytes"}, nil)
	sv := sb.NewArray()
	defer sv.Release()

	key, value := viewString, viewInt64
	tests := []struct {
		name string
		arr  arrow.Array
		typ  views.Type
		want []any
	}{
		{"a list builder's list", list, viewNullable(viewListOf(viewInt64)), []any{[]any{int64(1), int64(2)}, nil, []any{int64(3)}}},
		{"a list builder's list, sliced", array.NewSlice(list, 1, 3), viewNullable(viewListOf(viewInt64)), []any{nil, []any{int64(3)}}},
		{"a map builder's map", maps, views.Type{Accept: views.AcceptOf(arrow.MAP), Key: &key, Value: &value}, []any{[][2]any{{"k", int64(1)}}}},
		{"a dictionary builder's dictionary", dict, viewEncoded(viewString), []any{"x", "y", "x"}},
		{"a run-end builder's runs", ree, viewEncoded(viewInt64), []any{int64(7), int64(7), int64(8)}},
		{"a string view builder's views", sv, viewString, []any{"hi", "a string of 20 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := newViewNoPanic(t, tt.arr, tt.typ)
			require.NoError(t, err)
			got := make([]any, v.Len())
			for i := range got {
				got[i] = v.Value(i)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	tests[1].arr.Release()
}

// The error of malformed offsets names the first faulty row: the first
// whose end passes the buffer or comes before its start, whichever row is
// first, as every reader of the column then agrees.
func TestMalformedOffsetsNameTheFirstFaultyRow(t *testing.T) {
	for _, c := range []struct {
		name    string
		offsets []int32
		row     int
		says    string
	}{
		{"past the end, then backwards", []int32{0, 1, 2, 3, 4, 1000, 6, 7, 8}, 4, "offset 1000 past the end of the data buffer (8)"},
		{"backwards, then past the end", []int32{0, 2, 1, 1000, 1000}, 1, "offsets go backwards: 2 then 1"},
		{"past the end at the last row", []int32{0, 1, 2, 9}, 2, "offset 9 past the end of the data buffer (8)"},
		{"past the end from the first row", []int32{9, 9, 9}, 0, "offset 9 past the end of the data buffer (8)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := newViewNoPanic(t, craftedArrayOf(t, craftStrings(c.offsets, "abcdefgh")), viewString)
			var ve *views.Error
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, c.row, ve.Row)
			assert.ErrorContains(t, err, c.says)
		})
	}
}
