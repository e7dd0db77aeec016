package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// unValue is a union of an int64 (code 5) and a string (code 9), both of
// which may be null, with the row's code.
type unValue struct {
	I    *int64           `arrow:"i,code=5,nullable"`
	S    *string          `arrow:"s,code=9,nullable"`
	Code mapper.UnionCode `arrow:",type_code"`
}

type unSparseRow struct {
	ID int32   `arrow:"id"`
	V  unValue `arrow:"v,sparse_union"`
}

type unDenseRow struct {
	ID int32   `arrow:"id"`
	V  unValue `arrow:"v,dense_union"`
}

// unAnyRow decodes either mode.
type unAnyRow struct {
	ID int32   `arrow:"id"`
	V  unValue `arrow:"v,union"`
}

// unArrays builds the union column of rows 1, "a", null (an int), "b",
// null (a string), 4 in mode, as arrow-go builds it.
func unArrays(t *testing.T, mem memory.Allocator, mode arrow.UnionMode) arrow.Array {
	t.Helper()
	codes := []int8{5, 9, 5, 9, 9, 5}
	ints, strs := `[1, 100, null, 200, 300, 4]`, `["x", "a", null, "b", null, "y"]`
	var offsets []int32
	if mode == arrow.DenseMode {
		ints, strs, offsets = `[1, null, 4]`, `["a", "b", null]`, []int32{0, 0, 1, 1, 2, 2}
	}
	i := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, ints)
	defer i.Release()
	s := fxJSON(t, mem, arrow.BinaryTypes.String, strs)
	defer s.Release()
	ids := array.NewData(arrow.PrimitiveTypes.Int8, len(codes), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int8Traits.CastToBytes(codes))}, nil, 0, 0)
	defer ids.Release()
	idArr := array.MakeFromData(ids)
	defer idArr.Release()
	names, tc := []string{"i", "s"}, []arrow.UnionTypeCode{5, 9}
	if mode == arrow.SparseMode {
		u, err := array.NewSparseUnionFromArraysWithFieldCodes(idArr, []arrow.Array{i, s}, names, tc)
		require.NoError(t, err)
		return u
	}
	od := array.NewData(arrow.PrimitiveTypes.Int32, len(offsets), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))}, nil, 0, 0)
	defer od.Release()
	offArr := array.MakeFromData(od)
	defer offArr.Release()
	u, err := array.NewDenseUnionFromArraysWithFieldCodes(idArr, offArr, []arrow.Array{i, s}, names, tc)
	require.NoError(t, err)
	return u
}

