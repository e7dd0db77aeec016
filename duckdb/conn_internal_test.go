//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Only the DuckDB release the package is tested with runs: DuckDB 2.0
// hides the rows of a large ingest from its scans. A version that merely
// starts with the same digits (v1.50) is another release.
func TestOnlyTheTestedDuckDBReleaseRuns(t *testing.T) {
	for _, v := range []string{"v1.5.6", "v1.5.0", "v1.5"} {
		assert.NoError(t, supported(v), v)
	}
	for _, v := range []string{"v2.0.0", "v1.6.0", "v1.50.1", "v1.4.4", ""} {
		err := supported(v)
		assert.ErrorIs(t, err, ErrUntestedDuckDB, v)
		assert.ErrorContains(t, err, "DuckDB "+v+",")
	}

	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	var linkedVersion string
	require.NoError(t, db.QueryRow("SELECT library_version FROM pragma_version()").Scan(&linkedVersion))
	assert.NoError(t, supported(linkedVersion), "the DuckDB this module requires is the one it is tested with")
	s, err := open(context.Background(), "test", db)
	require.NoError(t, err)
	assert.NoError(t, s.close())
}
