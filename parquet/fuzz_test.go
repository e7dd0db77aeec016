package parquet_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
	"github.com/stretchr/testify/require"
)

// FuzzParquetFile reads any bytes as a Parquet file through OpenReaderAt
// and every page, as each row type of the seeds and as no columns, and
// through OpenRecordsReaderAt: an error or the rows its footer counts,
// never a panic.
func FuzzParquetFile(f *testing.F) {
	seeds, err := mutant.WriteSeeds(f.TempDir(), filepath.Join("..", "testdata", "arrow-integration", "1.0.0-littleendian"))
	require.NoError(f, err)
	for _, s := range seeds {
		data, err := os.ReadFile(s.Path)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		footer := fuzzFooterRows(data)
		cfg := amparquet.ReadConfig{BatchRows: 64}
		if rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), cfg); err == nil {
			// The rows of the row groups: what a footer counting 0 over
			// row groups of rows (parquet-rs 0.3) reads, and the count of
			// a footer arrow-go reads only repaired.
			footer = rr.NumRows()
			rr.Release()
		}
		rows, err := fuzzRows[struct{}](data, cfg)
		if err == nil {
			require.Equal(t, footer, rows, "rows read without an error")
		}
		_, _ = fuzzRows[mutant.Flat](data, cfg)
		_, _ = fuzzRows[mutant.Nested](data, cfg)
		_, _ = fuzzRows[mutant.Lists](data, cfg)
		_, _ = fuzzRows[mutant.Maps](data, cfg)
		_, _ = fuzzRows[mutant.Dict](data, cfg)
		rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), cfg)
		if err != nil {
			return
		}
		defer rr.Release()
		var n int64
		for rr.Next() {
			n += rr.RecordBatch().NumRows()
		}
		if rr.Err() == nil {
			require.Equal(t, footer, n, "records read without an error")
		}
	})
}

// fuzzRows reads every page of data as rows of T.
func fuzzRows[T any](data []byte, cfg amparquet.ReadConfig) (int64, error) {
	r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), cfg)
	if err != nil {
		return 0, err
	}
	defer r.Release()
	var n int64
	for page, err := range r.Pages(100) {
		if err != nil {
			return n, err
		}
		n += int64(len(page))
	}
	return n, nil
}

// fuzzFooterRows is the row count of data's footer as arrow-go reads it,
// -1 when it does not.
func fuzzFooterRows(data []byte) (n int64) {
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return -1
	}
	defer pf.Close()
	return pf.MetaData().NumRows
}
