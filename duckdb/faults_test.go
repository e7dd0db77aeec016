//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

type order struct {
	ID    int64   `arrow:"id"`
	Total float64 `arrow:"total"`
	Note  *string `arrow:"note"`
}

func orders(n int) []order {
	rows := make([]order, n)
	for i := range rows {
		rows[i] = order{ID: int64(i), Total: float64(i) / 4}
		if i%3 == 0 {
			s := fmt.Sprint("note ", i)
			rows[i].Note = &s
		}
	}
	return rows
}

func count(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM "+table).Scan(&n))
	return n
}

// settled is the number of goroutines once those that are ending have.
func settled(before int) int {
	n := runtime.NumGoroutine()
	// Polled, not slept: a busy machine ends them late, not never.
	for deadline := time.Now().Add(10 * time.Second); n > before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

func TestAQueryErrorNamesTheQueryAndKeepsDuckDBsError(t *testing.T) {
	db := openDB(t)
	_, err := duckdb.Query[order](context.Background(), db, "SELECT id FROM no_such_table")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "duckdb.Query")
	assert.Contains(t, err.Error(), "no_such_table")
	// The connection went back to the pool: the database is usable.
	assert.Equal(t, 1, db.Stats().OpenConnections-db.Stats().InUse)
}

func TestASchemaThatDoesNotFitTIsRefusedBeforeAnyRowNamingFieldAndColumn(t *testing.T) {
	db := openDB(t)
	_, err := duckdb.Query[order](context.Background(), db, "SELECT 'x' AS id, 1.5::DOUBLE AS total, NULL::VARCHAR AS note")
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
	assert.Equal(t, "ID", me.Path)
	assert.Equal(t, "id", me.Column)
	_, err = duckdb.Query[order](context.Background(), db, "SELECT 1::BIGINT AS id")
	assert.ErrorIs(t, err, mapper.ErrMissingColumn)
	assert.Equal(t, 0, db.Stats().InUse, "the connection of a refused query is returned")
}

func TestACancelledQueryDeliversEveryRowBeforeItAndLeaksNothing(t *testing.T) {
	db := openDB(t)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := duckdb.Query[order](ctx, db, "SELECT range AS id, range / 4 AS total, NULL::VARCHAR AS note FROM range(1000000)")
	require.NoError(t, err)
	var got int64
	for page, err := range r.Pages(1000) {
		if err != nil {
			assert.ErrorIs(t, err, context.Canceled)
			break
		}
		for _, o := range page {
			require.Equal(t, got, o.ID, "rows in order, none skipped")
			got++
		}
		if got == 10_000 {
			cancel()
		}
	}
	require.ErrorIs(t, r.Err(), context.Canceled)
	assert.GreaterOrEqual(t, got, int64(10_000))
	assert.Less(t, got, int64(1_000_000), "the reader stopped")
	r.Release()
	assert.Equal(t, 0, db.Stats().InUse, "released, the reader returned its connection")
	assert.LessOrEqual(t, settled(before), before)
}

func TestQueryTakesItsOptionsAfterTheQueryAndRefusesOnesItCannotUse(t *testing.T) {
	db := openDB(t)
	type snake struct {
		OrderID int64 `arrow:""`
	}
	r, err := duckdb.Query[snake](context.Background(), db, "SELECT 42::BIGINT AS order_id", mapper.SnakeCase())
	require.NoError(t, err)
	rows, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, []snake{{OrderID: 42}}, rows)

	_, err = duckdb.Query[snake](context.Background(), db, "SELECT 1 AS order_id", mapper.Allocator(nil))
	assert.ErrorIs(t, err, mapper.ErrOption, "DuckDB allocates the records")
	assert.ErrorContains(t, err, "duckdb.Query does not take Allocator")
	_, err = duckdb.QueryWith[snake](context.Background(), db, "SELECT ? AS order_id", []struct{ X int64 }{{1}}, mapper.Allocator(nil))
	assert.ErrorIs(t, err, mapper.ErrOption)
	assert.ErrorContains(t, err, "duckdb.QueryWith does not take Allocator")
	_, err = duckdb.QueryRecords(context.Background(), db, "SELECT 1 AS order_id", mapper.SnakeCase())
	assert.ErrorIs(t, err, mapper.ErrOption, "QueryRecords decodes nothing")
	_, err = duckdb.Query[snake](context.Background(), db, "SELECT 1 AS order_id", duckdb.QueryConfig{}, duckdb.QueryConfig{})
	assert.ErrorIs(t, err, mapper.ErrOption, "two configs")
}

