//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"math/big"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

// openDB is a new in-memory DuckDB database, closed at the test's end.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })
	return db
}

// texts is the one string column of query's rows, in their order.
func texts(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rs, err := db.Query(query)
	require.NoError(t, err, query)
	defer rs.Close()
	var out []string
	for rs.Next() {
		var s string
		require.NoError(t, rs.Scan(&s))
		out = append(out, s)
	}
	require.NoError(t, rs.Err())
	return out
}

// columnType is DuckDB's type of column of table, as its catalog says.
func columnType(t *testing.T, db *sql.DB, table, column string) string {
	t.Helper()
	var typ string
	require.NoError(t, db.QueryRow("SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = ?", table, column).Scan(&typ))
	return typ
}

func bigOf(t *testing.T, s string) *big.Int {
	x, ok := new(big.Int).SetString(s, 10)
	require.True(t, ok, s)
	return x
}

func TestHugeIntsArriveWholeThroughTheLosslessExport(t *testing.T) {
	db := openDB(t)
	type row struct {
		H  duckdb.HugeInt  `arrow:"h"`
		U  duckdb.UHugeInt `arrow:"u"`
		TZ duckdb.TimeTZ   `arrow:"tz"`
	}
	r, err := duckdb.Query[row](context.Background(), db, `SELECT * FROM (VALUES
		(170141183460469231731687303715884105727::HUGEINT, 340282366920938463463374607431768211455::UHUGEINT, '12:00:00+05:30'::TIMETZ),
		((-170141183460469231731687303715884105727 - 1)::HUGEINT, 0::UHUGEINT, '23:59:59.999999-15:59:59'::TIMETZ),
		(-1::HUGEINT, 18446744073709551616::UHUGEINT, '00:00:00+00'::TIMETZ)) t(h, u, tz)`)
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, "170141183460469231731687303715884105727", rows[0].H.String())
	assert.Equal(t, "340282366920938463463374607431768211455", rows[0].U.String(), "UHUGEINT's maximum, -1 in DuckDB's default export")
	assert.Equal(t, "-170141183460469231731687303715884105728", rows[1].H.String())
	assert.Equal(t, "0", rows[1].U.String())
	assert.Equal(t, "-1", rows[2].H.String())
	assert.Equal(t, "18446744073709551616", rows[2].U.String())
	assert.Equal(t, 5*3600+30*60, rows[0].TZ.Offset())
	assert.Equal(t, "12:00:00+05:30", rows[0].TZ.String())
	assert.Equal(t, "23:59:59.999999-15:59:59", rows[1].TZ.String())
	assert.Equal(t, int64(12*3600*1e6), rows[0].TZ.Micros())

	h, err := duckdb.HugeIntOf(bigOf(t, "-170141183460469231731687303715884105728"))
	require.NoError(t, err)
	assert.Equal(t, rows[1].H, h)
	_, err = duckdb.HugeIntOf(bigOf(t, "170141183460469231731687303715884105728"))
	assert.Error(t, err)
	assert.Equal(t, rows[2].H, duckdb.HugeIntFromInt64(-1))
	tz, err := duckdb.TimeTZOf(time.Date(2020, 5, 1, 12, 0, 0, 0, time.FixedZone("", 5*3600+30*60)))
	require.NoError(t, err)
	assert.Equal(t, rows[0].TZ, tz)
}

// direct is query run by database/sql itself once with args, its rows'
// columns scanned as the driver returns them.
func direct(t *testing.T, db *sql.DB, query string, args ...any) [][]any {
	t.Helper()
	rows, err := db.Query(query, args...)
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return out
}

