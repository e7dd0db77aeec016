package parquet

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

func TestAnEncoderFailureNamesTheColumnPqarrowRefuses(t *testing.T) {
	// A struct whose null row is over a list row with elements, handed to
	// pqarrow as it is (toStorage empties that row): pqarrow refuses it
	// in an error that names no column.
	list := array.NewInt32Builder(memory.DefaultAllocator)
	defer list.Release()
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int32)
	defer lb.Release()
	for _, v := range []int32{1, 2, 3} {
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).Append(v)
	}
	child := lb.NewArray()
	defer child.Release()
	st := arrow.StructOf(arrow.Field{Name: "l", Type: child.DataType(), Nullable: true})
	d := array.NewData(st, 3, []*memory.Buffer{memory.NewBufferBytes([]byte{0b101})}, []arrow.ArrayData{child.Data()}, 1, 0)
	col := array.MakeFromData(d)
	d.Release()
	defer col.Release()
	ok := array.NewInt32Builder(memory.DefaultAllocator)
	defer ok.Release()
	ok.AppendValues([]int32{1, 2, 3}, nil)
	okCol := ok.NewArray()
	defer okCol.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "ok", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: st, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{okCol, col}, 3)
	defer rec.Release()

	out, err := newFileOut(io.Discard, schema, WriteConfig{Encoder: EncoderPqarrow}, memory.DefaultAllocator, nil)
	require.NoError(t, err)
	out.storage, out.convert = nil, nil // the record as it is
	err = out.write(rec, 0)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, "s", me.Column)
	require.ErrorIs(t, err, mapper.ErrUnsupported)
	require.ErrorContains(t, err, "non-zero length null components")
	require.Error(t, out.close(), "the file is broken: no footer")
}
