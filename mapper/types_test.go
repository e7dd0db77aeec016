package mapper_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// The fixtures of these tests: records built from JSON (array.FromJSON) or
// from hand-made buffers where JSON cannot say it (list views out of order,
// struct rows that are null over children with values).

// fxCol is one column of a test record.
type fxCol struct {
	name string
	arr  arrow.Array
}

// fxJSON is the array of dt that js describes.
func fxJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	require.NoError(t, err, "%s from %s", dt, js)
	return arr
}

// fxRecord makes a record of cols, taking over their references.
func fxRecord(t *testing.T, cols ...fxCol) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.arr.DataType(), Nullable: true}
		arrs[i] = c.arr
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, -1)
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// fxSchema is a schema of columns of the given names and types.
func fxSchema(namesAndTypes ...any) *arrow.Schema {
	var fields []arrow.Field
	for i := 0; i < len(namesAndTypes); i += 2 {
		fields = append(fields, arrow.Field{Name: namesAndTypes[i].(string), Type: namesAndTypes[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// fxJSONList is the JSON array of vals, with null in place of the rows
// that nulls lists.
func fxJSONList[V any](vals []V, nulls ...int) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprint(v)
	}
	for _, i := range nulls {
		parts[i] = "null"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fxDecodeAll decodes rec with a Mapper[T] built for its schema and returns
// the rows, after checking that every other way of reaching them gives the
// same rows: mapper.Decode and Mapper.Append after a prefix; the record
// sliced with RecordBatch.NewSlice at offset 1, and a record of columns each
// sliced with array.NewSlice; a Batch from View sliced, sliced again and
// read with Row; a Batch of the sliced record, sliced again.
func fxDecodeAll[T any](t *testing.T, rec arrow.RecordBatch, opts ...mapper.ReadOption) []T {
	t.Helper()
	n := int(rec.NumRows())
	require.GreaterOrEqual(t, n, 4, "decodeAll needs at least 4 rows")
	m, err := mapper.New[T](rec.Schema(), opts...)
	require.NoError(t, err)
	full, err := m.Decode(rec)
	require.NoError(t, err)
	require.Len(t, full, n)

	once, err := mapper.Decode[T](rec, opts...)
	require.NoError(t, err)
	require.Equal(t, full, once, "mapper.Decode")

	appended, err := m.Append([]T{full[n-1]}, rec)
	require.NoError(t, err)
	require.Equal(t, append([]T{full[n-1]}, full...), appended, "Mapper.Append after a prefix")

	sliced := rec.NewSlice(1, int64(n))
	defer sliced.Release()
	got, err := m.Decode(sliced)
	require.NoError(t, err)
	require.Equal(t, full[1:], got, "the record sliced from row 1")

	cols := make([]arrow.Array, rec.NumCols())
	for k := range cols {
		cols[k] = array.NewSlice(rec.Column(k), 2, int64(n-1))
	}
	byColumn := array.NewRecordBatch(rec.Schema(), cols, int64(n-3))
	for _, c := range cols {
		c.Release()
	}
	defer byColumn.Release()
	got, err = m.Decode(byColumn)
	require.NoError(t, err)
	require.Equal(t, full[2:n-1], got, "columns sliced to rows [2, n-1)")

	b, err := m.View(rec)
	require.NoError(t, err)
	require.Equal(t, n, b.Len())
	require.Equal(t, full, b.Append(nil), "Batch.Append")
	require.Equal(t, full[1:n-1], b.Slice(1, n-1).Append(nil), "Batch.Slice(1, n-1)")
	require.Equal(t, full[2:n-1], b.Slice(1, n-1).Slice(1, n-2).Append(nil), "a slice of a slice")
	require.Equal(t, full[3:4], b.Slice(1, n).Slice(1, n-1).Slice(1, 2).Append(nil), "a slice of a slice of a slice")
	require.Empty(t, b.Slice(2, 2).Append(nil), "an empty slice")
	for i := range n {
		row := full[(i+1)%n] // Row must overwrite every field, nulls included
		b.Row(i, &row)
		require.Equal(t, full[i], row, "Batch.Row(%d)", i)
	}

	bs, err := m.View(sliced)
	require.NoError(t, err)
	require.Equal(t, full[2:n], bs.Slice(1, n-1).Append(nil), "a Batch of the sliced record, sliced")
	var last T
	bs.Row(n-2, &last)
	require.Equal(t, full[n-1], last, "Batch.Row of the sliced record")
	return full
}

// fxCase is a row of a decoding table: run builds its records from mem.
type fxCase struct {
	name string
	run  func(t *testing.T, mem memory.Allocator)
}

func fxRun(t *testing.T, cases []fxCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			tc.run(t, mem)
		})
	}
}

// fxRequireError checks that err is an *mapper.Error of kind with the
// given path, column and row.
func fxRequireError(t *testing.T, err error, kind error, path, column string, row int) *mapper.Error {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, kind)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, path, me.Path, "Path of %v", err)
	require.Equal(t, column, me.Column, "Column of %v", err)
	require.Equal(t, row, me.Row, "Row of %v", err)
	return me
}

func fxPtr[V any](v V) *V { return &v }

// --- numbers and bools ---

// fxNumberRow holds one value three ways: a column without nulls, and a
// nullable and a pointer field whose odd rows are null.
type fxNumberRow[V any] struct {
	V V  `arrow:"v"`
	N V  `arrow:"n,nullable"`
	P *V `arrow:"p"`
}

// fxNumbersCase decodes vals, written in columns of dt, into fields of type V.
func fxNumbersCase[V any](dt arrow.DataType, vals ...V) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		var odd []int
		want := make([]fxNumberRow[V], len(vals))
		for i, v := range vals {
			want[i].V = v
			if i%2 == 1 {
				odd = append(odd, i)
				continue
			}
			want[i].N, want[i].P = v, fxPtr(v)
		}
		rec := fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(vals))},
			fxCol{"n", fxJSON(t, mem, dt, fxJSONList(vals, odd...))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(vals, odd...))})
		defer rec.Release()
		require.Equal(t, want, fxDecodeAll[fxNumberRow[V]](t, rec))
	}
}

