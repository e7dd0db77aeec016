package parquet_test

import (
	"fmt"
	"github.com/arrowmap/arrowmap/mapper"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// dictName is a dict-tagged text column beside a plain one.
type dictName struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name,dict"`
}

func dictNames(n, distinct, size int) []dictName {
	rows := make([]dictName, n)
	for i := range rows {
		v := fmt.Sprintf("name-%d-", i%distinct)
		rows[i] = dictName{ID: int64(i), Name: v + strings.Repeat("x", max(0, size-len(v)))}
	}
	return rows
}

// skewedNames is n rows whose dictionary holds a short value and a long
// one, the long one in all rows but the first: more bytes than the mean
// dictionary value times the rows, which is what arrow-go's Take reserves
// first when pqarrow makes a dict column dense.
func skewedNames(n, long int) []dictName {
	rows := make([]dictName, n)
	for i := range rows {
		rows[i] = dictName{ID: int64(i), Name: strings.Repeat("l", long)}
	}
	rows[0].Name = "s"
	return rows
}

func TestADictColumnWrittenWithoutDictionariesReadsBack(t *testing.T) {
	off := false
	for _, c := range []struct {
		name  string
		rows  []dictName
		alloc memory.Allocator
	}{
		{"1,000 short values, the Writer's own pool", dictNames(1000, 10, 8), nil},
		{"1,000 rows of a long value and one short, the Writer's own pool", skewedNames(1000, 20), nil},
		{"20 rows of a 1,000-byte value and one short, the Writer's own pool", skewedNames(20, 1000), nil},
		{"1,000 rows of a long value and one short, Go's allocator", skewedNames(1000, 20), memory.NewGoAllocator()},
		{"10,000 distinct short values, the Writer's own pool", dictNames(10_000, 10_000, 20), nil},
		{"1,000 values of 1,000 bytes, the Writer's own pool", dictNames(1000, 1000, 1000), nil},
		{"20 values of 1,000 bytes, the Writer's own pool", dictNames(20, 3, 1000), nil},
		{"1,000 short values, Go's allocator", dictNames(1000, 10, 8), memory.NewGoAllocator()},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dict.parquet")
			require.NoError(t, amparquet.WriteFile(path, c.rows, amparquet.WriteConfig{Dictionary: &off}, mapper.Allocator(c.alloc)))
			got, err := amparquet.ReadFile[dictName](path)
			require.NoError(t, err)
			require.Equal(t, c.rows, got)
		})
	}
}

// pageStat is one page of a column chunk as its header tells it.
type pageStat struct {
	typ          string // DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE
	uncompressed int
	values       int
}

// chunkPages is the pages of every column chunk of the file at path, by
// row group and then column path, read with arrow-go's page reader.
func chunkPages(t *testing.T, path string) []map[string][]pageStat {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	var out []map[string][]pageStat
	for g := range pf.NumRowGroups() {
		rg := pf.RowGroup(g)
		cols := map[string][]pageStat{}
		for c := range pf.MetaData().Schema.NumColumns() {
			pr, err := rg.GetColumnPageReader(c)
			require.NoError(t, err)
			var pages []pageStat
			for pr.Next() {
				p := pr.Page()
				st := pageStat{typ: p.Type().String(), uncompressed: len(p.Data()), values: int(p.NumValues())}
				if dp, ok := p.(file.DataPage); ok {
					st.uncompressed = int(dp.UncompressedSize())
				}
				pages = append(pages, st)
			}
			require.NoError(t, pr.Err())
			cols[pf.MetaData().Schema.Column(c).Path()] = pages
		}
		out = append(out, cols)
	}
	return out
}

// requirePagesBounded checks that no data page of the file exceeds the
// page size by more than longest (the largest value, or row, written) and
// no dictionary page the dictionary page size limit by more.
func requirePagesBounded(t *testing.T, path string, longest int) {
	t.Helper()
	for g, cols := range chunkPages(t, path) {
		for col, pages := range cols {
			for k, p := range pages {
				limit := amparquet.PageBytes
				if p.typ == "DICTIONARY_PAGE" {
					limit = int(parquet.DefaultDictionaryPageSizeLimit)
				}
				require.LessOrEqual(t, p.uncompressed, limit+longest+64, "row group %d, column %s, page %d (%s)", g, col, k, p.typ)
			}
		}
	}
}