func TestQueryWithBindsEachKindOfFieldAsDuckDBBindsItsGoValue(t *testing.T) {
	db := openDB(t)
	type params struct {
		I  int64
		I8 int8
		U  uint32
		F  float32
		S  string
		B  bool
		T  time.Time
		N  *string
		By []byte
	}
	at := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	p := params{I: -7, I8: 8, U: 4_000_000_000, F: 2.5, S: "ünï", B: true, T: at, N: nil, By: []byte{0, 1, 255}}
	const query = `SELECT $1 AS i, $2 AS i8, $3 AS u, $4 AS f, $5 AS s, $6 AS b, $7 AS t, $8 AS n, $9 AS by,
		typeof($1) || ' ' || typeof($2) || ' ' || typeof($3) || ' ' || typeof($4) || ' ' || typeof($5) || ' ' ||
		typeof($6) || ' ' || typeof($7) || ' ' || typeof($8) || ' ' || typeof($9) AS types`
	type row struct {
		I     int64     `arrow:"i"`
		I8    int64     `arrow:"i8"` // database/sql binds every integer as an int64
		U     int64     `arrow:"u"`
		F     float64   `arrow:"f"`
		S     string    `arrow:"s"`
		B     bool      `arrow:"b"`
		T     time.Time `arrow:"t"`
		N     *int32    `arrow:"n"` // DuckDB exports its type NULL as int32
		By    []byte    `arrow:"by"`
		Types string    `arrow:"types"`
	}
	r, err := duckdb.QueryWith[row](context.Background(), db, query, []params{p})
	require.NoError(t, err)
	rows, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	require.Len(t, rows, 1)
	got := rows[0]

	want := direct(t, db, query, p.I, p.I8, p.U, p.F, p.S, p.B, p.T, nil, p.By)
	require.Len(t, want, 1)
	assert.Equal(t, want[0][9], got.Types, "each parameter of the type database/sql binds its Go value as")
	assert.Equal(t, "BIGINT BIGINT BIGINT DOUBLE VARCHAR BOOLEAN TIMESTAMP WITH TIME ZONE \"NULL\" BLOB", got.Types)
	assert.Equal(t, want[0][0], got.I)
	assert.Equal(t, want[0][1], got.I8)
	assert.Equal(t, want[0][2], got.U)
	assert.Equal(t, want[0][3], got.F)
	assert.Equal(t, want[0][4], got.S)
	assert.Equal(t, want[0][5], got.B)
	assert.True(t, want[0][6].(time.Time).Equal(got.T), "%v, %v", want[0][6], got.T)
	assert.True(t, at.Equal(got.T))
	assert.Nil(t, want[0][7])
	assert.Nil(t, got.N, "a nil pointer is NULL")
	assert.Equal(t, want[0][8], got.By)
}

func TestQueryWithRunsTheQueryOnceAParameterRowAndReadsTheResultsInOrder(t *testing.T) {
	db := openDB(t)
	type params struct {
		Tag string
		N   int64
	}
	type row struct {
		Tag string `arrow:"tag"`
		I   int64  `arrow:"i"`
	}
	// Results of several chunks, and one of none between them.
	ps := []params{{"a", 3000}, {"b", 0}, {"c", 5}, {"d", 4100}}
	const query = "SELECT ?::VARCHAR AS tag, range AS i FROM range(?) ORDER BY i"
	r, err := duckdb.QueryWith[row](context.Background(), db, query, ps)
	require.NoError(t, err)
	got, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)

	var want []row
	for _, p := range ps {
		for _, w := range direct(t, db, query, p.Tag, p.N) {
			want = append(want, row{Tag: w[0].(string), I: w[1].(int64)})
		}
	}
	require.Len(t, want, 3000+5+4100)
	assert.Equal(t, want, got)
	assert.Equal(t, 0, db.Stats().InUse, "released, the reader returned its connection")
}

func TestQueryWithNoParametersRunsNothingAndReadsNoRows(t *testing.T) {
	db := openDB(t)
	_, err := db.Exec("CREATE TABLE hits (n BIGINT)")
	require.NoError(t, err)
	type row struct {
		N int64 `arrow:"n"`
	}
	r, err := duckdb.QueryWith[row](context.Background(), db, "INSERT INTO hits VALUES (?) RETURNING n", []struct{ N int64 }{})
	require.NoError(t, err)
	assert.Equal(t, "n", r.Schema().Field(0).Name, "T's own schema")
	rows, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Empty(t, rows)
	assert.Empty(t, direct(t, db, "SELECT * FROM hits"), "the query never ran")

	r, err = duckdb.QueryWith[row](context.Background(), db, "INSERT INTO hits VALUES (?) RETURNING n", []struct{ N int64 }{{1}, {2}})
	require.NoError(t, err)
	rows, err = r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, []row{{1}, {2}}, rows)
	assert.Len(t, direct(t, db, "SELECT * FROM hits"), 2)
}

func TestQueryWithRefusesAFieldDuckDBCannotBindNamingIt(t *testing.T) {
	db := openDB(t)
	type row struct {
		X int64 `arrow:"x"`
	}
	type params struct {
		ID   int64
		Tags []string `arrow:"tags"`
	}
	for _, ps := range [][]params{{{ID: 1, Tags: []string{"a"}}}, nil} {
		_, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::BIGINT AS x", ps)
		require.ErrorIs(t, err, mapper.ErrUnsupported, "refused with rows or without")
		var merr *mapper.Error
		require.ErrorAs(t, err, &merr)
		assert.Equal(t, "tags", merr.Column)
		assert.Contains(t, err.Error(), "list")
	}
	_, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::UBIGINT AS x", []struct{ U uint64 }{{1}, {1 << 63}})
	require.ErrorIs(t, err, mapper.ErrOverflow, "database/sql binds no uint64 past the largest int64")
	var merr *mapper.Error
	require.ErrorAs(t, err, &merr)
	assert.Equal(t, "U", merr.Column)
	assert.Equal(t, 1, merr.Row)
	assert.Equal(t, 0, db.Stats().InUse)
}

