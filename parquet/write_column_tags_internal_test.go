package parquet

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"
)

func TestArrowLeavesArePqarrowsColumnsOneToOne(t *testing.T) {
	item := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32})
	schemas := []*arrow.Schema{
		arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: arrow.PrimitiveTypes.Int64},
			{Name: "items", Type: arrow.ListOf(item), Nullable: true},
			{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
			{Name: "xy", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float64), Nullable: true},
			{Name: "city", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
			{Name: "deep", Type: arrow.StructOf(arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(item)), Nullable: true}), Nullable: true},
			{Name: "big", Type: arrow.LargeListOf(arrow.BinaryTypes.LargeString), Nullable: true},
			{Name: "ree", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
			{Name: "when", Type: arrow.FixedWidthTypes.Timestamp_s, Nullable: true},
		}, nil),
	}
	for _, s := range schemas {
		stored, _, err := storageSchema(s)
		require.NoError(t, err)
		encoded, _ := encodingSchema(stored)
		pq, err := pqarrow.ToParquet(encoded, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
		require.NoError(t, err)
		leaves := arrowLeaves(encoded)
		require.Len(t, leaves, pq.NumColumns())
		for i, l := range leaves {
			// The Arrow names are the Parquet path without its list and
			// map levels.
			var names []string
			for _, p := range strings.Split(pq.Column(i).Path(), ".") {
				if p != "list" && p != "element" && p != "key_value" && p != "entries" && p != "item" {
					names = append(names, p)
				}
			}
			require.Equal(t, names, l.names, "leaf %d, %s", i, pq.Column(i).Path())
		}
	}
}
