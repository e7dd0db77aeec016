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

// A dictionary's index type is the one of the indices arrow-go's
// dictionary arrays hold; no other type has one.
func TestDictionaryIndicesIsTheTypeOfADictionarysIndices(t *testing.T) {
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Fixed || !r.Integer {
			continue
		}
		dt := &arrow.DictionaryType{IndexType: r.Make(), ValueType: arrow.BinaryTypes.String}
		got, ok := arrowtype.DictionaryIndices(dt)
		require.True(t, ok, r.Name)
		b := array.NewDictionaryBuilder(memory.DefaultAllocator, dt)
		arr := b.NewArray().(*array.Dictionary)
		assert.True(t, arrow.TypeEqual(arr.Indices().DataType(), got), r.Name)
		arr.Release()
		b.Release()
		_, ok = arrowtype.DictionaryIndices(r.Make())
		assert.False(t, ok, "%s is no dictionary", r.Name)
	}
	_, ok := arrowtype.DictionaryIndices(arrowtype.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String))
	assert.False(t, ok, "run-end encoded values have run ends, not indices")
}
