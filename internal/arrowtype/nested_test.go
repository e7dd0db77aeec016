package arrowtype_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

func TestDictionaryIndicesIsTheIndexTypeArrowGoDeclares(t *testing.T) {
	for _, index := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64} {
		dt := &arrow.DictionaryType{IndexType: index, ValueType: arrow.BinaryTypes.String}
		got, ok := arrowtype.DictionaryIndices(dt)
		require.True(t, ok)
		assert.True(t, arrow.TypeEqual(index, got), "%s", got)
	}
	_, ok := arrowtype.DictionaryIndices(arrow.PrimitiveTypes.Int32)
	assert.False(t, ok, "an int32 is no dictionary")
	_, ok = arrowtype.DictionaryIndices(arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String))
	assert.False(t, ok, "a run-end encoded type is no dictionary")
}

func TestMapPartsAreTheKeyAndItemFieldsOfArrowGosMap(t *testing.T) {
	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64)
	m.SetItemNullable(false)
	mp, ok := arrowtype.MapParts(m)
	key, item := mp.Key, mp.Item
	require.True(t, ok)
	assert.Equal(t, m.KeyField(), key)
	assert.Equal(t, m.ItemField(), item)
	assert.False(t, item.Nullable)
	// The fields are the entries' children: what a map array's entries hold.
	entries := m.Elem().(arrow.NestedType).Fields()
	assert.Equal(t, []arrow.Field{key, item}, entries)

	_, ok = arrowtype.MapParts(arrow.ListOf(m.Elem()))
	assert.False(t, ok, "a list of entries is no map")
}

func TestListSizeIsAFixedSizeListsLength(t *testing.T) {
	for _, n := range []int32{1, 2, 5} {
		got, ok := arrowtype.ListSize(arrow.FixedSizeListOf(n, arrow.PrimitiveTypes.Int32))
		require.True(t, ok)
		assert.Equal(t, int(n), got)
	}
	_, ok := arrowtype.ListSize(arrow.ListOf(arrow.PrimitiveTypes.Int32))
	assert.False(t, ok, "a list has no size")
	_, ok = arrowtype.ListSize(arrowtype.FixedSizeBinaryOf(4))
	assert.False(t, ok, "a fixed-size binary's width is no list size")
}

func TestAStructIsStructLikeAndReadsItsFieldsAsArrowGoDoes(t *testing.T) {
	dt := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Float32},
	)
	require.Equal(t, arrowtype.Struct, arrowtype.OfType(dt).Layout)
	s, ok := arrow.DataType(dt).(arrowtype.StructLike)
	require.True(t, ok)
	for i := range dt.NumFields() {
		assert.Equal(t, dt.Field(i), s.Field(i))
	}
	assert.Equal(t, []int{0, 2}, s.FieldIndices("a"))
	assert.Equal(t, []int{1}, s.FieldIndices("b"))
	assert.Empty(t, s.FieldIndices("c"))

	for _, other := range []arrow.DataType{
		arrow.ListOf(arrow.PrimitiveTypes.Int8),
		arrow.MapOf(arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int8),
		arrow.SparseUnionOf([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0}),
	} {
		_, ok := other.(arrowtype.StructLike)
		assert.False(t, ok, "%s is no struct", other)
	}
}

// nestedOfEveryLayout is a type of each row with children, each child of
// a type of its own.
func nestedOfEveryLayout() []arrow.DataType {
	str, i64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64
	ree := arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, str)
	ree.ValueNullable = false
	m := arrow.MapOf(str, i64)
	m.KeysSorted = true
	return []arrow.DataType{
		arrow.ListOfField(arrow.Field{Name: "e", Type: str}),
		arrow.LargeListOf(i64),
		arrow.ListViewOf(str),
		arrow.LargeListViewOf(i64),
		arrow.FixedSizeListOf(3, str),
		m,
		arrow.StructOf(arrow.Field{Name: "a", Type: str, Nullable: true}, arrow.Field{Name: "b", Type: i64}),
		arrow.SparseUnionOf([]arrow.Field{{Name: "s", Type: str, Nullable: true}, {Name: "i", Type: i64, Nullable: true}}, []arrow.UnionTypeCode{5, 9}),
		arrow.DenseUnionOf([]arrow.Field{{Name: "s", Type: str, Nullable: true}}, []arrow.UnionTypeCode{2}),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: str, Ordered: true},
		ree,
	}
}

