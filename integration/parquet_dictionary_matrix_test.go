package integration

import (
	"context"
	"fmt"
	"github.com/arrowmap/arrowmap/mapper"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqgo "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// mxTagged and mxPlain are the matrix's rows: a text column with and
// without the dict tag, beside a number.
type mxTagged struct {
	ID   int64  `arrow:"id" parquet:"id"`
	Name string `arrow:"name,dict" parquet:"name"`
}

type mxPlain struct {
	ID   int64  `arrow:"id" parquet:"id"`
	Name string `arrow:"name" parquet:"name"`
}

// mxPageBytes is the Writer's data page size (parquet's defaultPageBytes: 1 MiB,
// arrow-go's and parquet-mr's).
const mxPageBytes = 1 << 20

// mxLong is the size of a long value.
const mxLong = 100 << 10

// mxNames is the text of n rows: short values drawn from 7, and with long,
// every n/every-th row one of 3 distinct values of 100 KB, the rest short.
// At 100k rows only 4 rows carry a long value, at 1k rows 10: enough to
// cross pages and fill dictionaries, few enough that the matrix stays fast
// under the race detector on 2 cores.
func mxNames(n int, long bool) []string {
	longs := make([]string, 3)
	for k := range longs {
		longs[k] = fmt.Sprintf("long-%d-", k) + strings.Repeat("v", mxLong)
	}
	every := 100
	if n > 10_000 {
		every = 25_000
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("name-%d", i%7)
		if long && i%every == every/2 {
			names[i] = longs[i%3]
		}
	}
	return names
}

func TestEveryDictionaryChoiceWritesAFileEveryReaderReadsBack(t *testing.T) {
	on, off := true, false
	for _, dict := range []*bool{nil, &on, &off} {
		for _, tagged := range []bool{true, false} {
			for _, alloc := range []memory.Allocator{nil, memory.NewGoAllocator()} {
				for _, n := range []int{1000, 100_000} {
					for _, long := range []bool{false, true} {
						name := fmt.Sprintf("Dictionary %s, tagged %t, Alloc %s, %d rows, long values %t", dictName(dict), tagged, allocName(alloc), n, long)
						t.Run(name, func(t *testing.T) {
							t.Parallel()
							cfg := []amparquet.WriteOption{amparquet.WriteConfig{Dictionary: dict, RowGroupRows: 60_000}, mapper.Allocator(alloc)}
							names := mxNames(n, long)
							path := filepath.Join(t.TempDir(), "matrix.parquet")
							if tagged {
								writeMatrix(t, path, names, cfg, func(i int, s string) mxTagged { return mxTagged{int64(i), s} })
							} else {
								writeMatrix(t, path, names, cfg, func(i int, s string) mxPlain { return mxPlain{int64(i), s} })
							}
							requirePqarrowReads(t, path, names)
							requireParquetGoReads(t, path, names)
							longest := 16
							if long {
								longest = mxLong + 16
							}
							requireMatrixPages(t, path, longest, dict == nil || *dict)
						})
					}
				}
			}
		}
	}
}

func dictName(d *bool) string {
	if d == nil {
		return "nil"
	}
	return fmt.Sprint(*d)
}

func allocName(a memory.Allocator) string {
	if a == nil {
		return "nil"
	}
	return "Go"
}

// writeMatrix writes the rows of T that row makes of names with WriteFile, and checks
// that ReadFile reads them back.
func writeMatrix[T comparable](t *testing.T, path string, names []string, opts []amparquet.WriteOption, row func(int, string) T) {
	t.Helper()
	rows := make([]T, len(names))
	for i, s := range names {
		rows[i] = row(i, s)
	}
	require.NoError(t, amparquet.WriteFile(path, rows, opts...))
	got, err := amparquet.ReadFile[T](path)
	require.NoError(t, err)
	require.Equal(t, len(rows), len(got))
	for i := range rows {
		if rows[i] != got[i] {
			require.Equal(t, rows[i], got[i], "ReadFile, row %d", i)
		}
	}
}

// requirePqarrowReads reads the file with arrow-go's pqarrow and checks
// every value through arrow-go's accessors: a dictionary column's through
// its indices into its dictionary.
func requirePqarrowReads(t *testing.T, path string, names []string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	require.EqualValues(t, len(names), tbl.NumRows())
	row := 0
	for _, chunk := range tbl.Column(0).Data().Chunks() {
		ids := chunk.(*array.Int64)
		for i := range ids.Len() {
			require.Equal(t, int64(row+i), ids.Value(i))
		}
		row += ids.Len()
	}
	row = 0
	for _, chunk := range tbl.Column(1).Data().Chunks() {
		value := func(i int) string { return chunk.(*array.String).Value(i) }
		if d, ok := chunk.(*array.Dictionary); ok {
			dict := d.Dictionary().(*array.String)
			value = func(i int) string { return dict.Value(d.GetValueIndex(i)) }
		}
		for i := range chunk.Len() {
			if v := value(i); v != names[row+i] {
				require.Equal(t, names[row+i], v, "pqarrow, row %d", row+i)
			}
		}
		row += chunk.Len()
	}
	require.Equal(t, len(names), row)
	require.Equal(t, arrow.INT64, tbl.Column(0).DataType().ID())
}

// requireParquetGoReads reads the file with parquet-go.
func requireParquetGoReads(t *testing.T, path string, names []string) {
	t.Helper()
	got, err := parquet.ReadFile[mxPlain](path)
	require.NoError(t, err)
	require.Equal(t, len(names), len(got))
	for i, r := range got {
		if r.ID != int64(i) || r.Name != names[i] {
			require.Equal(t, mxPlain{ID: int64(i), Name: names[i]}, r, "parquet-go, row %d", i)
		}
	}
}

// requireMatrixPages checks every page header of the file (arrow-go's page
// reader): no data page over the page size by more than longest, no
// dictionary page over the dictionary page size limit by more; and that the
// name column's chunks are dictionary-encoded when dict, plain when not.
func requireMatrixPages(t *testing.T, path string, longest int, dict bool) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	name := pf.MetaData().Schema.ColumnIndexByName("name")
	for g := range pf.NumRowGroups() {
		rg := pf.RowGroup(g)
		for c := range pf.MetaData().Schema.NumColumns() {
			pr, err := rg.GetColumnPageReader(c)
			require.NoError(t, err)
			for k := 0; pr.Next(); k++ {
				p := pr.Page()
				size, limit := len(p.Data()), mxPageBytes
				if dp, ok := p.(file.DataPage); ok {
					size = int(dp.UncompressedSize())
				} else {
					limit = int(pqgo.DefaultDictionaryPageSizeLimit)
				}
				require.LessOrEqual(t, size, limit+longest, "row group %d, column %d, page %d (%s)", g, c, k, p.Type())
			}
			require.NoError(t, pr.Err())
		}
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(name)
		require.NoError(t, err)
		require.Equal(t, dict, cc.HasDictionaryPage(), "row group %d: a dictionary page", g)
		require.Equal(t, dict, hasDictData(cc), "row group %d: dictionary-encoded data pages", g)
	}
}

// hasDictData reports whether a data page of the chunk is dictionary
// encoded, from the chunk's encoding statistics in the footer.
func hasDictData(cc *metadata.ColumnChunkMetaData) bool {
	for _, st := range cc.EncodingStats() {
		if st.PageType.String() != "DICTIONARY_PAGE" && (st.Encoding == pqgo.Encodings.RLEDict || st.Encoding == pqgo.Encodings.PlainDict) {
			return true
		}
	}
	return false
}
