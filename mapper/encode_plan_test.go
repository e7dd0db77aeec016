package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestEncodeWritesPositionsInFieldOrder(t *testing.T) {
	t.Run("SchemaOf writes both columns of one name and the empty names", func(t *testing.T) {
		schema, err := mapper.SchemaOf[dupRow]()
		require.NoError(t, err)
		require.True(t, schema.Equal(dupSchema), "got\n%s\nwant\n%s", schema, dupSchema)
	})
	t.Run("Encode then Decode gives the record back", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		defer mem.AssertSize(t, 0)
		rec := dupRecord(t, mem)
		defer rec.Release()
		rows, err := mapper.Decode[dupRow](rec)
		require.NoError(t, err)
		again, err := mapper.Encode(rows, mapper.Allocator(mem))
		require.NoError(t, err)
		defer again.Release()
		require.True(t, array.RecordEqual(rec, again), "got\n%v\nwant\n%v", again, rec)
	})
	t.Run("a name twice with one pos decodes back", func(t *testing.T) {
		type row struct {
			A int64 `arrow:"x,pos=0"`
			B int64 `arrow:"x"`
		}
		rec, err := mapper.Encode([]row{{1, 2}, {3, 4}})
		require.NoError(t, err)
		defer rec.Release()
		assert.Equal(t, "x", rec.ColumnName(1))
		back, err := mapper.Decode[row](rec)
		require.NoError(t, err)
		assert.Equal(t, []row{{1, 2}, {3, 4}}, back)
	})
	type outOfOrder struct {
		A int64 `arrow:"a,pos=1"`
		B int64 `arrow:"b,pos=0"`
	}
	type nestedOutOfOrder struct {
		S struct {
			A int64 `arrow:"a"`
			B int64 `arrow:"b,pos=0"`
		} `arrow:"s"`
	}
	for _, tt := range []struct {
		name         string
		err          error
		path, column string
		message      string
	}{
		{"a pos that is not the field's place is refused", func() error { _, err := mapper.SchemaOf[outOfOrder](); return err }(), "A", "a", "pos=1, but fields are written in order and this one is column 0"},
		{"inside a struct too", func() error { _, err := mapper.SchemaOf[nestedOutOfOrder](); return err }(), "S.B", "s.b", "pos=0, but fields are written in order and this one is column 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			me := fxRequireError(t, tt.err, mapper.ErrTag, tt.path, tt.column, -1)
			assert.Contains(t, me.Error(), tt.message)
		})
	}
}