func TestEveryTypeWithChildrenIsRebuiltFromItsChildren(t *testing.T) {
	seen := map[arrowtype.Layout]bool{}
	for _, dt := range nestedOfEveryLayout() {
		t.Run(dt.String(), func(t *testing.T) {
			seen[arrowtype.OfType(dt).Layout] = true
			children := arrowtype.Children(dt)
			require.NotEmpty(t, children)
			same, ok := arrowtype.WithChildren(dt, children)
			require.True(t, ok)
			assert.True(t, arrow.TypeEqual(dt, same), "%s is not %s", same, dt)

			// Every child swapped for a float32: the children read back are
			// those, and all else about dt is kept.
			swapped := append([]arrow.Field(nil), children...)
			if mp, ok := arrowtype.MapParts(dt); ok { // a map's element is its entries: swap the item
				swapped[0].Type = arrow.StructOf(mp.Key, arrow.Field{Name: mp.Item.Name, Type: arrow.PrimitiveTypes.Float32, Nullable: true})
			} else {
				for i := range swapped {
					swapped[i].Type = arrow.PrimitiveTypes.Float32
				}
			}
			other, ok := arrowtype.WithChildren(dt, swapped)
			require.True(t, ok)
			assert.Equal(t, dt.ID(), other.ID())
			assert.Equal(t, swapped, arrowtype.Children(other))
			assert.Equal(t, arrowtype.OfType(dt), arrowtype.OfType(other))
			switch dt := dt.(type) {
			case arrow.UnionType:
				assert.Equal(t, dt.TypeCodes(), other.(arrow.UnionType).TypeCodes())
			case *arrow.DictionaryType:
				assert.Equal(t, dt.IndexType, other.(*arrow.DictionaryType).IndexType)
				assert.True(t, other.(*arrow.DictionaryType).Ordered)
			case *arrow.MapType:
				assert.True(t, other.(*arrow.MapType).KeysSorted)
			case *arrow.FixedSizeListType:
				assert.Equal(t, dt.Len(), other.(*arrow.FixedSizeListType).Len())
			case *arrow.RunEndEncodedType:
				assert.False(t, other.(*arrow.RunEndEncodedType).ValueNullable)
			}

			_, ok = arrowtype.WithChildren(dt, append(children, children[0]))
			assert.False(t, ok, "one child too many")
			_, ok = arrowtype.WithChildren(dt, []arrow.Field{{Name: "x"}})
			assert.False(t, ok, "a child of no type")
		})
	}
	for _, r := range arrowtype.Rows() {
		if r.Layout > arrowtype.FixedBinary && r.Layout != arrowtype.Extension {
			assert.True(t, seen[r.Layout], "no type of the %s layout (%s) was tried", r.Layout, r.Name)
		}
	}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, arrow.Null, &arrow.FixedSizeBinaryType{ByteWidth: 4}} {
		assert.Empty(t, arrowtype.Children(dt), "%s has no children", dt)
		_, ok := arrowtype.WithChildren(dt, nil)
		assert.False(t, ok, "%s has no children to put back", dt)
	}
}

// DataChildren is what arrow-go's own arrays of each type hold as
// children.
func TestDataChildrenAreTheTypesOfArrowGosChildArrays(t *testing.T) {
	for _, dt := range append(nestedOfEveryLayout(), arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.LargeString) {
		t.Run(dt.String(), func(t *testing.T) {
			arr := array.MakeArrayOfNull(memory.DefaultAllocator, dt, 2)
			defer arr.Release()
			var want []arrow.DataType
			for _, c := range arr.Data().Children() {
				want = append(want, c.DataType())
			}
			got := arrowtype.DataChildren(dt)
			require.Len(t, got, len(want))
			for i := range want {
				assert.True(t, arrow.TypeEqual(want[i], got[i]), "child %d: %s, not %s", i, got[i], want[i])
			}
		})
	}
}

