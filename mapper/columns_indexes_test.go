package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

func TestColumnsIndexesIsTheColumnsCBinds(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String},
		{Name: "c", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64})},
		{Name: "d", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	type cd struct {
		D views.PrimitiveColumn[int32] `arrow:"d"`
		C struct {
			X views.PrimitiveColumn[float64] `arrow:"x"`
		} `arrow:"c"`
	}
	idx, err := mapper.ColumnsIndexes[cd](schema)
	require.NoError(t, err)
	require.Equal(t, []int{2, 3}, idx, "in increasing order, a struct column once")

	type missing struct {
		E views.StringColumn `arrow:"e"`
	}
	_, err = mapper.ColumnsIndexes[missing](schema)
	require.ErrorIs(t, err, mapper.ErrMissingColumn)
	idx, err = mapper.ColumnsIndexes[missing](schema, mapper.AllowMissing())
	require.NoError(t, err)
	require.Empty(t, idx)
	_, err = mapper.ColumnsIndexes[cd](schema, mapper.ZeroCopy())
	require.ErrorIs(t, err, mapper.ErrOption, "columns take no ZeroCopy")
}
