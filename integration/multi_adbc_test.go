package integration

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	adbcflightsql "github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amadbc "github.com/arrowmap/arrowmap/adbc"
	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skipRacyADBC skips a test that reads several endpoints through ADBC's
// Flight SQL driver under the race detector: in ADBC v1.9.0 the goroutines
// of its record reader (driver/flightsql/record_reader.go, newRecordReader)
// all write the one header and trailer metadata.MD they share through
// grpc.Header and grpc.Trailer, a race of ADBC's own that -race reports
// whenever two endpoints are read at once.
func skipRacyADBC(t *testing.T, endpoints int) {
	t.Helper()
	if endpoints > 1 {
		racetest.Skip(t, "ADBC v1.9.0's Flight SQL record reader races on the header/trailer metadata its endpoint goroutines share")
	}
}

// openADBC opens a connection of ADBC's Flight SQL driver to the
// cluster's Flight SQL server; close closes it and its database.
func openADBC(t *testing.T, ctx context.Context, c *cluster, mem memory.Allocator) (cnxn adbc.Connection, close func()) {
	t.Helper()
	db, err := adbcflightsql.NewDriver(mem).NewDatabase(map[string]string{adbc.OptionKeyURI: c.front.uri})
	require.NoError(t, err)
	cnxn, err = db.Open(ctx)
	if err != nil {
		_ = db.Close()
		require.NoError(t, err)
	}
	return cnxn, func() {
		assert.NoError(t, cnxn.Close())
		assert.NoError(t, db.Close())
	}
}

// TestADBCQueryReadsEveryEndpointWhereItLives runs the placements of
// TestQueryReadsEveryEndpointWhereItLives through adbc.Query and ADBC's
// Flight SQL driver, which dials the locations itself.
func TestADBCQueryReadsEveryEndpointWhereItLives(t *testing.T) {
	const rows = 700
	for _, tc := range placements {
		t.Run(tc.name, func(t *testing.T) {
			skipRacyADBC(t, tc.endpoints)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			c := startCluster(t, clusterConfig{Endpoints: tc.endpoints, Rows: rows, Batch: 300, Listeners: tc.listeners, Place: tc.place})
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			base := runtime.NumGoroutine()
			cnxn, closeADBC := openADBC(t, ctx, c, mem)

			r, err := amadbc.Query[shardRow](ctx, cnxn, shardQuery)
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			r.Release()
			closeADBC()

			// ADBC's driver reads the endpoints in order.
			assert.Equal(t, wantShardRows(tc.endpoints, rows), got)
			assertServed(t, c, tc.servedAt(c))
			mem.AssertSize(t, 0)
			requireGoroutinesBack(t, base)
		})
	}
}

func TestADBCQueryKeepsEndpointOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const endpoints, rows = 4, 500
	skipRacyADBC(t, endpoints)
	c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Batch: 200, Listeners: endpoints, Ordered: true,
		Place: atShard, Hold: func(k int) time.Duration { return time.Duration(endpoints-1-k) * 150 * time.Millisecond }})
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	cnxn, closeADBC := openADBC(t, ctx, c, mem)
	defer closeADBC()

	r, err := amadbc.Query[shardRow](ctx, cnxn, shardQuery)
	require.NoError(t, err)
	defer r.Release()
	var got []shardRow
	for row, err := range r.All() {
		require.NoError(t, err)
		got = append(got, row)
	}
	assert.Equal(t, wantShardRows(endpoints, rows), got)
}

func TestADBCQueryRefusesASchemaThatDoesNotMatchBeforeAnyRow(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c := startCluster(t, clusterConfig{Endpoints: 1, Rows: 10, Listeners: 1, Place: atShard})
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	cnxn, closeADBC := openADBC(t, ctx, c, mem)

	r, err := amadbc.Query[wrongID](ctx, cnxn, shardQuery)
	if r != nil {
		r.Release()
	}
	closeADBC()
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
	assert.Equal(t, "ID", me.Path)
	assert.Equal(t, "id", me.Column)
	mem.AssertSize(t, 0)
}
