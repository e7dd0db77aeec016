package arrowtest_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fromJSON(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	arr, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(arr.Release)
	return arr
}

func TestSameValueComparesValuesNotLayouts(t *testing.T) {
	list := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	a := fromJSON(t, list, `[[1, 2], null, [], [3]]`)
	b := fromJSON(t, list, `[[3], [1, 2], null, []]`)
	assert.True(t, arrowtest.SameValue(a, 0, b, 1), "equal lists at other offsets")
	assert.True(t, arrowtest.SameValue(a, 1, b, 2), "two nulls")
	assert.False(t, arrowtest.SameValue(a, 1, b, 3), "null and empty")
	assert.False(t, arrowtest.SameValue(a, 0, b, 0), "other lengths")

	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	x := fromJSON(t, m, `[[{"key": "a", "value": 1}, {"key": "b", "value": 2}]]`)
	y := fromJSON(t, m, `[[{"key": "b", "value": 2}, {"key": "a", "value": 1}]]`)
	assert.False(t, arrowtest.SameValue(x, 0, y, 0), "a map's entries in another order")

	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	bld := array.NewDictionaryBuilder(memory.DefaultAllocator, dt)
	defer bld.Release()
	db := bld.(*array.BinaryDictionaryBuilder)
	require.NoError(t, db.AppendString("unused"))
	require.NoError(t, db.AppendString("x"))
	db.AppendNull()
	d1 := bld.NewArray() // dictionary [unused, x], indices [0, 1, null]
	defer d1.Release()
	bld2 := array.NewDictionaryBuilder(memory.DefaultAllocator, dt)
	defer bld2.Release()
	db2 := bld2.(*array.BinaryDictionaryBuilder)
	require.NoError(t, db2.AppendString("x"))
	db2.AppendNull()
	d2 := bld2.NewArray() // dictionary [x], indices [0, null]
	defer d2.Release()
	require.NotEqual(t, d1.(*array.Dictionary).GetValueIndex(1), d2.(*array.Dictionary).GetValueIndex(0), "the layouts differ")
	assert.True(t, arrowtest.SameValue(d1, 1, d2, 0), "one value through other indices")
	assert.True(t, arrowtest.SameValue(d1, 2, d2, 1))
	assert.False(t, arrowtest.SameValue(d1, 0, d2, 0), `"unused" is not "x"`)
}
