package integration

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// These tests check the test server itself, through clients that exist
// already (arrow-go's flight client with amflight.Stream, ADBC's driver
// with mapper.NewReader), so that a failure of the multi_query tests is
// the reader's and not the server's.

func TestTheClusterServesEachEndpointOnlyAtItsLocations(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const endpoints, rows = 3, 250
	c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Batch: 100, Listeners: endpoints,
		Place: func(k int, shards []string, refused string) []string { return []string{refused, shards[k]} }})
	cl := c.frontClient(t)
	info, err := cl.Execute(ctx, shardQuery)
	require.NoError(t, err)
	require.Len(t, info.Endpoint, endpoints)

	var d dialer
	var got []shardRow
	for k, ep := range info.Endpoint {
		require.Len(t, ep.Location, 2)
		assert.Equal(t, c.refused, ep.Location[0].Uri)
		at, err := d.Dial(ctx, ep.Location[1].Uri)
		require.NoError(t, err)

		r, err := amflight.Stream[shardRow](ctx, at, ep.Ticket)
		require.NoError(t, err)
		part, err := r.ReadAll()
		require.NoError(t, err)
		r.Release()
		got = append(got, part...)

		// The server the info came from does not serve it: reading it
		// there is NotFound, so a reader that ignores locations fails.
		_, err = amflight.Stream[shardRow](ctx, cl.Client, ep.Ticket)
		require.Error(t, err)
		assert.Equal(t, codes.NotFound, status.Code(err), "endpoint %d at the Flight SQL server: %v", k, err)
		require.NoError(t, at.Close())
	}
	assert.Equal(t, wantShardRows(endpoints, rows), got)
	for k := range endpoints {
		assert.Equal(t, []int{k}, c.shards[k].Served(), "listener %d", k)
	}
	assert.Empty(t, c.front.Served())
	assert.Zero(t, d.open.Load())
}

func TestTheClusterServesADBCsDriver(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const endpoints, rows = 4, 300
	skipRacyADBC(t, endpoints)
	c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Batch: 128, Listeners: 2,
		Place: func(k int, shards []string, refused string) []string { return []string{refused, shards[k%2]} }})
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	base := runtime.NumGoroutine()
	cnxn, closeADBC := openADBC(t, ctx, c, mem)
	stmt, err := cnxn.NewStatement()
	require.NoError(t, err)
	require.NoError(t, stmt.SetSqlQuery(shardQuery))
	rr, _, err := stmt.ExecuteQuery(ctx)
	require.NoError(t, err)
	r, err := mapper.NewReader[shardRow](rr)
	rr.Release()
	require.NoError(t, err)
	got, err := r.ReadAll()
	r.Release()
	require.NoError(t, err)
	require.NoError(t, stmt.Close())
	closeADBC()
	assert.Equal(t, wantShardRows(endpoints, rows), got) // ADBC's reader keeps endpoint order
	assert.Equal(t, []int{0, 2}, c.shards[0].Served())
	assert.Equal(t, []int{1, 3}, c.shards[1].Served())
	mem.AssertSize(t, 0)
	requireGoroutinesBack(t, base)
}

func TestTheClusterAnswersOnlyItsQuery(t *testing.T) {
	c := startCluster(t, clusterConfig{Endpoints: 1, Rows: 1})
	_, err := c.frontClient(t).Execute(t.Context(), "SELECT 1")
	require.Error(t, err)
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
}
