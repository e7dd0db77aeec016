//go:build duckdb_arrow

package duckdb_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/version"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// event is a row of the tests of the writer's options: a status that
// repeats in every row group but for one value per row group, a sorted id,
// floats and text.
type event struct {
	ID     int64   `arrow:"id"`
	Status string  `arrow:"status"`
	Depot  int32   `arrow:"depot"`
	Amount float64 `arrow:"amount"`
	Note   string  `arrow:"note"`
}

const (
	eventGroups    = 6
	eventGroupRows = 1000
)

func events() []event {
	rows := make([]event, eventGroups*eventGroupRows)
	for i := range rows {
		g := i / eventGroupRows
		status := []string{"open", "closed"}[i%2]
		if i%eventGroupRows == 11 {
			status = fmt.Sprintf("held-%d", g)
		}
		rows[i] = event{ID: int64(i), Status: status, Depot: int32(i%2*1000 + g*(i%eventGroupRows/999)), Amount: float64(i%97) / 4, Note: fmt.Sprintf("note %04d", i%300)}
	}
	return rows
}

// metadataRow is one column chunk as DuckDB's parquet_metadata shows it.
type metadataRow struct {
	group              int64
	path, encodings    string
	bloomOffset        sql.NullInt64
	statsMin, statsMax sql.NullString
}

func duckdbMetadata(t *testing.T, db *sql.DB, path string) map[string][]metadataRow {
	t.Helper()
	rows, err := db.Query("SELECT row_group_id, path_in_schema, encodings, bloom_filter_offset, stats_min_value, stats_max_value FROM parquet_metadata(" + sqlString(path) + ") ORDER BY row_group_id, column_id")
	require.NoError(t, err)
	defer rows.Close()
	out := map[string][]metadataRow{}
	for rows.Next() {
		var m metadataRow
		require.NoError(t, rows.Scan(&m.group, &m.path, &m.encodings, &m.bloomOffset, &m.statsMin, &m.statsMax))
		out[m.path] = append(out[m.path], m)
	}
	require.NoError(t, rows.Err())
	return out
}

// bloomExcludes is the row groups whose bloom filter of column, as DuckDB's
// parquet_bloom_probe reads it, excludes value.
func bloomExcludes(t *testing.T, db *sql.DB, path, column, value string) []int64 {
	t.Helper()
	rows, err := db.Query(fmt.Sprintf("SELECT row_group_id FROM parquet_bloom_probe(%s, %s, %s) WHERE bloom_filter_excludes ORDER BY row_group_id", sqlString(path), sqlString(column), value))
	require.NoError(t, err)
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var g int64
		require.NoError(t, rows.Scan(&g))
		out = append(out, g)
	}
	require.NoError(t, rows.Err())
	return out
}

