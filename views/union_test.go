package views_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/views"
)

// unionOf builds a sparse or dense union of an int64 child "i" (code 5)
// and a utf8 child "s" (code 9). Sparse children hold a value for every
// row; dense children only the rows that select them.
func unionOf(t *testing.T, mem memory.Allocator, mode arrow.UnionMode, codes []int8, offsets []int32, ints, strs string) arrow.Array {
	t.Helper()
	i := jsonArray(t, mem, arrow.PrimitiveTypes.Int64, ints)
	defer i.Release()
	s := jsonArray(t, mem, arrow.BinaryTypes.String, strs)
	defer s.Release()
	ids := array.NewData(arrow.PrimitiveTypes.Int8, len(codes), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int8Traits.CastToBytes(codes))}, nil, 0, 0)
	defer ids.Release()
	idArr := array.MakeFromData(ids)
	defer idArr.Release()
	fields, tc := []string{"i", "s"}, []arrow.UnionTypeCode{5, 9}
	if mode == arrow.SparseMode {
		u, err := array.NewSparseUnionFromArraysWithFieldCodes(idArr, []arrow.Array{i, s}, fields, tc)
		require.NoError(t, err)
		return u
	}
	offs := array.NewData(arrow.PrimitiveTypes.Int32, len(offsets), []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))}, nil, 0, 0)
	defer offs.Release()
	offArr := array.MakeFromData(offs)
	defer offArr.Release()
	u, err := array.NewDenseUnionFromArraysWithFieldCodes(idArr, offArr, []arrow.Array{i, s}, fields, tc)
	require.NoError(t, err)
	return u
}

// The same six rows both ways: 1, "a", null (an int), "b", null (a
// string), 4.
func sparseSix(t *testing.T, mem memory.Allocator) arrow.Array {
	return unionOf(t, mem, arrow.SparseMode, []int8{5, 9, 5, 9, 9, 5}, nil,
		`[1, 100, null, 200, 300, 4]`, `["x", "a", null, "b", null, "y"]`)
}

func denseSix(t *testing.T, mem memory.Allocator) arrow.Array {
	return unionOf(t, mem, arrow.DenseMode, []int8{5, 9, 5, 9, 9, 5}, []int32{0, 0, 1, 1, 2, 2},
		`[1, null, 4]`, `["a", "b", null]`)
}

func unionType(nullable bool, i, s views.Type) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.SPARSE_UNION, arrow.DENSE_UNION), Nullable: nullable,
		Fields: []views.Field{{Name: "i", Type: i}, {Name: "s", Type: s}}}
}

// requireUnionMatchesArrowGo checks every row of v against arrow-go's
// accessors of arr, which v views from row lo on.
func requireUnionMatchesArrowGo(t *testing.T, arr arrow.Array, v views.View, lo int) {
	t.Helper()
	u := arr.(array.Union)
	for i := range v.Len() {
		row := lo + i
		child := u.Field(u.ChildID(row))
		childRow := row
		if d, ok := arr.(*array.DenseUnion); ok {
			childRow = int(d.ValueOffset(row))
		}
		assert.Equal(t, child.IsNull(childRow), v.IsNull(i), "IsNull(%d)", i)
		var want any
		if !child.IsNull(childRow) {
			want = child.GetOneForMarshal(childRow)
		}
		assert.Equal(t, want, v.Value(i), "Value(%d)", i)
		assert.Equal(t, v.IsNull(i), v.Nulls().IsNull(i), "Nulls().IsNull(%d)", i)
		n := v.Node().(*views.Union)
		assert.Equal(t, u.TypeCode(row), n.TypeCode(v.Window().Offset+i))
		assert.Equal(t, u.ChildID(row), n.ChildIndex(v.Window().Offset+i))
	}
}

