//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
)

// A sparse union's variants are carried to DuckDB's types as the same
// types are at the top: a float16 as a FLOAT, a zoned timestamp[ns] as
// microseconds (its nanoseconds refused), through a list and a struct.
func TestASparseUnionsVariantsAreCarriedAsTheTopsTypesAre(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type either struct {
		H *float16.Num `arrow:"h"`
		T *time.Time   `arrow:"t"`
	}
	type row struct {
		ID int32    `arrow:"id"`
		V  []either `arrow:"v,elem=sparse_union"`
	}
	at := time.Date(2026, 12, 6, 1, 2, 3, 4000, time.UTC)
	half := float16.New(1.5)
	rows := []row{{ID: 1, V: []either{{H: &half}, {T: &at}}}, {ID: 2}}
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "variants", Mode: duckdb.Create}, rows)
	require.NoError(t, err)

	var typ string
	require.NoError(t, db.QueryRow("SELECT data_type FROM information_schema.columns WHERE table_name = 'variants' AND column_name = 'v'").Scan(&typ))
	assert.Equal(t, "UNION(h FLOAT, t TIMESTAMP WITH TIME ZONE)[]", typ)
	var h float32
	var ts time.Time
	require.NoError(t, db.QueryRow("SELECT v[1].h, v[2].t FROM variants WHERE id = 1").Scan(&h, &ts))
	assert.Equal(t, float32(1.5), h)
	assert.True(t, at.Equal(ts), "%s is not %s", ts, at)

	late := at.Add(5) // 4,005 ns: not whole microseconds
	rows[0].V[1].T = &late
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "variants"}, rows)
	require.Error(t, err, "nanoseconds DuckDB would truncate")
	assert.Contains(t, err.Error(), "microseconds")
}

// A dense union goes through the Appender into the table a sparse union's
// CREATE makes: its variants of the same types.
func TestADenseUnionsVariantsAreCarriedIntoTheTableItCreates(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type either struct {
		H *float16.Num `arrow:"h"`
		S *string      `arrow:"s"`
	}
	type row struct {
		V either `arrow:"v,dense_union"`
	}
	half, word := float16.New(-2.25), "two"
	rows := []row{{V: either{H: &half}}, {V: either{S: &word}}}
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "dense_variants", Mode: duckdb.Create}, rows)
	require.NoError(t, err)
	var typ string
	require.NoError(t, db.QueryRow("SELECT data_type FROM information_schema.columns WHERE table_name = 'dense_variants'").Scan(&typ))
	assert.Equal(t, "UNION(h FLOAT, s VARCHAR)", typ)
	var h float32
	require.NoError(t, db.QueryRow("SELECT v.h FROM dense_variants WHERE v.h IS NOT NULL").Scan(&h))
	assert.Equal(t, float32(-2.25), h)
}