func TestTheExportSettingsActOnTheQueryAndArePutBack(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	settings := func() (lossless, views string) {
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT current_setting('arrow_lossless_conversion')::VARCHAR, current_setting('produce_arrow_string_view')::VARCHAR").Scan(&lossless, &views))
		return
	}
	l0, v0 := settings()
	schemaOf := func(opts ...duckdb.ReadOption) *arrow.Schema {
		rr, err := duckdb.QueryRecords(ctx, conn, "SELECT uuid() AS u, 'x' AS s, 1::UHUGEINT AS h, [1] AS l", opts...)
		require.NoError(t, err)
		defer rr.Release()
		return rr.Schema()
	}
	lossless := schemaOf()
	assert.Equal(t, "extension<arrow.uuid>", lossless.Field(0).Type.String())
	assert.Equal(t, "utf8", lossless.Field(1).Type.String())
	assert.Contains(t, lossless.Field(2).Type.String(), "uhugeint")
	lossy := schemaOf(duckdb.QueryConfig{Lossy: true})
	assert.Equal(t, "utf8", lossy.Field(0).Type.String())
	assert.Equal(t, "decimal(38, 0)", lossy.Field(2).Type.String())
	views := schemaOf(duckdb.QueryConfig{StringViews: true, ListViews: true})
	assert.Equal(t, "string_view", views.Field(1).Type.String())
	assert.Equal(t, "list_view<l: int32, nullable>", views.Field(3).Type.String())
	l1, v1 := settings()
	assert.Equal(t, l0, l1, "the connection's own settings, put back")
	assert.Equal(t, v0, v1)

	// The reader keeps the settings of its query after they are put back.
	r, err := duckdb.Query[struct {
		U [16]byte `arrow:"u"`
	}](ctx, conn, "SELECT uuid() AS u FROM range(5000)")
	require.NoError(t, err)
	rows, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Len(t, rows, 5000)
}

func TestAnIngestIntoATableOfOtherColumnsIsRefusedNamingThem(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec("CREATE TABLE orders (id BIGINT, amount DOUBLE, note VARCHAR)")
	require.NoError(t, err)
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, orders(10))
	assert.ErrorIs(t, err, mapper.ErrMissingColumn)
	assert.Contains(t, err.Error(), `no column "total"`)
	assert.Contains(t, err.Error(), `columns "amount"`)
	assert.Equal(t, 0, count(t, db, "orders"))
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "missing"}, orders(10))
	assert.ErrorContains(t, err, "missing")
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders", Mode: duckdb.Create}, orders(1))
	assert.ErrorContains(t, err, "already exists")
}

func TestIngestAppendsByNameAndCreatesWhenAsked(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec("CREATE TABLE orders (NOTE VARCHAR, total DOUBLE, Id BIGINT)")
	require.NoError(t, err)
	rows := orders(1000)
	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, rows, duckdb.IngestConfig{BatchRows: 64})
	require.NoError(t, err)
	assert.EqualValues(t, 1000, n)
	// DuckDB names a column as the table does: Id, NOTE.
	r, err := duckdb.Query[order](ctx, db, "SELECT id AS id, total, note AS note FROM orders ORDER BY id")
	require.NoError(t, err)
	back, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, rows, back)
	// The Appender finds the columns as BY NAME does, without case: each
	// row is then in the table twice.
	n, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, rows, duckdb.IngestConfig{Appender: true, BatchRows: 64})
	require.NoError(t, err)
	assert.EqualValues(t, 1000, n)
	var twice int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM (SELECT id, total, note FROM orders GROUP BY ALL HAVING count(*) = 2)").Scan(&twice))
	assert.Equal(t, 1000, twice)
	assert.Equal(t, 2000, count(t, db, "orders"))

	n, err = duckdb.Ingest(ctx, db, duckdb.Table{Schema: "main", Name: "created", Mode: duckdb.CreateAppend}, rows[:5])
	require.NoError(t, err)
	assert.EqualValues(t, 5, n)
	n, err = duckdb.Ingest(ctx, db, duckdb.Table{Schema: "main", Name: "created", Mode: duckdb.CreateAppend}, rows[5:7])
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	assert.Equal(t, 7, count(t, db, "created"))
	var nullable string
	require.NoError(t, db.QueryRow("SELECT is_nullable FROM information_schema.columns WHERE table_name = 'created' AND column_name = 'id'").Scan(&nullable))
	assert.Equal(t, "NO", nullable, "an int64 holds no null: NOT NULL")
}