func TestUnionViewsMatchArrowGo(t *testing.T) {
	everyNullable := unionType(true, views.Type{Accept: views.AcceptOf(arrow.INT64), Nullable: true}, views.Type{Accept: views.Strings, Nullable: true})
	for _, tt := range []struct {
		name  string
		build func(*testing.T, memory.Allocator) arrow.Array
	}{{"sparse", sparseSix}, {"dense", denseSix}} {
		t.Run(tt.name+": every row reads as arrow-go reads it", func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			arr := tt.build(t, mem)
			defer arr.Release()
			v, err := views.New(arr, everyNullable)
			require.NoError(t, err)
			requireUnionMatchesArrowGo(t, arr, v, 0)
			n := v.Node().(*views.Union)
			assert.Equal(t, []arrow.UnionTypeCode{5, 9}, n.Codes())
			assert.Equal(t, arr.(array.Union).Mode(), n.Mode())
		})
		t.Run(tt.name+": a sliced array reads as arrow-go reads it", func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			whole := tt.build(t, mem)
			defer whole.Release()
			arr := array.NewSlice(whole, 1, 5)
			defer arr.Release()
			v, err := views.New(arr, everyNullable)
			require.NoError(t, err)
			require.Equal(t, 4, v.Len())
			requireUnionMatchesArrowGo(t, arr, v, 0)
		})
		t.Run(tt.name+": every window of a view reads as arrow-go reads it", func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			arr := tt.build(t, mem)
			defer arr.Release()
			v, err := views.New(arr, everyNullable)
			require.NoError(t, err)
			for i := 0; i <= v.Len(); i++ {
				for j := i; j <= v.Len(); j++ {
					requireUnionMatchesArrowGo(t, arr, v.Slice(i, j), i)
				}
			}
		})
	}
}

func TestUnionNullsCountWhereARowSelectsThem(t *testing.T) {
	reqInt := views.Type{Accept: views.AcceptOf(arrow.INT64)}
	reqStr := views.Type{Accept: views.Strings}
	optInt := asNullable(reqInt)
	optStr := asNullable(reqStr)
	tests := []struct {
		name  string
		build func(*testing.T, memory.Allocator) arrow.Array
		typ   views.Type
		want  *viewError
	}{
		{"a sparse null under a required child is the first row that selects one", sparseSix, unionType(true, reqInt, optStr), nullAt("i", 2)},
		{"a dense null under a required child is the first row that selects one", denseSix, unionType(true, reqInt, optStr), nullAt("i", 2)},
		{"a null string a row selects fails the string child", sparseSix, unionType(true, optInt, reqStr), nullAt("s", 4)},
		{"a required union fails at its first null row", denseSix, unionType(false, optInt, optStr), nullAt("", 2)},
		{"a sparse null no row selects is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return unionOf(t, mem, arrow.SparseMode, []int8{5, 9}, nil, `[1, null]`, `[null, "a"]`)
		}, unionType(false, reqInt, reqStr), nil},
		{"a dense null no row selects is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return unionOf(t, mem, arrow.DenseMode, []int8{5, 9}, []int32{1, 0}, `[null, 7]`, `["a"]`)
		}, unionType(false, reqInt, reqStr), nil},
		{"a null outside the slice is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(sparseSix(t, mem), 0, 2)
		}, unionType(false, reqInt, reqStr), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			arr := tt.build(t, mem)
			defer arr.Release()
			_, err := views.New(arr, tt.typ)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			requireViewError(t, *tt.want, err)
		})
	}
}

func TestUnionTypesMustNameEveryChild(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	arr := sparseSix(t, mem)
	defer arr.Release()
	i := views.Type{Accept: views.AcceptOf(arrow.INT64), Nullable: true}
	_, err := views.New(arr, views.Type{Accept: views.AcceptOf(arrow.SPARSE_UNION), Nullable: true, Fields: []views.Field{{Name: "i", Type: i}}})
	require.ErrorIs(t, err, views.ErrTypeMismatch)
	assert.Contains(t, err.Error(), `child "s"`)
	_, err = views.New(arr, views.Type{Accept: views.AcceptOf(arrow.SPARSE_UNION), Nullable: true,
		Fields: []views.Field{{Name: "i", Type: i}, {Name: "s", Type: i}}})
	require.ErrorIs(t, err, views.ErrTypeMismatch)
	_, err = views.New(arr, views.TypeOf(arr.DataType()))
	require.NoError(t, err)
}

