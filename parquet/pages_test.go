package parquet_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/stretchr/testify/require"

	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// pageLimit is the data page size of the zero WriteConfig.
const pageLimit = 1 << 20

// dataPage is what arrow-go's page reader reads of a data page's header.
type dataPage struct {
	encoding     parquet.Encoding
	values       int
	uncompressed int
	stats        metadata.EncodedStatistics
}

// pagesOf is the dictionary page's uncompressed size (0 for none) and the
// data pages of column col of row group g, read by arrow-go's page reader.
func pagesOf(t *testing.T, pf *file.Reader, g, col int) (dict int, pages []dataPage) {
	t.Helper()
	pr, err := pf.RowGroup(g).GetColumnPageReader(col)
	require.NoError(t, err)
	for pr.Next() {
		switch p := pr.Page().(type) {
		case *file.DictionaryPage:
			dict = len(p.Data())
		case file.DataPage:
			pages = append(pages, dataPage{parquet.Encoding(p.Encoding()), int(p.NumValues()), int(p.UncompressedSize()), p.Statistics()})
		}
	}
	require.NoError(t, pr.Err())
	return dict, pages
}

func openPageFile(t *testing.T, path string) *file.Reader {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	t.Cleanup(func() { pf.Close() })
	return pf
}

type blob struct {
	ID  int64
	Val []byte
}

func TestPagesOfLargeValuesStayUnderThePageSizeOrHoldOneValue(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 24))
	value := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	const kb100, mb10 = 100 << 10, 10 << 20
	var hundreds, mixed []blob
	for i := range 60 {
		hundreds = append(hundreds, blob{int64(i), value(kb100)})
	}
	// Small values, then a value past the page size, between pages half
	// full: the large value is a page of its own, never added to a page.
	for i := range 12 {
		switch i % 4 {
		case 3:
			mixed = append(mixed, blob{int64(i), value(mb10)})
		default:
			mixed = append(mixed, blob{int64(i), value(pageLimit / 5)})
		}
	}
	for _, tt := range []struct {
		name string
		rows []blob
		cfg  amparquet.WriteConfig
	}{
		{"values of 100 KB", hundreds, amparquet.WriteConfig{}},
		{"values of 100 KB, dictionary on", hundreds, amparquet.WriteConfig{Dictionary: ptr(true)}},
		{"values of 10 MB among values of a fifth of a page", mixed, amparquet.WriteConfig{}},
		{"values of 10 MB among values of a fifth of a page, version 2 pages", mixed, amparquet.WriteConfig{DataPageVersion: parquet.DataPageV2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.True(t, amparquet.WritesDirectly[blob](tt.cfg))
			path := roundTrip(t, tt.rows, tt.cfg)
			pf := openPageFile(t, path)
			_, pages := pagesOf(t, pf, 0, 1)
			values := 0
			for k, p := range pages {
				values += p.values
				if p.values > 1 {
					require.LessOrEqual(t, p.uncompressed, pageLimit, "page %d of %d values", k, p.values)
				}
			}
			require.Equal(t, len(tt.rows), values)
			require.Greater(t, len(pages), len(tt.rows)*len(tt.rows[0].Val)/pageLimit/2, "pages")
			if tt.name != "values of 100 KB" {
				return
			}
			// The pages are full: ten values of 100 KB fit in 1 MiB.
			require.Equal(t, 10, pages[0].values)
		})
	}
}

type repeating struct {
	N int64
	S string
}

func TestADictionaryPastOneMiBFallsBackToPlainForTheRestOfTheChunk(t *testing.T) {
	// Each value four times, in order: the dictionary pays on the first
	// page, and grows past 1 MiB (131,072 int64s; 29,128 strings of 32
	// bytes and their lengths) before the chunk ends.
	const n = 600_000
	rows := make([]repeating, n)
	for i := range rows {
		rows[i] = repeating{N: int64(i / 4), S: fmt.Sprintf("%032d", i/4)}
	}
	for _, via := range []bool{false, true} {
		t.Run(fmt.Sprintf("through pqarrow %t", via), func(t *testing.T) {
			cfg := amparquet.ThroughPqarrow(via, amparquet.WriteConfig{RowGroupRows: n})
			path := roundTrip(t, rows, cfg)
			pf := openPageFile(t, path)
			require.Equal(t, 1, pf.NumRowGroups())
			for col, valueBytes := range []int{8, 4 + 32} {
				dict, pages := pagesOf(t, pf, 0, col)
				require.Greater(t, dict, pageLimit-valueBytes, "column %d: the dictionary page's size", col)
				require.LessOrEqual(t, dict, pageLimit+4096*valueBytes, "column %d: the dictionary page's size", col)
				var encodings []parquet.Encoding
				for _, p := range pages {
					if len(encodings) == 0 || encodings[len(encodings)-1] != p.encoding {
						encodings = append(encodings, p.encoding)
					}
				}
				require.Equal(t, []parquet.Encoding{parquet.Encodings.RLEDict, parquet.Encodings.Plain}, encodings, "column %d: the data pages' encodings, in order", col)
			}
		})
	}
}

type indexed struct {
	ID    int64
	Maybe *int64
	Name  string
}