func TestAFailedBatchLeavesTheTableAsItWas(t *testing.T) {
	t.Run("view", func(t *testing.T) { failBatches(t, duckdb.IngestConfig{}) })
	t.Run("appender", func(t *testing.T) { failBatches(t, duckdb.IngestConfig{Appender: true}) })
}

func failBatches(t *testing.T, cfg duckdb.IngestConfig) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec("CREATE TABLE orders (id BIGINT PRIMARY KEY, total DOUBLE, note VARCHAR)")
	require.NoError(t, err)
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, orders(10))
	require.NoError(t, err)
	// The third batch repeats a key: DuckDB refuses it, and the two before
	// it go too.
	rows := orders(300)
	for i := range rows {
		rows[i].ID += 100
	}
	rows[250].ID = 5
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, rows, withBatch(cfg, 100))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Duplicate key")
	assert.Equal(t, 10, count(t, db, "orders"))

	// A sequence that fails after two batches, the same.
	seq := func(yield func(order, error) bool) {
		for i, o := range orders(250) {
			o.ID += 1000
			if i == 240 {
				yield(order{}, errors.New("the source broke"))
				return
			}
			if !yield(o, nil) {
				return
			}
		}
	}
	_, err = duckdb.IngestSeq(ctx, db, duckdb.Table{Name: "orders"}, iter.Seq2[order, error](seq), withBatch(cfg, 100))
	assert.ErrorContains(t, err, "the source broke")
	assert.Equal(t, 10, count(t, db, "orders"))

	// A value that does not fit its column, past the first batch: the
	// row is counted from the start of the rows.
	type wide struct {
		ID    int64   `arrow:"id"`
		Total float64 `arrow:"total"`
		Note  string  `arrow:"note"`
	}
	bad := make([]wide, 150)
	for i := range bad {
		bad[i] = wide{ID: int64(2000 + i), Note: "ok"}
	}
	bad[120].Note = "\xff"
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, bad, withBatch(cfg, 100), mapper.Allocator(mem))
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 120, me.Row)
	assert.Equal(t, 10, count(t, db, "orders"))
	mem.AssertSize(t, 0)
	bad[120].Note = "fixed"
	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, bad, withBatch(cfg, 100), mapper.Allocator(mem))
	require.NoError(t, err)
	assert.EqualValues(t, 150, n)
	mem.AssertSize(t, 0)
	assert.Equal(t, 0, db.Stats().InUse)
}

func TestIngestInTheCallersTransactionLeavesItToTheCaller(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
	require.NoError(t, err)
	_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Name: "t", Mode: duckdb.Create}, orders(20))
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "ROLLBACK")
	require.NoError(t, err)
	var n int
	require.Error(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n), "the caller's ROLLBACK took the table too")
}

func TestIngestPagesWritesAReadersPagesIntoAnotherTable(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "src", Mode: duckdb.Create}, orders(5000))
	require.NoError(t, err)
	r, err := duckdb.Query[order](ctx, db, "SELECT * FROM src ORDER BY id")
	require.NoError(t, err)
	defer r.Release()
	n, err := duckdb.IngestPages(ctx, db, duckdb.Table{Name: "dst", Mode: duckdb.Create}, r.Pages(700), duckdb.IngestConfig{BatchRows: 1000})
	require.NoError(t, err)
	assert.EqualValues(t, 5000, n)
	var same bool
	require.NoError(t, db.QueryRow("SELECT (SELECT sum(hash(id, total, note)) FROM src) = (SELECT sum(hash(id, total, note)) FROM dst)").Scan(&same))
	assert.True(t, same)
}

