//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

// The Appender gives DuckDB every date, time of day, timestamp and
// duration as DuckDB's own Arrow scan reads it from the same batch: each
// unit, a zone that is not UTC, before the epoch and past 2038, nulls.
// The text DuckDB prints of the two tables must be equal row by row, and
// of a few values what SQL spells them.
func TestTheAppendersTimesAreTheOnesDuckDBsArrowScanReads(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type row struct {
		ID   int32          `arrow:"id"`
		D32  time.Time      `arrow:"d32,date32"`
		D64  *time.Time     `arrow:"d64,date64"`
		T32s time.Duration  `arrow:"t32s,time32,unit=s"`
		T32  time.Duration  `arrow:"t32,time32,unit=ms"`
		T64  *time.Duration `arrow:"t64,time64,unit=us"`
		TSs  time.Time      `arrow:"tss,timestamp,unit=s,tz=America/New_York"`
		TSms *time.Time     `arrow:"tsms,timestamp,naive,unit=ms"`
		TSus time.Time      `arrow:"tsus,timestamp,unit=us"`
		Dur  time.Duration  `arrow:"dur,duration,unit=ms"`
	}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	at := time.Date(2041, 3, 9, 23, 59, 58, 123_000_000, time.UTC)
	before := time.Date(1903, 7, 1, 6, 30, 0, 0, time.UTC)
	clock := 23*time.Hour + 59*time.Minute + 59*time.Second
	rows := []row{
		{ID: 1, D32: day(2041, 3, 9), D64: ptr(day(1903, 7, 1)), T32s: clock, T32: clock + 999*time.Millisecond,
			T64: ptr(clock + 999_999*time.Microsecond), TSs: at.Truncate(time.Second), TSms: ptr(at), TSus: before, Dur: -90 * time.Minute},
		{ID: 2, D32: day(1969, 12, 31), TSs: before, TSus: at, Dur: 36 * time.Hour},
		{ID: 3, D32: day(1970, 1, 1), D64: ptr(day(2262, 4, 11)), T64: ptr(time.Duration(0)), TSms: ptr(before), TSus: time.Unix(0, 0).UTC()},
	}
	for _, c := range []struct {
		name string
		cfg  duckdb.IngestConfig
	}{{"scanned", duckdb.IngestConfig{}}, {"appended", duckdb.IngestConfig{Appender: true}}} {
		_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: c.name, Mode: duckdb.Create}, rows, c.cfg)
		require.NoError(t, err, c.name)
	}
	text := func(table string) [][]string {
		q := "SELECT id::VARCHAR, d32::VARCHAR, d64::VARCHAR, t32s::VARCHAR, t32::VARCHAR, t64::VARCHAR, " +
			"timezone('UTC', tss)::VARCHAR, tsms::VARCHAR, timezone('UTC', tsus)::VARCHAR, dur::VARCHAR FROM " + table + " ORDER BY id"
		rs, err := db.QueryContext(ctx, q)
		require.NoError(t, err)
		defer rs.Close()
		var out [][]string
		for rs.Next() {
			cols := make([]*string, 10)
			dst := make([]any, len(cols))
			for i := range cols {
				dst[i] = &cols[i]
			}
			require.NoError(t, rs.Scan(dst...))
			line := make([]string, len(cols))
			for i, c := range cols {
				line[i] = "NULL"
				if c != nil {
					line[i] = *c
				}
			}
			out = append(out, line)
		}
		require.NoError(t, rs.Err())
		return out
	}
	scanned, appended := text("scanned"), text("appended")
	require.Len(t, scanned, len(rows))
	assert.Equal(t, scanned, appended)
	assert.Equal(t, []string{"1", "2041-03-09", "1903-07-01", "23:59:59", "23:59:59.999", "23:59:59.999999",
		"2041-03-09 23:59:58", "2041-03-09 23:59:58.123", "1903-07-01 06:30:00", "-01:30:00"}, appended[0])
	assert.Equal(t, []string{"2", "1969-12-31", "NULL", "00:00:00", "00:00:00", "NULL",
		"1903-07-01 06:30:00", "NULL", "2041-03-09 23:59:58.123", "36:00:00"}, appended[1])
	assert.Equal(t, "2262-04-11", appended[2][2])
}