func TestQueryWithRefusesParametersOfAnotherCountThanTheStatementTakes(t *testing.T) {
	db := openDB(t)
	type row struct {
		X int64 `arrow:"x"`
	}
	_, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::BIGINT AS x", []struct{ A, B int64 }{{1, 2}})
	require.ErrorIs(t, err, mapper.ErrTypeMismatch, "DuckDB would bind A and drop B")
	assert.ErrorContains(t, err, "takes 1 parameters, and P has 2 columns")
	_, err = duckdb.QueryWith[row](context.Background(), db, "SELECT $2::BIGINT AS x", []struct{ A int64 }{{1}})
	require.Error(t, err, "too few: DuckDB's own error")
	assert.ErrorContains(t, err, "parameters")
	assert.Equal(t, 0, db.Stats().InUse, "the connection is returned")

	type pair struct {
		X int64 `arrow:"x"`
		Y int64 `arrow:"y"`
	}
	r, err := duckdb.QueryWith[pair](context.Background(), db, "SELECT $2::BIGINT AS x, $1::BIGINT AS y", []struct{ A, B int64 }{{1, 2}, {3, 4}})
	require.NoError(t, err, "numbered parameters, each named once")
	got, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, []pair{{2, 1}, {4, 3}}, got)
}

func TestQueryWithRefusesATimestampsNanosecondsDuckDBWouldTruncate(t *testing.T) {
	db := openDB(t)
	type row struct {
		At time.Time `arrow:"at"`
	}
	type at struct{ At time.Time }
	_, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::TIMESTAMP AS at", []at{{time.Unix(0, 1000).UTC()}, {time.Unix(0, 1).UTC()}})
	require.ErrorIs(t, err, mapper.ErrOverflow, "a bound time.Time's nanoseconds would be dropped")
	var merr *mapper.Error
	require.ErrorAs(t, err, &merr)
	assert.Equal(t, "At", merr.Column)
	assert.Equal(t, 1, merr.Row)

	want := time.Date(2026, 12, 6, 10, 11, 12, 123456000, time.UTC)
	r, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::TIMESTAMP AS at", []at{{want}})
	require.NoError(t, err, "whole microseconds bind")
	got, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.True(t, want.Equal(got[0].At), "got %s", got[0].At)
}

func TestQueryWithNamesTheParameterRowWhoseExecutionFails(t *testing.T) {
	db := openDB(t)
	type row struct {
		X int32 `arrow:"x"`
	}
	r, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ?::INTEGER AS x", []struct{ S string }{{"1"}, {"2"}, {"three"}})
	require.NoError(t, err)
	rows, err := r.ReadAll()
	r.Release()
	require.Error(t, err)
	assert.ErrorContains(t, err, "the parameters of row 2")
	assert.ErrorContains(t, err, "three")
	assert.Equal(t, []row{{1}, {2}}, rows, "the rows before the failing execution delivered")
	assert.Equal(t, 0, db.Stats().InUse)
}

func TestQueryWithRefusesAnExecutionWhoseResultIsOfAnotherSchema(t *testing.T) {
	db := openDB(t)
	type row struct {
		X *int64 `arrow:"x"`
	}
	// An untyped parameter is of the type of the value bound: NULL's for a
	// nil pointer, BIGINT's for an int64.
	n := int64(4)
	ps := []struct{ N *int64 }{{&n}, {nil}}
	r, err := duckdb.QueryWith[row](context.Background(), db, "SELECT ? AS x", ps)
	require.NoError(t, err)
	rows, err := r.ReadAll()
	r.Release()
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
	assert.ErrorContains(t, err, "row 1")
	assert.Equal(t, []row{{X: &n}}, rows)

	r, err = duckdb.QueryWith[row](context.Background(), db, "SELECT ?::BIGINT AS x", ps)
	require.NoError(t, err, "a cast types the parameter")
	rows, err = r.ReadAll()
	r.Release()
	require.NoError(t, err)
	assert.Equal(t, []row{{X: &n}, {X: nil}}, rows)
}