func TestDecodeNumbers(t *testing.T) {
	fxRun(t, []fxCase{
		{"int8 decodes into int8", fxNumbersCase(arrow.PrimitiveTypes.Int8, int8(math.MinInt8), -1, 0, math.MaxInt8, 7)},
		{"int16 decodes into int16", fxNumbersCase(arrow.PrimitiveTypes.Int16, int16(math.MinInt16), -1, 0, math.MaxInt16, 7)},
		{"int32 decodes into int32", fxNumbersCase(arrow.PrimitiveTypes.Int32, int32(math.MinInt32), -1, 0, math.MaxInt32, 7)},
		{"int64 decodes into int64", fxNumbersCase(arrow.PrimitiveTypes.Int64, int64(math.MinInt64), -1, 0, math.MaxInt64, 7)},
		{"int64 decodes into int", fxNumbersCase(arrow.PrimitiveTypes.Int64, math.MinInt64, -1, 0, math.MaxInt64, 7)},
		{"uint8 decodes into uint8", fxNumbersCase(arrow.PrimitiveTypes.Uint8, uint8(0), 1, 2, math.MaxUint8, 7)},
		{"uint16 decodes into uint16", fxNumbersCase(arrow.PrimitiveTypes.Uint16, uint16(0), 1, 2, math.MaxUint16, 7)},
		{"uint32 decodes into uint32", fxNumbersCase(arrow.PrimitiveTypes.Uint32, uint32(0), 1, 2, math.MaxUint32, 7)},
		{"uint64 decodes into uint64", fxNumbersCase(arrow.PrimitiveTypes.Uint64, uint64(0), 1, 2, math.MaxUint64, 7)},
		{"uint64 decodes into uint", fxNumbersCase(arrow.PrimitiveTypes.Uint64, uint(0), 1, 2, math.MaxUint64, 7)},
		{"float32 decodes into float32", fxNumbersCase(arrow.PrimitiveTypes.Float32, float32(-1.5), 0, math.MaxFloat32, math.SmallestNonzeroFloat32, 0.25)},
		{"float64 decodes into float64", fxNumbersCase(arrow.PrimitiveTypes.Float64, -1.5, 0, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1)},

		{"int8 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Int8, int64(math.MinInt8), -1, 0, math.MaxInt8, 7)},
		{"int16 widens into int32", fxNumbersCase(arrow.PrimitiveTypes.Int16, int32(math.MinInt16), -1, 0, math.MaxInt16, 7)},
		{"int32 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Int32, int64(math.MinInt32), -1, 0, math.MaxInt32, 7)},
		{"int32 widens into int", fxNumbersCase(arrow.PrimitiveTypes.Int32, math.MinInt32, -1, 0, math.MaxInt32, 7)},
		{"uint8 widens into int16", fxNumbersCase(arrow.PrimitiveTypes.Uint8, int16(0), 1, 2, math.MaxUint8, 7)},
		{"uint16 widens into int32", fxNumbersCase(arrow.PrimitiveTypes.Uint16, int32(0), 1, 2, math.MaxUint16, 7)},
		{"uint32 widens into int64", fxNumbersCase(arrow.PrimitiveTypes.Uint32, int64(0), 1, 2, math.MaxUint32, 7)},
		{"uint16 widens into uint64", fxNumbersCase(arrow.PrimitiveTypes.Uint16, uint64(0), 1, 2, math.MaxUint16, 7)},
		{"float32 widens into float64", fxNumbersCase(arrow.PrimitiveTypes.Float32, -1.5, 0, math.MaxFloat32, 0.25, 3)},
		{"float16 widens into float32", fxNumbersCase(arrow.FixedWidthTypes.Float16, float32(-1.5), 0, 65504, 6.1035156e-05, 0.25)},
		{"float16 widens into float64", fxNumbersCase(arrow.FixedWidthTypes.Float16, -1.5, 0, 65504, 0.00006103515625, 0.25)},
	})
}

func TestDecodeBool(t *testing.T) {
	fxRun(t, []fxCase{
		{"bool decodes into bool", fxNumbersCase(arrow.FixedWidthTypes.Boolean, true, true, false, true, false, true, true, true, false, true)},
	})
}

type fxCell[V any] struct {
	V V `arrow:"v"`
}

func TestStrictRejectsWidening(t *testing.T) {
	check := func(t *testing.T, err error) {
		fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
	}
	tests := []struct {
		name string
		run  func() (defaultErr, strictErr error)
	}{
		{"int32 into int64", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Int32)
			_, a := mapper.New[fxCell[int64]](s)
			_, b := mapper.New[fxCell[int64]](s, mapper.Strict())
			return a, b
		}},
		{"uint16 into int32", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Uint16)
			_, a := mapper.New[fxCell[int32]](s)
			_, b := mapper.New[fxCell[int32]](s, mapper.Strict())
			return a, b
		}},
		{"float32 into float64", func() (error, error) {
			s := fxSchema("v", arrow.PrimitiveTypes.Float32)
			_, a := mapper.New[fxCell[float64]](s)
			_, b := mapper.New[fxCell[float64]](s, mapper.Strict())
			return a, b
		}},
		{"float16 into float32", func() (error, error) {
			s := fxSchema("v", arrow.FixedWidthTypes.Float16)
			_, a := mapper.New[fxCell[float32]](s)
			_, b := mapper.New[fxCell[float32]](s, mapper.Strict())
			return a, b
		}},
		{"float16 into float64", func() (error, error) {
			s := fxSchema("v", arrow.FixedWidthTypes.Float16)
			_, a := mapper.New[fxCell[float64]](s)
			_, b := mapper.New[fxCell[float64]](s, mapper.Strict())
			return a, b
		}},
		{"decimal64 into decimal.Decimal128", func() (error, error) {
			s := fxSchema("v", &arrow.Decimal64Type{Precision: 10, Scale: 2})
			_, a := mapper.New[fxCell[decimal.Decimal128]](s)
			_, b := mapper.New[fxCell[decimal.Decimal128]](s, mapper.Strict())
			return a, b
		}},
		{"large_utf8 into string", func() (error, error) {
			s := fxSchema("v", arrow.BinaryTypes.LargeString)
			_, a := mapper.New[fxCell[string]](s)
			_, b := mapper.New[fxCell[string]](s, mapper.Strict())
			return a, b
		}},
		{"large_list into a slice", func() (error, error) {
			s := fxSchema("v", arrow.LargeListOf(arrow.PrimitiveTypes.Int64))
			_, a := mapper.New[fxCell[[]int64]](s)
			_, b := mapper.New[fxCell[[]int64]](s, mapper.Strict())
			return a, b
		}},
	}
	for _, tc := range tests {
		t.Run("Strict rejects "+tc.name+" that the default accepts", func(t *testing.T) {
			a, b := tc.run()
			require.NoError(t, a)
			check(t, b)
		})
	}
	t.Run("Strict accepts the encoding a tag pins", func(t *testing.T) {
		type pinned struct {
			S string        `arrow:"s,large_utf8"`
			L []int64       `arrow:"l,large_list"`
			B []byte        `arrow:"b,binary_view"`
			T time.Time     `arrow:"t,date32"`
			D time.Duration `arrow:"d,time64"`
			V []string      `arrow:"v,view"`
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		rec := fxRecord(t,
			fxCol{"s", fxJSON(t, mem, arrow.BinaryTypes.LargeString, `["a", "b", "c", "d"]`)},
			fxCol{"l", fxJSON(t, mem, arrow.LargeListOf(arrow.PrimitiveTypes.Int64), `[[1], [], null, [2, 3]]`)},
			fxCol{"b", fxJSON(t, mem, arrow.BinaryTypes.BinaryView, `["aGk=", "", null, "aGk="]`)},
			fxCol{"t", fxJSON(t, mem, arrow.FixedWidthTypes.Date32, `[0, 1, 2, 3]`)},
			fxCol{"d", fxJSON(t, mem, arrow.FixedWidthTypes.Time64us, `[0, 1, 2, 3]`)},
			fxCol{"v", fxJSON(t, mem, arrow.ListViewOf(arrow.BinaryTypes.String), `[["x"], [], null, ["y", "z"]]`)})
		defer rec.Release()
		got := fxDecodeAll[pinned](t, rec, mapper.Strict())
		require.Equal(t, pinned{S: "d", L: []int64{2, 3}, B: []byte("hi"), T: time.Unix(3*86400, 0).UTC(), D: 3 * time.Microsecond, V: []string{"y", "z"}}, got[3])
		_, err := mapper.New[pinned](rec.Schema(), mapper.Strict())
		require.NoError(t, err)
		// Strict still holds below the pin: a large_list of int32 does not widen.
		_, err = mapper.New[struct {
			L []int64 `arrow:"l,large_list"`
		}](fxSchema("l", arrow.LargeListOf(arrow.PrimitiveTypes.Int32)), mapper.Strict())
		fxRequireError(t, err, mapper.ErrTypeMismatch, "L[]", "l.item", -1)
	})
	t.Run("Strict accepts the exact types", func(t *testing.T) {
		_, err := mapper.New[fxNumberRow[int64]](fxSchema("v", arrow.PrimitiveTypes.Int64, "n", arrow.PrimitiveTypes.Int64, "p", arrow.PrimitiveTypes.Int64), mapper.Strict())
		require.NoError(t, err)
		_, err = mapper.New[fxNumberRow[float32]](fxSchema("v", arrow.PrimitiveTypes.Float32, "n", arrow.PrimitiveTypes.Float32, "p", arrow.PrimitiveTypes.Float32), mapper.Strict())
		require.NoError(t, err)
		_, err = mapper.New[fxCell[int]](fxSchema("v", arrow.PrimitiveTypes.Int64), mapper.Strict())
		require.NoError(t, err)
	})
}

// --- strings and bytes ---

type fxStringRow struct {
	V string  `arrow:"v"`
	N string  `arrow:"n,nullable"`
	P *string `arrow:"p"`
}

var fxStringValues = []string{"", "short", "a value longer than twelve bytes", "a value longer than twelve bytes", "é∂ü", "short", "z"}

func fxStringsCase(dt arrow.DataType, opts ...mapper.ReadOption) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		quoted := make([]string, len(fxStringValues))
		want := make([]fxStringRow, len(fxStringValues))
		var odd []int
		for i, s := range fxStringValues {
			quoted[i] = strconv.Quote(s)
			want[i].V = s
			if i%2 == 1 {
				odd = append(odd, i)
				continue
			}
			want[i].N, want[i].P = s, fxPtr(s)
		}
		rec := fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(quoted))},
			fxCol{"n", fxJSON(t, mem, dt, fxJSONList(quoted, odd...))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(quoted, odd...))})
		defer rec.Release()
		require.Equal(t, want, fxDecodeAll[fxStringRow](t, rec, opts...))
	}
}

