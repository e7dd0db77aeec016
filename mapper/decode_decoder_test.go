package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// Rows that refer to the same dictionary entry get values of their own:
// changing one row's slice, map or pointer leaves the others alone.
func TestRowsOfOneDictionaryEntryShareNoMemory(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)

	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer lb.Release()
	values := lb.ValueBuilder().(*array.Int64Builder)
	lb.Append(true)
	values.AppendValues([]int64{1, 2}, nil)
	lb.Append(true)
	values.AppendValues([]int64{3}, nil)
	dict := lb.NewArray()
	defer dict.Release()

	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{0, 1, 0, 0}, nil)
	indices := ib.NewArray()
	defer indices.Release()

	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: dict.DataType()}
	col := array.NewDictionaryArray(dt, indices, dict)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "xs", Type: dt}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 4)
	defer rec.Release()

	type row struct {
		Xs []int64 `arrow:"xs"`
	}
	type ptrRow struct {
		Xs *[]int64 `arrow:"xs"`
	}
	rows, err := mapper.Decode[row](rec)
	require.NoError(t, err)
	require.Equal(t, []row{{[]int64{1, 2}}, {[]int64{3}}, {[]int64{1, 2}}, {[]int64{1, 2}}}, rows)
	rows[0].Xs[0] = 100
	require.Equal(t, []int64{1, 2}, rows[2].Xs, "row 2 shares row 0's backing array")
	require.Equal(t, []int64{1, 2}, rows[3].Xs)

	ptrs, err := mapper.Decode[ptrRow](rec)
	require.NoError(t, err)
	require.NotSame(t, ptrs[0].Xs, ptrs[2].Xs)
	require.Equal(t, []int64{1, 2}, *ptrs[2].Xs)
}
