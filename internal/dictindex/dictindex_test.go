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
