package parquet_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
	"github.com/stretchr/testify/require"
)

// FuzzParquetFile reads any bytes as a Parquet file through OpenReaderAt
// and every page, as each row type of the seeds and as no columns, and
// through OpenRecordsReaderAt, in records of 8 to 200 rows as batchRows
// picks (0: the default size): an error or the rows its footer counts,
// never a panic. The seeds have row groups of 100 rows, so that most
// record sizes join the chunks of two row groups into a record.
//
// Fuzz it as .ci/fuzz does, with -fuzzminimizetime=0: by default every
// input that finds new coverage is minimized first, for up to 60 s, by
// removing one byte at a time from a file of kilobytes, and the worker
// fuzzes nothing meanwhile (nor reports the executions until it is done).
func FuzzParquetFile(f *testing.F) {
	seeds, err := mutant.WriteSeeds(f.TempDir(), filepath.Join("..", "testdata", "arrow-integration", "1.0.0-littleendian"))
	require.NoError(f, err)
	batches := []uint8{56, 0, 0, 142, 192} // records of 64, the default, 150 and 200 rows
	for i, s := range seeds {
		data, err := os.ReadFile(s.Path)
		require.NoError(f, err)
		f.Add(data, batches[i%len(batches)])
	}
	f.Fuzz(func(t *testing.T, data []byte, batchRows uint8) {
		cfg := amparquet.ReadConfig{}
		if batchRows > 0 {
			// Records of a row or two cost the run a hundred records
			// and teach nothing records of 8 do not.
			cfg.BatchRows = 8 + int(batchRows)%193
		}
		// Every reader opens the file as ReadSchema does: a file it
		// refuses they refuse alike, and a row type the schema does not
		// fit fails at its plan, after the same open. Neither is read
		// again, which leaves an execution half the opens of the footer.
		schema, err := amparquet.ReadSchema(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), cfg)
		if err != nil {
			return
		}
		defer rr.Release()
		// The rows of the footer's row groups, read from its thrift by a
		// reader of its own: what a footer counting 0 over row groups of
		// rows (parquet-rs 0.3) reads, and the count of a footer arrow-go
		// reads only repaired. Not the reader's count: it is under test.
		footer := mutant.FooterRows(data)
		rows, err := fuzzRows[struct{}](data, cfg)
		if err == nil {
			require.Equal(t, footer, rows, "rows read without an error")
		}
		fuzzFitting[mutant.Flat](schema, data, cfg)
		fuzzFitting[mutant.Nested](schema, data, cfg)
		fuzzFitting[mutant.Lists](schema, data, cfg)
		fuzzFitting[mutant.Maps](schema, data, cfg)
		fuzzFitting[mutant.Dict](schema, data, cfg)
		var n int64
		for rr.Next() {
			n += rr.RecordBatch().NumRows()
		}
		if rr.Err() == nil {
			require.Equal(t, footer, n, "records read without an error")
		}
	})
}

// fuzzFitting reads every page of data as rows of T when T's plan fits
// schema, the file's.
func fuzzFitting[T any](schema *arrow.Schema, data []byte, cfg amparquet.ReadConfig) {
	if _, err := mapper.New[T](schema); err == nil {
		_, _ = fuzzRows[T](data, cfg)
	}
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