func TestWhatDuckDBsArrowImportCannotReadIsConvertedOrRefused(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type odd struct {
		Half    float16.Num           `arrow:"half"`
		Halves  []float16.Num         `arrow:"halves"`
		DayTime arrow.DayTimeInterval `arrow:"day_time"`
		Wide    decimal.Decimal256    `arrow:"wide,decimal(30,2)"`
	}
	rows := []odd{{Half: float16.New(1.5), Halves: []float16.Num{float16.New(-2), float16.New(0.25)},
		DayTime: arrow.DayTimeInterval{Days: 3, Milliseconds: 1500}, Wide: decimal256.FromI64(-12345)}}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "odd", Mode: duckdb.Create}, rows, mapper.Allocator(mem))
	require.NoError(t, err)
	mem.AssertSize(t, 0)
	var half, halves, dayTime, wide string
	require.NoError(t, db.QueryRow("SELECT half::VARCHAR, halves::VARCHAR, day_time::VARCHAR, wide::VARCHAR FROM odd").Scan(&half, &halves, &dayTime, &wide))
	assert.Equal(t, "1.5", half)
	assert.Equal(t, "[-2.0, 0.25]", halves)
	assert.Equal(t, "3 days 00:00:01.5", dayTime, "DuckDB reads a day_time's milliseconds as microseconds")
	assert.Equal(t, "-123.45", wide)

	type dense struct {
		V struct {
			I *int32  `arrow:"i"`
			S *string `arrow:"s"`
		} `arrow:"v,dense_union"`
	}
	// A dense union, which the view cannot carry, goes through the
	// Appender: the same UNION.
	seven, eight, word := int32(7), int32(8), "seven"
	unions := make([]dense, 3)
	unions[0].V.I, unions[1].V.S, unions[2].V.I = &seven, &word, &eight
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "dense", Mode: duckdb.Create}, unions)
	require.NoError(t, err)
	assert.Equal(t, "UNION(i INTEGER, s VARCHAR)", columnType(t, db, "dense", "v"))
	type sparse struct {
		V struct {
			I *int32  `arrow:"i"`
			S *string `arrow:"s"`
		} `arrow:"v,sparse_union"`
	}
	r, err := duckdb.Query[sparse](ctx, db, "SELECT v FROM dense ORDER BY rowid")
	require.NoError(t, err)
	back, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	require.Len(t, back, 3)
	assert.Equal(t, &seven, back[0].V.I)
	assert.Equal(t, &word, back[1].V.S)
	assert.Nil(t, back[0].V.S)
	assert.Equal(t, &eight, back[2].V.I)

	type wider struct {
		W decimal.Decimal256 `arrow:"w,decimal(50,2)"`
	}
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "wider", Mode: duckdb.Create}, []wider{{}})
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "w", me.Column)
	assert.ErrorIs(t, err, mapper.ErrUnsupported)
	assert.Contains(t, err.Error(), "38 digits")
	var tables int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'wider'").Scan(&tables))
	assert.Zero(t, tables, "refused before anything was created")
}

func TestAZonedTimestampsNanosecondsAreRefusedNotTruncated(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type stamped struct {
		At time.Time `arrow:"at"` // timestamp[ns, tz=UTC]
	}
	rows := make([]stamped, 250)
	for i := range rows {
		rows[i].At = time.Unix(int64(i), int64(i)*1000).UTC()
	}
	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "stamps", Mode: duckdb.Create}, rows, duckdb.IngestConfig{BatchRows: 100})
	require.NoError(t, err, "whole microseconds go in")
	assert.EqualValues(t, 250, n)
	r, err := duckdb.Query[stamped](ctx, db, `SELECT "at" FROM stamps ORDER BY "at"`)
	require.NoError(t, err)
	back, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	for i := range rows {
		require.True(t, rows[i].At.Equal(back[i].At), "row %d", i)
	}

	rows[217].At = rows[217].At.Add(5)
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "stamps"}, rows, duckdb.IngestConfig{BatchRows: 100})
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 217, me.Row)
	assert.Equal(t, "at", me.Column)
	assert.Contains(t, err.Error(), "unit=us")
	assert.Equal(t, 250, count(t, db, "stamps"))

	type truncated struct {
		At time.Time `arrow:"at,timestamp,unit=us,tz=UTC"`
	}
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "stamps"}, []truncated{{At: rows[217].At}})
	require.NoError(t, err, "unit=us: the caller's truncation")
}