func TestDecodeStrings(t *testing.T) {
	dict := func(index arrow.DataType) arrow.DataType {
		return &arrow.DictionaryType{IndexType: index, ValueType: arrow.BinaryTypes.String}
	}
	fxRun(t, []fxCase{
		{"utf8 decodes into string", fxStringsCase(arrow.BinaryTypes.String)},
		{"large_utf8 decodes into string", fxStringsCase(arrow.BinaryTypes.LargeString)},
		{"utf8_view decodes into string, inline and out of line", fxStringsCase(arrow.BinaryTypes.StringView)},
		{"dictionary<int8, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Int8))},
		{"dictionary<int32, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Int32))},
		{"dictionary<uint16, utf8> decodes into string", fxStringsCase(dict(arrow.PrimitiveTypes.Uint16))},
		{"run_end_encoded<int32, utf8> decodes into string", fxStringsCase(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String))},
		{"run_end_encoded<int16, utf8_view> decodes into string", fxStringsCase(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.StringView))},
		{"utf8 decodes into string with ZeroCopy", fxStringsCase(arrow.BinaryTypes.String, mapper.ZeroCopy())},
		{"utf8_view decodes into string with ZeroCopy", fxStringsCase(arrow.BinaryTypes.StringView, mapper.ZeroCopy())},
		{"dictionary<int8, utf8> decodes into string with ZeroCopy", fxStringsCase(dict(arrow.PrimitiveTypes.Int8), mapper.ZeroCopy())},
	})
}

type fxBytesRow struct {
	V []byte  `arrow:"v"`
	P *[]byte `arrow:"p"`
}

func TestDecodeBytes(t *testing.T) {
	// hi, "", null, 20 bytes, "abc": base64 in JSON.
	const js = `["aGk=", "", null, "AAECAwQFBgcICQoLDA0ODxAREhM=", "YWJj"]`
	long := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	variable := []fxBytesRow{
		{V: []byte("hi"), P: fxPtr([]byte("hi"))},
		{V: []byte{}, P: fxPtr([]byte{})},
		{},
		{V: long, P: fxPtr(long)},
		{V: []byte("abc"), P: fxPtr([]byte("abc"))},
	}
	bytesCase := func(dt arrow.DataType, js string, want []fxBytesRow, opts ...mapper.ReadOption) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxBytesRow](t, rec, opts...)
			require.Equal(t, want, got)
			for i, r := range got {
				// require.Equal tells nil from empty; say it outright too.
				require.Equal(t, want[i].V == nil, r.V == nil, "row %d: nil is null, empty is not", i)
			}
		}
	}
	fixed := []fxBytesRow{
		{V: []byte("abc"), P: fxPtr([]byte("abc"))},
		{},
		{V: []byte("xyz"), P: fxPtr([]byte("xyz"))},
		{V: []byte{0, 0, 0}, P: fxPtr([]byte{0, 0, 0})},
	}
	empty := []fxBytesRow{{V: []byte{}, P: fxPtr([]byte{})}, {}, {V: []byte{}, P: fxPtr([]byte{})}, {V: []byte{}, P: fxPtr([]byte{})}}
	fxRun(t, []fxCase{
		{"binary decodes into []byte", bytesCase(arrow.BinaryTypes.Binary, js, variable)},
		{"large_binary decodes into []byte", bytesCase(arrow.BinaryTypes.LargeBinary, js, variable)},
		{"binary_view decodes into []byte", bytesCase(arrow.BinaryTypes.BinaryView, js, variable)},
		{"binary decodes into []byte with ZeroCopy", bytesCase(arrow.BinaryTypes.Binary, js, variable, mapper.ZeroCopy())},
		{"binary_view decodes into []byte with ZeroCopy", bytesCase(arrow.BinaryTypes.BinaryView, js, variable, mapper.ZeroCopy())},
		{"dictionary<int8, binary> decodes into []byte", bytesCase(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.Binary}, js, variable)},
		{"fixed_size_binary(3) decodes into []byte", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "eHl6", "AAAA"]`, fixed)},
		{"fixed_size_binary(3) decodes into []byte with ZeroCopy", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["YWJj", null, "eHl6", "AAAA"]`, fixed, mapper.ZeroCopy())},
		{"fixed_size_binary(0) decodes into empty, non-nil []byte", bytesCase(&arrow.FixedSizeBinaryType{ByteWidth: 0}, `["", null, "", ""]`, empty)},
	})
}

// fxUUIDType is the arrow.uuid canonical extension, as
// arrow/extensions.NewUUIDType defines it: fixed_size_binary(16) storage.
// (arrow/extensions itself pulls in Parquet, which go.mod does not require.)
type fxUUIDType struct{ arrow.ExtensionBase }

type fxUUIDArray struct{ array.ExtensionArrayBase }

func newFxUUIDType() *fxUUIDType {
	return &fxUUIDType{ExtensionBase: arrow.ExtensionBase{Storage: &arrow.FixedSizeBinaryType{ByteWidth: 16}}}
}

func (*fxUUIDType) ArrayType() reflect.Type { return reflect.TypeOf(fxUUIDArray{}) }
func (*fxUUIDType) ExtensionName() string   { return "arrow.uuid" }
func (*fxUUIDType) Serialize() string       { return "" }
func (*fxUUIDType) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return newFxUUIDType(), nil
}
func (e *fxUUIDType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == e.ExtensionName()
}

type fxByteArrayRow struct {
	V [16]byte  `arrow:"v,nullable"`
	P *[16]byte `arrow:"p"`
}

func TestDecodeByteArrays(t *testing.T) {
	ids := [][16]byte{
		{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00},
		{},
		{0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8, 0xf7, 0xf6, 0xf5, 0xf4, 0xf3, 0xf2, 0xf1, 0xf0},
		{1},
		{15: 1},
	}
	build := func(mem memory.Allocator) arrow.Array {
		b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
		defer b.Release()
		for i, id := range ids {
			if i == 1 {
				b.AppendNull()
			} else {
				b.Append(id[:])
			}
		}
		return b.NewArray()
	}
	want := make([]fxByteArrayRow, len(ids))
	for i, id := range ids {
		if i != 1 {
			want[i] = fxByteArrayRow{V: id, P: fxPtr(id)}
		}
	}
	fxRun(t, []fxCase{
		{"fixed_size_binary(16) decodes into [16]byte", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", build(mem)}, fxCol{"p", build(mem)})
			defer rec.Release()
			require.Equal(t, want, fxDecodeAll[fxByteArrayRow](t, rec))
		}},
		{"the arrow.uuid extension decodes into [16]byte", func(t *testing.T, mem memory.Allocator) {
			ext := func() arrow.Array {
				storage := build(mem)
				defer storage.Release()
				return array.NewExtensionArrayWithStorage(newFxUUIDType(), storage)
			}
			rec := fxRecord(t, fxCol{"v", ext()}, fxCol{"p", ext()})
			defer rec.Release()
			require.Equal(t, "arrow.uuid", rec.Schema().Field(0).Type.(arrow.ExtensionType).ExtensionName())
			require.Equal(t, want, fxDecodeAll[fxByteArrayRow](t, rec))
		}},
		{"fixed_size_binary(8) does not decode into [16]byte", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxByteArrayRow](fxSchema("v", &arrow.FixedSizeBinaryType{ByteWidth: 8}, "p", &arrow.FixedSizeBinaryType{ByteWidth: 16}))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},
	})
}

type fxHalfRow struct {
	V float16.Num  `arrow:"v,nullable"`
	P *float16.Num `arrow:"p"`
}

func TestDecodeFloat16(t *testing.T) {
	fxRun(t, []fxCase{
		{"float16 decodes into float16.Num", func(t *testing.T, mem memory.Allocator) {
			const js = `[0.5, null, -2, 65504, 0.00006103515625]`
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.FixedWidthTypes.Float16, js)}, fxCol{"p", fxJSON(t, mem, arrow.FixedWidthTypes.Float16, js)})
			defer rec.Release()
			var want []fxHalfRow
			for i, f := range []float32{0.5, 0, -2, 65504, 0.00006103515625} {
				if i == 1 {
					want = append(want, fxHalfRow{})
					continue
				}
				want = append(want, fxHalfRow{V: float16.New(f), P: fxPtr(float16.New(f))})
			}
			got := fxDecodeAll[fxHalfRow](t, rec)
			require.Equal(t, want, got)
			require.Equal(t, float32(65504), got[3].V.Float32())
		}},
	})
}

// --- time ---

type fxTimeRow struct {
	V time.Time  `arrow:"v,nullable"`
	P *time.Time `arrow:"p"`
}

// fxTimesCase decodes raw values (row 1 null) of a temporal column dt into
// time.Time, checking each instant against want and its zone.
func fxTimesCase(dt arrow.DataType, raw []int64, want func(int64) time.Time, zone string, offset int) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		js := fxJSONList(raw, 1)
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		got := fxDecodeAll[fxTimeRow](t, rec)
		for i, r := range got {
			if i == 1 {
				require.Equal(t, fxTimeRow{}, r, "row 1 is null")
				continue
			}
			require.True(t, want(raw[i]).Equal(r.V), "row %d: %v, want %v", i, r.V, want(raw[i]))
			require.Equal(t, zone, r.V.Location().String(), "row %d", i)
			name, off := r.V.Zone()
			require.Equal(t, offset, off, "row %d", i)
			if zone != "UTC" && zone != "Asia/Tokyo" {
				require.Equal(t, zone, name, "row %d", i)
			}
			require.NotNil(t, r.P)
			require.Equal(t, r.V, *r.P)
		}
	}
}

