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

type streamRow struct {
	Name string `arrow:"name"`
}

// One type met with ever new schemas (a stream of GoTypeOf's, a producer
// that reorders its columns) keeps at most plansPerKey plans, the least
// recently used dropped first, so that it never pushes another type's
// plan out of the cache.
func TestOneTypesNewSchemasKeepEightPlansAndLeaveOtherTypesPlans(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
	}, nil)
	o := testOptions(nil)
	kept, err := cachedDecodePlan(reflect.TypeFor[hitRow](), schema, o)
	require.NoError(t, err)

	streamed := reflect.TypeFor[streamRow]()
	for k := range 2 * maxPlans {
		// name at position k: a plan of other columns each time.
		fields := make([]arrow.Field, k+1)
		for j := range k {
			fields[j] = arrow.Field{Name: "pad", Type: arrow.PrimitiveTypes.Int8}
		}
		fields[k] = arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}
		_, err := cachedDecodePlan(streamed, arrow.NewSchema(fields, nil), o)
		require.NoError(t, err)
	}
	key, ok := planKeyOf(decodeKind, streamed, nil, o)
	require.True(t, ok)
	set, ok := plans.sets.Load(key.head)
	require.True(t, ok)
	plans.mu.Lock()
	held := len(set.(*planSet).plans)
	plans.mu.Unlock()
	assert.Equal(t, plansPerKey, held, "the streamed type holds its most recent plans, no more")

	again, err := cachedDecodePlan(reflect.TypeFor[hitRow](), schema, o)
	require.NoError(t, err)
	assert.Same(t, kept, again, "the other type's plan is still the cached one")
}
