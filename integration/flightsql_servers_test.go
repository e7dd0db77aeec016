package integration

import (
	"context"
	"database/sql"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// The servers the Flight SQL tests talk to, in-process on 127.0.0.1: arrow-go's
// SQLite example server (as startSQLite starts it, with a checked
// allocator), the same with parameter schemas, and a server of our own for
// ingest, which the SQLite server does not implement.

// noGoroutineLeft fails the test if goroutines started during it are still
// running once its cleanups have run: it is registered first, so it runs
// last. gRPC's own goroutines take a moment to end after a Close, so it
// polls, on this goroutine (testify's Eventually polls on goroutines of its
// own, which it would count).
func noGoroutineLeft(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines before the test, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			}
		}
	})
}

// testContext is a context that ends with the test, or after a minute.
// serve serves srv on a free 127.0.0.1 port until the test ends, and
// returns its address.
func serve(t *testing.T, srv arrowflightsql.Server, mem memory.Allocator) string {
	t.Helper()
	s := flight.NewServerWithMiddleware(nil)
	s.RegisterFlightService(arrowflightsql.NewFlightServerWithAllocator(srv, mem))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s.InitListener(lis)
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	t.Cleanup(func() {
		s.Shutdown() // waits for the open streams: a leaked one hangs here
		require.NoError(t, <-served)
	})
	return lis.Addr().String()
}

// sqliteServer is arrow-go's SQLite example server over its own database,
// whose allocations a checked allocator counts.
type sqliteServer struct {
	*example.SQLiteFlightSQLServer
	db  *sql.DB
	mem *memory.CheckedAllocator
}

func newSQLiteServer(t *testing.T) *sqliteServer {
	t.Helper()
	srv := newUncheckedSQLiteServer(t)
	t.Cleanup(func() { srv.mem.AssertSize(t, 0) }) // runs after the server stops
	return srv
}

// newUncheckedSQLiteServer is newSQLiteServer without the check that the
// server frees all it allocates: for tests that abandon streams the server
// is still sending, after which arrow-go's server leaks, now and then, the
// record it was about to send (the client's memory is checked all the same).
func newUncheckedSQLiteServer(t *testing.T) *sqliteServer {
	t.Helper()
	db, err := example.CreateDB()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	srv, err := example.NewSQLiteFlightSQLServer(db)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	srv.Alloc = mem
	return &sqliteServer{SQLiteFlightSQLServer: srv, db: db, mem: mem}
}

// startSQLiteServer serves a new sqliteServer.
func startSQLiteServer(t *testing.T) (*sqliteServer, string) {
	t.Helper()
	srv := newSQLiteServer(t)
	return srv, serve(t, srv, srv.mem)
}

// paramsServer is the SQLite server, giving the parameter schema it is told
// to for a query: the example server gives none, as sql.DB knows none. It
// counts the statements open, to show that each is closed.
type paramsServer struct {
	*sqliteServer
	params map[string]*arrow.Schema
	mu     sync.Mutex
	open   int
	bound  int // parameter bindings received
}

func (s *paramsServer) DoPutPreparedStatementQuery(ctx context.Context, cmd arrowflightsql.PreparedStatementQuery, rdr flight.MessageReader, w flight.MetadataWriter) ([]byte, error) {
	s.mu.Lock()
	s.bound++
	s.mu.Unlock()
	return s.SQLiteFlightSQLServer.DoPutPreparedStatementQuery(ctx, cmd, rdr, w)
}

func (s *paramsServer) binds() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bound
}

func (s *paramsServer) CreatePreparedStatement(ctx context.Context, req arrowflightsql.ActionCreatePreparedStatementRequest) (arrowflightsql.ActionCreatePreparedStatementResult, error) {
	res, err := s.SQLiteFlightSQLServer.CreatePreparedStatement(ctx, req)
	if err == nil {
		res.ParameterSchema = s.params[req.GetQuery()]
		s.mu.Lock()
		s.open++
		s.mu.Unlock()
	}
	return res, err
}

func (s *paramsServer) ClosePreparedStatement(ctx context.Context, req arrowflightsql.ActionClosePreparedStatementRequest) error {
	err := s.SQLiteFlightSQLServer.ClosePreparedStatement(ctx, req)
	if err == nil {
		s.mu.Lock()
		s.open--
		s.mu.Unlock()
	}
	return err
}

func (s *paramsServer) openStatements() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// startParamsServer serves a paramsServer with the parameter schemas of
// params, by query.
func startParamsServer(t *testing.T, params map[string]*arrow.Schema) (*paramsServer, string) {
	t.Helper()
	srv := &paramsServer{sqliteServer: newSQLiteServer(t), params: params}
	return srv, serve(t, srv, srv.mem)
}