func TestDecodeTime(t *testing.T) {
	units := []struct {
		unit arrow.TimeUnit
		raw  []int64
		at   func(int64) time.Time
	}{
		{arrow.Second, []int64{1700000000, 0, -1, 0, 253402300799}, func(x int64) time.Time { return time.Unix(x, 0) }},
		{arrow.Millisecond, []int64{1700000000123, 0, -1, 0, 86400000}, time.UnixMilli},
		{arrow.Microsecond, []int64{1700000000123456, 0, -1, 0, 86400000000}, time.UnixMicro},
		{arrow.Nanosecond, []int64{1700000000123456789, 0, -1, 0, math.MaxInt64}, func(x int64) time.Time { return time.Unix(0, x) }},
	}
	zones := []struct {
		tz, zone string
		offset   int
	}{
		{"Asia/Tokyo", "Asia/Tokyo", 9 * 3600},
		{"", "UTC", 0},
		{"+05:30", "+05:30", 19800},
		{"-03:00", "-03:00", -3 * 3600},
	}
	var cases []fxCase
	for _, u := range units {
		for _, z := range zones {
			dt := &arrow.TimestampType{Unit: u.unit, TimeZone: z.tz}
			cases = append(cases, fxCase{fmt.Sprintf("%s decodes into time.Time in %s", dt, z.zone), fxTimesCase(dt, u.raw, u.at, z.zone, z.offset)})
		}
	}
	cases = append(cases,
		fxCase{"date32 decodes into time.Time at UTC midnight", fxTimesCase(arrow.FixedWidthTypes.Date32, []int64{19000, 0, -1, 0, 2932896},
			func(x int64) time.Time { return time.Date(1970, 1, 1+int(x), 0, 0, 0, 0, time.UTC) }, "UTC", 0)},
		fxCase{"date64 decodes into time.Time at UTC midnight", fxTimesCase(arrow.FixedWidthTypes.Date64, []int64{19000 * 86400000, 0, -86400000, 0, 86400000},
			func(x int64) time.Time { return time.UnixMilli(x) }, "UTC", 0)},
		fxCase{"an unknown time zone in the schema is an error at New", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxTimeRow](fxSchema("v", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Mars/Olympus"}, "p", arrow.FixedWidthTypes.Date32))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
			require.Contains(t, err.Error(), "Mars/Olympus")
		}},
		fxCase{"a zone kept by its IANA name has its daylight saving time", func(t *testing.T, mem memory.Allocator) {
			dt := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Europe/Paris"}
			// 2024-01-15 and 2024-07-15, noon UTC.
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[1705320000, null, 1721044800, 0]`)}, fxCol{"p", fxJSON(t, mem, dt, `[1705320000, null, 1721044800, 0]`)})
			defer rec.Release()
			got := fxDecodeAll[fxTimeRow](t, rec)
			require.Equal(t, "2024-01-15T13:00:00+01:00", got[0].V.Format(time.RFC3339))
			require.Equal(t, "2024-07-15T14:00:00+02:00", got[2].V.Format(time.RFC3339))
		}},
	)
	fxRun(t, cases)
}

type fxDurationRow struct {
	V time.Duration  `arrow:"v,nullable"`
	P *time.Duration `arrow:"p"`
}

func TestDecodeDuration(t *testing.T) {
	durationsCase := func(dt arrow.DataType, unit time.Duration, raw ...int64) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			js := fxJSONList(raw, 1)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			want := make([]fxDurationRow, len(raw))
			for i, x := range raw {
				if i != 1 {
					want[i] = fxDurationRow{V: time.Duration(x) * unit, P: fxPtr(time.Duration(x) * unit)}
				}
			}
			require.Equal(t, want, fxDecodeAll[fxDurationRow](t, rec))
		}
	}
	overflowCase := func(dt arrow.DataType, raw string, row int) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, raw)}, fxCol{"p", fxJSON(t, mem, dt, `[1, 2, 3, 4, 5]`)})
			defer rec.Release()
			m, err := mapper.New[fxDurationRow](rec.Schema())
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row)
			_, err = m.Decode(rec)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row)
			sliced := rec.NewSlice(1, rec.NumRows())
			defer sliced.Release()
			_, err = m.View(sliced)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row-1)
		}
	}
	fxRun(t, []fxCase{
		{"duration[s] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_s, time.Second, 1, 0, -2, 86399, 9223372036)},
		{"duration[ms] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_ms, time.Millisecond, 1, 0, -2, 86399999, 9223372036854)},
		{"duration[us] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_us, time.Microsecond, 1, 0, -2, 86399999999, -9223372036854775)},
		{"duration[ns] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_ns, time.Nanosecond, 1, 0, -2, math.MaxInt64, math.MinInt64)},
		{"time32[s] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time32s, time.Second, 1, 0, 2, 86399)},
		{"time32[ms] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time32ms, time.Millisecond, 1, 0, 2, 86399999)},
		{"time64[us] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time64us, time.Microsecond, 1, 0, 2, 86399999999)},
		{"time64[ns] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time64ns, time.Nanosecond, 1, 0, 2, 86399999999999)},
		{"10^11 seconds overflows a time.Duration at View, naming its row", overflowCase(arrow.FixedWidthTypes.Duration_s, `[1, 2, 100000000000, 3, 4]`, 2)},
		{"-10^11 seconds overflows a time.Duration at View, naming its row", overflowCase(arrow.FixedWidthTypes.Duration_s, `[1, 2, 3, -100000000000, 4]`, 3)},
		{"one millisecond past the largest time.Duration overflows", overflowCase(arrow.FixedWidthTypes.Duration_ms, `[1, 9223372036854, 3, 4, 9223372036855]`, 4)},
	})
}

// --- decimals ---

type fxDecimalRow[D any] struct {
	V D  `arrow:"v,nullable"`
	P *D `arrow:"p"`
}

// fxDecimalsCase decodes 123.45, null, -0.05, 0 and 99.99 of a decimal
// column of scale 2 into D, the unscaled integer.
func fxDecimalsCase[D any](dt arrow.DataType, of func(int64) D) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		const js = `["123.45", null, "-0.05", "0", "99.99"]`
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		var want []fxDecimalRow[D]
		for i, x := range []int64{12345, 0, -5, 0, 9999} {
			if i == 1 {
				want = append(want, fxDecimalRow[D]{})
				continue
			}
			want = append(want, fxDecimalRow[D]{V: of(x), P: fxPtr(of(x))})
		}
		require.Equal(t, want, fxDecodeAll[fxDecimalRow[D]](t, rec))
	}
}

type fxDecimalText struct {
	V string  `arrow:"v,nullable"`
	P *string `arrow:"p"`
}

// fxDecimalTextCase decodes the decimal values of js (row 1 null) into their
// exact text.
func fxDecimalTextCase(dt arrow.DataType, js string, want ...string) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		rows := make([]fxDecimalText, len(want))
		for i, s := range want {
			if i != 1 {
				rows[i] = fxDecimalText{V: s, P: fxPtr(s)}
			}
		}
		require.Equal(t, rows, fxDecodeAll[fxDecimalText](t, rec))
	}
}

func TestDecodeDecimals(t *testing.T) {
	d32 := func(x int64) decimal.Decimal32 { return decimal.Decimal32(x) }
	d64 := func(x int64) decimal.Decimal64 { return decimal.Decimal64(x) }
	big256, ok := new(big.Int).SetString("-1234567890123456789012345678901234567890", 10)
	require.True(t, ok)
	fxRun(t, []fxCase{
		{"decimal32 decodes into decimal.Decimal32", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, d32)},
		{"decimal64 decodes into decimal.Decimal64", fxDecimalsCase(&arrow.Decimal64Type{Precision: 18, Scale: 2}, d64)},
		{"decimal128 decodes into decimal.Decimal128", fxDecimalsCase(&arrow.Decimal128Type{Precision: 10, Scale: 2}, decimal128.FromI64)},
		{"decimal256 decodes into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal256Type{Precision: 40, Scale: 2}, decimal256.FromI64)},
		{"decimal32 widens into decimal.Decimal64", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, d64)},
		{"decimal64 widens into decimal.Decimal128", fxDecimalsCase(&arrow.Decimal64Type{Precision: 18, Scale: 2}, decimal128.FromI64)},
		{"decimal32 widens into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, decimal256.FromI64)},
		{"decimal128 widens into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal128Type{Precision: 10, Scale: 2}, decimal256.FromI64)},
		{"decimal256 keeps all 40 digits", func(t *testing.T, mem memory.Allocator) {
			const js = `["-12345678901234567890123456789012345678.90", null, "1", "0"]`
			dt := &arrow.Decimal256Type{Precision: 40, Scale: 2}
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxDecimalRow[decimal.Decimal256]](t, rec)
			require.Equal(t, big256.String(), got[0].V.BigInt().String())
			require.Equal(t, int64(100), got[2].V.BigInt().Int64())
		}},
		{"a decimal128 into a narrower decimal.Decimal64 is a type mismatch", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxDecimalRow[decimal.Decimal64]](fxSchema("v", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "p", &arrow.Decimal64Type{Precision: 10, Scale: 2}))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},

		{"decimal128(10,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal128Type{Precision: 10, Scale: 2},
			`["123.45", null, "-0.05", "0", "-12345678.90", "0.5"]`, "123.45", "", "-0.05", "0.00", "-12345678.90", "0.50")},
		{"decimal256(40,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal256Type{Precision: 40, Scale: 2},
			`["-12345678901234567890123456789012345678.90", null, "0.01", "7"]`, "-12345678901234567890123456789012345678.90", "", "0.01", "7.00")},
		{"decimal32(9,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal32Type{Precision: 9, Scale: 2},
			`["1234567.89", null, "-0.05", "-1234567.89"]`, "1234567.89", "", "-0.05", "-1234567.89")},
		{"decimal64(18,4) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal64Type{Precision: 18, Scale: 4},
			`["12345.6789", null, "-0.0001", "0"]`, "12345.6789", "", "-0.0001", "0.0000")},
		{"decimal128(5,0) decodes into its text without a point", fxDecimalTextCase(&arrow.Decimal128Type{Precision: 5, Scale: 0},
			`["42", null, "-7", "0"]`, "42", "", "-7", "0")},
	})
}

// --- lists and maps ---

type fxListRow struct {
	V []int64 `arrow:"v"`
}

type fxStringListRow struct {
	V []string `arrow:"v"`
}

// fxListView is a list view (large when large is set) of int64 over the
// child 10, 11, 12, 13, 14, 15 whose rows come out of order and overlap:
// [13, 14], [10, 11, 12], [], null, [12, 13], [11].
func fxListView(t *testing.T, mem memory.Allocator, large bool) arrow.Array {
	child := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 11, 12, 13, 14, 15]`)
	defer child.Release()
	offsets := []int{3, 0, 5, 0, 2, 1}
	sizes := []int{2, 3, 0, 0, 2, 1}
	validity := memory.NewBufferBytes([]byte{0b110111})
	var dt arrow.DataType
	var offBuf, sizeBuf *memory.Buffer
	if large {
		dt = arrow.LargeListViewOf(arrow.PrimitiveTypes.Int64)
		o, s := make([]int64, len(offsets)), make([]int64, len(sizes))
		for i := range offsets {
			o[i], s[i] = int64(offsets[i]), int64(sizes[i])
		}
		offBuf, sizeBuf = memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(o)), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(s))
	} else {
		dt = arrow.ListViewOf(arrow.PrimitiveTypes.Int64)
		o, s := make([]int32, len(offsets)), make([]int32, len(sizes))
		for i := range offsets {
			o[i], s[i] = int32(offsets[i]), int32(sizes[i])
		}
		offBuf, sizeBuf = memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(o)), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(s))
	}
	data := array.NewData(dt, len(offsets), []*memory.Buffer{validity, offBuf, sizeBuf}, []arrow.ArrayData{child.Data()}, 1, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

func TestDecodeLists(t *testing.T) {
	const js = `[[1, 2], [], null, [3], [4, 5, 6]]`
	want := []fxListRow{{[]int64{1, 2}}, {[]int64{}}, {nil}, {[]int64{3}}, {[]int64{4, 5, 6}}}
	listCase := func(dt arrow.DataType, js string, want []fxListRow) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxListRow](t, rec)
			require.Equal(t, want, got)
			for i, r := range got {
				require.Equal(t, want[i].V == nil, r.V == nil, "row %d: nil is null, empty is not", i)
			}
		}
	}
	const strJS = `[["a", "b"], [], null, ["a value longer than twelve bytes"], ["c", "", "d"]]`
	strWant := []fxStringListRow{{[]string{"a", "b"}}, {[]string{}}, {nil}, {[]string{"a value longer than twelve bytes"}}, {[]string{"c", "", "d"}}}
	stringListCase := func(dt arrow.DataType) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, strJS)})
			defer rec.Release()
			require.Equal(t, strWant, fxDecodeAll[fxStringListRow](t, rec))
		}
	}
	listViewWant := []fxListRow{{[]int64{13, 14}}, {[]int64{10, 11, 12}}, {[]int64{}}, {nil}, {[]int64{12, 13}}, {[]int64{11}}}
	fxRun(t, []fxCase{
		{"list decodes into a slice", listCase(arrow.ListOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"large_list decodes into a slice", listCase(arrow.LargeListOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"list_view decodes into a slice", listCase(arrow.ListViewOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"large_list_view decodes into a slice", listCase(arrow.LargeListViewOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"list<int32> widens into []int64", listCase(arrow.ListOf(arrow.PrimitiveTypes.Int32), js, want)},
		{"fixed_size_list(2) decodes into a slice", listCase(arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64), `[[1, 2], null, [3, 4], [5, 6], [7, 8]]`,
			[]fxListRow{{[]int64{1, 2}}, {nil}, {[]int64{3, 4}}, {[]int64{5, 6}}, {[]int64{7, 8}}})},
		{"a list_view whose rows are out of order and overlap decodes into slices", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxListView(t, mem, false)})
			defer rec.Release()
			require.Equal(t, listViewWant, fxDecodeAll[fxListRow](t, rec))
		}},
		{"a large_list_view whose rows are out of order and overlap decodes into slices", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxListView(t, mem, true)})
			defer rec.Release()
			require.Equal(t, listViewWant, fxDecodeAll[fxListRow](t, rec))
		}},
		{"list<utf8> decodes into []string", stringListCase(arrow.ListOf(arrow.BinaryTypes.String))},
		{"large_list_view<utf8_view> decodes into []string", stringListCase(arrow.LargeListViewOf(arrow.BinaryTypes.StringView))},
		{"list<dictionary<int8, utf8>> decodes into []string", stringListCase(arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}))},
		{"fixed_size_list(3) decodes into [3]int32", func(t *testing.T, mem memory.Allocator) {
			type arrayRow struct {
				V [3]int32  `arrow:"v"`
				N [3]int32  `arrow:"n,nullable"`
				P *[3]int32 `arrow:"p"`
			}
			dt := arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32)
			const full = `[[1, 2, 3], [4, 5, 6], [-1, 0, 1], [7, 8, 9], [10, 11, 12]]`
			const holes = `[[1, 2, 3], null, [-1, 0, 1], null, [10, 11, 12]]`
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, full)}, fxCol{"n", fxJSON(t, mem, dt, holes)}, fxCol{"p", fxJSON(t, mem, dt, holes)})
			defer rec.Release()
			require.Equal(t, []arrayRow{
				{V: [3]int32{1, 2, 3}, N: [3]int32{1, 2, 3}, P: &[3]int32{1, 2, 3}},
				{V: [3]int32{4, 5, 6}},
				{V: [3]int32{-1, 0, 1}, N: [3]int32{-1, 0, 1}, P: &[3]int32{-1, 0, 1}},
				{V: [3]int32{7, 8, 9}},
				{V: [3]int32{10, 11, 12}, N: [3]int32{10, 11, 12}, P: &[3]int32{10, 11, 12}},
			}, fxDecodeAll[arrayRow](t, rec))
		}},
		{"fixed_size_list(2) does not decode into [3]int32", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxCell[[3]int32]](fxSchema("v", arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},
		{"a nullable element accepts null elements as zero", func(t *testing.T, mem memory.Allocator) {
			type nullableElems struct {
				V []int64 `arrow:"v" arrow-elem:"nullable"`
			}
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, null, 3], null, [], [null], [5]]`)})
			defer rec.Release()
			require.Equal(t, []nullableElems{{[]int64{1, 0, 3}}, {nil}, {[]int64{}}, {[]int64{0}}, {[]int64{5}}}, fxDecodeAll[nullableElems](t, rec))
		}},
		{"a null element without arrow-elem nullable is ErrNull", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, 2], null, [], [3, null], [5]]`)})
			defer rec.Release()
			m, err := mapper.New[fxListRow](rec.Schema())
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrNull, "V[]", "v.item", 3)
			// A slice of the record that leaves the null out views fine.
			head := rec.NewSlice(0, 3)
			defer head.Release()
			got, err := m.Decode(head)
			require.NoError(t, err)
			require.Equal(t, want[:1], got[:1])
		}},
	})
}

