package integration

import (
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/stretchr/testify/require"
)

// leafChunk is the values of one leaf column of a row group, with their
// definition and repetition levels as the Parquet format has them (nil
// levels for a required column outside any repeated level).
type leafChunk struct {
	values   any // []int32, []int64, []float32, []float64, []bool, []parquet.ByteArray, []parquet.FixedLenByteArray
	def, rep []int16
}

// writeLowLevel writes a Parquet file of one row group with arrow-go's
// column writers and the hand-made schema root: the layouts pqarrow's Arrow
// path never writes (two-level lists, float16 from raw bits, groups it
// refuses to read), with no Arrow schema stored.
func writeLowLevel(t *testing.T, path string, root *schema.GroupNode, leaves ...leafChunk) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(false), parquet.WithStats(true))
	w, err := file.NewParquetWriterWithError(f, root, file.WithWriterProps(props))
	require.NoError(t, err)
	rg, err := w.AppendRowGroupChecked()
	require.NoError(t, err)
	for k, leaf := range leaves {
		cw, err := rg.NextColumn()
		require.NoError(t, err, "column %d", k)
		switch values := leaf.values.(type) {
		case []int32:
			_, err = cw.(*file.Int32ColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []int64:
			_, err = cw.(*file.Int64ColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []float32:
			_, err = cw.(*file.Float32ColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []float64:
			_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []bool:
			_, err = cw.(*file.BooleanColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []parquet.ByteArray:
			_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		case []parquet.FixedLenByteArray:
			_, err = cw.(*file.FixedLenByteArrayColumnChunkWriter).WriteBatch(values, leaf.def, leaf.rep)
		default:
			err = fmt.Errorf("no column writer for %T", values)
		}
		require.NoError(t, err, "column %d", k)
		require.NoError(t, cw.Close(), "column %d", k)
	}
	require.NoError(t, rg.Close())
	require.NoError(t, w.Close()) // closes f too
}

// must is the node of a schema constructor, which fails only on a schema
// the test got wrong.
func must[N schema.Node](n N, err error) N {
	if err != nil {
		panic(err)
	}
	return n
}
