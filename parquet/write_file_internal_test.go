package parquet

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet/internal/pagewriter"
	"github.com/stretchr/testify/require"
)

func TestAFailureOfAnArrowGoColumnOfTheDirectFileNamesTheColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "small", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	}, nil)
	out, err := newFileOut(io.Discard, schema, WriteConfig{}, mem, nil)
	require.NoError(t, err)
	d, ok := out.fw.(*pagewriter.File)
	require.True(t, ok, "the direct writer writes the file")
	require.Equal(t, []string{"small"}, d.ArrowGoLeaves(), "int8 is arrow-go's, int64 the direct writer's")

	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	ids.AppendValues([]int64{1, 2, 3}, nil)
	idCol := ids.NewArray()
	defer idCol.Release()
	texts := array.NewStringBuilder(mem)
	defer texts.Release()
	texts.AppendValues([]string{"a", "b", "c"}, nil)
	textCol := texts.NewArray()
	defer textCol.Release()
	// A record that is not of the file's schema: "small" holds text,
	// which arrow-go's INT32 column writer refuses.
	wrong := arrow.NewSchema([]arrow.Field{schema.Field(0), {Name: "small", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := array.NewRecordBatch(wrong, []arrow.Array{idCol, textCol}, 3)
	defer rec.Release()

	err = out.write(rec, 0)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, "small", me.Column)
	require.ErrorIs(t, err, mapper.ErrUnsupported)
	require.ErrorContains(t, err, "type mismatch")
	require.Error(t, out.close(), "the file is broken: no footer")
}
