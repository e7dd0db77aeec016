//go:build !duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"iter"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
)

// TestEveryEntryPointOfABuildWithoutTheTagSaysToBuildWithIt runs in a
// build without duckdb_arrow: each entry point returns ErrNeedsBuildTag,
// naming itself, and writes nothing.
func TestEveryEntryPointOfABuildWithoutTheTagSaysToBuildWithIt(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE t (id BIGINT)")
	require.NoError(t, err)
	ctx := context.Background()
	type row struct {
		ID int64 `arrow:"id"`
	}
	rows := []row{{ID: 1}}
	calls := map[string]func() error{
		"duckdb.Query": func() error {
			_, err := duckdb.Query[row](ctx, db, "SELECT 1::BIGINT AS id")
			return err
		},
		"duckdb.QueryColumns": func() error {
			_, err := duckdb.QueryColumns[struct{}](ctx, db, "SELECT 1::BIGINT AS id")
			return err
		},
		"duckdb.QueryRecords": func() error {
			_, err := duckdb.QueryRecords(ctx, db, "SELECT 1::BIGINT AS id")
			return err
		},
		"duckdb.Ingest": func() error {
			_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "t"}, rows, duckdb.IngestConfig{Appender: true})
			return err
		},
		"duckdb.IngestSeq": func() error {
			_, err := duckdb.IngestSeq(ctx, db, duckdb.Table{Name: "t"}, iter.Seq2[row, error](func(yield func(row, error) bool) { yield(rows[0], nil) }))
			return err
		},
		"duckdb.IngestPages": func() error {
			_, err := duckdb.IngestPages(ctx, db, duckdb.Table{Name: "t"}, iter.Seq2[[]row, error](func(yield func([]row, error) bool) { yield(rows, nil) }))
			return err
		},
	}
	for entry, call := range calls {
		err := call()
		require.ErrorIs(t, err, duckdb.ErrNeedsBuildTag, entry)
		assert.ErrorContains(t, err, entry)
		assert.ErrorContains(t, err, "-tags duckdb_arrow")
	}
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM t").Scan(&n))
	assert.Zero(t, n)
}
