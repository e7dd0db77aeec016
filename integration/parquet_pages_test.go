package integration

import (
	"bytes"
	"testing"

	arrowparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// dataPages counts the data pages of each column chunk of the first row
// group, reading the pages themselves.
func dataPages(t *testing.T, data []byte) map[string]int {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	out := map[string]int{}
	rg := pf.RowGroup(0)
	for c := range pf.MetaData().Schema.NumColumns() {
		pr, err := rg.GetColumnPageReader(c)
		require.NoError(t, err)
		for pr.Next() {
			if _, ok := pr.Page().(file.DataPage); ok {
				out[pf.MetaData().Schema.Column(c).Path()]++
			}
		}
		require.NoError(t, pr.Err())
	}
	return out
}

func writeAll[T any](buf *bytes.Buffer, rows []T, cfg amparquet.WriteConfig) error {
	w, err := amparquet.NewWriter[T](buf, cfg)
	if err != nil {
		return err
	}
	if _, err := w.Write(rows); err != nil {
		return err
	}
	return w.Close()
}

func readAllParquet[T any](data []byte) ([]T, error) {
	r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{})
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// The direct writer ends a page at 1 MiB of levels, indices and values
// held, and compresses snappy pages in pieces of 64 KiB: column chunks of
// dozens of pages, plain pages of several pieces, which pqarrow (through
// ReadAll) and parquet-go both read back as written.
func TestColumnChunksOfManyPagesReadBackByPqarrowAndParquetGo(t *testing.T) {
	off := false
	// Row groups of twice the rows of 256 KiB pages, whose pages were of
	// 256 KiB: pages are of 1 MiB.
	const n = 400_000
	// The configurations run side by side (two at once on two cores): under
	// the race detector, one after the other, they took minutes.
	nested := nestedBenchRows(n)
	flat := flatBenchRows(n)
	for _, c := range []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"the defaults", amparquet.WriteConfig{RowGroupRows: n}},
		{"snappy, version 1 pages", amparquet.WriteConfig{Compression: amparquet.Snappy, RowGroupRows: 300_000}},
		{"snappy, version 2 pages", amparquet.WriteConfig{Compression: amparquet.Snappy, DataPageVersion: arrowparquet.DataPageV2, RowGroupRows: n}},
		{"zstd", amparquet.WriteConfig{Compression: amparquet.Zstd, RowGroupRows: n}},
		{"uncompressed, no page index, no statistics", amparquet.WriteConfig{Compression: amparquet.Uncompressed, PageIndex: &off, Statistics: &off, RowGroupRows: n}},
	} {
		t.Run("nested rows, "+c.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			require.NoError(t, writeAll(&buf, nested, c.cfg))
			pages := dataPages(t, buf.Bytes())
			require.Greater(t, pages["tags.list.element"], 2, "a list of dictionary indices in many pages: %v", pages)
			require.Greater(t, pages["items.list.element.sku"], 2, "%v", pages)
			ours, err := readAllParquet[benchNested](buf.Bytes())
			require.NoError(t, err)
			sameRows(t, "pqarrow reads", nested, ours)
			theirs, err := parquet.Read[benchNested](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			sameRows(t, "parquet-go reads", nested, theirs)
		})
		t.Run("flat rows, "+c.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			require.NoError(t, writeAll(&buf, flat, c.cfg))
			pages := dataPages(t, buf.Bytes())
			require.Greater(t, pages["id"], 2, "plain pages of 1 MiB: %v", pages)
			ours, err := readAllParquet[benchFlat](buf.Bytes())
			require.NoError(t, err)
			sameRows(t, "pqarrow reads", flat, ours)
			theirs, err := parquet.Read[benchFlat](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			sameRows(t, "parquet-go reads", flat, theirs)
		})
	}
}