func TestMalformedUnionsAreRejected(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	sparse := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: i64, Nullable: true}}, []arrow.UnionTypeCode{3})
	dense := arrow.DenseUnionOf([]arrow.Field{{Name: "i", Type: i64, Nullable: true}}, []arrow.UnionTypeCode{3})
	typ := views.TypeOf(sparse)
	tests := []struct {
		name   string
		data   arrow.ArrayData
		detail string
	}{
		{"a type id the union does not declare", craft(sparse, 3, 0, 0, rawBuffers(nil, rawInt8s(3, 4, 3)), craftInt64s(1, 2, 3)), "type id 4"},
		{"a negative type id", craft(sparse, 2, 0, 0, rawBuffers(nil, rawInt8s(3, -1)), craftInt64s(1, 2)), "type id -1"},
		{"a type ids buffer shorter than the rows", craft(sparse, 3, 0, 0, rawBuffers(nil, rawInt8s(3, 3)), craftInt64s(1, 2, 3)), "type ids buffer"},
		{"a sparse child shorter than the rows", craft(sparse, 3, 0, 0, rawBuffers(nil, rawInt8s(3, 3, 3)), craftInt64s(1, 2)), "needs 3"},
		{"a sparse child shorter than the rows past the offset", craft(sparse, 2, 0, 1, rawBuffers(nil, rawInt8s(3, 3, 3)), craftInt64s(1, 2)), "needs 3"},
		{"a union with a validity bitmap", craft(sparse, 1, 0, 0, rawBuffers(rawBytes([]byte{1}), rawInt8s(3)), craftInt64s(1)), "validity bitmap"},
		{"a union without its child", craft(sparse, 1, 0, 0, rawBuffers(nil, rawInt8s(3))), "children"},
		{"a dense offset past its child", craft(dense, 2, 0, 0, rawBuffers(nil, rawInt8s(3, 3), rawInt32s(0, 2)), craftInt64s(1, 2)), "offset 2 outside"},
		{"a negative dense offset", craft(dense, 2, 0, 0, rawBuffers(nil, rawInt8s(3, 3), rawInt32s(0, -1)), craftInt64s(1, 2)), "offset -1 outside"},
		{"a dense offsets buffer shorter than the rows", craft(dense, 2, 0, 0, rawBuffers(nil, rawInt8s(3, 3), rawInt32s(0)), craftInt64s(1, 2)), "offsets buffer"},
		{"a dense union without offsets", craft(dense, 2, 0, 0, rawBuffers(nil, rawInt8s(3, 3)), craftInt64s(1, 2)), "offsets buffer"},
		{"a child of another datatype", craft(sparse, 1, 0, 0, rawBuffers(nil, rawInt8s(3)), craft(arrow.PrimitiveTypes.Int32, 1, 0, 0, rawBuffers(nil, rawInt32s(1)))), "child of datatype"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := typ
			if tt.data.DataType().ID() == arrow.DENSE_UNION {
				typ = views.TypeOf(dense)
			}
			_, err := newViewNoPanic(t, craftedArrayOf(t, tt.data), typ)
			require.ErrorIs(t, err, views.ErrInvalidData)
			assert.Contains(t, err.Error(), tt.detail)
		})
	}
}

func ExampleUnion() {
	mem := memory.DefaultAllocator
	ids, _, _ := array.FromJSON(mem, arrow.PrimitiveTypes.Int8, strings.NewReader(`[0, 1, 0]`))
	ints, _, _ := array.FromJSON(mem, arrow.PrimitiveTypes.Int64, strings.NewReader(`[1, 0, 3]`))
	strs, _, _ := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["", "two", ""]`))
	arr, _ := array.NewSparseUnionFromArraysWithFields(ids, []arrow.Array{ints, strs}, []string{"n", "s"})
	v, _ := views.New(arr, views.TypeOf(arr.DataType()))
	u := v.Node().(*views.Union)
	for i := range v.Len() {
		fmt.Println(u.TypeCode(i), v.Value(i))
	}
	// Output:
	// 0 1
	// 1 two
	// 0 3
}
