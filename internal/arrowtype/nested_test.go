package arrowtype_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
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
