package parquet_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheRowGroupPastInt16sOrdinalsIsRefusedByEitherEncoderAndTheFileKeepsTheRowsBefore(t *testing.T) {
	type row struct {
		ID int64 `arrow:"id"`
	}
	const most = 1<<15 - 1
	rows := make([]row, most+2)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	for _, enc := range []amparquet.Encoder{amparquet.EncoderArrowmap, amparquet.EncoderPqarrow} {
		t.Run(enc.String(), func(t *testing.T) {
			var buf bytes.Buffer
			w, err := amparquet.NewWriter[row](&buf, amparquet.WriteConfig{Encoder: enc, RowGroupRows: 1})
			require.NoError(t, err)
			n, err := w.Write(rows[:most])
			require.NoError(t, err)
			require.Equal(t, most, n)
			n, err = w.Write(rows[most:])
			require.ErrorContains(t, err, "more than 32767 row groups")
			assert.Zero(t, n, "the rows of the row group refused")
			require.NoError(t, w.Close(), "the file goes on without the rows refused")

			pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
			require.NoError(t, err)
			assert.Equal(t, most, pf.NumRowGroups())
			assert.EqualValues(t, most, pf.NumRows())
			got, err := amparquet.OpenReaderAt[row](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			defer got.Release()
			all, err := got.ReadAll()
			require.NoError(t, err)
			assert.Equal(t, rows[:most], all)
		})
	}
}