// ParentRow, for an element of each child of each layout: the first row
// that reaches it, counted from the array's offset, or -1 under a null or
// out of every row's reach.
func TestParentRowIsTheFirstRowThatReachesAChildsElement(t *testing.T) {
	mem := memory.DefaultAllocator
	fromJSON := func(dt arrow.DataType, js string) arrow.Array {
		t.Helper()
		a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
		require.NoError(t, err)
		t.Cleanup(a.Release)
		return a
	}
	i64 := arrow.PrimitiveTypes.Int64
	str := arrow.StructOf(arrow.Field{Name: "a", Type: i64, Nullable: true})
	runs := func() arrow.Array {
		ends := fromJSON(arrow.PrimitiveTypes.Int32, `[2, 5, 6]`)
		values := fromJSON(i64, `[10, 20, 30]`)
		ree := array.NewRunEndEncodedArray(ends, values, 6, 0)
		t.Cleanup(ree.Release)
		return ree
	}()
	dense := func() arrow.Array {
		types := fromJSON(arrow.PrimitiveTypes.Int8, `[0, 1, 0, 1]`)
		offsets := fromJSON(arrow.PrimitiveTypes.Int32, `[0, 0, 1, 1]`)
		a, b := fromJSON(i64, `[1, 2]`), fromJSON(arrow.BinaryTypes.String, `["x", "y"]`)
		u, err := array.NewDenseUnionFromArrays(types, offsets, []arrow.Array{a, b})
		require.NoError(t, err)
		t.Cleanup(u.Release)
		return u
	}()
	dict := func() arrow.Array {
		indices := fromJSON(arrow.PrimitiveTypes.Int8, `[2, 0, null, 2, 1]`)
		values := fromJSON(arrow.BinaryTypes.String, `["a", "b", "c", "d"]`)
		d := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, indices, values)
		t.Cleanup(d.Release)
		return d
	}()
	for _, c := range []struct {
		name         string
		arr          arrow.Array
		child, r     int
		want         int
		sliceFrom    int64
		wantInSliced int
	}{
		{"a list's value in its second row", fromJSON(arrow.ListOf(i64), `[[1], [2, 3, 4], null, [5]]`), 0, 2, 1, 1, 0},
		{"a list's value past every row", fromJSON(arrow.ListOf(i64), `[[1], [2]]`), 0, 5, -1, 0, -1},
		{"a fixed-size list's value", fromJSON(arrow.FixedSizeListOf(2, i64), `[[1, 2], [3, 4], [5, 6]]`), 0, 5, 2, 2, 0},
		{"a struct's field at its row", fromJSON(str, `[{"a": 1}, {"a": 2}, {"a": 3}]`), 0, 2, 2, 1, 1},
		{"a struct's field under a null row", fromJSON(str, `[{"a": 1}, null, {"a": 3}]`), 0, 1, -1, 0, -1},
		{"a run's value, at the run's first row", runs, 1, 1, 2, 3, 0},
		{"a run's value before the slice", runs, 1, 0, 0, 2, -1},
		{"a run end", runs, 0, 1, -1, 0, -1},
		{"a dense union's variant selected by its offset", dense, 1, 1, 3, 2, 1},
		{"a dictionary's entry, by index", dict, 0, 2, 0, 1, 2},
		{"a dictionary's entry no index selects", dict, 0, 3, -1, 0, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, arrowtype.ParentRow(c.arr.Data(), c.child, c.r))
			sliced := array.NewSlice(c.arr, c.sliceFrom, int64(c.arr.Len()))
			defer sliced.Release()
			assert.Equal(t, c.wantInSliced, arrowtype.ParentRow(sliced.Data(), c.child, c.r), "sliced from row %d", c.sliceFrom)
		})
	}
}
