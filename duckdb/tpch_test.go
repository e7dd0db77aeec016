//go:build duckdb_arrow

package duckdb_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	parquetgo "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// TestTPCHFilesOfEveryWriterReadBackEqual writes DuckDB's lineitem and
// orders with each writer of the TPC-H benchmarks (arrowmap at its zero
// WriteConfig and with snappy, parquet-go with snappy, pqarrow with
// snappy) and checks
// that arrowmap reads every file back as the rows written, that DuckDB
// reads every file with the columns, types and values of its own file,
// and logs, per column, the encodings and compressed size of each file
// beside DuckDB's.
func TestTPCHFilesOfEveryWriterReadBackEqual(t *testing.T) {
	db := tpchDB(t)
	t.Run("lineitem", func(t *testing.T) {
		checkTPCHTable[Lineitem, pgLineitem](t, db, "lineitem", readTPCH[Lineitem](t, "lineitem"))
	})
	t.Run("orders", func(t *testing.T) {
		checkTPCHTable[Orders, pgOrders](t, db, "orders", readTPCH[Orders](t, "orders"))
	})
	t.Run("a file with one value changed differs from DuckDB's by one row each way", func(t *testing.T) {
		orders := readTPCH[Orders](t, "orders")
		changed := slices.Clone(orders)
		changed[len(changed)/2].Comment += "!"
		path := filepath.Join(t.TempDir(), "changed.parquet")
		require.NoError(t, amparquet.WriteFile(path, changed))
		original := tpchPath(t, "orders")
		require.Error(t, firstDifference(changed, orders))
		assert.Equal(t, int64(1), exceptAll(t, db, path, original))
		assert.Equal(t, int64(1), exceptAll(t, db, original, path))
	})
}

func checkTPCHTable[T interface {
	comparable
	parquetGo() (P, error)
}, P interface{ arrowmap() T }](t *testing.T, db *sql.DB, table string, rows []T) {
	original := tpchPath(t, table)
	t.Run("the rows arrowmap reads from DuckDB's file are those parquet-go reads", func(t *testing.T) {
		pg, err := parquetgo.ReadFile[P](original)
		require.NoError(t, err)
		require.NoError(t, firstDifference(arrowmapRows[P, T](pg), rows))
	})

	dir := t.TempDir()
	files := []tpchFile{{"duckdb", original}}
	for _, w := range tpchWriters[T, P](rows) {
		path := filepath.Join(dir, w.name+".parquet")
		require.NoError(t, w.prepare(t)(path), "%s writes %s", w.name, table)
		files = append(files, tpchFile{w.name, path})
		t.Run(w.name+"'s file reads back in arrowmap as the rows written", func(t *testing.T) {
			got, err := amparquet.ReadFile[T](path)
			require.NoError(t, err)
			require.NoError(t, firstDifference(got, rows))
		})
		t.Run(w.name+"'s file reads in DuckDB as DuckDB's own file", func(t *testing.T) {
			assert.Equal(t, duckdbColumns(t, db, original), duckdbColumns(t, db, path), "column names and types")
			var want, got int64
			require.NoError(t, db.QueryRow("SELECT count(*) FROM read_parquet("+sqlString(original)+")").Scan(&want))
			require.NoError(t, db.QueryRow("SELECT count(*) FROM read_parquet("+sqlString(path)+")").Scan(&got))
			assert.Equal(t, want, got, "rows")
			assert.Zero(t, exceptAll(t, db, path, original), "rows of %s's file not in DuckDB's", w.name)
			assert.Zero(t, exceptAll(t, db, original, path), "rows of DuckDB's file not in %s's", w.name)
		})
	}
	logEncodings(t, table, files)
}

// tpchFile is a file of a TPC-H table and the writer that wrote it.
type tpchFile struct{ writer, path string }

// firstDifference is nil when got and want hold the same rows in the same
// order, or says which row differs first.
func firstDifference[T comparable](got, want []T) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("row %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	return nil
}

// duckdbColumns is the name and DuckDB type of each column of the Parquet
// file at path, as DuckDB reads it.
func duckdbColumns(t *testing.T, db *sql.DB, path string) []string {
	t.Helper()
	rows, err := db.Query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(" + sqlString(path) + "))")
	require.NoError(t, err)
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name, typ string
		require.NoError(t, rows.Scan(&name, &typ))
		cols = append(cols, name+" "+typ)
	}
	require.NoError(t, rows.Err())
	return cols
}

// exceptAll is the number of rows of the file a that the file b does not
// have, counting repeats, by DuckDB's EXCEPT ALL.
func exceptAll(t *testing.T, db *sql.DB, a, b string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, db.QueryRow(fmt.Sprintf("SELECT count(*) FROM (SELECT * FROM read_parquet(%s) EXCEPT ALL SELECT * FROM read_parquet(%s))", sqlString(a), sqlString(b))).Scan(&n))
	return n
}

// chunkSummary is what the footer says of one column over all its chunks.
type chunkSummary struct {
	encodings  []string // in the order first seen
	compressed int64    // bytes
}

// columnSummaries is, per column of the Parquet file at path, its
// encodings and compressed size from arrow-go's footer metadata, and the
// file's number of row groups.
func columnSummaries(t *testing.T, path string) ([]string, []chunkSummary, int) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	md := pf.MetaData()
	n := md.Schema.NumColumns()
	names := make([]string, n)
	sums := make([]chunkSummary, n)
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range n {
			cc, err := rg.ColumnChunk(c)
			require.NoError(t, err)
			names[c] = cc.PathInSchema().String()
			for _, e := range cc.Encodings() {
				if s := e.String(); !slices.Contains(sums[c].encodings, s) {
					sums[c].encodings = append(sums[c].encodings, s)
				}
			}
			sums[c].compressed += cc.TotalCompressedSize()
		}
	}
	return names, sums, md.NumRowGroups()
}

// logEncodings logs a markdown table of each column's encodings and
// compressed size (MB, 10⁶ bytes) in each file.
func logEncodings(t *testing.T, table string, files []tpchFile) {
	t.Helper()
	var names []string
	summaries := make([][]chunkSummary, len(files))
	groups := make([]int, len(files))
	for i, f := range files {
		var cols []string
		cols, summaries[i], groups[i] = columnSummaries(t, f.path)
		if i == 0 {
			names = cols
		}
		require.Equal(t, names, cols, "the columns of %s's file", f.writer)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: encodings and compressed size (MB) per column\n\n| column |", table)
	for _, f := range files {
		fmt.Fprintf(&b, " %s |", f.writer)
	}
	b.WriteString("\n| :-- |" + strings.Repeat(" :-- |", len(files)) + "\n")
	totals := make([]int64, len(files))
	for c, name := range names {
		fmt.Fprintf(&b, "| %s |", name)
		for i := range files {
			s := summaries[i][c]
			totals[i] += s.compressed
			fmt.Fprintf(&b, " %s %.3f |", strings.Join(s.encodings, ","), float64(s.compressed)/1e6)
		}
		b.WriteString("\n")
	}
	b.WriteString("| all columns |")
	for i := range files {
		fmt.Fprintf(&b, " %.3f (%d row groups) |", float64(totals[i])/1e6, groups[i])
	}
	t.Log(b.String())
}
