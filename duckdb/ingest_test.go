//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

// narrow is the row of the tests of sizes: two narrow columns, so that a
// million rows go in within seconds under -race.
type narrow struct {
	ID int64  `arrow:"id"`
	V  *int32 `arrow:"v"`
}

// narrowDDL is the table Create makes of narrow.
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

// ingestVia ingests rows into table on db through the entry point named,
// IngestSeq a row at a time, IngestPages in pages of 10,000.
func ingestVia[D duckdb.DB](ctx context.Context, db D, entry string, table duckdb.Table, rows []narrow, cfg duckdb.IngestConfig) (int64, error) {
	switch entry {
	case "Ingest":
		return duckdb.Ingest(ctx, db, table, rows, cfg)
	case "IngestSeq":
		return duckdb.IngestSeq(ctx, db, table, iter.Seq2[narrow, error](func(yield func(narrow, error) bool) {
			for _, r := range rows {
				if !yield(r, nil) {
					return
				}
			}
		}), cfg)
	case "IngestPages":
		return duckdb.IngestPages(ctx, db, table, iter.Seq2[[]narrow, error](func(yield func([]narrow, error) bool) {
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

// ingestCase is one insert of the matrix of TestIngestLeavesTheTableHoldingExactlyTheRowsWritten.
type ingestCase struct {
	rows     int
	entry    string
	appender bool
	create   bool // Create; otherwise Append to a table made by SQL
	callers  bool // in the caller's transaction; otherwise the ingest's own
	file     bool // a database file, reopened after; otherwise in memory
}

func (c ingestCase) String() string {
	s := fmt.Sprintf("%s of %d rows through the ", c.entry, c.rows)
	s += map[bool]string{false: "view", true: "Appender"}[c.appender]
	s += map[bool]string{false: " into a table made by SQL", true: " into a table it creates"}[c.create]
	s += map[bool]string{false: " in its own transaction", true: " in the caller's transaction"}[c.callers]
	return s + map[bool]string{false: " in memory", true: " in a file reopened after"}[c.file]
}

// ingestCases is the matrix: every size through every entry point and
// both paths into created tables, and into tables made by SQL through the
// view (Ingest alone at 1,228,800 rows) and the Appender (up to 1 row with
// every entry point, up to 122,881 with Ingest). The Appender, a row at a
// time, writes 1,228,800 rows through Ingest alone. Transaction and
// storage turn over the cases of a size, so that each size has each of
// their four pairs.
func ingestCases() []ingestCase {
	var cases []ingestCase
	for _, rows := range []int{0, 1, 122_879, 122_880, 122_881, 1_228_800} {
		i := 0
		for _, entry := range []string{"Ingest", "IngestSeq", "IngestPages"} {
			for _, appender := range []bool{false, true} {
				for _, create := range []bool{true, false} {
					if !inMatrix(rows, entry, appender, create) {
						continue
					}
					cases = append(cases, ingestCase{rows: rows, entry: entry, appender: appender, create: create, callers: i%4 >= 2, file: i%2 == 0})
					i++
				}
			}
		}
	}
	return cases
}

// inMatrix is whether ingestCases has the case: the slow ones only where
// they check what no other does.
func inMatrix(rows int, entry string, appender, create bool) bool {
	switch {
	case rows <= 1:
		return true
	case appender && rows > 122_880:
		return entry == "Ingest" && create
	case appender:
		return create || entry == "Ingest"
	case rows > 122_881:
		return create || entry == "Ingest"
	}
	return true
}

// TestIngestLeavesTheTableHoldingExactlyTheRowsWritten checks every entry
// point, both paths, a created table and one made by SQL, around DuckDB's
// row group (122,880 rows) and ten of them, by what DuckDB counts and
// compares, not by the count Ingest returns; a file's table also after
// the file is reopened. DuckDB lost sight of the rows of a created table
// of a row group or more (an empty row group ahead of them, left by the
// CREATE TABLE AS of no rows that made it).
func TestIngestLeavesTheTableHoldingExactlyTheRowsWritten(t *testing.T) {
	rows := narrowRows(1_228_800)
	for _, c := range ingestCases() {
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
			cfg := duckdb.IngestConfig{Appender: c.appender}
			table := duckdb.Table{Name: "narrow"}
			if c.create {
				table.Mode = duckdb.Create
			}
			if c.entry == "IngestSeq" {
				cfg.BatchRows = 50_000
			}
			var n int64
			if c.callers {
				conn, err := db.Conn(ctx)
				require.NoError(t, err)
				_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
				require.NoError(t, err)
				n, err = ingestVia(ctx, conn, c.entry, table, rows[:c.rows], cfg)
				require.NoError(t, err)
				_, err = conn.ExecContext(ctx, "COMMIT")
				require.NoError(t, err)
				require.NoError(t, conn.Close())
			} else {
				n, err = ingestVia(ctx, db, c.entry, table, rows[:c.rows], cfg)
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

// TestIngestCountsItsRowsInItsOwnTransactionBesideAnotherWriter inserts
// while another connection commits rows into the same table: Ingest's
// count of the table before and after, in its transaction, sees its own
// rows and not the other's, so that neither fails it.
func TestIngestCountsItsRowsInItsOwnTransactionBesideAnotherWriter(t *testing.T) {
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
		n, err := duckdb.Ingest(context.Background(), db, duckdb.Table{Name: "narrow"}, rows)
		if !assert.NoError(t, err) {
			break
		}
		assert.EqualValues(t, len(rows), n)
	}
	stop()
	assert.EqualValues(t, 3*len(rows)+int(<-other), count(t, db, "narrow"))
}

// tableRows is what DuckDB holds in table, by SQL: its count(*) and its
// rows in the order of id.
func tableRows(t *testing.T, db *sql.DB, table string) (int, []narrow) {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM "+table).Scan(&n))
	rs, err := db.Query("SELECT id, v FROM " + table + " ORDER BY id")
	require.NoError(t, err)
	defer rs.Close()
	var rows []narrow
	for rs.Next() {
		var r narrow
		var v sql.NullInt32
		require.NoError(t, rs.Scan(&r.ID, &v))
		if v.Valid {
			r.V = &v.Int32
		}
		rows = append(rows, r)
	}
	require.NoError(t, rs.Err())
	return n, rows
}

func TestIngestInEachModeIntoATableThatExistsAndOneThatDoesNot(t *testing.T) {
	all := narrowRows(300)
	old, fresh := all[:100], all[100:]
	for _, tc := range []struct {
		mode   duckdb.IngestMode
		exists bool
		fails  string
		want   []narrow // nil: no table
	}{
		{duckdb.Append, true, "", all},
		{duckdb.Append, false, "does not exist", nil},
		{duckdb.Create, true, "already exists", old},
		{duckdb.Create, false, "", fresh},
		{duckdb.CreateAppend, true, "", all},
		{duckdb.CreateAppend, false, "", fresh},
		{duckdb.Replace, true, "", fresh},
		{duckdb.Replace, false, "", fresh},
	} {
		for _, appender := range []bool{false, true} {
			name := fmt.Sprintf("%v into a table that %s, through the %s", tc.mode,
				map[bool]string{true: "exists", false: "does not"}[tc.exists],
				map[bool]string{false: "view", true: "Appender"}[appender])
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				db := openDB(t)
				ctx := context.Background()
				if tc.exists {
					_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow"))
					require.NoError(t, err)
					_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow"}, old)
					require.NoError(t, err)
				}
				_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow", Mode: tc.mode}, fresh,
					duckdb.IngestConfig{Appender: appender, BatchRows: 64})
				if tc.fails != "" {
					require.ErrorContains(t, err, tc.fails)
				} else {
					require.NoError(t, err)
				}
				if tc.want == nil {
					var tables int
					require.NoError(t, db.QueryRow("SELECT count(*) FROM duckdb_tables()").Scan(&tables))
					assert.Zero(t, tables, "no table was made")
					return
				}
				n, rows := tableRows(t, db, "narrow")
				assert.Equal(t, len(tc.want), n, "count(*)")
				assert.Equal(t, tc.want, rows)
			})
		}
	}
}

func TestReplaceKeepsTheOldTableWhenARowFails(t *testing.T) {
	type strict struct {
		ID int64  `arrow:"id"`
		S  string `arrow:"s"`
	}
	for _, appender := range []bool{false, true} {
		for _, bad := range []int{10, 150} { // in the first batch, and past it
			t.Run(fmt.Sprintf("a value refused at row %d, through the %s", bad, map[bool]string{false: "view", true: "Appender"}[appender]), func(t *testing.T) {
				db := openDB(t)
				ctx := context.Background()
				_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Create}, narrowRows(7))
				require.NoError(t, err)
				rows := make([]strict, 200)
				for i := range rows {
					rows[i] = strict{ID: int64(i), S: "ok"}
				}
				rows[bad].S = "\xff" // not UTF-8
				_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Replace}, rows,
					duckdb.IngestConfig{Appender: appender, BatchRows: 100})
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.Equal(t, bad, me.Row)
				requireNarrow(t, db, "narrow", 7)
			})
		}
	}
	t.Run("a sequence that fails past its first batch", func(t *testing.T) {
		db := openDB(t)
		ctx := context.Background()
		_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Create}, narrowRows(7))
		require.NoError(t, err)
		broken := errors.New("the source broke")
		seq := func(yield func(narrow, error) bool) {
			for _, r := range narrowRows(150) {
				if !yield(r, nil) {
					return
				}
			}
			yield(narrow{}, broken)
		}
		_, err = duckdb.IngestSeq(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Replace}, iter.Seq2[narrow, error](seq),
			duckdb.IngestConfig{BatchRows: 100})
		require.ErrorIs(t, err, broken)
		requireNarrow(t, db, "narrow", 7)
	})
}

