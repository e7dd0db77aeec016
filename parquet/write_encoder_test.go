package parquet_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// sortedRow is rows in the order of their ID, then of their City.
type sortedRow struct {
	ID   int64
	City string
	Note *string
}

func sortedRows(n int) []sortedRow {
	rows := make([]sortedRow, n)
	for i := range rows {
		rows[i] = sortedRow{ID: int64(i / 3), City: fmt.Sprintf("city-%02d", i%3)}
		if i%5 != 0 {
			rows[i].Note = ptr(fmt.Sprintf("note %d", i%17))
		}
	}
	return rows
}

// sameEitherEncoder writes rows with cfg by each Encoder and checks that
// arrowmap's reader reads the same rows from both files, that pqarrow
// reads the same records and schema from both, and that their footers
// agree: Parquet schema, row count and row groups, key/value metadata,
// sorting columns, and which column chunks have statistics, a bloom
// filter and a page index.
func sameEitherEncoder[T any](t *testing.T, rows []T, cfg amparquet.WriteConfig) {
	t.Helper()
	dir := t.TempDir()
	var paths [2]string
	for i, e := range []amparquet.Encoder{amparquet.EncoderArrowmap, amparquet.EncoderPqarrow} {
		c := cfg
		c.Encoder = e
		paths[i] = filepath.Join(dir, e.String()+".parquet")
		require.NoError(t, amparquet.WriteFile(paths[i], rows, c), "%s", e)
	}
	ours, theirs := paths[0], paths[1]

	got, err := amparquet.ReadFile[T](ours)
	require.NoError(t, err)
	want, err := amparquet.ReadFile[T](theirs)
	require.NoError(t, err)
	require.Len(t, got, len(rows))
	require.Equal(t, want, got, "arrowmap's reader reads the same rows from both files")

	gr, wr := readWithPqarrow(t, ours), readWithPqarrow(t, theirs)
	defer gr.Release()
	defer wr.Release()
	require.True(t, wr.Schema().Equal(gr.Schema()), "pqarrow reads the schema\n%v\nwant\n%v", gr.Schema(), wr.Schema())
	require.True(t, array.RecordEqual(wr, gr), "pqarrow reads\n%v\nwant\n%v", gr, wr)

	gf, err := file.OpenParquetFile(ours, false)
	require.NoError(t, err)
	defer gf.Close()
	wf, err := file.OpenParquetFile(theirs, false)
	require.NoError(t, err)
	defer wf.Close()
	require.True(t, wf.MetaData().Schema.Equals(gf.MetaData().Schema), "the Parquet schemas")
	require.Equal(t, int64(len(rows)), gf.NumRows())
	require.Equal(t, wf.NumRows(), gf.NumRows())
	require.Equal(t, rowGroupSizes(wf), rowGroupSizes(gf))
	require.Equal(t, wf.MetaData().KeyValueMetadata().Keys(), gf.MetaData().KeyValueMetadata().Keys())
	require.Equal(t, wf.MetaData().KeyValueMetadata().Values(), gf.MetaData().KeyValueMetadata().Values())
	for g := range wf.NumRowGroups() {
		wg, gg := wf.MetaData().RowGroup(g), gf.MetaData().RowGroup(g)
		require.Equal(t, wg.SortingColumns(), gg.SortingColumns(), "row group %d", g)
		for c := range wf.MetaData().Schema.NumColumns() {
			name := fmt.Sprintf("row group %d, column %s", g, wf.MetaData().Schema.Column(c).Path())
			wc, err := wg.ColumnChunk(c)
			require.NoError(t, err)
			gc, err := gg.ColumnChunk(c)
			require.NoError(t, err)
			require.Equal(t, wc.NumValues(), gc.NumValues(), name)
			require.Equal(t, wc.BloomFilterOffset() > 0, gc.BloomFilterOffset() > 0, name+": a bloom filter")
			require.Equal(t, wc.GetColumnIndexLocation() != nil, gc.GetColumnIndexLocation() != nil, name+": a column index")
			require.Equal(t, wc.GetOffsetIndexLocation() != nil, gc.GetOffsetIndexLocation() != nil, name+": an offset index")
			ws, err := wc.Statistics()
			require.NoError(t, err)
			gs, err := gc.Statistics()
			require.NoError(t, err)
			require.Equal(t, ws == nil, gs == nil, name+": statistics")
			if ws != nil {
				require.Equal(t, ws.NullCount(), gs.NullCount(), name+": null count")
			}
		}
	}
}

