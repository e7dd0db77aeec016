package arrowcheck_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fromJSON(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

// notUTF8 is a with every "ÿ" (C3 BF) made FF FF, two bytes that are not
// UTF-8, in every buffer at every depth.
func notUTF8(t *testing.T, a arrow.Array) arrow.Array {
	t.Helper()
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for k, b := range d.Buffers() {
			if k > 0 && b != nil {
				copy(b.Bytes(), bytes.ReplaceAll(b.Bytes(), []byte("ÿ"), []byte{0xff, 0xff}))
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			walk(dict)
		}
	}
	walk(a.Data())
	return a
}

// decimals is an array of the decimal type dt of the values vals, exactly,
// whatever dt's precision ("" is a null): what a hostile writer may send.
func decimals(t *testing.T, dt arrow.DataType, vals ...string) arrow.Array {
	t.Helper()
	scale := dt.(arrow.DecimalType).GetScale()
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, s := range vals {
		if s == "" {
			b.AppendNull()
			continue
		}
		var err error
		switch b := b.(type) {
		case *array.Decimal32Builder:
			var v decimal.Decimal32
			v, err = decimal.Decimal32FromString(s, 9, scale)
			b.Append(v)
		case *array.Decimal64Builder:
			var v decimal.Decimal64
			v, err = decimal.Decimal64FromString(s, 18, scale)
			b.Append(v)
		case *array.Decimal128Builder:
			var v decimal128.Num
			v, err = decimal128.FromString(s, 38, scale)
			b.Append(v)
		case *array.Decimal256Builder:
			var v decimal256.Num
			v, err = decimal256.FromString(s, 76, scale)
			b.Append(v)
		}
		require.NoError(t, err)
	}
	a := b.NewArray()
	t.Cleanup(a.Release)
	return a
}

// withData is an array of dt over buffers and children, with nulls nulls.
func withData(t *testing.T, dt arrow.DataType, n int, buffers []*memory.Buffer, children []arrow.Array, nulls int) arrow.Array {
	t.Helper()
	var kids []arrow.ArrayData
	for _, c := range children {
		kids = append(kids, c.Data())
	}
	d := array.NewData(dt, n, buffers, kids, nulls, 0)
	defer d.Release()
	a := array.MakeFromData(d)
	t.Cleanup(a.Release)
	return a
}

func bits(valid ...bool) *memory.Buffer {
	b := make([]byte, (len(valid)+7)/8)
	for i, v := range valid {
		if v {
			b[i/8] |= 1 << (i % 8)
		}
	}
	return memory.NewBufferBytes(b)
}

func offsets(o ...int32) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(o))
}

// mapOf is a map column of type mt: row i holds entries [o[i], o[i+1]) of
// keys and values, null where valid says.
func mapOf(t *testing.T, mt *arrow.MapType, valid []bool, o []int32, keys, values arrow.Array) arrow.Array {
	entries := withData(t, mt.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.Array{keys, values}, 0)
	nulls := 0
	for _, v := range valid {
		if !v {
			nulls++
		}
	}
	return withData(t, mt, len(valid), []*memory.Buffer{bits(valid...), offsets(o...)}, []arrow.Array{entries}, nulls)
}

func slice(t *testing.T, a arrow.Array, i, j int64) arrow.Array {
	s := array.NewSlice(a, i, j)
	t.Cleanup(s.Release)
	return s
}

