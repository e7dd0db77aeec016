package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

type badTagRow struct {
	ID       int64 `arrow:"id"`
	Customer struct {
		Name string `arrow:"name,bogus"`
	} `arrow:"customer"`
}

type badTagColumns struct {
	ID       views.PrimitiveColumn[int64] `arrow:"id"`
	Customer struct {
		Name views.StringColumn `arrow:"name,bogus"`
	} `arrow:"customer"`
}

func TestABadTagHasOnePathThroughEveryEntryPoint(t *testing.T) {
	schema := fxSchema("id", arrow.PrimitiveTypes.Int64, "customer", arrow.StructOf(arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}))
	_, decodeErr := mapper.New[badTagRow](schema)
	_, columnsErr := mapper.Columns[badTagColumns](array.NewRecordBatch(schema, []arrow.Array{
		fxJSON(t, memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, `[]`),
		fxJSON(t, memory.DefaultAllocator, schema.Field(1).Type, `[]`)}, 0))
	_, schemaErr := mapper.SchemaOf[badTagRow]()
	_, encodeErr := mapper.Encode([]badTagRow{{}})
	for name, err := range map[string]error{"New": decodeErr, "Columns": columnsErr, "SchemaOf": schemaErr, "Encode": encodeErr} {
		me := fxRequireError(t, err, mapper.ErrTag, "Customer.Name", "", -1)
		require.ErrorContains(t, me, "bogus", name)
		require.Equal(t, decodeErr.Error(), err.Error(), name)
	}
}

// decodeOK is Decode of rec, which must succeed.
func decodeOK[T any](t *testing.T, rec arrow.RecordBatch, opts ...mapper.ReadOption) []T {
	t.Helper()
	rows, err := mapper.Decode[T](rec, opts...)
	require.NoError(t, err)
	return rows
}