func TestNanosecondsDuckDBsIntervalCannotHoldAreRefusedNotTruncated(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type spans struct {
		D time.Duration              `arrow:"d"` // duration[ns]
		M arrow.MonthDayNanoInterval `arrow:"m"`
		L []time.Duration            `arrow:"l"`
		T time.Duration              `arrow:"t,time64,unit=ns"`          // TIME_NS: exact
		N time.Time                  `arrow:"n,timestamp,naive,unit=ns"` // TIMESTAMP_NS: exact
	}
	ok := []spans{{D: 1500 * time.Microsecond, M: arrow.MonthDayNanoInterval{Months: 1, Nanoseconds: 2000}, L: []time.Duration{time.Second}, T: 1500, N: time.Unix(0, 1500).UTC()}}
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "spans", Mode: duckdb.Create}, ok)
	require.NoError(t, err)
	_, err = duckdb.Query[spans](ctx, db, "SELECT * FROM spans")
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch, "an INTERVAL comes back as month_day_nano, not a duration")
	var d, m, tm, n string
	require.NoError(t, db.QueryRow("SELECT d::VARCHAR, m::VARCHAR, t::VARCHAR, n::VARCHAR FROM spans").Scan(&d, &m, &tm, &n))
	assert.Equal(t, []string{"00:00:00.0015", "1 month 00:00:00.000002", "00:00:00.0000015", "1970-01-01 00:00:00.0000015"}, []string{d, m, tm, n})

	for name, bad := range map[string]spans{
		"d": {D: 1500},
		"m": {M: arrow.MonthDayNanoInterval{Nanoseconds: 1}},
		"l": {L: []time.Duration{time.Second, 7}},
	} {
		rows := make([]spans, 3)
		rows[2] = bad
		for i := range rows {
			rows[i].N = time.Unix(0, 0)
		}
		_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "spans"}, rows)
		var me *mapper.Error
		require.ErrorAs(t, err, &me, name)
		assert.Equal(t, name, me.Column)
		if name != "l" {
			assert.Equal(t, 2, me.Row, name)
		}
		assert.ErrorIs(t, err, mapper.ErrOverflow)
	}
	assert.Equal(t, 1, count(t, db, "spans"))
}

func withBatch(cfg duckdb.IngestConfig, rows int) duckdb.IngestConfig {
	cfg.BatchRows = rows
	return cfg
}

func TestACancelledIngestWritesNothingOnEitherPath(t *testing.T) {
	for _, appender := range []bool{false, true} {
		for _, callers := range []bool{false, true} {
			name := map[bool]string{false: "through the view", true: "through the Appender"}[appender] +
				map[bool]string{false: " in its own transaction", true: " in the caller's transaction"}[callers]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				cancelledIngest(t, appender, callers)
			})
		}
	}
}

// cancelledIngest cancels an IngestSeq from its sequence after 300,000
// rows, past DuckDB's row group and the Appender's first flush (204,800
// rows), and then goes on, as a source a caller stops waiting for does.
func cancelledIngest(t *testing.T, appender, callers bool) {
	db := openDB(t)
	_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow"))
	require.NoError(t, err)
	_, err = duckdb.Ingest(context.Background(), db, duckdb.Table{Name: "narrow"}, narrowRows(10))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Bounded, so that an insert that does not stop ends, and fails the
	// test, rather than hangs it.
	seq := func(yield func(narrow, error) bool) {
		for i := range 5_000_000 {
			if i == 300_000 {
				cancel()
			}
			if !yield(narrow{ID: int64(1000 + i)}, nil) {
				return
			}
		}
	}
	conn, err := db.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	if callers {
		_, err = conn.ExecContext(context.Background(), "BEGIN TRANSACTION")
		require.NoError(t, err)
	}
	n, err := duckdb.IngestSeq(ctx, conn, duckdb.Table{Name: "narrow"}, iter.Seq2[narrow, error](seq), duckdb.IngestConfig{Appender: appender})
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n)
	if callers {
		// The caller's transaction had DuckDB abort it (the view's
		// INSERT, interrupted) or held rows of the insert (the
		// Appender's first flush): rolled back, and said.
		assert.ErrorIs(t, err, duckdb.ErrTransactionRolledBack)
		_, err = conn.ExecContext(context.Background(), "COMMIT")
		assert.Error(t, err, "no transaction to commit")
	}
	requireNarrow(t, db, "narrow", 10)
}

