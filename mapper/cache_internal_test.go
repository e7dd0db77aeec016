package mapper

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type hitRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

func TestPlanCacheHitAllocatesNothing(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
	}, nil)
	typ := reflect.TypeFor[hitRow]()
	o := testOptions([]Option{SnakeCase()})
	t.Run("a decode plan for the schema used last", func(t *testing.T) {
		first, err := cachedDecodePlan(typ, schema, o)
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(100, func() {
			p, err := cachedDecodePlan(typ, schema, o)
			if err != nil || p != first {
				t.Fatal("not the cached plan", err)
			}
		})
		assert.Zero(t, allocs)
	})
	t.Run("an encode plan", func(t *testing.T) {
		first, err := cachedEncodePlan(typ, o)
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(100, func() {
			p, err := cachedEncodePlan(typ, o)
			if err != nil || p != first {
				t.Fatal("not the cached plan", err)
			}
		})
		assert.Zero(t, allocs)
	})
}