func ptr[T any](v T) *T { return &v }

// The Appender writes no TIME_NS (duckdb-go creates none on a table that
// has one): a time64[ns] is refused before any table is made, naming its
// column, where the view ingests it to the nanosecond.
func TestATimeOfDayInNanosecondsIsRefusedByTheAppenderAndGoesInThroughTheView(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type row struct {
		ID    int32          `arrow:"id"`
		Clock *time.Duration `arrow:"clock,time64,unit=ns"`
	}
	rows := []row{{ID: 1, Clock: ptr(23*time.Hour + 59*time.Minute + 59*time.Second + 999_999_999)}, {ID: 2}}

	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "appended", Mode: duckdb.Create}, rows, duckdb.IngestConfig{Appender: true})
	require.ErrorIs(t, err, mapper.ErrUnsupported)
	assert.Contains(t, err.Error(), `"clock"`)
	assert.Contains(t, err.Error(), "TIME_NS")
	var tables int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'appended'").Scan(&tables))
	assert.Zero(t, tables, "refused before the table is created")

	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "scanned", Mode: duckdb.Create}, rows)
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	assert.Equal(t, "TIME_NS", columnType(t, db, "scanned", "clock"))
	var text string
	require.NoError(t, db.QueryRowContext(ctx, "SELECT clock::VARCHAR FROM scanned WHERE id = 1").Scan(&text))
	assert.Equal(t, "23:59:59.999999999", text)

	// Into a table that has a TIME_NS column, the Appender cannot start,
	// whatever the unit of the rows: ErrUnsupported, naming the column.
	type micros struct {
		ID    int32          `arrow:"id"`
		Clock *time.Duration `arrow:"CLOCK,time64,unit=us"`
	}
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "scanned"}, []micros{{ID: 3}}, duckdb.IngestConfig{Appender: true})
	require.ErrorIs(t, err, mapper.ErrUnsupported)
	assert.Contains(t, err.Error(), `"clock"`)
	assert.Contains(t, err.Error(), "TIME_NS")
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM scanned").Scan(&n))
	assert.EqualValues(t, 2, n, "nothing appended")
}

// DuckDB's identifiers ignore case, and so does an ingest into a table that
// exists: the Appender, which finds a STRUCT's field only by the table's
// spelling of it, is given that spelling, at any depth, as the view's
// INSERT … BY NAME finds it.
func TestTheAppenderFindsAStructsFieldsWithoutCaseAsTheViewDoes(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type point struct {
		X int32 `arrow:"X"`
	}
	type inner struct {
		A int32  `arrow:"A"`
		B string `arrow:"b"`
	}
	type row struct {
		ID     int32            `arrow:"ID"`
		St     inner            `arrow:"St"`
		Points []point          `arrow:"points"`
		ByName map[string]point `arrow:"byname"`
	}
	rows := []row{
		{ID: 1, St: inner{A: 2, B: "x"}, Points: []point{{X: 3}, {X: 4}}, ByName: map[string]point{"k": {X: 5}}},
		{ID: 2, St: inner{A: -1, B: ""}},
	}
	for _, c := range []struct {
		name string
		cfg  duckdb.IngestConfig
	}{{"scanned", duckdb.IngestConfig{}}, {"appended", duckdb.IngestConfig{Appender: true}}} {
		_, err := db.ExecContext(ctx, `CREATE TABLE `+c.name+` (id INTEGER, st STRUCT(b VARCHAR, a INTEGER),
			Points STRUCT(x INTEGER)[], ByName MAP(VARCHAR, STRUCT(x INTEGER)))`)
		require.NoError(t, err)
		n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: c.name}, rows, c.cfg)
		require.NoError(t, err, c.name)
		require.EqualValues(t, 2, n)
		got := texts(t, db, "SELECT id::VARCHAR || ' ' || st::VARCHAR || ' ' || coalesce(points::VARCHAR, '-') || ' ' || coalesce(byname::VARCHAR, '-') FROM "+c.name+" ORDER BY id")
		assert.Equal(t, []string{"1 {'b': x, 'a': 2} [{'x': 3}, {'x': 4}] {k={'x': 5}}", "2 {'b': '', 'a': -1} - -"}, got, c.name)
	}
}