// requireOneDictionary checks that every chunk of column col holds one
// dictionary page, first, and only dictionary-encoded data pages.
func requireOneDictionary(t *testing.T, path, col string) {
	t.Helper()
	for g, cols := range chunkPages(t, path) {
		pages := cols[col]
		require.NotEmpty(t, pages)
		require.Equal(t, "DICTIONARY_PAGE", pages[0].typ, "row group %d", g)
		for _, p := range pages[1:] {
			require.NotEqual(t, "DICTIONARY_PAGE", p.typ, "row group %d: one dictionary", g)
		}
	}
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	for g := range pf.NumRowGroups() {
		i := pf.MetaData().Schema.ColumnIndexByName(col)
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(i)
		require.NoError(t, err)
		require.Equal(t, []parquet.Encoding{parquet.Encodings.RLEDict}, dataPageEncodings(cc), "row group %d: no plain fallback", g)
	}
}

// plainName is dictName's rows untagged.
type plainName struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
}

func asPlain(rows []dictName) []plainName {
	out := make([]plainName, len(rows))
	for i, r := range rows {
		out[i] = plainName(r)
	}
	return out
}

func TestADictColumnKeepsOneDictionaryPerColumnChunk(t *testing.T) {
	rows := dictNames(30_000, 500, 12)
	dir := t.TempDir()
	tagged, untagged := filepath.Join(dir, "tagged.parquet"), filepath.Join(dir, "untagged.parquet")
	require.NoError(t, amparquet.WriteFile(tagged, rows, amparquet.WriteConfig{RowGroupRows: 20_000}))
	require.NoError(t, amparquet.WriteFile(untagged, asPlain(rows), amparquet.WriteConfig{RowGroupRows: 20_000}))
	requireOneDictionary(t, tagged, "name")
	requireOneDictionary(t, untagged, "name")
	ts, err := os.Stat(tagged)
	require.NoError(t, err)
	us, err := os.Stat(untagged)
	require.NoError(t, err)
	require.LessOrEqual(t, ts.Size(), us.Size()+us.Size()/20, "the tagged column is no larger than the untagged one's dictionary")
	got, err := amparquet.ReadFile[dictName](tagged)
	require.NoError(t, err)
	require.Equal(t, rows, got)
}

func TestLongValuesNeverMakeAPageLargerThanThePageSizeAndOneValue(t *testing.T) {
	const long = 100 << 10
	off := false
	big := func(n, every int) []dictName {
		rows := dictNames(n, 7, 10)
		for i := 0; i < n; i += every {
			rows[i].Name = fmt.Sprintf("%d-", i%3) + strings.Repeat("v", long)
		}
		return rows
	}
	for _, c := range []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"dictionaries where they pay", amparquet.WriteConfig{}},
		{"no dictionaries", amparquet.WriteConfig{Dictionary: &off}},
	} {
		t.Run(c.name+", one long value in a dict column", func(t *testing.T) {
			rows := big(30_000, 30_000)
			path := filepath.Join(t.TempDir(), "one.parquet")
			require.NoError(t, amparquet.WriteFile(path, rows, c.cfg))
			requirePagesBounded(t, path, long)
			got, err := amparquet.ReadFile[dictName](path)
			require.NoError(t, err)
			require.Equal(t, rows, got)
		})
		t.Run(c.name+", 1,024 long values in a row", func(t *testing.T) {
			rows := big(1024, 1)
			for _, tagged := range []bool{true, false} {
				path := filepath.Join(t.TempDir(), "long.parquet")
				if tagged {
					require.NoError(t, amparquet.WriteFile(path, rows, c.cfg))
				} else {
					require.NoError(t, amparquet.WriteFile(path, asPlain(rows), c.cfg))
				}
				requirePagesBounded(t, path, long)
				got, err := amparquet.ReadFile[plainName](path)
				require.NoError(t, err)
				require.Equal(t, asPlain(rows), got)
			}
		})
		t.Run(c.name+", distinct long values fill the dictionary", func(t *testing.T) {
			rows := dictNames(40, 40, long)
			path := filepath.Join(t.TempDir(), "fill.parquet")
			require.NoError(t, amparquet.WriteFile(path, rows, c.cfg))
			requirePagesBounded(t, path, long)
			got, err := amparquet.ReadFile[dictName](path)
			require.NoError(t, err)
			require.Equal(t, rows, got)
		})
	}
}

func TestADictColumnBesideNumbersWithEveryColumnADictionaryReadsBack(t *testing.T) {
	on := true
	rows := dictNames(30_000, 500, 12)
	path := filepath.Join(t.TempDir(), "every.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{Dictionary: &on}))
	got, err := amparquet.ReadFile[dictName](path)
	require.NoError(t, err)
	require.Equal(t, rows, got)
}