// connect is a Conn to the server at addr, closed when the test ends, whose
// client encodes and whose reads allocate with mem.
func connect(t *testing.T, addr string, mem memory.Allocator) amflightsql.Conn {
	t.Helper()
	client, err := arrowflightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, client.Close()) })
	client.Alloc = mem
	return amflightsql.Conn{Client: client} // client.Alloc allocates every read too
}

// exec runs statements on the server through Flight SQL's ExecuteUpdate.
func exec(t *testing.T, c amflightsql.Conn, statements ...string) {
	t.Helper()
	for _, s := range statements {
		_, err := c.Client.ExecuteUpdate(testContext(t), s)
		require.NoError(t, err, s)
	}
}

// ingestCall is one ExecuteIngest an ingestServer received: its command
// and the records of its stream.
type ingestCall struct {
	Table, Schema, Catalog string
	HasSchema, HasCatalog  bool
	Temporary              bool
	Transaction            []byte
	Options                map[string]string
	IfNotExist             arrowflightsql.TableDefinitionOptionsTableNotExistOption
	IfExists               arrowflightsql.TableDefinitionOptionsTableExistsOption
	Records                []arrow.RecordBatch
}

// ingestServer is a Flight SQL server of its own that keeps what every
// ExecuteIngest sends it, and serves a table's records back to a query of
// "SELECT * FROM <table>". It fails an ingest into a table named "refused"
// after keeping its first record, as a server that ingests without a
// transaction would.
type ingestServer struct {
	arrowflightsql.BaseServer
	mu    sync.Mutex
	calls []*ingestCall
	// aborted counts the ingest streams that ended in an error, not at
	// their end.
	aborted int
}

func (s *ingestServer) DoPutCommandStatementIngest(ctx context.Context, cmd arrowflightsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	call := &ingestCall{Table: cmd.GetTable(), Schema: cmd.GetSchema(), Catalog: cmd.GetCatalog(),
		Temporary: cmd.GetTemporary(), Transaction: cmd.GetTransactionId(), Options: cmd.GetOptions()}
	if ingest, ok := cmd.(*pb.CommandStatementIngest); ok {
		call.HasSchema, call.HasCatalog = ingest.Schema != nil, ingest.Catalog != nil
	}
	if opts := cmd.GetTableDefinitionOptions(); opts != nil {
		call.IfNotExist, call.IfExists = opts.IfNotExist, opts.IfExists
	}
	var n int64
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rec.Retain()
		call.Records = append(call.Records, rec)
		n += rec.NumRows()
		if call.Table == "refused" {
			break
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call)
	if err := rdr.Err(); err != nil {
		s.aborted++
		return n, err
	}
	if call.Table == "refused" {
		return n, status.Error(codes.ResourceExhausted, "the table is full")
	}
	return n, nil
}

// GetFlightInfoStatement answers "SELECT * FROM <table>" with one endpoint
// whose ticket is the table's name.
func (s *ingestServer) GetFlightInfoStatement(_ context.Context, cmd arrowflightsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	const prefix = "SELECT * FROM "
	q := cmd.GetQuery()
	if len(q) <= len(prefix) || q[:len(prefix)] != prefix {
		return nil, status.Errorf(codes.InvalidArgument, "this server answers %q only", prefix+"<table>")
	}
	tkt, err := arrowflightsql.CreateStatementQueryTicket([]byte(q[len(prefix):]))
	if err != nil {
		return nil, err
	}
	return &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: tkt}}},
		FlightDescriptor: desc, TotalRecords: -1, TotalBytes: -1}, nil
}

// DoGetStatement streams the records of the last ingest into the table.
func (s *ingestServer) DoGetStatement(_ context.Context, tkt arrowflightsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	table := string(tkt.GetStatementHandle())
	s.mu.Lock()
	var last *ingestCall
	for _, c := range s.calls {
		if c.Table == table {
			last = c
		}
	}
	s.mu.Unlock()
	if last == nil || len(last.Records) == 0 {
		return nil, nil, status.Errorf(codes.NotFound, "no table %q", table)
	}
	ch := make(chan flight.StreamChunk, len(last.Records))
	for _, rec := range last.Records {
		rec.Retain() // the stream releases what it sends
		ch <- flight.StreamChunk{Data: rec}
	}
	close(ch)
	return last.Records[0].Schema(), ch, nil
}

func (s *ingestServer) release() {
	for _, c := range s.calls {
		for _, rec := range c.Records {
			rec.Release()
		}
	}
}

// startIngestServer serves a new ingestServer, whose records a checked
// allocator counts.
func startIngestServer(t *testing.T) (*ingestServer, string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	srv := &ingestServer{}
	srv.Alloc = mem
	t.Cleanup(srv.release) // after the server has stopped
	return srv, serve(t, srv, mem)
}
