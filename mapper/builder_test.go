package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestBuilderAppendIsAllOrNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b, err := mapper.NewBuilder[encOrder](mapper.Allocator(mem))
	require.NoError(t, err)
	defer b.Release()
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	good := []encOrder{{ID: 1, Lines: []encLine{{"a", now}}}, {ID: 2, Lines: []encLine{}}}
	require.NoError(t, b.Append(good...))
	bad := []encOrder{{ID: 3, Lines: []encLine{{"b", now}}}, {ID: 4, Lines: []encLine{{"c", time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)}}}}
	err = b.Append(bad...)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 3, e.Row, "the row in the batch")
	require.NoError(t, b.Append(encOrder{ID: 5}))

	rec := b.NewRecordBatch()
	defer rec.Release()
	got, err := mapper.Decode[encOrder](rec)
	require.NoError(t, err)
	assert.Equal(t, append(good, encOrder{ID: 5}), got, "the failed Append left nothing behind")

	// The Builder goes on with a new batch.
	require.NoError(t, b.Append(good[:1]...))
	next := b.NewRecordBatch()
	defer next.Release()
	assert.EqualValues(t, 1, next.NumRows())
	empty := b.NewRecordBatch()
	defer empty.Release()
	assert.EqualValues(t, 0, empty.NumRows())
	assert.True(t, empty.Schema().Equal(rec.Schema()))
}
