package integration

import (
	"cmp"
	"context"
	"errors"
	"io"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// placement is one way a query's endpoints live across the cluster, and
// where each must then have been read.
type placement struct {
	name       string
	endpoints  int
	listeners  int
	place      func(k int, shards []string, refused string) []string
	servedAt   func(c *cluster) map[*listener][]int // every listener that serves an endpoint
	dialedOnce bool                                 // each listener holding an endpoint is dialed exactly once
}

// placements are the layouts both flightsql.Query and adbc.Query must read
// every row of, exactly once, each endpoint at a location it names.
var placements = []placement{
	{
		name: "N endpoints on N ports give every row exactly once", endpoints: 5, listeners: 5,
		place:      atShard,
		servedAt:   eachAtItsShard,
		dialedOnce: true,
	},
	{
		name: "a refused first location falls back to the second", endpoints: 3, listeners: 3,
		place: func(k int, shards []string, refused string) []string {
			return []string{refused, shards[k]}
		},
		servedAt:   eachAtItsShard,
		dialedOnce: true,
	},
	{
		name: "endpoints at one location share one connection", endpoints: 6, listeners: 2,
		place: atShard,
		servedAt: func(c *cluster) map[*listener][]int {
			return map[*listener][]int{c.shards[0]: {0, 2, 4}, c.shards[1]: {1, 3, 5}}
		},
		dialedOnce: true,
	},
	{
		name: "endpoints that name no location are read from the server the info came from", endpoints: 3,
		place: func(int, []string, string) []string { return nil },
		servedAt: func(c *cluster) map[*listener][]int {
			return map[*listener][]int{c.front: {0, 1, 2}}
		},
	},
	{
		name: "the reuse-connection location is read from the server the info came from", endpoints: 3,
		place: func(int, []string, string) []string { return []string{flight.LocationReuseConnection} },
		servedAt: func(c *cluster) map[*listener][]int {
			return map[*listener][]int{c.front: {0, 1, 2}}
		},
	},
	{
		name: "endpoints here and elsewhere are each read where they live", endpoints: 4, listeners: 1,
		place: func(k int, shards []string, _ string) []string {
			if k%2 == 0 {
				return nil
			}
			return []string{shards[0]}
		},
		servedAt: func(c *cluster) map[*listener][]int {
			return map[*listener][]int{c.front: {0, 2}, c.shards[0]: {1, 3}}
		},
		dialedOnce: true,
	},
}

func eachAtItsShard(c *cluster) map[*listener][]int {
	m := map[*listener][]int{}
	for k, s := range c.shards {
		m[s] = []int{k}
	}
	return m
}

// assertServed checks that every endpoint was read once, where want says.
func assertServed(t *testing.T, c *cluster, want map[*listener][]int) {
	t.Helper()
	for _, l := range append([]*listener{c.front}, c.shards...) {
		assert.Equal(t, want[l], nilIfEmpty(l.Served()), "endpoints served at %s", l.uri)
	}
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

// byID is rows sorted by ID: the order of an unordered result is not set.
func byID(rows []shardRow) []shardRow {
	return slices.SortedFunc(slices.Values(rows), func(a, b shardRow) int { return cmp.Compare(a.ID, b.ID) })
}

func TestQueryReadsEveryEndpointWhereItLives(t *testing.T) {
	const rows = 700
	for _, tc := range placements {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			c := startCluster(t, clusterConfig{Endpoints: tc.endpoints, Rows: rows, Batch: 300, Listeners: tc.listeners, Place: tc.place})
			cl := c.frontClient(t)
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			var d dialer
			base := runtime.NumGoroutine()

			r, err := amflightsql.Query[shardRow](ctx, amflightsql.Conn{Client: cl, Source: amflight.Source{Dial: d.Dial}}, shardQuery, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			r.Release()

			assert.Equal(t, wantShardRows(tc.endpoints, rows), byID(got))
			assertServed(t, c, tc.servedAt(c))
			if tc.dialedOnce {
				for l := range tc.servedAt(c) {
					if l == c.front {
						continue // read through the Conn's own client
					}
					assert.Equal(t, 1, d.Dials()[l.uri], "dials of %s: pooled by URI for one read", l.uri)
				}
			} else {
				assert.Empty(t, d.Dials(), "nothing to dial: every endpoint is at the server the info came from")
			}
			assert.Zero(t, d.open.Load(), "clients the read dialed and did not close")
			mem.AssertSize(t, 0)
			requireGoroutinesBack(t, base)
		})
	}
}

func TestQueryKeepsEndpointOrderWhenTheInfoIsOrdered(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const endpoints, rows = 4, 500
	// Later endpoints are faster: a reader that yields records as they
	// come gets endpoint 3 first.
	c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Batch: 200, Listeners: endpoints, Ordered: true,
		Place: atShard, Hold: func(k int) time.Duration { return time.Duration(endpoints-1-k) * 150 * time.Millisecond }})
	cl := c.frontClient(t)
	var d dialer
	base := runtime.NumGoroutine()

	r, err := amflightsql.Query[shardRow](ctx, amflightsql.Conn{Client: cl, Source: amflight.Source{Dial: d.Dial}}, shardQuery)
	require.NoError(t, err)
	var got []shardRow
	for row, err := range r.All() {
		require.NoError(t, err)
		got = append(got, row)
	}
	r.Release()

	assert.Equal(t, wantShardRows(endpoints, rows), got, "rows in endpoint order, each endpoint's in its order")
	assert.Equal(t, []int{3, 2, 1, 0}, c.Finished(), "the endpoints are read at once, so the later, faster ones end first")
	assert.Zero(t, d.open.Load())
	requireGoroutinesBack(t, base)
}