type fxMapRow struct {
	V map[string]int64 `arrow:"v"`
}

type fxMapListRow struct {
	V map[string][]int64 `arrow:"v"`
}

func TestDecodeMaps(t *testing.T) {
	fxRun(t, []fxCase{
		{"map<utf8, int64> decodes into map[string]int64", func(t *testing.T, mem memory.Allocator) {
			dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[
				[{"key": "a", "value": 1}, {"key": "b", "value": 2}],
				[],
				null,
				[{"key": "c", "value": -3}],
				[{"key": "a", "value": 4}, {"key": "a long key, past twelve bytes", "value": 5}]]`)})
			defer rec.Release()
			require.Equal(t, []fxMapRow{
				{map[string]int64{"a": 1, "b": 2}},
				{map[string]int64{}},
				{nil},
				{map[string]int64{"c": -3}},
				{map[string]int64{"a": 4, "a long key, past twelve bytes": 5}},
			}, fxDecodeAll[fxMapRow](t, rec))
		}},
		{"map<utf8, list<int64>> decodes into map[string][]int64", func(t *testing.T, mem memory.Allocator) {
			dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int64))
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[
				[{"key": "a", "value": [1, 2]}, {"key": "b", "value": []}],
				null,
				[{"key": "c", "value": null}],
				[],
				[{"key": "d", "value": [3]}]]`)})
			defer rec.Release()
			require.Equal(t, []fxMapListRow{
				{map[string][]int64{"a": {1, 2}, "b": {}}},
				{nil},
				{map[string][]int64{"c": nil}},
				{map[string][]int64{}},
				{map[string][]int64{"d": {3}}},
			}, fxDecodeAll[fxMapListRow](t, rec))
		}},
	})
}

