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
)

// openDB is a new in-memory DuckDB database, closed at the test's end.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })
	return db
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