// unRecord is a record of an id column 0…5 and the union column v, with
// the schema SchemaOf writes: a union column that is not nullable.
func unRecord(t *testing.T, mem memory.Allocator, mode arrow.UnionMode) arrow.RecordBatch {
	t.Helper()
	ids := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, 1, 2, 3, 4, 5]`)
	defer ids.Release()
	u := unArrays(t, mem, mode)
	defer u.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: ids.DataType()}, {Name: "v", Type: u.DataType()}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{ids, u}, -1)
}

// unWant are the rows of unRecord.
func unWant() []unValue {
	return []unValue{
		{I: fxPtr[int64](1), Code: 5},
		{S: fxPtr("a"), Code: 9},
		{Code: 5},
		{S: fxPtr("b"), Code: 9},
		{Code: 9},
		{I: fxPtr[int64](4), Code: 5},
	}
}

func TestUnionRoundTripIsExact(t *testing.T) {
	for _, tt := range []struct {
		name string
		mode arrow.UnionMode
		run  func(t *testing.T, rec arrow.RecordBatch) arrow.RecordBatch
	}{
		{"sparse", arrow.SparseMode, func(t *testing.T, rec arrow.RecordBatch) arrow.RecordBatch {
			rows, err := mapper.Decode[unSparseRow](rec)
			require.NoError(t, err)
			out, err := mapper.Encode(rows)
			require.NoError(t, err)
			return out
		}},
		{"dense", arrow.DenseMode, func(t *testing.T, rec arrow.RecordBatch) arrow.RecordBatch {
			rows, err := mapper.Decode[unDenseRow](rec)
			require.NoError(t, err)
			out, err := mapper.Encode(rows)
			require.NoError(t, err)
			return out
		}},
	} {
		for _, window := range [][2]int64{{0, 6}, {1, 5}, {2, 3}, {3, 3}} {
			t.Run(tt.name+" rows "+fmtWindow(window), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				whole := unRecord(t, mem, tt.mode)
				defer whole.Release()
				rec := whole.NewSlice(window[0], window[1])
				defer rec.Release()
				out := tt.run(t, rec)
				defer out.Release()
				require.True(t, out.Schema().Equal(rec.Schema()), "schema %s, want %s", out.Schema(), rec.Schema())
				require.True(t, array.RecordEqual(rec, out), "got %v\nwant %v", out, rec)
			})
		}
	}
}

func fmtWindow(w [2]int64) string {
	return string(rune('0'+w[0])) + "-" + string(rune('0'+w[1]))
}

// unNoCode is unValue without its type_code field.
type unNoCode struct {
	I *int64  `arrow:"i,code=5,nullable"`
	S *string `arrow:"s,code=9,nullable"`
}

func TestUnionWithoutATypeCodeFieldWritesNullsInTheFirstVariant(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := unRecord(t, mem, arrow.SparseMode)
	defer rec.Release()
	type row struct {
		V unNoCode `arrow:"v,union"`
	}
	rows, err := mapper.Decode[row](rec)
	require.NoError(t, err)
	assert.Equal(t, unNoCode{}, rows[2].V, "a null int")
	assert.Equal(t, unNoCode{}, rows[4].V, "a null string")
	out, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer out.Release()
	u := out.Column(0).(*array.SparseUnion)
	assert.Equal(t, []arrow.UnionTypeCode{5, 9, 5, 9, 5, 5}, u.RawTypeCodes(), "the null string went to the first variant")
	for i := range 6 {
		assert.Equal(t, rows[i].V.I == nil && rows[i].V.S == nil, u.Field(u.ChildID(i)).IsNull(i), "row %d", i)
	}
}

// Nested variants: a list, a struct; a union in a list and in a struct.

type unPoint struct {
	X int32 `arrow:"x"`
	Y int32 `arrow:"y"`
}

type unNested struct {
	List  *[]int32         `arrow:"list"`
	Point *unPoint         `arrow:"point,nullable"`
	Text  *string          `arrow:"text"`
	Code  mapper.UnionCode `arrow:",type_code"`
}

type unNestedRow struct {
	Sparse unNested   `arrow:"sparse,union"`
	Dense  unNested   `arrow:"dense,dense_union"`
	Many   []unNested `arrow:"many" arrow-elem:"union"`
	In     struct {
		V unNested `arrow:"v,dense_union"`
	} `arrow:"in"`
	Maybe *unNested `arrow:"maybe,union"`
}

func unNestedRows() []unNestedRow {
	values := []unNested{
		{List: &[]int32{1, 2}, Code: 0},
		{Point: &unPoint{3, 4}, Code: 1},
		{Text: fxPtr("t"), Code: 2},
		{List: &[]int32{}, Code: 0},
		{Code: 1}, // a null point
		{List: &[]int32{5}, Code: 0},
	}
	rows := make([]unNestedRow, len(values))
	for i, v := range values {
		rows[i].Sparse, rows[i].Dense = v, values[len(values)-1-i]
		rows[i].Many = values[i:]
		rows[i].In.V = values[(i+2)%len(values)]
		if i%2 == 0 {
			rows[i].Maybe = &values[(i+1)%len(values)]
		}
	}
	rows[1].Many = nil
	rows[3].Maybe = &unNested{List: &[]int32{7}}
	return rows
}

func TestNestedUnionsRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := unNestedRows()
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()

	schema, err := mapper.SchemaOf[unNestedRow]()
	require.NoError(t, err)
	require.True(t, schema.Equal(rec.Schema()))
	sparse := schema.Field(0).Type.(*arrow.SparseUnionType)
	assert.Equal(t, []arrow.UnionTypeCode{0, 1, 2}, sparse.TypeCodes(), "codes default to the variant's index")
	assert.Equal(t, []bool{true, true, false}, []bool{sparse.Fields()[0].Nullable, sparse.Fields()[1].Nullable, sparse.Fields()[2].Nullable},
		"a slice is nullable by nature, a pointer variant only when tagged")
	assert.Equal(t, arrow.DENSE_UNION, schema.Field(1).Type.ID())
	assert.False(t, schema.Field(0).Nullable)
	assert.True(t, schema.Field(4).Nullable, "a pointer to a union may be nil")

	got := fxDecodeAll[unNestedRow](t, rec)
	want := unNestedRows()
	for i := range want {
		assert.Equal(t, want[i].Sparse, got[i].Sparse, "Sparse of row %d", i)
		assert.Equal(t, want[i].Dense, got[i].Dense, "Dense of row %d", i)
		assert.Equal(t, want[i].Many, got[i].Many, "Many of row %d", i)
		assert.Equal(t, want[i].In, got[i].In, "In of row %d", i)
		assert.Equal(t, want[i].Maybe, got[i].Maybe, "Maybe of row %d", i)
	}

	again, err := mapper.Encode(got, mapper.Allocator(mem))
	require.NoError(t, err)
	defer again.Release()
	require.True(t, array.RecordEqual(rec, again), "got %v\nwant %v", again, rec)
}

func TestEncodeUnionErrorsNameTheRowAndTheField(t *testing.T) {
	type strictValue struct {
		I *int64  `arrow:"i"`
		S *string `arrow:"s,nullable"`
	}
	type strictRow struct {
		V strictValue `arrow:"v,union"`
	}
	type codedRow struct {
		V unValue `arrow:"v,union"`
	}
	t.Run("no variant set, where the first variant takes no null", func(t *testing.T) {
		_, err := mapper.Encode([]strictRow{{V: strictValue{I: fxPtr[int64](1)}}, {}})
		me := fxRequireError(t, err, mapper.ErrInvalidData, "V", "v", 1)
		assert.Contains(t, me.Error(), "no variant set")
		assert.Contains(t, me.Error(), "V.I (code 0), which is not nullable")
	})
	t.Run("two variants set", func(t *testing.T) {
		_, err := mapper.Encode([]strictRow{{}, {V: strictValue{I: fxPtr[int64](1)}}, {V: strictValue{I: fxPtr[int64](1), S: fxPtr("s")}}}[1:])
		me := fxRequireError(t, err, mapper.ErrInvalidData, "V", "v", 1)
		assert.Contains(t, me.Error(), "two variants set (V.I and V.S)")
	})
	t.Run("a type code no variant has", func(t *testing.T) {
		_, err := mapper.Encode([]codedRow{{V: unValue{Code: 9}}, {V: unValue{Code: 3}}})
		me := fxRequireError(t, err, mapper.ErrInvalidData, "V", "v", 1)
		assert.Contains(t, me.Error(), "type code 3 is none of the union's codes (5, 9)")
	})
	t.Run("below a list, the row of the list", func(t *testing.T) {
		type listRow struct {
			Vs []strictValue `arrow:"vs" arrow-elem:"union"`
		}
		_, err := mapper.Encode([]listRow{{Vs: []strictValue{{S: fxPtr("a")}}}, {Vs: []strictValue{{S: fxPtr("b")}, {}}}})
		fxRequireError(t, err, mapper.ErrInvalidData, "Vs[]", "vs.item", 1)
	})
	t.Run("a Builder is left as it was", func(t *testing.T) {
		b, err := mapper.NewBuilder[strictRow]()
		require.NoError(t, err)
		defer b.Release()
		require.NoError(t, b.Append(strictRow{V: strictValue{S: fxPtr("a")}}))
		require.Error(t, b.Append(strictRow{V: strictValue{I: fxPtr[int64](2)}}, strictRow{}))
		rec := b.NewRecordBatch()
		defer rec.Release()
		assert.Equal(t, int64(1), rec.NumRows())
	})
}

func TestUnionTagsThatCannotWork(t *testing.T) {
	type dupValue struct {
		A *int32 `arrow:"a,code=1"`
		B *int32 `arrow:"b"` // index 1
	}
	type dupRow struct {
		V dupValue `arrow:"v,union"`
	}
	_, err := mapper.SchemaOf[dupRow]()
	me := fxRequireError(t, err, mapper.ErrTag, "V.B", "v.b", -1)
	assert.Contains(t, me.Error(), "type code 1 is V.A's too")

	type plainValue struct {
		A int32 `arrow:"a"`
	}
	type plainRow struct {
		V plainValue `arrow:"v,union"`
	}
	_, err = mapper.SchemaOf[plainRow]()
	fxRequireError(t, err, mapper.ErrTag, "V.A", "v.a", -1)

	type notStruct struct {
		V int32 `arrow:"v,union"`
	}
	_, err = mapper.SchemaOf[notStruct]()
	require.ErrorIs(t, err, mapper.ErrTag)

	type codeOutside struct {
		V int32 `arrow:"v,code=3"`
	}
	_, err = mapper.SchemaOf[codeOutside]()
	require.ErrorIs(t, err, mapper.ErrTag)

	type denseInMap struct {
		M map[string]unValue `arrow:"m" arrow-value:"dense_union"`
	}
	_, err = mapper.SchemaOf[denseInMap]()
	require.ErrorIs(t, err, mapper.ErrUnsupported)
}

func TestDenseUnionRowsSharingAValueGetAValueEach(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	i := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[7]`)
	defer i.Release()
	s := fxJSON(t, mem, arrow.BinaryTypes.String, `["a"]`)
	defer s.Release()
	codes := fxJSON(t, mem, arrow.PrimitiveTypes.Int8, `[5, 5, 9, 5]`)
	defer codes.Release()
	offsets := fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, 0, 0, 0]`)
	defer offsets.Release()
	u, err := array.NewDenseUnionFromArraysWithFieldCodes(codes, offsets, []arrow.Array{i, s}, []string{"i", "s"}, []arrow.UnionTypeCode{5, 9})
	require.NoError(t, err)
	rec := fxRecord(t, fxCol{"v", u})
	defer rec.Release()
	rows, err := mapper.Decode[struct {
		V unValue `arrow:"v,union"`
	}](rec)
	require.NoError(t, err)
	require.Equal(t, int64(7), *rows[0].V.I)
	require.Equal(t, int64(7), *rows[3].V.I)
	require.NotSame(t, rows[0].V.I, rows[1].V.I)
	require.Equal(t, "a", *rows[2].V.S)
}

func TestUnionsEncodeAlikeThroughArrowGosBuilders(t *testing.T) {
	type row struct {
		V    unValue   `arrow:"v,union"`
		D    unValue   `arrow:"d,dense_union"`
		Many []unValue `arrow:"many" arrow-elem:"union"`
	}
	rows := []row{
		{V: unValue{I: fxPtr[int64](1)}, D: unValue{S: fxPtr("d")}, Many: []unValue{{S: fxPtr("x")}, {Code: 9}}},
		{V: unValue{Code: 9}, D: unValue{Code: 5}},
		{V: unValue{S: fxPtr("s")}, D: unValue{I: fxPtr[int64](2)}, Many: []unValue{{I: fxPtr[int64](3)}}},
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	want, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer want.Release()
	ref, err := mapper.NewArrowGoBuilder[row](mem)
	require.NoError(t, err)
	defer ref.Release()
	require.NoError(t, ref.Append(rows[:1]...))
	require.NoError(t, ref.Append(rows[1:]...))
	got := ref.NewRecordBatch()
	defer got.Release()
	require.True(t, array.RecordEqual(want, got), "got %v\nwant %v", got, want)
}

// TestAUnionBelowANullParentEncodes: a union under a nil pointer has no
// row to write: its first variant gets the empty value, as every absent
// value does, whether or not that variant takes nulls.
func TestAUnionBelowANullParentEncodes(t *testing.T) {
	type variants struct {
		I *int64  `arrow:"i"`
		S *string `arrow:"s"`
	}
	type parent struct {
		U variants `arrow:"u,sparse_union"`
	}
	type dparent struct {
		U variants `arrow:"u,dense_union"`
	}
	one, s := int64(1), "x"
	t.Run("sparse", func(t *testing.T) {
		type row struct {
			P *parent `arrow:"p"`
		}
		in := []row{{P: &parent{U: variants{I: &one}}}, {P: nil}, {P: &parent{U: variants{S: &s}}}}
		rec, err := mapper.Encode(in)
		require.NoError(t, err)
		defer rec.Release()
		got, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, in, got)
	})
	t.Run("dense", func(t *testing.T) {
		type row struct {
			P *dparent `arrow:"p"`
		}
		in := []row{{P: nil}, {P: &dparent{U: variants{S: &s}}}, {P: nil}}
		rec, err := mapper.Encode(in)
		require.NoError(t, err)
		defer rec.Release()
		got, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, in, got)
	})
}

// TestAnUndeclaredCodeIsInvalidEvenBelowANullParent: a type id no child
// declares is invalid data in any slot, as Arrow's full validation has it,
// even one no row reads (below a null struct row), and it is named.
func TestAnUndeclaredCodeIsInvalidEvenBelowANullParent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ut := arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, []arrow.UnionTypeCode{0})
	ints := array.NewInt32Builder(mem)
	defer ints.Release()
	ints.AppendValues([]int32{7, 8, 9}, nil)
	child := ints.NewArray()
	defer child.Release()
	codes := memory.NewBufferBytes([]byte{0, 5, 0}) // row 1: no child declares 5
	union := array.NewSparseUnion(ut, 3, []arrow.Array{child}, codes, 0)
	defer union.Release()
	st := arrow.StructOf(arrow.Field{Name: "u", Type: ut, Nullable: true})
	valid := memory.NewBufferBytes([]byte{0b101}) // row 1 of the struct is null
	sd := array.NewData(st, 3, []*memory.Buffer{valid}, []arrow.ArrayData{union.Data()}, 1, 0)
	defer sd.Release()
	s := array.NewStructData(sd)
	defer s.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: st, Nullable: true}}, nil), []arrow.Array{s}, 3)
	defer rec.Release()

	type variants struct {
		A *int32 `arrow:"a,nullable"`
	}
	type row struct {
		S *struct {
			U variants `arrow:"u,union"`
		} `arrow:"s"`
	}
	_, err := mapper.Decode[row](rec)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.Contains(t, err.Error(), "type id 5")
}

// A dense union encodes below the levels our builders build (a struct, a
// list, a large list) and is refused below those arrow-go's build (a map,
// a list view, a fixed-size list), which adaptUnion cannot write.
func TestADenseUnionEncodesBelowOurLevelsOnly(t *testing.T) {
	type inStruct struct {
		D unValue `arrow:"d,dense_union"`
	}
	type (
		list struct {
			L []unValue `arrow:"l" arrow-elem:"dense_union"`
		}
		largeList struct {
			L []unValue `arrow:"l,large_list" arrow-elem:"dense_union"`
		}
		structs struct {
			L []inStruct `arrow:"l"`
		}
		mapValue struct {
			M map[string]unValue `arrow:"m" arrow-value:"dense_union"`
		}
		listView struct {
			L []unValue `arrow:"l,list_view" arrow-elem:"dense_union"`
		}
		fixedList struct {
			L [2]unValue `arrow:"l" arrow-elem:"dense_union"`
		}
		listViewOfStructs struct {
			L []inStruct `arrow:"l,list_view"`
		}
	)
	for _, c := range []struct {
		name   string
		schema func(...mapper.WriteOption) (*arrow.Schema, error)
		ok     bool
	}{
		{"a list", mapper.SchemaOf[list], true},
		{"a large list", mapper.SchemaOf[largeList], true},
		{"a struct in a list", mapper.SchemaOf[structs], true},
		{"a map", mapper.SchemaOf[mapValue], false},
		{"a list view", mapper.SchemaOf[listView], false},
		{"a fixed-size list", mapper.SchemaOf[fixedList], false},
		{"a struct in a list view", mapper.SchemaOf[listViewOfStructs], false},
	} {
		_, err := c.schema()
		if c.ok {
			assert.NoError(t, err, c.name)
		} else {
			assert.ErrorIs(t, err, mapper.ErrUnsupported, c.name)
		}
	}
	rows := []list{{L: []unValue{{I: fxPtr[int64](1), Code: 5}, {S: fxPtr("s"), Code: 9}}}, {}}
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	got, err := mapper.Decode[list](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}
