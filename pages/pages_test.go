package pages_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowflight "github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/pages"
	"github.com/stretchr/testify/require"
)

type row struct {
	ID int64 `arrow:"id"`
}

// The deprecated names forward to the packages that replaced them; the
// readers themselves are tested there.
func TestTheDeprecatedNamesForward(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec, err := mapper.Encode([]row{{1}, {2}, {3}}, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	var buf bytes.Buffer
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	require.NoError(t, pqarrow.WriteTable(tbl, &buf, 2, nil, pqarrow.DefaultWriterProps()))
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 2}, mem)
	require.NoError(t, err)
	r, err := pages.Parquet[row](context.Background(), fr)
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, []row{{1}, {2}, {3}}, got)

	for name, seq := range map[string]func() error{
		"FlightOwnedPages": func() error {
			for _, err := range pages.FlightOwnedPages[row](context.Background(), nil, nil, 1) {
				return err
			}
			return nil
		},
		"Flight": func() error {
			for _, err := range pages.Flight[row](context.Background(), nil, nil, 1) {
				return err
			}
			return nil
		},
		"FlightStream": func() error {
			_, err := pages.FlightStream[row](context.Background(), nil, (*arrowflight.Ticket)(nil))
			return err
		},
	} {
		require.ErrorContains(t, seq(), "nil flight", name)
	}
}
