//go:build duckdb_arrow

package main

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunPrintsTheSummaries(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, db))
	require.Equal(t, []string{
		"wrote 8 orders",
		"orders over 9.00, by region:",
		"  east   2 orders,  109.99, 3 items",
		"  north  2 orders,   44.25, 4 items",
		"  south  1 orders,   40.00, 0 items",
	}, strings.Split(strings.TrimSpace(out.String()), "\n"))
}
