//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
)

// narrow is the row of the tests of sizes: two narrow columns, so that a
// million rows go in within seconds under -race.
type narrow struct {
	ID int64  `arrow:"id"`
	V  *int32 `arrow:"v"`
}

// narrowDDL is the table InsertConfig.Create makes of narrow.
const narrowDDL = "CREATE TABLE %s (id BIGINT NOT NULL, v INTEGER)"

// narrowSQL is narrowRows(n) made by DuckDB: the rows the tables are
// compared with.
const narrowSQL = "SELECT range::BIGINT AS id, CASE WHEN range %% 3 = 0 THEN NULL ELSE (range %% 1000)::INTEGER END AS v FROM range(%d)"

func narrowRows(n int) []narrow {
	rows := make([]narrow, n)
	for i := range rows {
		rows[i].ID = int64(i)
		if i%3 != 0 {
			v := int32(i % 1000)
			rows[i].V = &v
		}
	}
	return rows
}

// requireNarrow fails t unless table holds exactly the rows of
// narrowRows(n), counted and compared by DuckDB: count(*), and EXCEPT ALL
// both ways with DuckDB's own making of them.
func requireNarrow(t *testing.T, db *sql.DB, table string, n int) {
	t.Helper()
	want := fmt.Sprintf(narrowSQL, n)
	var count, missing, extra int64
	require.NoError(t, db.QueryRow(fmt.Sprintf(`SELECT
		(SELECT count(*) FROM %[1]s),
		(SELECT count(*) FROM (%[2]s EXCEPT ALL SELECT id, v FROM %[1]s)),
		(SELECT count(*) FROM (SELECT id, v FROM %[1]s EXCEPT ALL %[2]s))`, table, want)).Scan(&count, &missing, &extra))
	assert.EqualValues(t, n, count, "count(*)")
	assert.Zero(t, missing, "rows sent that the table has not")
	assert.Zero(t, extra, "rows of the table that were not sent")
}

// insertVia inserts rows into table on db through the entry point named,
// InsertSeq a row at a time, InsertPages in pages of 10,000.
func insertVia[D duckdb.DB](ctx context.Context, db D, entry, table string, rows []narrow, cfg duckdb.InsertConfig) (int64, error) {
	switch entry {
	case "Insert":
		return duckdb.Insert(ctx, db, table, rows, cfg)
	case "InsertSeq":
		return duckdb.InsertSeq(ctx, db, table, iter.Seq2[narrow, error](func(yield func(narrow, error) bool) {
			for _, r := range rows {
				if !yield(r, nil) {
					return
				}
			}
		}), cfg)
	case "InsertPages":
		return duckdb.InsertPages(ctx, db, table, iter.Seq2[[]narrow, error](func(yield func([]narrow, error) bool) {
			for len(rows) > 0 {
				page := rows[:min(10_000, len(rows))]
				rows = rows[len(page):]
				if !yield(page, nil) {
					return
				}
			}
		}), cfg)
	}
	panic("no entry point " + entry)
}

// insertCase is one insert of the matrix of TestInsertLeavesTheTableHoldingExactlyTheRowsWritten.
type insertCase struct {
	rows     int
	entry    string
	appender bool
	create   bool // InsertConfig.Create; otherwise a table made by SQL
	callers  bool // in the caller's transaction; otherwise Insert's own
	file     bool // a database file, reopened after; otherwise in memory
}

func (c insertCase) String() string {
	s := fmt.Sprintf("%s of %d rows through the ", c.entry, c.rows)
	s += map[bool]string{false: "view", true: "Appender"}[c.appender]
	s += map[bool]string{false: " into a table made by SQL", true: " into a table it creates"}[c.create]
	s += map[bool]string{false: " in its own transaction", true: " in the caller's transaction"}[c.callers]
	return s + map[bool]string{false: " in memory", true: " in a file reopened after"}[c.file]
}

