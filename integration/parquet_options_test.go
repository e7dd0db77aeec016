package integration

import (
	"bytes"
	"testing"

	arrowparquet "github.com/apache/arrow-go/v18/parquet"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// Every ColumnConfig option and SortingColumns, on the bench's flat and
// nested rows, through the direct writer and through pqarrow (the delta
// encodings; the parquet package's tests say which writer writes which):
// pqarrow (through our reader) and parquet-go read back the
// rows written, and parquet-go's bloom filters hold every value written.
func TestParquetColumnOptionsReadBackByPqarrowAndParquetGo(t *testing.T) {
	const n, group = 30_000, 10_000
	off := false
	bloom := amparquet.ColumnConfig{BloomFilter: true, BloomFilterFPP: 0.01}
	flat := flatBenchRows(n)
	nested := nestedBenchRows(n)
	flatConfigs := []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"bloom filters, byte stream split, plain and dictionary, sorted by id", amparquet.WriteConfig{RowGroupRows: group,
			Columns: map[string]amparquet.ColumnConfig{
				"id": bloom, "name": bloom, "price": {Encoding: amparquet.EncodingByteStreamSplit},
				"score": {Encoding: amparquet.EncodingByteStreamSplit}, "qty": {Encoding: amparquet.EncodingPlain, BloomFilter: true},
				"note": {Encoding: amparquet.EncodingDictionary}, "ok": {Encoding: amparquet.EncodingPlain},
			},
			SortingColumns: []amparquet.SortingColumn{{Column: "id"}}}},
		{"the delta encodings", amparquet.WriteConfig{RowGroupRows: group,
			Columns: map[string]amparquet.ColumnConfig{
				"id": {Encoding: amparquet.EncodingDelta, BloomFilter: true}, "qty": {Encoding: amparquet.EncodingDelta},
				"name": {Encoding: amparquet.EncodingDelta}, "note": {Encoding: amparquet.EncodingDeltaLength},
				"at": {Encoding: amparquet.EncodingDelta},
			}}},
		{"statistics and page index off per column, version 2 pages", amparquet.WriteConfig{RowGroupRows: group, DataPageVersion: arrowparquet.DataPageV2,
			Columns: map[string]amparquet.ColumnConfig{
				"id": {Statistics: &off, BloomFilter: true}, "name": {PageIndex: &off}, "price": {Statistics: &off, PageIndex: &off},
			}}},
	}
	for _, c := range flatConfigs {
		t.Run("flat rows, "+c.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, writeAll(&buf, flat, c.cfg))
			ours, err := readAllParquet[benchFlat](buf.Bytes())
			require.NoError(t, err)
			sameRows(t, "pqarrow reads", flat, ours)
			theirs, err := parquet.Read[benchFlat](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			sameRows(t, "parquet-go reads", flat, theirs)
			requireParquetGoBloomHolds(t, buf.Bytes(), "id", group, func(i int) parquet.Value { return parquet.ValueOf(flat[i].ID) })
		})
	}
	nestedConfigs := []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"bloom filters and byte stream split under lists", amparquet.WriteConfig{RowGroupRows: group,
			Columns: map[string]amparquet.ColumnConfig{
				"id": bloom, "tags": bloom, "items.list.element.sku": bloom,
				"items.list.element.price": {Encoding: amparquet.EncodingByteStreamSplit}, "scores": {Encoding: amparquet.EncodingByteStreamSplit},
			}}},
		{"the delta encodings under lists", amparquet.WriteConfig{RowGroupRows: group,
			Columns: map[string]amparquet.ColumnConfig{
				"id": {Encoding: amparquet.EncodingDelta, BloomFilter: true}, "tags": {Encoding: amparquet.EncodingDelta},
				"items.list.element.sku": {Encoding: amparquet.EncodingDeltaLength},
			}}},
	}
	for _, c := range nestedConfigs {
		t.Run("nested rows, "+c.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, writeAll(&buf, nested, c.cfg))
			ours, err := readAllParquet[benchNested](buf.Bytes())
			require.NoError(t, err)
			sameRows(t, "pqarrow reads", nested, ours)
			theirs, err := parquet.Read[benchNested](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			sameRows(t, "parquet-go reads", nested, theirs)
			requireParquetGoBloomHolds(t, buf.Bytes(), "id", group, func(i int) parquet.Value { return parquet.ValueOf(nested[i].ID) })
		})
	}
}

// requireParquetGoBloomHolds checks, with parquet-go's reader, that the
// bloom filter of the top-level column in each row group (of group rows)
// holds the value of every row, and rules out most values of no row.
func requireParquetGoBloomHolds(t *testing.T, data []byte, column string, group int, value func(row int) parquet.Value) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	leaf, ok := f.Schema().Lookup(column)
	require.True(t, ok)
	falsePositives := 0
	for g, rg := range f.RowGroups() {
		bf := rg.ColumnChunks()[leaf.ColumnIndex].BloomFilter()
		require.NotNil(t, bf, "row group %d: parquet-go finds a bloom filter of %s", g, column)
		for i := g * group; i < (g+1)*group; i++ {
			has, err := bf.Check(value(i))
			require.NoError(t, err)
			require.True(t, has, "row group %d holds row %d's %s", g, i, column)
		}
		for k := range 1000 {
			has, err := bf.Check(parquet.ValueOf(int64(-1 - k)))
			require.NoError(t, err)
			if has {
				falsePositives++
			}
		}
	}
	require.Less(t, falsePositives, 3*len(f.RowGroups())*1000/100*3, "about 1%% false positives")
}