func TestEveryForbiddenValueARowReachesIsFoundAtEveryDepth(t *testing.T) {
	notNull := func(dt arrow.DataType) arrow.Field { return arrow.Field{Name: "c", Type: dt} }
	nullable := func(dt arrow.DataType) arrow.Field { return arrow.Field{Name: "c", Type: dt, Nullable: true} }
	d128 := &arrow.Decimal128Type{Precision: 3, Scale: 2}
	strMap := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	requiredValues := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	requiredValues.SetItemNullable(false)
	dictOf := func(v arrow.DataType) *arrow.DictionaryType {
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: v}
	}
	structOf := func(fs ...arrow.Field) *arrow.StructType { return arrow.StructOf(fs...) }
	tests := []struct {
		name    string
		field   arrow.Field
		col     func(t *testing.T) arrow.Array
		column  string
		row     int
		problem arrowcheck.Problem
	}{
		// Text that is not UTF-8.
		{"utf8", nullable(arrow.BinaryTypes.String), func(t *testing.T) arrow.Array {
			return notUTF8(t, fromJSON(t, arrow.BinaryTypes.String, `["a", null, "ÿ"]`))
		}, "c", 2, arrowcheck.NotUTF8},
		{"large_utf8", nullable(arrow.BinaryTypes.LargeString), func(t *testing.T) arrow.Array {
			return notUTF8(t, fromJSON(t, arrow.BinaryTypes.LargeString, `["ÿ"]`))
		}, "c", 0, arrowcheck.NotUTF8},
		{"utf8_view in a data buffer", nullable(arrow.BinaryTypes.StringView), func(t *testing.T) arrow.Array {
			return notUTF8(t, fromJSON(t, arrow.BinaryTypes.StringView, `["a", "a string longer than twelve ÿ"]`))
		}, "c", 1, arrowcheck.NotUTF8},
		{"utf8 in a slice with an offset", nullable(arrow.BinaryTypes.String), func(t *testing.T) arrow.Array {
			return slice(t, notUTF8(t, fromJSON(t, arrow.BinaryTypes.String, `["ÿ", "a", "b", "ÿ"]`)), 1, 4)
		}, "c", 2, arrowcheck.NotUTF8},

		// Decimals past their precision, of every width, at the bounds.
		{"decimal32 of 10^p", nullable(&arrow.Decimal32Type{Precision: 3, Scale: 0}), func(t *testing.T) arrow.Array {
			return decimals(t, &arrow.Decimal32Type{Precision: 3, Scale: 0}, "999", "-999", "", "1000")
		}, "c", 3, arrowcheck.PastPrecision},
		{"decimal64 of -10^p", nullable(&arrow.Decimal64Type{Precision: 10, Scale: 2}), func(t *testing.T) arrow.Array {
			return decimals(t, &arrow.Decimal64Type{Precision: 10, Scale: 2}, "99999999.99", "-100000000.00")
		}, "c", 1, arrowcheck.PastPrecision},
		{"decimal128", nullable(d128), func(t *testing.T) arrow.Array { return decimals(t, d128, "9.99", "128.10") }, "c", 1, arrowcheck.PastPrecision},
		{"decimal128 of 37 digits", nullable(&arrow.Decimal128Type{Precision: 37}), func(t *testing.T) arrow.Array {
			return decimals(t, &arrow.Decimal128Type{Precision: 37}, strings.Repeat("9", 37), "1"+strings.Repeat("0", 37))
		}, "c", 1, arrowcheck.PastPrecision},
		{"decimal256", nullable(&arrow.Decimal256Type{Precision: 40, Scale: 5}), func(t *testing.T) arrow.Array {
			return decimals(t, &arrow.Decimal256Type{Precision: 40, Scale: 5}, "-"+strings.Repeat("9", 35)+".99999", strings.Repeat("9", 36)+".00000")
		}, "c", 1, arrowcheck.PastPrecision},

		// date64 between days.
		{"date64", nullable(arrow.FixedWidthTypes.Date64), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, -86400000, null, 172800000, 86400001]`)
		}, "c", 4, arrowcheck.NotWholeDay},

		// Nulls where the field is not nullable.
		{"a null int32", notNull(arrow.PrimitiveTypes.Int32), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null, 3]`)
		}, "c", 1, arrowcheck.Null},
		{"a null struct child", nullable(structOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32})), func(t *testing.T) arrow.Array {
			return fromJSON(t, structOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32}), `[{"n": 1}, null, {"n": null}]`)
		}, "c.n", 2, arrowcheck.Null},
		{"a null list element", nullable(arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32)), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), `[[1], null, [], [2, null]]`)
		}, "c.item", 3, arrowcheck.Null},
		{"a null fixed-size list element", nullable(arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32)), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32), `[[1, 2], null, [3, null]]`)
		}, "c.item", 2, arrowcheck.Null},
		{"a null list view element", nullable(arrow.ListViewOfNonNullable(arrow.PrimitiveTypes.Int32)), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.ListViewOfNonNullable(arrow.PrimitiveTypes.Int32), `[[1], [null]]`)
		}, "c.item", 1, arrowcheck.Null},
		// arrow-go makes no map whose keys or entries hold a null (it
		// panics); a null map value where the map says it is not nullable.
		{"a null map value that is not nullable", nullable(requiredValues), func(t *testing.T) arrow.Array {
			keys := fromJSON(t, arrow.BinaryTypes.String, `["a", "b"]`)
			values := fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null]`)
			return mapOf(t, requiredValues, []bool{true, true}, []int32{0, 1, 2}, keys, values)
		}, "c.entries.value", 1, arrowcheck.Null},
		{"a null dictionary index", notNull(dictOf(arrow.BinaryTypes.String)), func(t *testing.T) arrow.Array {
			return fromJSON(t, dictOf(arrow.BinaryTypes.String), `["a", null]`)
		}, "c", 1, arrowcheck.Null},

		// Encodings: what a row refers to.
		{"a dictionary value a row refers to", nullable(dictOf(d128)), func(t *testing.T) arrow.Array {
			d := array.NewDictionaryArray(dictOf(d128), fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, 0, 1]`), decimals(t, d128, "1.00", "100.00"))
			t.Cleanup(d.Release)
			return d
		}, "c", 2, arrowcheck.PastPrecision},
		{"a run-end encoded run", nullable(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			a := array.NewRunEndEncodedArray(fromJSON(t, arrow.PrimitiveTypes.Int32, `[2, 5]`), fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 1]`), 5, 0)
			t.Cleanup(a.Release)
			return a
		}, "c", 2, arrowcheck.NotWholeDay},
		{"a run-end encoded null that is not nullable", notNull(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8)), func(t *testing.T) arrow.Array {
			a := array.NewRunEndEncodedArray(fromJSON(t, arrow.PrimitiveTypes.Int32, `[2, 5]`), fromJSON(t, arrow.PrimitiveTypes.Int8, `[1, null]`), 5, 0)
			t.Cleanup(a.Release)
			return a
		}, "c", 2, arrowcheck.Null},
		{"a sliced run-end encoded array", nullable(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			a := array.NewRunEndEncodedArray(fromJSON(t, arrow.PrimitiveTypes.Int32, `[2, 5]`), fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 1]`), 5, 0)
			t.Cleanup(a.Release)
			return slice(t, a, 1, 5)
		}, "c", 1, arrowcheck.NotWholeDay},
		{"a dense union's child", nullable(nil), func(t *testing.T) arrow.Array {
			u, err := array.NewDenseUnionFromArraysWithFields(fromJSON(t, arrow.PrimitiveTypes.Int8, `[1, 0, 0]`), fromJSON(t, arrow.PrimitiveTypes.Int32, `[0, 0, 1]`),
				[]arrow.Array{fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5]`), fromJSON(t, arrow.BinaryTypes.String, `["x"]`)}, []string{"d", "s"})
			require.NoError(t, err)
			t.Cleanup(u.Release)
			return u
		}, "c.d", 2, arrowcheck.NotWholeDay},

		// Deep.
		{"a list of structs of maps", nullable(arrow.ListOf(structOf(arrow.Field{Name: "m", Type: strMap, Nullable: true}))), func(t *testing.T) arrow.Array {
			keys := notUTF8(t, fromJSON(t, arrow.BinaryTypes.String, `["a", "ÿ"]`))
			m := mapOf(t, strMap, []bool{true, true}, []int32{0, 1, 2}, keys, fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, 2]`))
			st := withData(t, structOf(arrow.Field{Name: "m", Type: strMap, Nullable: true}), 2, []*memory.Buffer{nil}, []arrow.Array{m}, 0)
			return withData(t, arrow.ListOf(st.DataType()), 2, []*memory.Buffer{nil, offsets(0, 1, 2)}, []arrow.Array{st}, 0)
		}, "c.item.m.entries.key", 1, arrowcheck.NotUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col := tt.col(t)
			if tt.field.Type == nil { // a union of the children's types
				tt.field.Type = col.DataType()
			}
			e := arrowcheck.Array(col, tt.field)
			require.NotNil(t, e, "%v", col)
			assert.Equal(t, tt.column, e.Column)
			assert.Equal(t, tt.row, e.Row)
			assert.Equal(t, tt.problem, e.Problem, e.Detail)

			schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, tt.field}, nil)
			ids := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, col.Len())
			defer ids.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{ids, col}, int64(col.Len()))
			defer rec.Release()
			e = arrowcheck.Record(rec, arrowcheck.Columns(schema))
			require.NotNil(t, e)
			assert.Equal(t, "id", e.Column, "the first column's nulls first, at row 0")
			assert.Equal(t, 0, e.Row)
			assert.Equal(t, arrowcheck.Null, e.Problem)
			rec = array.NewRecordBatch(schema, []arrow.Array{ids, col}, int64(col.Len()))
			defer rec.Release()
			assert.Equal(t, e, arrowcheck.Record(rec, []int{0, 1}))
			assert.Equal(t, tt.column, arrowcheck.Record(rec, []int{1}).Column)
		})
	}
}

