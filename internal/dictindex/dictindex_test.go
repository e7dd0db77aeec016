package dictindex_test

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each index type's array holds the indices given, a negative one null, as
// arrow-go's accessors read them, up to the type's largest index.
func TestEveryIndexTypeHoldsItsIndicesUpToItsMax(t *testing.T) {
	for _, tc := range []struct {
		dt  arrow.DataType
		max uint64
	}{
		{arrow.PrimitiveTypes.Int8, math.MaxInt8}, {arrow.PrimitiveTypes.Uint8, math.MaxUint8},
		{arrow.PrimitiveTypes.Int16, math.MaxInt16}, {arrow.PrimitiveTypes.Uint16, math.MaxUint16},
		{arrow.PrimitiveTypes.Int32, math.MaxInt32}, {arrow.PrimitiveTypes.Uint32, math.MaxUint32},
		{arrow.PrimitiveTypes.Int64, math.MaxInt64}, {arrow.PrimitiveTypes.Uint64, math.MaxUint64},
	} {
		t.Run(tc.dt.String(), func(t *testing.T) {
			assert.Equal(t, tc.max, dictindex.Max(tc.dt))
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			top := int(min(tc.max, math.MaxInt32))
			indices := []int{0, -1, 3, top, -1, 1}
			arr := dictindex.Array(mem, tc.dt, indices)
			defer arr.Release()
			require.True(t, arrow.TypeEqual(tc.dt, arr.DataType()))
			require.Equal(t, len(indices), arr.Len())
			assert.Equal(t, 2, arr.NullN())
			for i, want := range indices {
				if want < 0 {
					assert.True(t, arr.IsNull(i), "index %d", i)
					continue
				}
				assert.True(t, arr.IsValid(i), "index %d", i)
				assert.Equal(t, want, indexAt(arr, i), "index %d", i)
			}
		})
	}
}

func indexAt(arr arrow.Array, i int) int {
	switch a := arr.(type) {
	case *array.Int8:
		return int(a.Value(i))
	case *array.Uint8:
		return int(a.Value(i))
	case *array.Int16:
		return int(a.Value(i))
	case *array.Uint16:
		return int(a.Value(i))
	case *array.Int32:
		return int(a.Value(i))
	case *array.Uint32:
		return int(a.Value(i))
	case *array.Int64:
		return int(a.Value(i))
	case *array.Uint64:
		return int(a.Value(i))
	}
	panic(arr.DataType())
}

func TestOutOfRangeFindsTheFirstValidIndexPastTheDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64} {
		a := dictindex.Array(mem, dt, []int{0, -1, 2, 3, 1})
		i, index, err := dictindex.OutOfRange(a.Data(), dt, 3)
		require.NoError(t, err)
		assert.Equal(t, 3, i, "%s: the null at 1 is no index; 3 is the first past 3 entries", dt)
		assert.Equal(t, int64(3), index)
		i, _, err = dictindex.OutOfRange(a.Data(), dt, 4)
		require.NoError(t, err)
		assert.Equal(t, -1, i, "%s: every index within 4 entries", dt)
		a.Release()
	}
	_, _, err := dictindex.OutOfRange(nil, arrow.BinaryTypes.String, 1)
	assert.Error(t, err, "a string is no index type")
}
