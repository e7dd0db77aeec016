package parquet_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedRow is a row of the files of the page index tests: id sorted, so
// that the column index of its pages tells which ids each page holds.
type pagedRow struct {
	ID   int64    `arrow:"id"`
	Name string   `arrow:"name"`
	Tags []string `arrow:"tags"`
}

func pagedRows(n int) []pagedRow {
	rows := make([]pagedRow, n)
	for i := range rows {
		rows[i] = pagedRow{ID: int64(i), Name: fmt.Sprintf("name-%08d", i), Tags: make([]string, i%3)}
		for k := range rows[i].Tags {
			rows[i].Tags[k] = fmt.Sprint("tag-", k)
		}
	}
	return rows
}

// pagedFile is rows written by pqarrow with a page index, in row groups of
// groupRows and pages of about 64 KiB, plain and uncompressed, so that the
// bytes of a page tell whether it was read.
func pagedFile(t *testing.T, rows []pagedRow, groupRows int64) []byte {
	t.Helper()
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithPageIndexEnabled(true), parquet.WithDictionaryDefault(false),
		parquet.WithDataPageSize(64<<10), parquet.WithCompression(compress.Codecs.Uncompressed), parquet.WithMaxRowGroupLength(groupRows))
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// readSpans is an io.ReaderAt of data that keeps the spans read.
type readSpans struct {
	data  []byte
	mu    sync.Mutex
	spans [][2]int64
}

func (r *readSpans) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	r.spans = append(r.spans, [2]int64{off, off + int64(len(p))})
	r.mu.Unlock()
	return bytes.NewReader(r.data).ReadAt(p, off)
}

// covered reports whether every byte of [from, to) was read.
func (r *readSpans) covered(from, to int64) bool {
	spans := slices.Clone(r.spans)
	slices.SortFunc(spans, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	at := from
	for _, s := range spans {
		if s[0] <= at && s[1] > at {
			at = s[1]
		}
	}
	return at >= to
}

// pagesRead is, by leaf column path, how many of the data pages of data
// (as its offset index places them) were read whole, and how many there
// are.
func pagesRead(t *testing.T, r *readSpans) (read, all map[string]int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(r.data))
	require.NoError(t, err)
	defer pf.Close()
	read, all = map[string]int{}, map[string]int{}
	for g := range pf.NumRowGroups() {
		rg, err := pf.GetPageIndexReader().RowGroup(g)
		require.NoError(t, err)
		for c := range pf.MetaData().Schema.NumColumns() {
			oi, err := rg.GetOffsetIndex(c)
			require.NoError(t, err)
			require.NotNil(t, oi, "the file has an offset index")
			path := pf.MetaData().Schema.Column(c).Path()
			for _, loc := range oi.GetPageLocations() {
				all[path]++
				if r.covered(loc.GetOffset(), loc.GetOffset()+int64(loc.GetCompressedPageSize())) {
					read[path]++
				}
			}
		}
	}
	return read, all
}

// idsBetween keeps the pages of id that may hold an id in [lo, hi), and
// every page of the other columns.
func idsBetween(lo, hi int64) func(amparquet.Page) bool {
	return func(p amparquet.Page) bool {
		if p.Column != "id" || !p.Stats.HasMinMax {
			return true
		}
		return p.Stats.Max.(int64) >= lo && p.Stats.Min.(int64) < hi
	}
}

