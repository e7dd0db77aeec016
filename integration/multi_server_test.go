package integration

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// shardRow is a row of the sharded query's result: ID is its place in the
// whole result, Endpoint the endpoint that sent it, Name a string so that
// every row carries bytes the reader must copy out of Arrow memory.
type shardRow struct {
	ID       int64  `arrow:"id"`
	Endpoint int32  `arrow:"endpoint"`
	Name     string `arrow:"name"`
}

var shardSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "endpoint", Type: arrow.PrimitiveTypes.Int32},
	{Name: "name", Type: arrow.BinaryTypes.String},
}, nil)

// shardQuery is the query a cluster answers unless told otherwise.
const shardQuery = "SELECT id, endpoint, name FROM shards"

// shardName is the name of row i.
func shardName(i int) string { return "row-" + strconv.Itoa(i) }

// wantShardRows is the whole result of a cluster of endpoints × rows, in
// endpoint order: the reference every reader is checked against.
func wantShardRows(endpoints, rows int) []shardRow {
	want := make([]shardRow, 0, endpoints*rows)
	for i := range endpoints * rows {
		want = append(want, shardRow{ID: int64(i), Endpoint: int32(i / rows), Name: shardName(i)})
	}
	return want
}

// clusterConfig says what a cluster's query returns and where its
// endpoints live.
type clusterConfig struct {
	Query     string // the one query the cluster answers; "" means shardQuery
	Endpoints int    // endpoints of the result
	Rows      int    // rows of each endpoint: endpoint k has rows [k*Rows, (k+1)*Rows)
	Batch     int    // rows of each record sent; 0 means Rows
	Listeners int    // flight servers besides the Flight SQL server itself
	Ordered   bool
	// Place names the locations of endpoint k, from the listeners' URIs and
	// the URI of a port nobody listens on; nil names none (the endpoint is
	// read from the Flight SQL server).
	Place func(k int, shards []string, refused string) []string
	// Hold, when set, is how long the stream of endpoint k stays open
	// before its first record.
	Hold func(k int) time.Duration
	// BreakAfter maps an endpoint to the records it sends before it fails.
	BreakAfter map[int]int
	// Schema and Records, when set, replace the shard rows: Records returns
	// new references to the records of endpoint k, which the server
	// releases as it sends them.
	Schema  *arrow.Schema
	Records func(k int) []arrow.RecordBatch
}

// atShard puts endpoint k at listener k (modulo the listeners).
func atShard(k int, shards []string, _ string) []string {
	return []string{shards[k%len(shards)]}
}

// cluster is a Flight SQL server whose one query's result is cut into
// endpoints that live at other flight servers (the listeners), each on
// its own 127.0.0.1 port. A server serves only the endpoints that name it
// (the Flight SQL server: those naming no location or the reuse-connection
// URI), so a reader that reads an endpoint anywhere else gets NotFound.
type cluster struct {
	cfg       clusterConfig
	mem       *memory.CheckedAllocator // the records the servers build
	front     *listener                // the Flight SQL server
	shards    []*listener
	refused   string     // URI of a closed port
	locations [][]string // per endpoint

	active, maxActive atomic.Int64 // streams open now, and at most

	mu       sync.Mutex
	finished []int // endpoints, in the order their streams sent their last record
}

// listener is one gRPC server of a cluster, and what it served.
type listener struct {
	uri    string
	mu     sync.Mutex
	served []int // endpoints, in the order their DoGet came
}

// Addr is the listener's host:port.
func (l *listener) Addr() string { return l.uri[len("grpc://"):] }

// Served is the endpoints the listener served, sorted.
func (l *listener) Served() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(slices.Values(l.served))
}

// startCluster starts the Flight SQL server and cfg.Listeners flight
// servers, stopped (and their records checked released) when the test
// ends.
func startCluster(t testing.TB, cfg clusterConfig) *cluster {
	t.Helper()
	if cfg.Batch == 0 {
		cfg.Batch = cfg.Rows
	}
	if cfg.Schema == nil {
		cfg.Schema = shardSchema
	}
	if cfg.Query == "" {
		cfg.Query = shardQuery
	}
	c := &cluster{cfg: cfg, mem: memory.NewCheckedAllocator(memory.DefaultAllocator)}
	// Registered first, so run last: after every server has stopped.
	t.Cleanup(func() { c.mem.AssertSize(t, 0) })

	c.front = c.serve(t)
	for range cfg.Listeners {
		c.shards = append(c.shards, c.serve(t))
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	c.refused = "grpc://" + lis.Addr().String()
	require.NoError(t, lis.Close())

	uris := make([]string, len(c.shards))
	for i, s := range c.shards {
		uris[i] = s.uri
	}
	for k := range cfg.Endpoints {
		var locs []string
		if cfg.Place != nil {
			locs = cfg.Place(k, uris, c.refused)
		}
		c.locations = append(c.locations, locs)
	}
	return c
}

// serve starts one gRPC server of the cluster on a free port.
func (c *cluster) serve(t testing.TB) *listener {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := &listener{uri: "grpc://" + lis.Addr().String()}
	gs := grpc.NewServer()
	srv := &shardServer{c: c, at: l}
	flight.RegisterFlightServiceServer(gs, &statementService{FlightServer: flightsql.NewFlightServer(srv), srv: srv})
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(func() {
		stopped := make(chan struct{})
		go func() {
			gs.GracefulStop()
			close(stopped)
		}()
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			gs.Stop()
			<-stopped
			t.Errorf("%s still had streams open 5s after the test", l.uri)
		}
	})
	return l
}