func TestTheColumnAndOffsetIndexArrowGoReadsDescribeEveryPage(t *testing.T) {
	// Maybe is null in its first 600,000 rows: its first page (524,288
	// levels of 2 bytes) holds only nulls.
	const n, nulls = 800_000, 600_000
	rows := make([]indexed, n)
	for i := range rows {
		rows[i].ID = int64(i)
		if i >= nulls {
			rows[i].Maybe = ptr(int64(n - i))
		}
		rows[i].Name = fmt.Sprintf("name-%07d", i)
	}
	// The min, max and null count of Maybe over rows [a, b).
	maybeStats := func(a, b int64) (lo, hi int64, nullCount int64, allNull bool) {
		if b <= nulls {
			return 0, 0, b - a, true
		}
		return n - (b - 1), n - max(a, nulls), max(0, nulls-a), false
	}
	le64 := func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) }
	for _, tt := range []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"the direct writer", amparquet.WriteConfig{RowGroupRows: n}},
		{"pqarrow", amparquet.ThroughPqarrow(true, amparquet.WriteConfig{RowGroupRows: n})},
		{"the direct writer, version 2 pages", amparquet.WriteConfig{RowGroupRows: n, DataPageVersion: parquet.DataPageV2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := roundTrip(t, rows, tt.cfg)
			pf := openPageFile(t, path)
			rg, err := pf.GetPageIndexReader().RowGroup(0)
			require.NoError(t, err)
			md := pf.MetaData().RowGroup(0)
			for col := range 3 {
				ci, err := rg.GetColumnIndex(col)
				require.NoError(t, err)
				require.NotNil(t, ci, "column %d: column index", col)
				oi, err := rg.GetOffsetIndex(col)
				require.NoError(t, err)
				require.NotNil(t, oi, "column %d: offset index", col)
				cc, err := md.ColumnChunk(col)
				require.NoError(t, err)
				_, pages := pagesOf(t, pf, 0, col)
				locs := oi.GetPageLocations()
				require.Len(t, locs, len(pages), "column %d: a location for each data page", col)
				require.Len(t, ci.GetNullPages(), len(pages), "column %d: column index entries", col)
				require.Greater(t, len(pages), 1, "column %d: pages", col)
				start := cc.DataPageOffset()
				if cc.HasDictionaryPage() {
					start = cc.DictionaryPageOffset()
				}
				require.Equal(t, cc.DataPageOffset(), locs[0].Offset, "column %d: the first data page", col)
				for k, loc := range locs {
					end := int64(n)
					if k+1 < len(locs) {
						end = locs[k+1].FirstRowIndex
						require.Equal(t, loc.Offset+int64(loc.CompressedPageSize), locs[k+1].Offset, "column %d, page %d: the next page follows", col, k)
					} else {
						require.Equal(t, start+cc.TotalCompressedSize(), loc.Offset+int64(loc.CompressedPageSize), "column %d: the last page ends the chunk", col)
					}
					require.Equal(t, int(end-loc.FirstRowIndex), pages[k].values, "column %d, page %d: its rows", col, k)
					a, b := loc.FirstRowIndex, end
					switch col {
					case 0:
						require.False(t, ci.GetNullPages()[k])
						require.Equal(t, a, le64(ci.GetMinValues()[k]), "page %d: ID's min", k)
						require.Equal(t, b-1, le64(ci.GetMaxValues()[k]), "page %d: ID's max", k)
					case 1:
						lo, hi, nullCount, allNull := maybeStats(a, b)
						require.Equal(t, allNull, ci.GetNullPages()[k], "page %d: Maybe's null page", k)
						require.Equal(t, nullCount, ci.GetNullCounts()[k], "page %d: Maybe's nulls", k)
						if !allNull {
							require.Equal(t, lo, le64(ci.GetMinValues()[k]), "page %d: Maybe's min", k)
							require.Equal(t, hi, le64(ci.GetMaxValues()[k]), "page %d: Maybe's max", k)
						}
					case 2:
						require.Equal(t, fmt.Sprintf("name-%07d", a), string(ci.GetMinValues()[k]), "page %d: Name's min", k)
						require.Equal(t, fmt.Sprintf("name-%07d", b-1), string(ci.GetMaxValues()[k]), "page %d: Name's max", k)
					}
				}
				if col == 1 && tt.name != "pqarrow" { // pqarrow's pages end by their encoded size
					require.True(t, ci.GetNullPages()[0], "Maybe's first page holds only nulls")
				}
			}
		})
	}
}

func TestWithoutThePageIndexTheDataPageHeadersCarryTheStatistics(t *testing.T) {
	const n = 400_000
	rows := make([]indexed, n)
	for i := range rows {
		rows[i] = indexed{ID: int64(i), Name: fmt.Sprintf("name-%07d", i)}
	}
	for _, via := range []bool{false, true} {
		t.Run(fmt.Sprintf("through pqarrow %t", via), func(t *testing.T) {
			path := roundTrip(t, rows, amparquet.ThroughPqarrow(via, amparquet.WriteConfig{RowGroupRows: n, PageIndex: ptr(false)}))
			pf := openPageFile(t, path)
			_, pages := pagesOf(t, pf, 0, 0)
			require.Greater(t, len(pages), 1)
			first := int64(0)
			for k, p := range pages {
				require.True(t, p.stats.HasMin && p.stats.HasMax && p.stats.HasNullCount, "page %d: statistics", k)
				require.Equal(t, first, int64(binary.LittleEndian.Uint64(p.stats.Min)), "page %d: min", k)
				first += int64(p.values)
				require.Equal(t, first-1, int64(binary.LittleEndian.Uint64(p.stats.Max)), "page %d: max", k)
				require.Zero(t, p.stats.NullCount, "page %d: nulls", k)
			}
			_, pages = pagesOf(t, pf, 0, 1)
			require.True(t, pages[0].stats.AllNullValue || pages[0].stats.NullCount == int64(pages[0].values), "Maybe's first page: nulls only")
		})
	}
}