func TestEveryWriterShapeReadsBackTheSameWrittenByEitherEncoder(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 31))
	off, on := false, true
	flat := directFlatRows(r, 20_000)
	nested := directNestedRows(r, 10_000)
	mixed := mixedRows(r, 5_000)
	for _, c := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"flat columns of every covered type, with nulls, at the defaults", func(t *testing.T) {
			sameEitherEncoder(t, flat, amparquet.WriteConfig{})
		}},
		{"flat columns in row groups of 7,000 rows, uncompressed, without dictionaries", func(t *testing.T) {
			sameEitherEncoder(t, flat, amparquet.WriteConfig{RowGroupRows: 7_000, Compression: amparquet.Uncompressed, Dictionary: &off})
		}},
		{"flat columns in row groups of 256 KiB of Arrow data", func(t *testing.T) {
			sameEitherEncoder(t, flat, amparquet.WriteConfig{RowGroupBytes: 256 << 10})
		}},
		{"lists, structs, lists of lists and null elements, zstd, version 2 pages", func(t *testing.T) {
			sameEitherEncoder(t, nested, amparquet.WriteConfig{Compression: amparquet.Zstd, DataPageVersion: parquet.DataPageV2})
		}},
		{"maps, decimals, int8s, float16s and fixed arrays beside the direct writer's columns", func(t *testing.T) {
			sameEitherEncoder(t, mixed, amparquet.WriteConfig{RowGroupRows: 2_000})
		}},
		{"decimals and their nulls", func(t *testing.T) {
			rows := make([]decimalRow, 1000)
			for i := range rows {
				rows[i].D = decimal128.FromI64(int64(i*7919%100_000 - 50_000))
				if i%3 != 0 {
					rows[i].PD = ptr(decimal128.FromI64(int64(-i)))
				}
			}
			sameEitherEncoder(t, rows, amparquet.WriteConfig{})
		}},
		{"dictionaries kept, dropped and full", func(t *testing.T) {
			sameEitherEncoder(t, textRows(50_000), amparquet.WriteConfig{Dictionary: &on})
		}},
		{"Arrow dictionary columns", func(t *testing.T) {
			sameEitherEncoder(t, dictNames(20_000, 300, 12), amparquet.WriteConfig{})
		}},
		{"sorting columns", func(t *testing.T) {
			sameEitherEncoder(t, sortedRows(9_000), amparquet.WriteConfig{RowGroupRows: 4_000, SortingColumns: []amparquet.SortingColumn{{Column: "ID"}, {Column: "City"}}})
		}},
		{"bloom filters", func(t *testing.T) {
			sameEitherEncoder(t, sortedRows(9_000), amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"City": {BloomFilter: true}, "Note": {BloomFilter: true}}})
		}},
		{"no page index, no statistics", func(t *testing.T) {
			sameEitherEncoder(t, flat[:3000], amparquet.WriteConfig{PageIndex: &off, Statistics: &off})
		}},
		{"no rows", func(t *testing.T) { sameEitherEncoder(t, []directNested{}, amparquet.WriteConfig{}) }},
	} {
		t.Run(c.name, c.run)
	}
}

func TestTheEncoderOfAWriteConfigWritesTheFile(t *testing.T) {
	require.True(t, amparquet.WritesDirectly[directFlat](amparquet.WriteConfig{}), "arrowmap's page writer by default")
	require.False(t, amparquet.WritesDirectly[directFlat](amparquet.WriteConfig{Encoder: amparquet.EncoderPqarrow}), "pqarrow's when asked")
	_, err := amparquet.NewWriter[directFlat](nil, amparquet.WriteConfig{Encoder: 7})
	require.Error(t, err)
	err = amparquet.WriteFile(filepath.Join(t.TempDir(), "x.parquet"), []directFlat{{}}, amparquet.WriteConfig{Encoder: 7})
	require.ErrorContains(t, err, "WriteConfig.Encoder Encoder(7) is none of EncoderArrowmap and EncoderPqarrow")
}