// TestAFailedIngestInTheCallersTransactionKeepsTheCallersRowsOrSaysItDidNot
// begins a transaction, inserts a row of the caller's own, and fails an
// insert in it. DuckDB has no SAVEPOINT, and aborts a transaction at the
// error of a statement that writes (its COMMIT then ends it as a ROLLBACK
// and returns nil): where that happened, or where DuckDB holds rows of
// the failed ingest, Ingest rolls the transaction back and says so, and
// the caller's COMMIT fails; where DuckDB saw no row of it, the
// transaction is as it was, and the caller's COMMIT commits its row.
func TestAFailedIngestInTheCallersTransactionKeepsTheCallersRowsOrSaysItDidNot(t *testing.T) {
	type wide struct {
		ID    int64   `arrow:"id"`
		Total float64 `arrow:"total"`
		Note  string  `arrow:"note"`
	}
	// badAt is 300 rows whose note at row i is not UTF-8.
	badAt := func(i int) []wide {
		rows := make([]wide, 300)
		for j := range rows {
			rows[j] = wide{ID: int64(100 + j), Note: "ok"}
		}
		rows[i].Note = "\xff"
		return rows
	}
	// repeated is 300 rows whose row 250 repeats a key the table has.
	repeated := func() []wide {
		rows := badAt(0)
		rows[0].Note = "ok"
		rows[250].ID = 5
		return rows
	}
	ingestAs := func(mode duckdb.IngestMode, rows []wide, cfg duckdb.IngestConfig) func(context.Context, *sql.Conn, string) error {
		return func(ctx context.Context, conn *sql.Conn, table string) error {
			_, err := duckdb.Ingest(ctx, conn, duckdb.Table{Name: table, Mode: mode}, rows, withBatch(cfg, 100))
			return err
		}
	}
	insert := func(rows []wide, cfg duckdb.IngestConfig) func(context.Context, *sql.Conn, string) error {
		return ingestAs(duckdb.Append, rows, cfg)
	}
	view, appender := duckdb.IngestConfig{}, duckdb.IngestConfig{Appender: true}
	for _, c := range []struct {
		name       string
		insert     func(context.Context, *sql.Conn, string) error
		rolledBack bool
	}{
		{"a value refused in the second batch, through the view, which DuckDB was reading: rolled back", insert(badAt(120), view), true},
		{"a key DuckDB refuses, through the view: rolled back", insert(repeated(), view), true},
		{"a key DuckDB refuses, through the Appender at its flush: rolled back", insert(repeated(), appender), true},
		{"a value refused in the first batch, through the view, before DuckDB saw a row: kept", insert(badAt(20), view), false},
		{"a value refused in the second batch, through the Appender, which had given DuckDB no row: kept", insert(badAt(120), appender), false},
		{"a created table, and a value refused in its second batch through the view: rolled back",
			func(ctx context.Context, conn *sql.Conn, _ string) error {
				return ingestAs(duckdb.Create, badAt(120), view)(ctx, conn, "created")
			}, true},
		{"a created table, and a value refused in its second batch through the Appender: the table dropped, kept",
			func(ctx context.Context, conn *sql.Conn, _ string) error {
				return ingestAs(duckdb.Create, badAt(120), appender)(ctx, conn, "created")
			}, false},
		{"a sequence that fails past the Appender's first flush, which DuckDB holds: rolled back",
			func(ctx context.Context, conn *sql.Conn, table string) error {
				seq := func(yield func(wide, error) bool) {
					for i := range 250_000 {
						if !yield(wide{ID: int64(1000 + i)}, nil) {
							return
						}
					}
					yield(wide{}, errors.New("the source broke"))
				}
				_, err := duckdb.IngestSeq(ctx, conn, duckdb.Table{Name: table}, iter.Seq2[wide, error](seq), appender)
				return err
			}, true},
		{"a table of other columns: kept",
			func(ctx context.Context, conn *sql.Conn, _ string) error {
				if _, err := conn.ExecContext(ctx, "CREATE TABLE other (id BIGINT PRIMARY KEY, amount DOUBLE)"); err != nil {
					return err
				}
				return insert(badAt(0), view)(ctx, conn, "other")
			}, false},
		{"Create of a table that exists: kept",
			func(ctx context.Context, conn *sql.Conn, table string) error {
				return ingestAs(duckdb.Create, badAt(0), view)(ctx, conn, table)
			}, false},
		{"Replace of the table, and a value refused in its first batch: the table it dropped back, rolled back",
			func(ctx context.Context, conn *sql.Conn, table string) error {
				return ingestAs(duckdb.Replace, badAt(20), view)(ctx, conn, table)
			}, true},
		{"Replace of the table, and a value refused in its second batch through the Appender: rolled back",
			func(ctx context.Context, conn *sql.Conn, table string) error {
				return ingestAs(duckdb.Replace, badAt(120), appender)(ctx, conn, table)
			}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := openDB(t)
			ctx := context.Background()
			_, err := db.Exec("CREATE TABLE orders (id BIGINT PRIMARY KEY, total DOUBLE, note VARCHAR)")
			require.NoError(t, err)
			_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, orders(10))
			require.NoError(t, err)
			conn, err := db.Conn(ctx)
			require.NoError(t, err)
			defer conn.Close()
			_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
			require.NoError(t, err)
			_, err = conn.ExecContext(ctx, "INSERT INTO orders VALUES (-1, 0, 'the caller''s')")
			require.NoError(t, err)

			err = c.insert(ctx, conn, "orders")
			require.Error(t, err)
			_, commit := conn.ExecContext(ctx, "COMMIT")
			var callers int
			require.NoError(t, db.QueryRow("SELECT count(*) FROM orders WHERE id = -1").Scan(&callers))
			if c.rolledBack {
				require.ErrorIs(t, err, duckdb.ErrTransactionRolledBack)
				assert.ErrorContains(t, err, "a COMMIT fails")
				assert.Error(t, commit, "the caller's COMMIT, after the rollback")
				assert.Zero(t, callers, "the caller's row, rolled back")
			} else {
				require.NotErrorIs(t, err, duckdb.ErrTransactionRolledBack)
				assert.NoError(t, commit)
				assert.Equal(t, 1, callers, "the caller's row, committed")
			}
			assert.Equal(t, 10+callers, count(t, db, "orders"), "no row of the failed insert")
			var created int
			require.NoError(t, db.QueryRow("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'created'").Scan(&created))
			assert.Zero(t, created, "no table of the failed insert")
		})
	}
}