// --- structs and pointers ---

type fxOwner struct {
	Age  int32  `arrow:"age"`
	Name string `arrow:"name"`
}

type fxMeta struct {
	Owner fxOwner  `arrow:"owner"`
	Tags  []string `arrow:"tags"`
}

type fxDoc struct {
	ID   int64  `arrow:"id"`
	Meta fxMeta `arrow:"meta"`
}

var fxOwnerType = arrow.StructOf(
	arrow.Field{Name: "age", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true})

// fxNullStructRows is a struct<age, name> array whose rows 1 and 3 are null
// over children that hold values: ann 30, (bob 40), cy 50, (dee 60), eve 70.
func fxNullStructRows(t *testing.T, mem memory.Allocator) arrow.Array {
	ages := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[30, 40, 50, 60, 70]`)
	defer ages.Release()
	names := fxJSON(t, mem, arrow.BinaryTypes.String, `["ann", "bob", "cy", "dee", "eve"]`)
	defer names.Release()
	data := array.NewData(fxOwnerType, 5, []*memory.Buffer{memory.NewBufferBytes([]byte{0b10101})},
		[]arrow.ArrayData{ages.Data(), names.Data()}, 2, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

func TestDecodeStructs(t *testing.T) {
	fxRun(t, []fxCase{
		{"a struct nested three deep decodes field by field", func(t *testing.T, mem memory.Allocator) {
			meta := arrow.StructOf(
				arrow.Field{Name: "owner", Type: fxOwnerType},
				arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})
			rec := fxRecord(t,
				fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
				fxCol{"meta", fxJSON(t, mem, meta, `[
					{"owner": {"age": 30, "name": "ann"}, "tags": ["x", "y"]},
					{"owner": {"age": 0, "name": ""}, "tags": []},
					{"owner": {"age": 7, "name": "a name longer than twelve"}, "tags": null},
					{"owner": {"age": -1, "name": "dee"}, "tags": ["z"]},
					{"owner": {"age": 99, "name": "eve"}, "tags": ["", "w"]}]`)})
			defer rec.Release()
			require.Equal(t, []fxDoc{
				{1, fxMeta{fxOwner{30, "ann"}, []string{"x", "y"}}},
				{2, fxMeta{fxOwner{0, ""}, []string{}}},
				{3, fxMeta{fxOwner{7, "a name longer than twelve"}, nil}},
				{4, fxMeta{fxOwner{-1, "dee"}, []string{"z"}}},
				{5, fxMeta{fxOwner{99, "eve"}, []string{"", "w"}}},
			}, fxDecodeAll[fxDoc](t, rec))
		}},
		{"a *struct is nil on a null row", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V *fxOwner `arrow:"v"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			require.Equal(t, []row{{&fxOwner{30, "ann"}}, {nil}, {&fxOwner{50, "cy"}}, {nil}, {&fxOwner{70, "eve"}}}, fxDecodeAll[row](t, rec))
		}},
		{"a nullable struct is the zero struct on a null row, though its children hold values", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V fxOwner `arrow:"v,nullable"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			require.Equal(t, []row{{fxOwner{30, "ann"}}, {}, {fxOwner{50, "cy"}}, {}, {fxOwner{70, "eve"}}}, fxDecodeAll[row](t, rec))
		}},
		{"a struct that is not nullable rejects a null row", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V fxOwner `arrow:"v"`
			}
			rec := fxRecord(t, fxCol{"v", fxNullStructRows(t, mem)})
			defer rec.Release()
			_, err := mapper.Decode[row](rec)
			fxRequireError(t, err, mapper.ErrNull, "V", "v", 1)
		}},
		{"a list of nullable structs clears the null elements", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				V []fxOwner `arrow:"v" arrow-elem:"nullable"`
			}
			elems := fxNullStructRows(t, mem)
			defer elems.Release()
			offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 2, 3, 5}))
			data := array.NewData(arrow.ListOf(fxOwnerType), 4, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{elems.Data()}, 0, 0)
			defer data.Release()
			rec := fxRecord(t, fxCol{"v", array.MakeFromData(data)})
			defer rec.Release()
			require.Equal(t, []row{
				{[]fxOwner{{30, "ann"}, {}}},
				{[]fxOwner{}},
				{[]fxOwner{{50, "cy"}}},
				{[]fxOwner{{}, {70, "eve"}}},
			}, fxDecodeAll[row](t, rec))
		}},
		{"pointers decode at any level", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				A *int64    `arrow:"a"`
				B []*string `arrow:"b"`
				C *[]int64  `arrow:"c"`
				D **int32   `arrow:"d"`
			}
			rec := fxRecord(t,
				fxCol{"a", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, null, 3, null, 5]`)},
				fxCol{"b", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x", null], null, [], [null], ["y"]]`)},
				fxCol{"c", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1], [], null, [2, 3], null]`)},
				fxCol{"d", fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[null, 7, 8, null, 9]`)})
			defer rec.Release()
			pp := func(v int32) **int32 { p := &v; return &p }
			require.Equal(t, []row{
				{A: fxPtr(int64(1)), B: []*string{fxPtr("x"), nil}, C: &[]int64{1}},
				{C: &[]int64{}, D: pp(7)},
				{A: fxPtr(int64(3)), B: []*string{}, D: pp(8)},
				{B: []*string{nil}, C: &[]int64{2, 3}},
				{A: fxPtr(int64(5)), B: []*string{fxPtr("y")}, D: pp(9)},
			}, fxDecodeAll[row](t, rec))
		}},
		{"named types decode by their underlying kind", func(t *testing.T, mem memory.Allocator) {
			type Celsius float64
			type Name string
			type IDs []int64
			type Flag bool
			type Count uint16
			type row struct {
				Temp  Celsius  `arrow:"temp"`
				Name  Name     `arrow:"name"`
				IDs   IDs      `arrow:"ids"`
				Flag  Flag     `arrow:"flag"`
				Count *Count   `arrow:"count"`
				Names []Name   `arrow:"names"`
				Temps *Celsius `arrow:"temps"`
			}
			rec := fxRecord(t,
				fxCol{"temp", fxJSON(t, mem, arrow.PrimitiveTypes.Float32, `[21.5, -4, 0, 100, 37.25]`)},
				fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "", "d", "e"]`)},
				fxCol{"ids", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1], null, [], [2, 3], [4]]`)},
				fxCol{"flag", fxJSON(t, mem, arrow.FixedWidthTypes.Boolean, `[true, false, true, false, false]`)},
				fxCol{"count", fxJSON(t, mem, arrow.PrimitiveTypes.Uint8, `[1, null, 255, 0, null]`)},
				fxCol{"names", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x"], [], null, ["y", "z"], ["w"]]`)},
				fxCol{"temps", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, `[null, 1.5, null, 2.5, 3.5]`)})
			defer rec.Release()
			require.Equal(t, []row{
				{Temp: 21.5, Name: "a", IDs: IDs{1}, Flag: true, Count: fxPtr(Count(1)), Names: []Name{"x"}},
				{Temp: -4, Name: "b", Names: []Name{}, Temps: fxPtr(Celsius(1.5))},
				{Temp: 0, Name: "", IDs: IDs{}, Flag: true, Count: fxPtr(Count(255))},
				{Temp: 100, Name: "d", IDs: IDs{2, 3}, Count: fxPtr(Count(0)), Names: []Name{"y", "z"}, Temps: fxPtr(Celsius(2.5))},
				{Temp: 37.25, Name: "e", IDs: IDs{4}, Names: []Name{"w"}, Temps: fxPtr(Celsius(3.5))},
			}, fxDecodeAll[row](t, rec))
		}},
	})
}