// Listener is the server at uri, or nil.
func (c *cluster) Listener(uri string) *listener {
	for _, l := range append([]*listener{c.front}, c.shards...) {
		if l.uri == uri {
			return l
		}
	}
	return nil
}

// Finished is the endpoints in the order their streams sent their last
// record.
func (c *cluster) Finished() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.finished)
}

// lives says whether endpoint k is served at l.
func (c *cluster) lives(k int, l *listener) bool {
	locs := c.locations[k]
	if l == c.front && (len(locs) == 0 || slices.Contains(locs, flight.LocationReuseConnection)) {
		return true
	}
	return slices.Contains(locs, l.uri)
}

// Info is the FlightInfo of the query, as the Flight SQL server answers it.
func (c *cluster) Info() *flight.FlightInfo {
	info := &flight.FlightInfo{
		Schema:       flight.SerializeSchema(c.cfg.Schema, memory.DefaultAllocator),
		Ordered:      c.cfg.Ordered,
		TotalRecords: int64(c.cfg.Endpoints * c.cfg.Rows),
		TotalBytes:   -1,
	}
	for k, locs := range c.locations {
		ticket, err := flightsql.CreateStatementQueryTicket([]byte(strconv.Itoa(k)))
		if err != nil {
			panic(err) // a protobuf of one bytes field always marshals
		}
		ep := &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: ticket}}
		for _, uri := range locs {
			ep.Location = append(ep.Location, &flight.Location{Uri: uri})
		}
		info.Endpoint = append(info.Endpoint, ep)
	}
	return info
}

// records is what endpoint k sends, one record at a time, built as it is
// asked for so that a stream cut short builds no more than it sent; each
// record is a new reference. It returns nil after the last, and release
// releases those never asked for.
func (c *cluster) records(k int) (next func() arrow.RecordBatch, release func()) {
	if c.cfg.Records != nil {
		recs := c.cfg.Records(k)
		next = func() arrow.RecordBatch {
			if len(recs) == 0 {
				return nil
			}
			rec := recs[0]
			recs = recs[1:]
			return rec
		}
		return next, func() {
			for _, rec := range recs {
				rec.Release()
			}
		}
	}
	start, end := k*c.cfg.Rows, (k+1)*c.cfg.Rows
	next = func() arrow.RecordBatch {
		if start >= end {
			return nil
		}
		rec := shardRecord(c.mem, k, start, min(start+c.cfg.Batch, end))
		start += c.cfg.Batch
		return rec
	}
	return next, func() {}
}

// shardRecord is rows [start, end) of endpoint k.
func shardRecord(mem memory.Allocator, k, start, end int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, shardSchema)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	eps := b.Field(1).(*array.Int32Builder)
	names := b.Field(2).(*array.StringBuilder)
	for i := start; i < end; i++ {
		ids.Append(int64(i))
		eps.Append(int32(k))
		names.Append(shardName(i))
	}
	return b.NewRecordBatch()
}

// send streams the records of endpoint k into ch, and closes it.
func (c *cluster) send(ctx context.Context, k int, ch chan<- flight.StreamChunk) {
	defer close(ch)
	now := c.active.Add(1)
	defer c.active.Add(-1)
	for {
		most := c.maxActive.Load()
		if now <= most || c.maxActive.CompareAndSwap(most, now) {
			break
		}
	}
	if c.cfg.Hold != nil {
		select {
		case <-time.After(c.cfg.Hold(k)):
		case <-ctx.Done():
			return
		}
	}
	next, release := c.records(k)
	defer release()
	breakAfter, breaks := c.cfg.BreakAfter[k]
	for sent := 0; ; sent++ {
		if breaks && sent == breakAfter {
			select {
			case ch <- flight.StreamChunk{Err: status.Errorf(codes.Internal, "endpoint %d broke", k)}:
			case <-ctx.Done():
			}
			return
		}
		rec := next()
		if rec == nil {
			break
		}
		select {
		case ch <- flight.StreamChunk{Data: rec}: // the DoGet handler releases it
		case <-ctx.Done():
			rec.Release()
			return
		}
	}
	c.mu.Lock()
	c.finished = append(c.finished, k)
	c.mu.Unlock()
}