func TestASequenceThatGoesOnYieldingAfterItWasStoppedFailsTheIngestWithoutAPanic(t *testing.T) {
	broken := errors.New("the source broke")
	// Each sequence ignores what yield returns, as a careless one does.
	rows := func(failAt int) iter.Seq2[narrow, error] {
		return func(yield func(narrow, error) bool) {
			for i, r := range narrowRows(300) {
				if i == failAt {
					yield(narrow{}, broken)
					continue
				}
				yield(r, nil)
			}
		}
	}
	pages := func(failAt int) iter.Seq2[[]narrow, error] {
		return func(yield func([]narrow, error) bool) {
			for i := range 3 {
				if i == failAt {
					yield(nil, broken)
					continue
				}
				yield(narrowRows(300)[i*100:(i+1)*100], nil)
			}
		}
	}
	for _, appender := range []bool{false, true} {
		for _, failAt := range []int{0, 1, 150} {
			t.Run(fmt.Sprintf("failing at %d, through the %s", failAt, map[bool]string{false: "view", true: "Appender"}[appender]), func(t *testing.T) {
				db := openDB(t)
				ctx := context.Background()
				_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Create}, narrowRows(7))
				require.NoError(t, err)
				cfg := duckdb.IngestConfig{Appender: appender, BatchRows: 100}
				require.NotPanics(t, func() {
					_, err = duckdb.IngestSeq(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Replace}, rows(failAt), cfg)
				})
				require.ErrorIs(t, err, broken)
				requireNarrow(t, db, "narrow", 7)
				require.NotPanics(t, func() {
					_, err = duckdb.IngestPages(ctx, db, duckdb.Table{Name: "narrow", Mode: duckdb.Replace}, pages(min(failAt, 1)), cfg)
				})
				require.ErrorIs(t, err, broken)
				requireNarrow(t, db, "narrow", 7)
			})
		}
	}
}