func TestWhatNoRowReachesIsNotChecked(t *testing.T) {
	nullable := func(dt arrow.DataType) arrow.Field { return arrow.Field{Name: "c", Type: dt, Nullable: true} }
	d128 := &arrow.Decimal128Type{Precision: 3, Scale: 2}
	required := arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32}
	dictOf := func(v arrow.DataType) *arrow.DictionaryType {
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: v}
	}
	tests := []struct {
		name  string
		field arrow.Field
		col   func(t *testing.T) arrow.Array
	}{
		{"a null decimal over a value past the precision", nullable(d128), func(t *testing.T) arrow.Array {
			bad := decimals(t, d128, "1.00", "100.00")
			return withData(t, d128, 2, []*memory.Buffer{bits(true, false), bad.Data().Buffers()[1]}, nil, 1)
		}},
		{"a null date64 between days", nullable(arrow.FixedWidthTypes.Date64), func(t *testing.T) arrow.Array {
			bad := fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5]`)
			return withData(t, arrow.FixedWidthTypes.Date64, 2, []*memory.Buffer{bits(true, false), bad.Data().Buffers()[1]}, nil, 1)
		}},
		{"a struct's null row over a child's null", nullable(arrow.StructOf(required)), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.StructOf(required), `[{"n": 1}, null]`) // the builder appends a null child
		}},
		{"a struct's null row over a child past its precision", nullable(arrow.StructOf(arrow.Field{Name: "d", Type: d128, Nullable: true})), func(t *testing.T) arrow.Array {
			return withData(t, arrow.StructOf(arrow.Field{Name: "d", Type: d128, Nullable: true}), 2, []*memory.Buffer{bits(true, false)},
				[]arrow.Array{decimals(t, d128, "1.00", "100.00")}, 1)
		}},
		{"a fixed-size list's null row over null elements", nullable(arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32)), func(t *testing.T) arrow.Array {
			return fromJSON(t, arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32), `[[1, 2], null]`)
		}},
		{"a list's null row over elements", nullable(arrow.ListOfNonNullable(arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			return withData(t, arrow.ListOfNonNullable(arrow.FixedWidthTypes.Date64), 2, []*memory.Buffer{bits(true, false), offsets(0, 1, 3)},
				[]arrow.Array{fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5, null]`)}, 1)
		}},
		{"list elements between the rows", nullable(arrow.ListOf(arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			l := withData(t, arrow.ListOf(arrow.FixedWidthTypes.Date64), 2, []*memory.Buffer{nil, offsets(0, 1, 2)},
				[]arrow.Array{fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5]`)}, 0)
			return slice(t, l, 0, 1)
		}},
		{"a list view's elements no row covers", nullable(arrow.ListViewOf(arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			sizes := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{1, 1}))
			return withData(t, arrow.ListViewOf(arrow.FixedWidthTypes.Date64), 2, []*memory.Buffer{nil, offsets(2, 0), sizes},
				[]arrow.Array{fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5, 0]`)}, 0)
		}},
		{"a dictionary entry no row refers to", nullable(dictOf(d128)), func(t *testing.T) arrow.Array {
			d := array.NewDictionaryArray(dictOf(d128), fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, null, 0]`), decimals(t, d128, "1.00", "100.00", ""))
			t.Cleanup(d.Release)
			return d
		}},
		{"a dictionary's null entry a null index points at", arrow.Field{Name: "c", Type: dictOf(arrow.BinaryTypes.String)}, func(t *testing.T) arrow.Array {
			d := array.NewDictionaryArray(dictOf(arrow.BinaryTypes.String), fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, 0]`), fromJSON(t, arrow.BinaryTypes.String, `["a", null]`))
			t.Cleanup(d.Release)
			return d
		}},
		{"a slice that leaves the value out", nullable(d128), func(t *testing.T) arrow.Array {
			return slice(t, decimals(t, d128, "100.00", "1.00", "2.00"), 1, 3)
		}},
		{"a run no row of the slice is in", nullable(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Date64)), func(t *testing.T) arrow.Array {
			a := array.NewRunEndEncodedArray(fromJSON(t, arrow.PrimitiveTypes.Int32, `[2, 5]`), fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 1]`), 5, 0)
			t.Cleanup(a.Release)
			return slice(t, a, 0, 2)
		}},
		{"a sparse union's child the type codes do not choose", nullable(nil), func(t *testing.T) arrow.Array {
			u, err := array.NewSparseUnionFromArraysWithFields(fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, 1]`),
				[]arrow.Array{fromJSON(t, arrow.FixedWidthTypes.Date64, `[0, 5]`), fromJSON(t, arrow.PrimitiveTypes.Int8, `[null, null]`)}, []string{"d", "i"})
			require.NoError(t, err)
			t.Cleanup(u.Release)
			return u
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col := tt.col(t)
			if tt.field.Type == nil { // a union of the children's types
				tt.field.Type = col.DataType()
			}
			require.Nil(t, arrowcheck.Array(col, tt.field), "%v", col)
		})
	}
}

