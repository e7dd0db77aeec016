package parquet_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAColumnPqarrowCannotReadIsNamedInTheError(t *testing.T) {
	// id int32, then attrs: a MAP whose key-value group has three fields,
	// which the format forbids and pqarrow refuses ("keyvalue node group
	// must have exactly 1 or 2 child elements"). (A MAP whose key is
	// optional, which pqarrow refuses too, is read: see read_repair.go.)
	key, err := schema.NewPrimitiveNodeLogical("key", parquet.Repetitions.Required, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1)
	require.NoError(t, err)
	kv, err := schema.NewGroupNode("key_value", parquet.Repetitions.Repeated, schema.FieldList{key,
		schema.NewInt32Node("value", parquet.Repetitions.Optional, -1), schema.NewInt32Node("extra", parquet.Repetitions.Optional, -1)}, -1)
	require.NoError(t, err)
	attrs, err := schema.NewGroupNodeLogical("attrs", parquet.Repetitions.Optional, schema.FieldList{kv}, schema.MapLogicalType{}, -1)
	require.NoError(t, err)
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{schema.NewInt32Node("id", parquet.Repetitions.Required, -1), attrs}, -1)
	require.NoError(t, err)

	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root)
	rg, err := w.AppendRowGroupChecked()
	require.NoError(t, err)
	for _, write := range []func(file.ColumnChunkWriter) error{
		func(c file.ColumnChunkWriter) error {
			_, err := c.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{1}, nil, nil)
			return err
		},
		func(c file.ColumnChunkWriter) error {
			_, err := c.(*file.ByteArrayColumnChunkWriter).WriteBatch([]parquet.ByteArray{parquet.ByteArray("k")}, []int16{2}, []int16{0})
			return err
		},
		func(c file.ColumnChunkWriter) error {
			_, err := c.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{7}, []int16{3}, []int16{0})
			return err
		},
		func(c file.ColumnChunkWriter) error {
			_, err := c.(*file.Int32ColumnChunkWriter).WriteBatch([]int32{8}, []int16{3}, []int16{0})
			return err
		},
	} {
		c, err := rg.NextColumn()
		require.NoError(t, err)
		require.NoError(t, write(c))
		require.NoError(t, c.Close())
	}
	require.NoError(t, rg.Close())
	require.NoError(t, w.Close())

	type idOnly struct {
		ID int32 `arrow:"id"`
	}
	_, err = amparquet.OpenReaderAt[idOnly](bytes.NewReader(buf.Bytes()), int64(buf.Len()), amparquet.ReadConfig{})
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.Contains(t, err.Error(), `column "attrs": keyvalue node group must have exactly 1 or 2 child elements, found 3`)
	assert.NotContains(t, err.Error(), "\n")
}
