package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

type nullRow struct {
	ID      int64         `arrow:"id"`
	Nothing mapper.Null   `arrow:"nothing"`
	Many    []mapper.Null `arrow:"many"`
}

func TestTheNullTypeIsMapperNull(t *testing.T) {
	fxRun(t, []fxCase{
		{"a Null field writes a nullable column of the null type and reads it back", func(t *testing.T, mem memory.Allocator) {
			schema, err := mapper.SchemaOf[nullRow]()
			require.NoError(t, err)
			require.Equal(t, arrow.NULL, schema.Field(1).Type.ID())
			require.True(t, schema.Field(1).Nullable, "every row of a null column is null")
			rows := []nullRow{{ID: 1, Many: []mapper.Null{{}, {}}}, {ID: 2}, {ID: 3, Many: []mapper.Null{}}, {ID: 4}}
			rec, err := mapper.Encode(rows, mapper.Allocator(mem))
			require.NoError(t, err)
			defer rec.Release()
			require.True(t, schema.Equal(rec.Schema()), "%s", rec.Schema())
			require.Equal(t, 4, rec.Column(1).NullN())
			require.Equal(t, rows, fxDecodeAll[nullRow](t, rec))
		}},
		{"a Null reads only the null type", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[struct {
				N mapper.Null `arrow:"n"`
			}](fxSchema("n", arrow.PrimitiveTypes.Int32))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "N", "n", -1)
		}},
	})
}