func TestAColumnWhoseOffsetsLeaveItsValuesIsMalformedNotAPanic(t *testing.T) {
	dt := arrow.ListOf(arrow.BinaryTypes.String)
	col := withData(t, dt, 1, []*memory.Buffer{nil, offsets(0, 9)}, []arrow.Array{fromJSON(t, arrow.BinaryTypes.String, `["a"]`)}, 0)
	e := arrowcheck.Array(col, arrow.Field{Name: "c", Type: dt})
	require.NotNil(t, e)
	assert.Equal(t, arrowcheck.Malformed, e.Problem)
	assert.Equal(t, -1, e.Row)
	assert.Equal(t, "c", e.Column)
}

func TestOnlyColumnsThatMayHoldAForbiddenValueAreChecked(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "required", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "nulls", Type: arrow.Null},
		{Name: "ints", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "map", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32), Nullable: true}, // its keys
		{Name: "d32", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "d64", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
		{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: &arrow.Decimal64Type{Precision: 3}}, Nullable: true},
	}, nil)
	assert.Equal(t, []int{1, 3, 6, 8, 9}, arrowcheck.Columns(schema))
}

// The fast path and the row-by-row path agree with arrow-go's own
// FitsInPrecision on random values about the bounds.
func TestADecimalIsRefusedExactlyWhenArrowGoSaysItDoesNotFit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 200 {
		p := int32(1 + rng.IntN(38))
		dt := &arrow.Decimal128Type{Precision: p, Scale: 0}
		high := decimal128.FromI64(1).IncreaseScaleBy(p)
		b := array.NewDecimal128Builder(memory.DefaultAllocator, dt)
		var want []bool
		for range 8 {
			v := high.Add(decimal128.FromI64(int64(rng.IntN(5) - 3)))
			if rng.IntN(2) == 0 {
				v = v.Negate()
			}
			b.Append(v)
			want = append(want, v.FitsInPrecision(p))
		}
		col := b.NewArray()
		b.Release()
		for i := range want {
			one := array.NewSlice(col, int64(i), int64(i+1))
			e := arrowcheck.Array(one, arrow.Field{Name: "c", Type: dt, Nullable: true})
			require.Equal(t, want[i], e == nil, "decimal(%d) %v", p, one)
			one.Release()
		}
		col.Release()
	}
}
