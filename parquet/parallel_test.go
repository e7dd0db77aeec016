package parquet_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// parallelRow has leaves of every writer of the direct file: the direct
// writer's (text and decimals of every encoding, pageStatsRow's) and
// arrow-go's column writers' (int8, and a delta-encoded int64), one with a
// bloom filter.
type parallelRow struct {
	pageStatsRow
	Small int8
	Delta int64   `arrow-parquet:"encoding=delta"`
	Key   string  `arrow-parquet:"bloom"`
	Maybe *uint32 `arrow:",nullable"`
}

// A file is the same whatever the number of goroutines that encode its
// columns: every column chunk's bytes (its pages), its metadata, its
// statistics, and the page index and bloom filters.
func TestTheFileIsTheSameWhateverTheParallelism(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	stats := pageStatsRows(seed, 300_000)
	rows := make([]parallelRow, len(stats))
	for i := range rows {
		rows[i] = parallelRow{pageStatsRow: stats[i], Small: int8(r.IntN(256) - 128), Delta: int64(i * 3), Key: fmt.Sprint("k", r.IntN(1000))}
		if r.IntN(3) > 0 {
			rows[i].Maybe = ptr(r.Uint32())
		}
	}
	dir := t.TempDir()
	write := func(parallelism int) []byte {
		path := filepath.Join(dir, fmt.Sprintf("p%d.parquet", parallelism))
		require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{Parallelism: parallelism, RowGroupRows: 100_000}))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		return b
	}
	serial := write(1)
	for _, p := range []int{2, 3, 64} {
		sameFile(t, serial, write(p), fmt.Sprintf("Parallelism %d", p))
	}
}

// sameFile checks that the files a and b hold the same column chunks,
// page index and bloom filters: the same bytes but for the order of the
// encoding statistics in the chunks' metadata (arrow-go writes them from
// a map).
func sameFile(t *testing.T, a, b []byte, name string) {
	t.Helper()
	require.Equal(t, len(a), len(b), name+": size")
	fa, err := file.NewParquetReader(bytes.NewReader(a))
	require.NoError(t, err)
	defer fa.Close()
	fb, err := file.NewParquetReader(bytes.NewReader(b))
	require.NoError(t, err)
	defer fb.Close()
	require.Equal(t, fa.NumRowGroups(), fb.NumRowGroups())
	for g := range fa.NumRowGroups() {
		ra, err := fa.GetPageIndexReader().RowGroup(g)
		require.NoError(t, err)
		rb, err := fb.GetPageIndexReader().RowGroup(g)
		require.NoError(t, err)
		for c := range fa.MetaData().Schema.NumColumns() {
			where := fmt.Sprintf("%s: row group %d, column %s", name, g, fa.MetaData().Schema.Column(c).Path())
			ca, err := fa.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			cb, err := fb.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			sameChunk(t, a, b, ca, cb, where)
			require.Equal(t, ca.DataPageOffset(), cb.DataPageOffset(), where)
			require.Equal(t, ca.DictionaryPageOffset(), cb.DictionaryPageOffset(), where)
			require.ElementsMatch(t, ca.EncodingStats(), cb.EncodingStats(), where)
			require.Equal(t, ca.BloomFilterOffset(), cb.BloomFilterOffset(), where)
			cia, err := ra.GetColumnIndex(c)
			require.NoError(t, err)
			cib, err := rb.GetColumnIndex(c)
			require.NoError(t, err)
			require.Equal(t, cia, cib, where+": column index")
			oia, err := ra.GetOffsetIndex(c)
			require.NoError(t, err)
			oib, err := rb.GetOffsetIndex(c)
			require.NoError(t, err)
			require.Equal(t, oia.GetPageLocations(), oib.GetPageLocations(), where+": offset index")
		}
	}
	// The bloom filters and the page index, between the last chunk and the
	// footer.
	start := int64(len(a))
	for g := range fa.NumRowGroups() {
		for c := range fa.MetaData().Schema.NumColumns() {
			cc, err := fa.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			if off := cc.BloomFilterOffset(); off > 0 {
				start = min(start, off)
			}
			if loc := cc.GetColumnIndexLocation(); loc != nil {
				start = min(start, loc.Offset)
			}
			if loc := cc.GetOffsetIndexLocation(); loc != nil {
				start = min(start, loc.Offset)
			}
		}
	}
	footer := int64(len(a)) - 8 - int64(binary.LittleEndian.Uint32(a[len(a)-8:]))
	require.Less(t, start, footer, name+": bloom filters and a page index")
	require.True(t, bytes.Equal(a[start:footer], b[start:footer]), name+": the bloom filters and the page index")
}