// --- encoding.TextUnmarshaler and As ---

type fxAddrRow struct {
	V netip.Addr   `arrow:"v,nullable"`
	P *netip.Addr  `arrow:"p"`
	L []netip.Addr `arrow:"l"`
	S struct {
		A netip.Addr `arrow:"a"`
	} `arrow:"s"`
}

func TestDecodeTextUnmarshaler(t *testing.T) {
	addrs := []string{"192.0.2.1", "::1", "10.0.0.255", "2001:db8::68", "127.0.0.1"}
	addrType := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.BinaryTypes.String})
	build := func(t *testing.T, mem memory.Allocator, dt arrow.DataType, bad string, badRow int) arrow.RecordBatch {
		vals := make([]string, len(addrs))
		for i, a := range addrs {
			vals[i] = strconv.Quote(a)
		}
		if badRow >= 0 {
			vals[badRow] = strconv.Quote(bad)
		}
		lists := `[[` + vals[0] + `, ` + vals[1] + `], null, [], [` + vals[3] + `], [` + vals[4] + `, ` + vals[2] + `]]`
		structs := make([]string, len(vals))
		for i, v := range vals {
			structs[i] = `{"a": ` + v + `}`
		}
		return fxRecord(t,
			fxCol{"v", fxJSON(t, mem, dt, fxJSONList(vals, 1))},
			fxCol{"p", fxJSON(t, mem, dt, fxJSONList(vals, 1))},
			fxCol{"l", fxJSON(t, mem, arrow.ListOf(dt), lists)},
			fxCol{"s", fxJSON(t, mem, addrType, fxJSONList(structs))})
	}
	decodes := func(dt arrow.DataType) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, dt, "", -1)
			defer rec.Release()
			a := make([]netip.Addr, len(addrs))
			for i, s := range addrs {
				a[i] = netip.MustParseAddr(s)
			}
			want := []fxAddrRow{
				{V: a[0], P: &a[0], L: []netip.Addr{a[0], a[1]}},
				{},
				{V: a[2], P: &a[2], L: []netip.Addr{}},
				{V: a[3], P: &a[3], L: []netip.Addr{a[3]}},
				{V: a[4], P: &a[4], L: []netip.Addr{a[4], a[2]}},
			}
			for i := range want {
				want[i].S.A = a[i]
			}
			require.Equal(t, want, fxDecodeAll[fxAddrRow](t, rec))
		}
	}
	fails := func(column string, badRow int) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			type one struct {
				V netip.Addr  `arrow:"v,nullable"`
				P *netip.Addr `arrow:"p"`
			}
			good := `["::1", "::2", "::3", "::4", "::5"]`
			bad := strings.Replace(good, fmt.Sprintf(`"::%d"`, badRow+1), `"not an address"`, 1)
			cols := map[string]string{"v": good, "p": good}
			cols[column] = bad
			rec := fxRecord(t,
				fxCol{"v", fxJSON(t, mem, arrow.BinaryTypes.String, cols["v"])},
				fxCol{"p", fxJSON(t, mem, arrow.BinaryTypes.String, cols["p"])})
			defer rec.Release()
			m, err := mapper.New[one](rec.Schema())
			require.NoError(t, err)
			path := strings.ToUpper(column)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow)
			require.Contains(t, err.Error(), "not an address")
			_, err = m.Decode(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow)
			sliced := rec.NewSlice(1, 5)
			defer sliced.Release()
			_, err = m.View(sliced)
			fxRequireError(t, err, mapper.ErrInvalidData, path, column, badRow-1)
		}
	}
	fxRun(t, []fxCase{
		{"utf8 decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.String)},
		{"large_utf8 decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.LargeString)},
		{"utf8_view decodes into netip.Addr through UnmarshalText", decodes(arrow.BinaryTypes.StringView)},
		{"dictionary<int16, utf8> decodes into netip.Addr through UnmarshalText", decodes(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String})},
		{"an UnmarshalText error is ErrInvalidData naming the row at View", fails("v", 3)},
		{"an UnmarshalText error behind a pointer names the row too", fails("p", 2)},
	})
}

// FxCents is money as a whole number of cents, read from a float64 of units.
type FxCents int64

var errFxNegative = errors.New("negative amount")

func fxCentsOf(f float64) (FxCents, error) {
	if f < 0 {
		return 0, errFxNegative
	}
	return FxCents(math.Round(f * 100)), nil
}

// FxMoney is an amount and its currency, read from text such as "12.34 EUR".
type FxMoney struct {
	Cents    int64
	Currency string
}

func fxMoneyOf(s string) (FxMoney, error) {
	amount, currency, ok := strings.Cut(s, " ")
	if !ok {
		return FxMoney{}, fmt.Errorf("no currency in %q", s)
	}
	f, err := strconv.ParseFloat(amount, 64)
	if err != nil {
		return FxMoney{}, err
	}
	return FxMoney{Cents: int64(math.Round(f * 100)), Currency: currency}, nil
}

type fxPriceRow struct {
	Price   FxCents   `arrow:"price"`
	Maybe   *FxCents  `arrow:"maybe"`
	History []FxCents `arrow:"history"`
	Total   FxMoney   `arrow:"total"`
}

func TestDecodeAs(t *testing.T) {
	opts := []mapper.ReadOption{mapper.As[FxCents, float64](fxCentsOf, nil), mapper.As[FxMoney, string](fxMoneyOf, nil)}
	build := func(t *testing.T, mem memory.Allocator, price, history, total string) arrow.RecordBatch {
		return fxRecord(t,
			fxCol{"price", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, price)},
			fxCol{"maybe", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, `[null, 0.5, null, 2, 3]`)},
			fxCol{"history", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Float64), history)},
			fxCol{"total", fxJSON(t, mem, arrow.BinaryTypes.String, total)})
	}
	fxRun(t, []fxCase{
		{"As decodes a float64 into FxCents and a string into FxMoney", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1.25, 0, 10, 0.01, 99.99]`, `[[1, 2.5], [], null, [0.07], [3]]`,
				`["1.00 EUR", "2.50 USD", "0 JPY", "12.34 EUR", "0.01 GBP"]`)
			defer rec.Release()
			require.Equal(t, []fxPriceRow{
				{Price: 125, History: []FxCents{100, 250}, Total: FxMoney{100, "EUR"}},
				{Price: 0, Maybe: fxPtr(FxCents(50)), History: []FxCents{}, Total: FxMoney{250, "USD"}},
				{Price: 1000, Total: FxMoney{0, "JPY"}},
				{Price: 1, Maybe: fxPtr(FxCents(200)), History: []FxCents{7}, Total: FxMoney{1234, "EUR"}},
				{Price: 9999, Maybe: fxPtr(FxCents(300)), History: []FxCents{300}, Total: FxMoney{1, "GBP"}},
			}, fxDecodeAll[fxPriceRow](t, rec, opts...))
		}},
		{"an As decode error is ErrInvalidData naming the row, wrapping the error", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1, 2, 3, -4, 5]`, `[[1], [], null, [2], [3]]`, `["1 EUR", "2 EUR", "3 EUR", "4 EUR", "5 EUR"]`)
			defer rec.Release()
			m, err := mapper.New[fxPriceRow](rec.Schema(), opts...)
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrInvalidData, "Price", "price", 3)
			require.ErrorIs(t, err, errFxNegative)
			_, err = mapper.Decode[fxPriceRow](rec, opts...)
			fxRequireError(t, err, mapper.ErrInvalidData, "Price", "price", 3)
		}},
		{"an As decode error in a string column names its row", func(t *testing.T, mem memory.Allocator) {
			rec := build(t, mem, `[1, 2, 3, 4, 5]`, `[[1], [], null, [2], [3]]`, `["1 EUR", "2 EUR", "3EUR", "4 EUR", "5 EUR"]`)
			defer rec.Release()
			_, err := mapper.Decode[fxPriceRow](rec, opts...)
			fxRequireError(t, err, mapper.ErrInvalidData, "Total", "total", 2)
			require.Contains(t, err.Error(), `no currency in "3EUR"`)
		}},
	})
}