func TestATableNameWithAQuoteAndADotIsOneIdentifier(t *testing.T) {
	const name = `we"ird.name`
	for _, appender := range []bool{false, true} {
		t.Run(map[bool]string{false: "view", true: "Appender"}[appender], func(t *testing.T) {
			db := openDB(t)
			ctx := context.Background()
			// A table "name" in a schema "we" is what a split would write to.
			_, err := db.Exec(`CREATE SCHEMA "we"`)
			require.NoError(t, err)
			_, err = db.Exec(fmt.Sprintf(narrowDDL, `"we"."name"`))
			require.NoError(t, err)
			cfg := duckdb.IngestConfig{Appender: appender}
			_, err = duckdb.Ingest(ctx, db, duckdb.Table{Schema: "main", Name: name, Mode: duckdb.Create}, narrowRows(3), cfg)
			require.NoError(t, err)
			_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: name}, narrowRows(5)[3:], cfg)
			require.NoError(t, err)
			var tables []string
			rs, err := db.Query("SELECT schema_name || '/' || table_name FROM duckdb_tables() ORDER BY 1")
			require.NoError(t, err)
			defer rs.Close()
			for rs.Next() {
				var s string
				require.NoError(t, rs.Scan(&s))
				tables = append(tables, s)
			}
			assert.Equal(t, []string{`main/we"ird.name`, "we/name"}, tables)
			requireNarrow(t, db, `"we""ird.name"`, 5)
			assert.Zero(t, count(t, db, `"we"."name"`))
		})
	}
}