func TestAnEmptyIngestInTheCallersTransactionHidesNoRowOfTheNext(t *testing.T) {
	for _, create := range []bool{false, true} {
		t.Run(map[bool]string{false: "a table made by SQL", true: "a table the first creates"}[create], func(t *testing.T) {
			t.Parallel()
			db := openDB(t)
			ctx := context.Background()
			if !create {
				_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow"))
				require.NoError(t, err)
			}
			conn, err := db.Conn(ctx)
			require.NoError(t, err)
			defer conn.Close()
			_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
			require.NoError(t, err)
			mode := map[bool]duckdb.IngestMode{false: duckdb.Append, true: duckdb.Create}[create]
			n, err := duckdb.Ingest(ctx, conn, duckdb.Table{Name: "narrow", Mode: mode}, []narrow{})
			require.NoError(t, err)
			assert.Zero(t, n)
			rows := narrowRows(122_880)
			n, err = duckdb.Ingest(ctx, conn, duckdb.Table{Name: "narrow"}, rows)
			require.NoError(t, err)
			assert.EqualValues(t, len(rows), n)
			_, err = conn.ExecContext(ctx, "COMMIT")
			require.NoError(t, err)
			requireNarrow(t, db, "narrow", len(rows))
		})
	}
}

// TestRowsDuckDBLosesSightOfFailTheIngest has the caller's transaction run
// an INSERT of no rows from a table, after which DuckDB (1.5.6) loses
// sight of the rows of a large insert: Ingest counts them, and refuses
// what the table does not show, rather than return their number.
func TestRowsDuckDBLosesSightOfFailTheIngest(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec(fmt.Sprintf(narrowDDL, "narrow") + "; " + fmt.Sprintf(narrowDDL, "empty"))
	require.NoError(t, err)
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "BEGIN TRANSACTION")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "INSERT INTO narrow SELECT * FROM empty")
	require.NoError(t, err)
	_, err = duckdb.Ingest(ctx, conn, duckdb.Table{Name: "narrow"}, narrowRows(122_880))
	require.ErrorIs(t, err, duckdb.ErrTransactionRolledBack)
	assert.ErrorContains(t, err, "lost sight of rows")
	_, err = conn.ExecContext(ctx, "COMMIT")
	assert.Error(t, err, "rolled back: no transaction to commit")
	requireNarrow(t, db, "narrow", 0)
	// What DuckDB hid would show after a CHECKPOINT: nothing is hidden.
	_, err = db.Exec("CHECKPOINT")
	require.NoError(t, err)
	requireNarrow(t, db, "narrow", 0)
}