func TestQueryReadsAtMostStreamsEndpointsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		streams int
		want    int
	}{
		{name: "Streams 2 reads two endpoints at once", streams: 2, want: 2},
		{name: "Streams 0 reads DefaultStreams endpoints at once", streams: 0, want: amflight.DefaultStreams},
		{name: "Streams 1 reads one endpoint at a time", streams: 1, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			const endpoints, rows = 6, 100
			// Each stream stays open long enough for the others to start.
			c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Listeners: 3, Place: atShard,
				Hold: func(int) time.Duration { return 100 * time.Millisecond }})
			cl := c.frontClient(t)
			var d dialer

			r, err := amflightsql.Query[shardRow](ctx, amflightsql.Conn{Client: cl, Source: amflight.Source{Dial: d.Dial, Streams: tc.streams}}, shardQuery)
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			r.Release()

			assert.Equal(t, wantShardRows(endpoints, rows), byID(got))
			assert.Equal(t, int64(tc.want), c.maxActive.Load(), "streams open at once, at most")
		})
	}
}

// wrongID has the column id as a string: a schema that does not match.
type wrongID struct {
	ID   string `arrow:"id"`
	Name string `arrow:"name"`
}

// noSuchColumn wants a column the result does not have.
type noSuchColumn struct {
	ID    int64 `arrow:"id"`
	Price int64 `arrow:"price"`
}