func TestTheTablesCatalogSchemaAndTemporaryAreHonoured(t *testing.T) {
	ctx := context.Background()
	t.Run("a table in an attached database, by its Catalog, once the connection uses it", func(t *testing.T) {
		db := openDB(t)
		conn, err := db.Conn(ctx) // ATTACH and USE are the connection's
		require.NoError(t, err)
		defer conn.Close()
		_, err = conn.ExecContext(ctx, "ATTACH ':memory:' AS other")
		require.NoError(t, err)
		_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Catalog: "other", Name: "narrow", Mode: duckdb.Create}, narrowRows(4))
		require.ErrorContains(t, err, `Table.Catalog: "other" is not the connection's database, "memory"`)
		_, err = conn.ExecContext(ctx, "USE other")
		require.NoError(t, err)
		_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Catalog: "other", Name: "narrow", Mode: duckdb.Create}, narrowRows(4))
		require.NoError(t, err)
		_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Catalog: "other", Schema: "main", Name: "narrow"}, narrowRows(6)[4:],
			duckdb.IngestConfig{Appender: true})
		require.NoError(t, err)
		var n, here int
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM other.main.narrow").Scan(&n))
		assert.Equal(t, 6, n)
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE database_name <> 'other'").Scan(&here))
		assert.Zero(t, here, "no table in the default database")
	})
	t.Run("a temporary table, seen by its connection alone", func(t *testing.T) {
		db := openDB(t)
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		for _, appender := range []bool{false, true} {
			_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Name: "narrow", Temporary: true, Mode: duckdb.CreateAppend}, narrowRows(3),
				duckdb.IngestConfig{Appender: appender})
			require.NoError(t, err)
		}
		var temporary bool
		var n int
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT temporary FROM duckdb_tables() WHERE table_name = 'narrow'").Scan(&temporary))
		assert.True(t, temporary)
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM temp.main.narrow").Scan(&n))
		assert.Equal(t, 6, n)
	})
	t.Run("Replace of a table that is not temporary leaves a temporary one of its name alone", func(t *testing.T) {
		db := openDB(t)
		conn, err := db.Conn(ctx)
		require.NoError(t, err)
		defer conn.Close()
		_, err = conn.ExecContext(ctx, strings.Replace(fmt.Sprintf(narrowDDL, "narrow"), "CREATE TABLE", "CREATE TEMPORARY TABLE", 1))
		require.NoError(t, err)
		_, err = conn.ExecContext(ctx, "INSERT INTO temp.main.narrow "+fmt.Sprintf(narrowSQL, 7))
		require.NoError(t, err)
		for _, appender := range []bool{false, true} {
			// The unqualified name is the temporary table's to DROP, but a
			// table CREATE makes in the database's schema.
			for _, table := range []duckdb.Table{{Name: "narrow"}, {Schema: "main", Name: "narrow"}} {
				table.Mode = duckdb.Replace
				_, err = duckdb.Ingest(ctx, conn, table, narrowRows(3), duckdb.IngestConfig{Appender: appender})
				require.ErrorContains(t, err, "a temporary table", table)
			}
			var n int
			require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM temp.main.narrow").Scan(&n))
			assert.Equal(t, 7, n, "the temporary table's rows")
			require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE NOT temporary").Scan(&n))
			assert.Zero(t, n, "no table made beside it")
		}
		_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Catalog: "memory", Name: "narrow", Mode: duckdb.Replace}, narrowRows(5))
		require.NoError(t, err, "a Catalog names the other")
		_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Name: "narrow", Temporary: true, Mode: duckdb.Replace}, narrowRows(3))
		require.NoError(t, err, "Temporary names it")
		var n int
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM temp.main.narrow").Scan(&n))
		assert.Equal(t, 3, n)
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM memory.main.narrow").Scan(&n))
		assert.Equal(t, 5, n)
	})
	for _, tc := range []struct {
		table duckdb.Table
		err   string
	}{
		{duckdb.Table{Name: "t", Temporary: true, Catalog: "c"}, "Table.Catalog with Temporary"},
		{duckdb.Table{Name: "t", Temporary: true, Schema: "s"}, "Table.Schema with Temporary"},
		{duckdb.Table{}, "the Table has no Name"},
		{duckdb.Table{Name: "t", Mode: duckdb.IngestMode(9)}, "no ingest mode IngestMode(9)"},
	} {
		t.Run("refused: "+tc.err, func(t *testing.T) {
			_, err := duckdb.Ingest(ctx, openDB(t), tc.table, narrowRows(1))
			assert.ErrorContains(t, err, tc.err)
		})
	}
}

func TestAnIngestOfAStructOfNoColumnsIsRefusedSayingSo(t *testing.T) {
	db := openDB(t)
	type empty struct{}
	for _, mode := range []duckdb.IngestMode{duckdb.Append, duckdb.Create} {
		_, err := duckdb.Ingest(context.Background(), db, duckdb.Table{Name: "nothing", Mode: mode}, []empty{{}})
		require.ErrorIs(t, err, mapper.ErrUnsupported)
		assert.ErrorContains(t, err, "has no columns")
		assert.ErrorContains(t, err, `duckdb.Ingest into "nothing"`)
	}
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM duckdb_tables()").Scan(&n))
	assert.Zero(t, n, "no table made")
	assert.Equal(t, 0, db.Stats().InUse)
}
