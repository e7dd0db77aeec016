package arrowtype_test

import (
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