func TestQueryErrors(t *testing.T) {
	const endpoints, rows = 4, 400
	for _, tc := range []struct {
		name  string
		cfg   clusterConfig
		query func(ctx context.Context, conn amflightsql.Conn) error
		check func(t *testing.T, err error, c *cluster, d *dialer)
	}{
		{
			name: "an endpoint whose every location is refused is an error, not a hang",
			cfg: clusterConfig{Place: func(k int, shards []string, refused string) []string {
				if k == 2 {
					return []string{refused}
				}
				return []string{shards[k]}
			}},
			query: readAll[shardRow](shardQuery),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				require.Error(t, err)
				assert.NotErrorIs(t, err, io.EOF)
				assert.Positive(t, d.Dials()[c.refused], "the refused location was never tried")
			},
		},
		{
			name:  "an endpoint that breaks mid-stream ends reading with its error",
			cfg:   clusterConfig{Place: atShard, Batch: 100, BreakAfter: map[int]int{1: 2}},
			query: readAll[shardRow](shardQuery),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				require.ErrorContains(t, err, "endpoint 1 broke")
				assert.NotErrorIs(t, err, io.EOF)
			},
		},
		{
			name:  "an endpoint that breaks before its first record ends reading with its error",
			cfg:   clusterConfig{Place: atShard, BreakAfter: map[int]int{3: 0}},
			query: readAll[shardRow](shardQuery),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				require.ErrorContains(t, err, "endpoint 3 broke")
			},
		},
		{
			name:  "a column of the wrong type is refused before any row, naming the field and the column",
			cfg:   clusterConfig{Place: atShard},
			query: newReader[wrongID](shardQuery),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
				assert.Equal(t, "ID", me.Path)
				assert.Equal(t, "id", me.Column)
			},
		},
		{
			name:  "a missing column is refused before any row, naming the field",
			cfg:   clusterConfig{Place: atShard},
			query: newReader[noSuchColumn](shardQuery),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.ErrorIs(t, err, mapper.ErrMissingColumn)
				assert.Equal(t, "Price", me.Path)
			},
		},
		{
			name:  "a query the server refuses is its error",
			cfg:   clusterConfig{Place: atShard},
			query: newReader[shardRow]("SELECT * FROM nowhere"),
			check: func(t *testing.T, err error, c *cluster, d *dialer) {
				require.ErrorContains(t, err, "unknown query")
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			cfg := tc.cfg
			cfg.Endpoints, cfg.Rows, cfg.Listeners = endpoints, rows, endpoints
			c := startCluster(t, cfg)
			cl := c.frontClient(t)
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			var d dialer
			base := runtime.NumGoroutine()

			cl.Alloc = mem // the allocator of every read through the Conn
			err := tc.query(ctx, amflightsql.Conn{Client: cl, Source: amflight.Source{Dial: d.Dial}})
			tc.check(t, err, c, &d)
			require.NoError(t, ctx.Err(), "the error came from the timeout, not the read")
			assert.Zero(t, d.open.Load(), "clients the read dialed and did not close")
			mem.AssertSize(t, 0)
			requireGoroutinesBack(t, base)
		})
	}
}

// readAll runs query and reads it to its end, releasing the reader; the
// error is Query's or ReadAll's.
func readAll[T any](query string) func(ctx context.Context, conn amflightsql.Conn) error {
	return func(ctx context.Context, conn amflightsql.Conn) error {
		r, err := amflightsql.Query[T](ctx, conn, query)
		if err != nil {
			return err
		}
		defer r.Release()
		_, err = r.ReadAll()
		return err
	}
}

// newReader runs query and expects Query itself to fail, before any row:
// a reader returned is itself the failure.
func newReader[T any](query string) func(ctx context.Context, conn amflightsql.Conn) error {
	return func(ctx context.Context, conn amflightsql.Conn) error {
		r, err := amflightsql.Query[T](ctx, conn, query)
		if err == nil {
			r.Release()
			return errors.New("Query returned a reader")
		}
		return err
	}
}

func TestQueryReleasedBeforeTheEndStopsEveryStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	// Far more than gRPC's windows hold: the servers are still sending
	// when the reader is released.
	const endpoints, rows = 4, 1_000_000
	c := startCluster(t, clusterConfig{Endpoints: endpoints, Rows: rows, Batch: 20_000, Listeners: endpoints, Place: atShard})
	cl := c.frontClient(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	var d dialer
	base := runtime.NumGoroutine()

	r, err := amflightsql.Query[shardRow](ctx, amflightsql.Conn{Client: cl, Source: amflight.Source{Dial: d.Dial}}, shardQuery, mapper.Allocator(mem))
	require.NoError(t, err)
	buf := make([]shardRow, 10)
	n, err := r.Read(buf)
	require.NoError(t, err)
	require.Equal(t, 10, n)
	r.Release()

	_, err = r.Read(buf)
	require.ErrorIs(t, err, mapper.ErrClosed)
	assert.Eventually(t, func() bool { return c.active.Load() == 0 }, 10*time.Second, 10*time.Millisecond, "streams still sending after Release")
	assert.Less(t, len(c.Finished()), endpoints, "every stream was sent whole: the test released nothing early")
	assert.Zero(t, d.open.Load(), "clients the read dialed and did not close")
	mem.AssertSize(t, 0)
	requireGoroutinesBack(t, base)
}
