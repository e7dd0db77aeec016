package mapper_test

import (
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPlanOfAGoTypeOfGigabytesAllocatesNothingOfItsSizeWithoutRows(t *testing.T) {
	// A schema's fixed size makes a Go type of GoTypeOf's 4 GiB, without a
	// byte of data behind it: every level of a plan, the struct's, the
	// pointer's and the array's, made a zero value of its type when the
	// plan was built.
	dt := arrow.FixedSizeListOf(1<<29, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "v", Type: dt, Nullable: true}), Nullable: true},
	}, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	typ, err := mapper.GoTypeOf(schema) // which builds the plan
	require.NoError(t, err)
	require.Equal(t, uintptr(1<<32), typ.Field(0).Type.Elem().Field(0).Type.Elem().Size(), "*struct{V *[1<<29]int64}")
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	rec := b.NewRecordBatch() // no rows
	defer rec.Release()
	rows, err := mapper.DecodeTo(typ, rec)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, 0, rows.Len())
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
}