func TestDuckDBReadsTheWriterOptions(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	rows := events()
	off := false
	bloom := amparquet.ColumnConfig{BloomFilter: true, BloomFilterFPP: 0.001}
	tests := []struct {
		name      string
		cfg       amparquet.WriteConfig
		encodings map[string]string // a column's encodings as DuckDB lists them, in every row group
	}{
		{"the direct writer: bloom filters, byte stream split, plain, dictionary", amparquet.WriteConfig{
			RowGroupRows: eventGroupRows,
			Columns: map[string]amparquet.ColumnConfig{
				"status": bloom, "depot": bloom,
				"amount": {Encoding: amparquet.EncodingByteStreamSplit},
				"note":   {Encoding: amparquet.EncodingPlain, Statistics: &off},
				"id":     {Encoding: amparquet.EncodingDictionary},
			},
			SortingColumns: []amparquet.SortingColumn{{Column: "id"}},
		}, map[string]string{"amount": "BYTE_STREAM_SPLIT", "note": "PLAIN", "id": "RLE_DICTIONARY"}},
		{"pqarrow: the delta encodings", amparquet.WriteConfig{
			RowGroupRows: eventGroupRows,
			Columns: map[string]amparquet.ColumnConfig{
				"status": bloom, "depot": bloom,
				"id":     {Encoding: amparquet.EncodingDelta},
				"note":   {Encoding: amparquet.EncodingDeltaLength, Statistics: &off},
				"amount": {Encoding: amparquet.EncodingByteStreamSplit},
			},
		}, map[string]string{"id": "DELTA_BINARY_PACKED", "note": "DELTA_LENGTH_BYTE_ARRAY", "amount": "BYTE_STREAM_SPLIT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "events.parquet")
			require.NoError(t, amparquet.WriteFile(path, rows, tt.cfg))
			md := duckdbMetadata(t, db, path)
			for col, enc := range tt.encodings {
				require.Len(t, md[col], eventGroups, col)
				for _, m := range md[col] {
					require.Contains(t, strings.Split(m.encodings, ", "), enc, "row group %d of %s: %s", m.group, col, m.encodings)
				}
			}
			for _, m := range md["status"] {
				require.True(t, m.bloomOffset.Valid && m.bloomOffset.Int64 > 0, "row group %d: status has a bloom filter", m.group)
			}
			for _, m := range md["amount"] {
				require.False(t, m.bloomOffset.Valid && m.bloomOffset.Int64 > 0, "row group %d: amount has no bloom filter", m.group)
				require.True(t, m.statsMin.Valid, "amount has statistics")
			}
			for _, m := range md["note"] {
				require.False(t, m.statsMin.Valid, "row group %d: note has no statistics", m.group)
			}
			all := []int64{0, 1, 2, 3, 4, 5}
			for g := range eventGroups {
				v := fmt.Sprintf("'held-%d'", g)
				require.Equal(t, slices.DeleteFunc(slices.Clone(all), func(x int64) bool { return x == int64(g) }), bloomExcludes(t, db, path, "status", v),
					"every row group's filter but %d's excludes %s", g, v)
			}
			require.Empty(t, bloomExcludes(t, db, path, "status", "'open'"), "every row group holds open")
			require.Equal(t, all, bloomExcludes(t, db, path, "status", "'lost'"), "no row group holds lost")
			require.Empty(t, bloomExcludes(t, db, path, "depot", "1000"))
			require.Equal(t, all, bloomExcludes(t, db, path, "depot", "500"))

			var n int64
			require.NoError(t, db.QueryRow("SELECT count(*) FROM read_parquet("+sqlString(path)+") WHERE status = 'held-4'").Scan(&n))
			require.Equal(t, int64(1), n)
			var id int64
			require.NoError(t, db.QueryRow("SELECT id FROM read_parquet("+sqlString(path)+") WHERE status = 'held-4'").Scan(&id))
			require.Equal(t, int64(4*eventGroupRows+11), id)
			back, err := amparquet.ReadFile[event](path)
			require.NoError(t, err)
			require.Equal(t, rows, back)
			require.NoError(t, db.QueryRow(fmt.Sprintf(
				"SELECT count(*) FROM (SELECT * FROM read_parquet(%s) EXCEPT ALL SELECT * FROM (VALUES %s) v(id, status, depot, amount, note))",
				sqlString(path), eventValues(rows))).Scan(&n))
			require.Zero(t, n, "DuckDB reads the rows written")
		})
	}
}

// eventValues is rows as a SQL VALUES list.
func eventValues(rows []event) string {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d::BIGINT, %s, %d::INTEGER, %v::DOUBLE, %s)", r.ID, sqlString(r.Status), r.Depot, r.Amount, sqlString(r.Note))
	}
	return b.String()
}

// DuckDB reads the name our files give their writer and uses their
// statistics: the min and max of every row group, merged, are what its
// planner knows of each column (stats), text included.
func TestDuckDBUsesTheStatisticsOfOurFiles(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	rows := events()
	path := filepath.Join(t.TempDir(), "events.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: eventGroupRows}))

	var createdBy string
	require.NoError(t, db.QueryRow("SELECT created_by FROM parquet_file_metadata("+sqlString(path)+")").Scan(&createdBy))
	require.Equal(t, version.CreatedBy, createdBy)

	var id, note string
	require.NoError(t, db.QueryRow("SELECT stats(id), stats(note) FROM read_parquet("+sqlString(path)+") LIMIT 1").Scan(&id, &note))
	require.Contains(t, id, fmt.Sprintf("[Min: 0, Max: %d]", len(rows)-1))
	require.Contains(t, note, "[Min: note 000, Max: note 029", "DuckDB shows 8 bytes of text")
}
