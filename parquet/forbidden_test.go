package parquet_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

func TestANullInAColumnThatIsNotNullableIsRefusedNotWrittenAsAValue(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: false}}, nil)
	col := fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null, 3]`)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()

	data, err := writeRecords(schema, rec)
	if err == nil { // what it did before: the null slot's bytes came back as a value
		gotSchema, recs := readRecords(t, data)
		got := oneTable(t, gotSchema, recs)
		require.Equal(t, col.NullN(), got.Column(0).NullN(), "the file reads back %v for %v", got.Column(0), col)
	}
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.ErrorIs(t, err, mapper.ErrNull)
	require.Equal(t, "n", me.Column)
	require.Equal(t, 1, me.Row)
}