// shardServer is the Flight SQL service of one listener of a cluster.
type shardServer struct {
	flightsql.BaseServer
	c  *cluster
	at *listener
}

func (s *shardServer) GetFlightInfoStatement(_ context.Context, cmd flightsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	if s.at != s.c.front {
		return nil, status.Errorf(codes.Unimplemented, "%s only serves endpoints", s.at.uri)
	}
	if cmd.GetQuery() != s.c.cfg.Query {
		return nil, status.Errorf(codes.InvalidArgument, "unknown query %q", cmd.GetQuery())
	}
	info := s.c.Info()
	info.FlightDescriptor = desc
	return info, nil
}

func (s *shardServer) DoGetStatement(ctx context.Context, ticket flightsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	k, err := strconv.Atoi(string(ticket.GetStatementHandle()))
	if err != nil || k < 0 || k >= s.c.cfg.Endpoints {
		return nil, nil, status.Errorf(codes.NotFound, "no endpoint %q", ticket.GetStatementHandle())
	}
	if !s.c.lives(k, s.at) {
		return nil, nil, status.Errorf(codes.NotFound, "endpoint %d does not live at %s", k, s.at.uri)
	}
	s.at.mu.Lock()
	s.at.served = append(s.at.served, k)
	s.at.mu.Unlock()
	ch := make(chan flight.StreamChunk)
	go s.c.send(ctx, k, ch)
	return s.c.cfg.Schema, ch, nil
}

// statementService is arrow-go's Flight SQL service but for the DoGet of
// a statement ticket, which it sends itself: arrow-go's DoGet does not
// release the record it fails to write (a stream the client cancelled),
// which the cluster's CheckedAllocator would count as a leak of ours.
type statementService struct {
	flight.FlightServer
	srv *shardServer
}

func (s *statementService) DoGet(tkt *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	cmd, err := flightsql.GetStatementQueryTicket(tkt)
	if err != nil {
		return s.FlightServer.DoGet(tkt, stream) // not a statement: SqlInfo and the like
	}
	schema, chunks, err := s.srv.DoGetStatement(stream.Context(), cmd)
	if err != nil {
		return err
	}
	defer func() {
		for chunk := range chunks {
			if chunk.Data != nil {
				chunk.Data.Release()
			}
		}
	}()
	wr := flight.NewRecordWriter(stream, ipc.WithSchema(schema))
	defer wr.Close()
	for chunk := range chunks {
		if chunk.Err != nil {
			return chunk.Err
		}
		err := wr.Write(chunk.Data)
		chunk.Data.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// frontClient is a Flight SQL client of the cluster's Flight SQL server,
// closed when the test ends, after one call so that its connection is up
// before a test counts goroutines.
func (c *cluster) frontClient(t testing.TB) *flightsql.Client {
	t.Helper()
	cl, err := flightsql.NewClient(c.front.Addr(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = cl.Close() })
	_, err = cl.Execute(t.Context(), c.cfg.Query)
	require.NoError(t, err)
	return cl
}

// dialer dials grpc:// locations without TLS, counting the dials of each
// URI and the clients not closed yet.
type dialer struct {
	mu    sync.Mutex
	dials map[string]int
	open  atomic.Int64
}

// Dial is an amflight.Dialer.
func (d *dialer) Dial(ctx context.Context, uri string) (flight.Client, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "grpc" && u.Scheme != "grpc+tcp" {
		return nil, fmt.Errorf("dialer: no TLS here, and %q is not grpc://", uri)
	}
	d.mu.Lock()
	if d.dials == nil {
		d.dials = map[string]int{}
	}
	d.dials[uri]++
	d.mu.Unlock()
	cl, err := flight.NewClientWithMiddlewareCtx(ctx, u.Host, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	d.open.Add(1)
	return &countedClient{Client: cl, open: &d.open}, nil
}

// Dials is how many times each URI was dialed.
func (d *dialer) Dials() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.dials)
}

var _ flight.Client = (*countedClient)(nil)

// countedClient is a flight client whose first Close is counted.
type countedClient struct {
	flight.Client
	open   *atomic.Int64
	closed atomic.Bool
}

func (c *countedClient) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.open.Add(-1)
	}
	return c.Client.Close()
}

// requireGoroutinesBack waits until no more goroutines run than base,
// allowing gRPC's own to wind down, and dumps them all if they do not. It
// polls by itself: assert.Eventually runs its condition on a goroutine of
// its own, which the count would see.
func requireGoroutinesBack(t testing.TB, base int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > base; {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines did not come back to %d: %d running:\n%s", base, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