func TestKeepPageSkipsThePagesNoRowReadNeeds(t *testing.T) {
	rows := pagedRows(200_000)
	data := pagedFile(t, rows, 100_000)

	read := func(t *testing.T, cfg amparquet.ReadConfig) ([]pagedRow, *readSpans) {
		t.Helper()
		src := &readSpans{data: data}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		r, err := amparquet.OpenReaderAt[pagedRow](src, int64(len(data)), cfg, mapper.Allocator(mem))
		require.NoError(t, err)
		defer r.Release()
		var got []pagedRow
		for page, err := range r.Pages(1000) {
			require.NoError(t, err)
			got = append(got, page...)
		}
		return got, src
	}

	t.Run("without KeepPage every page is read", func(t *testing.T) {
		got, src := read(t, amparquet.ReadConfig{})
		require.Equal(t, rows, got)
		readPages, all := pagesRead(t, src)
		assert.Equal(t, all, readPages)
		require.Greater(t, all["id"], 20, "pages of about 64 KiB: many a row group")
	})
	for _, c := range []struct {
		name   string
		lo, hi int64
	}{
		{"ids in the middle of the first row group", 40_000, 41_000},
		{"ids across the end of a row group", 99_500, 100_500},
		{"the last ids", 199_990, 200_000},
		{"the first ids", 0, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, src := read(t, amparquet.ReadConfig{KeepPage: idsBetween(c.lo, c.hi)})
			require.NotEmpty(t, got)
			first := got[0].ID
			require.LessOrEqual(t, first, c.lo)
			require.GreaterOrEqual(t, got[len(got)-1].ID, c.hi-1)
			require.Equal(t, rows[first:first+int64(len(got))], got, "the rows of the pages kept, in order, each whole")
			readPages, all := pagesRead(t, src)
			t.Logf("%d rows read; pages read whole %v of %v", len(got), readPages, all)
			// id: the pages kept (one or two); name and tags: those
			// holding their rows (a few, their pages cut elsewhere).
			assert.LessOrEqual(t, readPages["id"], 3)
			for path, n := range all {
				assert.Less(t, readPages[path], n/4, "column %s: most pages are skipped", path)
			}
		})
	}
	t.Run("no page kept reads no row", func(t *testing.T) {
		got, _ := read(t, amparquet.ReadConfig{KeepPage: idsBetween(300_000, 400_000)})
		assert.Empty(t, got)
	})
	t.Run("ReadAll is sized to the rows kept", func(t *testing.T) {
		r, err := amparquet.OpenReaderAt[pagedRow](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{KeepPage: idsBetween(40_000, 41_000)})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.NotEmpty(t, got)
		assert.Equal(t, len(got), cap(got))
		assert.Equal(t, rows[got[0].ID:got[0].ID+int64(len(got))], got)
	})
}

// TestAMalformedPageIndexIsAnErrorNotAPanic flips bytes of the column and
// offset indexes of a file (seeded; the seed is logged) and reads it with
// KeepPage: each read ends in an error or in rows of the file, in order,
// never in a panic.
func TestAMalformedPageIndexIsAnErrorNotAPanic(t *testing.T) {
	rows := pagedRows(50_000)
	data := pagedFile(t, rows, 25_000)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	var spans [][2]int64
	for g := range pf.NumRowGroups() {
		for c := range pf.MetaData().Schema.NumColumns() {
			cc, err := pf.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			for _, loc := range []*metadata.IndexLocation{cc.GetColumnIndexLocation(), cc.GetOffsetIndexLocation()} {
				require.NotNil(t, loc)
				spans = append(spans, [2]int64{loc.Offset, loc.Offset + int64(loc.Length)})
			}
		}
	}
	require.NoError(t, pf.Close())

	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	errs := 0
	for range 200 {
		bad := bytes.Clone(data)
		for range 1 + rng.Intn(4) {
			s := spans[rng.Intn(len(spans))]
			bad[s[0]+rng.Int63n(s[1]-s[0])] ^= byte(1 + rng.Intn(255))
		}
		require.NotPanics(t, func() {
			r, err := amparquet.OpenReaderAt[pagedRow](bytes.NewReader(bad), int64(len(bad)), amparquet.ReadConfig{KeepPage: idsBetween(10_000, 11_000)})
			if err != nil {
				errs++
				return
			}
			defer r.Release()
			got, err := r.ReadAll()
			if err != nil {
				errs++
				return
			}
			for i := 1; i < len(got); i++ {
				if got[i].ID <= got[i-1].ID {
					t.Fatalf("rows out of order at %d: %d after %d", i, got[i].ID, got[i-1].ID)
				}
			}
		})
	}
	t.Logf("%d of 200 malformed page indexes were errors", errs)
}