// insertCases is the matrix: every size through every entry point and
// both paths into created tables, and into tables made by SQL through the
// view (Insert alone at 1,228,800 rows) and the Appender (up to 1 row with
// every entry point, up to 122,880 with Insert). The Appender, a row at a
// time, inserts 1,228,800 rows through Insert alone. Transaction and
// storage turn over the cases of a size, so that each size has each of
// their four pairs.
func insertCases() []insertCase {
	var cases []insertCase
	for _, rows := range []int{0, 1, 122_879, 122_880, 1_228_800} {
		i := 0
		for _, entry := range []string{"Insert", "InsertSeq", "InsertPages"} {
			for _, appender := range []bool{false, true} {
				for _, create := range []bool{true, false} {
					if !inMatrix(rows, entry, appender, create) {
						continue
					}
					cases = append(cases, insertCase{rows: rows, entry: entry, appender: appender, create: create, callers: i%4 >= 2, file: i%2 == 0})
					i++
				}
			}
		}
	}
	return cases
}

// inMatrix is whether insertCases has the case: the slow ones only where
// they check what no other does.
func inMatrix(rows int, entry string, appender, create bool) bool {
	switch {
	case rows <= 1:
		return true
	case appender && rows > 122_880:
		return entry == "Insert" && create
	case appender:
		return create || entry == "Insert"
	case rows > 122_880:
		return create || entry == "Insert"
	}
	return true
}

// TestInsertLeavesTheTableHoldingExactlyTheRowsWritten checks every entry
// point, both paths, a created table and one made by SQL, around DuckDB's
// row group (122,880 rows) and ten of them, by what DuckDB counts and
// compares, not by the count Insert returns; a file's table also after
// the file is reopened. DuckDB lost sight of the rows of a created table
// of a row group or more (an empty row group ahead of them, left by the
// CREATE TABLE AS of no rows that made it).
func TestInsertLeavesTheTableHoldingExactlyTheRowsWritten(t *testing.T) {
	rows := narrowRows(1_228_800)
	for _, c := range insertCases() {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			path := ""
			if c.file {
				path = filepath.Join(t.TempDir(), "narrow.db")
			}
			db, err := sql.Open("duckdb", path)
			require.NoError(t, err)
			defer func() { require.NoError(t, db.Close()) }()
			if !c.create {
				_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow"))
				require.NoError(t, err)
			}
			cfg := duckdb.InsertConfig{Create: c.create, Appender: c.appender}
			if c.entry == "InsertSeq" {
				cfg.BatchRows = 50_000
			}
			var n int64
			if c.callers {
				conn, err := db.Conn(ctx)
				require.NoError(t, err)
				_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
				require.NoError(t, err)
				n, err = insertVia(ctx, conn, c.entry, "narrow", rows[:c.rows], cfg)
				require.NoError(t, err)
				_, err = conn.ExecContext(ctx, "COMMIT")
				require.NoError(t, err)
				require.NoError(t, conn.Close())
			} else {
				n, err = insertVia(ctx, db, c.entry, "narrow", rows[:c.rows], cfg)
				require.NoError(t, err)
			}
			assert.EqualValues(t, c.rows, n)
			requireNarrow(t, db, "narrow", c.rows)
			if c.file {
				require.NoError(t, db.Close())
				db, err = sql.Open("duckdb", path)
				require.NoError(t, err)
				requireNarrow(t, db, "narrow", c.rows)
			}
		})
	}
}

// TestInsertCountsItsRowsInItsOwnTransactionBesideAnotherWriter inserts
// while another connection commits rows into the same table: Insert's
// count of the table before and after, in its transaction, sees its own
// rows and not the other's, so that neither fails it.
func TestInsertCountsItsRowsInItsOwnTransactionBesideAnotherWriter(t *testing.T) {
	db := openDB(t)
	_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow"))
	require.NoError(t, err)
	ctx, stop := context.WithCancel(context.Background())
	other := make(chan int64)
	go func() {
		var n int64
		defer func() { other <- n }()
		for i := int64(0); ctx.Err() == nil; i++ {
			_, err := db.Exec(fmt.Sprintf("INSERT INTO narrow SELECT range + %d, NULL FROM range(1000)", 10_000_000+i*1000))
			if err != nil {
				t.Error(err)
				return
			}
			n += 1000
		}
	}()
	rows := narrowRows(150_000)
	for range 3 {
		n, err := duckdb.Insert(context.Background(), db, "narrow", rows)
		if !assert.NoError(t, err) {
			break
		}
		assert.EqualValues(t, len(rows), n)
	}
	stop()
	assert.EqualValues(t, 3*len(rows)+int(<-other), count(t, db, "narrow"))
}