// --- embedded structs ---

type EmbBase struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

type EmbAudit struct {
	By string `arrow:"by"`
}

type EmbLevel struct {
	*EmbAudit
	Level int64 `arrow:"level"`
}

type EmbLeft struct {
	X int64 `arrow:"x"`
	L int64 `arrow:"l"`
}

type EmbRight struct {
	X int64 `arrow:"x"`
	R int64 `arrow:"r"`
}

type EmbPlain struct {
	X int64
}

type EmbTaggedX struct {
	X int64 `arrow:"X"`
}

type EmbAddress struct {
	City string `arrow:"city"`
	Zip  string `arrow:"zip"`
}

func TestDecodeEmbedded(t *testing.T) {
	// Every case reads the same record; fields pick their columns.
	build := func(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
		return fxRecord(t,
			fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
			fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c", "d", "e"]`)},
			fxCol{"by", fxJSON(t, mem, arrow.BinaryTypes.String, `["u1", "u2", "u3", "u4", "u5"]`)},
			fxCol{"level", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 20, 30, 40, 50]`)},
			fxCol{"x", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[7, 7, 7, 7, 7]`)},
			fxCol{"X", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[8, 8, 8, 8, 8]`)},
			fxCol{"l", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[-1, -2, -3, -4, -5]`)},
			fxCol{"r", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, 5]`)},
			fxCol{"city", fxJSON(t, mem, arrow.BinaryTypes.String, `["Oslo", "Rome", "Lima", "Pune", "Kobe"]`)},
			fxCol{"zip", fxJSON(t, mem, arrow.BinaryTypes.String, `["0150", "00100", "15001", "411001", "650-0001"]`)},
			fxCol{"base", fxJSON(t, mem, arrow.StructOf(
				arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64},
				arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}),
				`[{"id": 100, "name": "s1"}, {"id": 200, "name": "s2"}, {"id": 300, "name": "s3"}, {"id": 400, "name": "s4"}, {"id": 500, "name": "s5"}]`)})
	}
	ids := []int64{1, 2, 3, 4, 5}
	names := []string{"a", "b", "c", "d", "e"}
	bys := []string{"u1", "u2", "u3", "u4", "u5"}
	fxRun(t, []fxCase{
		{"an embedded struct's fields are promoted", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase
				Level int64 `arrow:"level"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase{ids[i], names[i]}, int64(10 * (i + 1))}, r)
			}
		}},
		{"an embedded pointer is allocated for each row when its fields are filled", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				*EmbAudit
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.NotNil(t, r.EmbAudit)
				require.Equal(t, bys[i], r.By)
				require.Equal(t, ids[i], r.ID)
				if i > 0 {
					require.NotSame(t, got[i-1].EmbAudit, r.EmbAudit, "rows share an embedded pointer")
				}
			}
		}},
		{"an embedded pointer without any column stays nil", func(t *testing.T, mem memory.Allocator) {
			type Missing struct {
				Gone string `arrow:"gone"`
			}
			type row struct {
				*Missing
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec, mapper.AllowMissing())
			for i, r := range got {
				require.Equal(t, row{ID: ids[i]}, r)
			}
		}},
		{"an embedded pointer inside an embedded pointer is allocated too", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				*EmbLevel
				ID int64 `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.NotNil(t, r.EmbLevel)
				require.NotNil(t, r.EmbAudit)
				require.Equal(t, row{&EmbLevel{&EmbAudit{bys[i]}, int64(10 * (i + 1))}, ids[i]}, r)
			}
		}},
		{"a tagged embedded struct is a named struct field", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase `arrow:"base"`
				Level   int64 `arrow:"level"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase{int64(100 * (i + 1)), fmt.Sprintf("s%d", i+1)}, int64(10 * (i + 1))}, r)
			}
		}},
		{"a shallower field shadows a promoted one of the same name", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbBase
				Name string `arrow:"by"` // same Go name, another column: the column name decides
				ID   int64  `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbBase: EmbBase{Name: names[i]}, Name: bys[i], ID: ids[i]}, r,
					"the outer id hides EmbBase.ID; EmbBase.Name still reads name")
			}
		}},
		{"two promoted fields of one name at one depth hide each other", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbLeft
				EmbRight
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for i, r := range got {
				require.Equal(t, row{EmbLeft{X: 0, L: -int64(i + 1)}, EmbRight{X: 0, R: int64(i + 1)}}, r)
			}
			_, err := mapper.New[row](fxSchema("l", arrow.PrimitiveTypes.Int64, "r", arrow.PrimitiveTypes.Int64))
			require.NoError(t, err, "a hidden field needs no column")
		}},
		{"of two promoted fields of one name, the only tagged one wins", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				EmbPlain
				EmbTaggedX
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			for _, r := range got {
				require.Equal(t, row{EmbPlain{0}, EmbTaggedX{8}}, r)
			}
		}},
		{"an inline struct field is flattened", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				Addr EmbAddress `arrow:",inline"`
				ID   int64      `arrow:"id"`
			}
			rec := build(t, mem)
			defer rec.Release()
			got := fxDecodeAll[row](t, rec)
			require.Equal(t, row{EmbAddress{"Oslo", "0150"}, 1}, got[0])
			require.Equal(t, row{EmbAddress{"Kobe", "650-0001"}, 5}, got[4])
		}},
	})
}

// --- ZeroCopy ---

// fxInsideAny reports whether p points into one of bufs.
func fxInsideAny(p unsafe.Pointer, bufs [][]byte) bool {
	for _, b := range bufs {
		if len(b) == 0 {
			continue
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if uintptr(p) >= start && uintptr(p) < start+uintptr(len(b)) {
			return true
		}
	}
	return false
}

func TestZeroCopy(t *testing.T) {
	type row struct {
		S string   `arrow:"s"`
		B []byte   `arrow:"b"`
		L []string `arrow:"l"`
	}
	encodings := []struct {
		name   string
		str    arrow.DataType
		binary arrow.DataType
	}{
		{"utf8 and binary", arrow.BinaryTypes.String, arrow.BinaryTypes.Binary},
		{"large_utf8 and large_binary", arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary},
		{"utf8_view and binary_view", arrow.BinaryTypes.StringView, arrow.BinaryTypes.BinaryView},
	}
	buffers := func(arr arrow.Array) [][]byte {
		var out [][]byte
		var walk func(d arrow.ArrayData)
		walk = func(d arrow.ArrayData) {
			for _, b := range d.Buffers() {
				if b != nil {
					out = append(out, b.Bytes())
				}
			}
			for _, c := range d.Children() {
				walk(c)
			}
		}
		walk(arr.Data())
		return out
	}
	for _, enc := range encodings {
		for _, zero := range []bool{true, false} {
			name := "strings and bytes of " + enc.name + " alias Arrow memory with ZeroCopy"
			if !zero {
				name = "strings and bytes of " + enc.name + " are copies without ZeroCopy"
			}
			t.Run(name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				const strs = `["a string longer than twelve bytes", "short", null, "another string past twelve bytes", "x"]`
				rec := fxRecord(t,
					fxCol{"s", fxJSON(t, mem, enc.str, strings.ReplaceAll(strs, "null", `"n"`))},
					fxCol{"b", fxJSON(t, mem, enc.binary, `["AAECAwQFBgcICQoLDA0ODxAREhM=", "aGk=", null, "aGVsbG8gd29ybGQsIGhlbGxv", "eA=="]`)},
					fxCol{"l", fxJSON(t, mem, arrow.ListOf(enc.str), `[["a string longer than twelve bytes"], [], null, ["y", "another string past twelve bytes"], ["z"]]`)})
				defer rec.Release()
				var opts []mapper.ReadOption
				if zero {
					opts = append(opts, mapper.ZeroCopy())
				}
				got := fxDecodeAll[row](t, rec, opts...)
				require.Equal(t, "a string longer than twelve bytes", got[0].S)
				require.Equal(t, []string{"y", "another string past twelve bytes"}, got[3].L)
				sBufs, bBufs, lBufs := buffers(rec.Column(0)), buffers(rec.Column(1)), buffers(rec.Column(2))
				for i, r := range got {
					require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.StringData(r.S)), sBufs), "row %d: %q", i, r.S)
					if len(r.B) > 0 {
						require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.SliceData(r.B)), bBufs), "row %d: %x", i, r.B)
					}
					for _, s := range r.L {
						require.Equal(t, zero, fxInsideAny(unsafe.Pointer(unsafe.StringData(s)), lBufs), "row %d: %q", i, s)
					}
				}
			})
		}
	}
}