// readAllAt is every row of the Parquet data, as OpenReaderAt reads it.
func readAllAt[T any](data []byte, opts ...amparquet.ReadOption) ([]T, error) {
	r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// keepEveryOther keeps every other page of column (the odd ones) and
// every page of the others, and notes the rows of column's pages kept.
func keepEveryOther(column string, kept *[][2]int64) func(amparquet.Page) bool {
	return func(p amparquet.Page) bool {
		if p.Column != column {
			return true
		}
		if p.Index%2 == 1 {
			*kept = append(*kept, [2]int64{p.FirstRow, p.FirstRow + p.NumRows})
		}
		return p.Index%2 == 1
	}
}

// Pages kept apart make several ranges of one row group. arrow-go's list
// readers (v18.8.0), sought again after reading a range, read the next
// range's lists wrong ("offset past the end of the child", or "number of
// decoded rep/def levels did not match"): each range is read by readers
// of its own where a leaf is repeated. Files of both writers, a list null
// every fifth row in arrowmap's.
func TestKeepPageReadsTheListsOfEachRangeOfARowGroup(t *testing.T) {
	type listRow struct {
		ID int64   `arrow:"id"`
		S  string  `arrow:"s"`
		L  []int32 `arrow:"l"`
	}
	rows := make([]listRow, 60_000)
	for i := range rows {
		rows[i] = listRow{ID: int64(i), S: fmt.Sprintf("%06d", i) + strings.Repeat("z", i*7%200)}
		if i%5 != 0 {
			rows[i].L = make([]int32, i*3%7)
			for k := range rows[i].L {
				rows[i].L[k] = int32(i + k)
			}
		}
	}
	var own bytes.Buffer
	w, err := amparquet.NewWriter[listRow](&own)
	require.NoError(t, err)
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())

	t.Run("arrowmap's file", func(t *testing.T) {
		var kept [][2]int64
		got, err := readAllAt[listRow](own.Bytes(), amparquet.ReadConfig{KeepPage: keepEveryOther("s", &kept)})
		require.NoError(t, err)
		require.Greater(t, len(kept), 2, "several ranges of one row group")
		require.Equal(t, keptRows(rows, kept), got)
	})
	t.Run("arrow-go's file", func(t *testing.T) {
		paged := pagedRows(200_000)
		data := pagedFile(t, paged, 200_000)
		var kept [][2]int64
		got, err := readAllAt[pagedRow](data, amparquet.ReadConfig{KeepPage: keepEveryOther("id", &kept)})
		require.NoError(t, err)
		require.Greater(t, len(kept), 2, "several ranges of one row group")
		require.Equal(t, keptRows(paged, kept), got)
	})
}

// keptRows is the rows of the ranges kept, in order.
func keptRows[R any](rows []R, kept [][2]int64) []R {
	var out []R
	for _, k := range kept {
		out = append(out, rows[k[0]:k[1]]...)
	}
	return out
}

// A row group listed twice in ReadConfig.RowGroups is read twice, with a
// KeepPage as without.
func TestARowGroupListedTwiceIsReadTwiceWithKeepPageToo(t *testing.T) {
	rows := pagedRows(600)
	data := pagedFile(t, rows, 300)
	twice := append(slices.Clone(rows[300:]), rows[300:]...)
	for name, cfg := range map[string]amparquet.ReadConfig{
		"without KeepPage":                {RowGroups: []int{1, 1}},
		"with a KeepPage keeping all":     {RowGroups: []int{1, 1}, KeepPage: func(amparquet.Page) bool { return true }},
		"with a KeepPage keeping the ids": {RowGroups: []int{1, 1}, KeepPage: idsBetween(0, 600)},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := readAllAt[pagedRow](data, cfg)
			require.NoError(t, err)
			assert.Equal(t, twice, got)
		})
	}
}
