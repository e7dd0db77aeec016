package integration

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// serve serves srv's Flight SQL service on a free 127.0.0.1 port until
// the test ends, and returns its address.
// countingSQLite is arrow-go's SQLite Flight SQL example server counting
// the prepared statements open on it, so that a test sees every statement
// it prepared closed again.
type countingSQLite struct {
	*example.SQLiteFlightSQLServer
	open atomic.Int64
}

func (s *countingSQLite) CreatePreparedStatement(ctx context.Context, req arrowflightsql.ActionCreatePreparedStatementRequest) (arrowflightsql.ActionCreatePreparedStatementResult, error) {
	res, err := s.SQLiteFlightSQLServer.CreatePreparedStatement(ctx, req)
	if err == nil {
		s.open.Add(1)
	}
	return res, err
}

func (s *countingSQLite) ClosePreparedStatement(ctx context.Context, req arrowflightsql.ActionClosePreparedStatementRequest) error {
	err := s.SQLiteFlightSQLServer.ClosePreparedStatement(ctx, req)
	if err == nil {
		s.open.Add(-1)
	}
	return err
}

// startCountingSQLite is startSQLite (server_test.go) with the prepared
// statements counted: it returns the server's address and the server.
func startCountingSQLite(t *testing.T) (string, *countingSQLite) {
	t.Helper()
	db, err := example.CreateDB()
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	inner, err := example.NewSQLiteFlightSQLServer(db)
	require.NoError(t, err)
	inner.Alloc = memory.DefaultAllocator
	srv := &countingSQLite{SQLiteFlightSQLServer: inner}
	return serve(t, srv, memory.DefaultAllocator), srv
}

// recordingServer is a small Flight SQL server that keeps what it is sent.
// Ingest stores the records of each call. A prepared statement takes the
// parameter schema the test gave its query (none when it gave none), and
// its result is the parameters bound to it, echoed back as they came.
type recordingServer struct {
	arrowflightsql.BaseServer

	mu           sync.Mutex
	paramSchemas map[string]*arrow.Schema // by query
	ingests      []recordedIngest
	prepared     map[string]*preparedCall // by handle
	nextHandle   int
	bindings     int // DoPutPreparedStatementQuery calls
}

// recordedIngest is one DoPutCommandStatementIngest: its command and records.
type recordedIngest struct {
	table   string
	options *arrowflightsql.TableDefinitionOptions
	records []arrow.RecordBatch
}

type preparedCall struct {
	query  string
	schema *arrow.Schema // of the parameters bound, nil before any
	params []arrow.RecordBatch
}

// startRecording starts a recordingServer until the test ends, which then
// releases every record it holds; paramSchemas are the parameter schemas of
// the queries that have one.
func startRecording(t *testing.T, paramSchemas map[string]*arrow.Schema) (string, *recordingServer) {
	t.Helper()
	srv := &recordingServer{paramSchemas: paramSchemas, prepared: map[string]*preparedCall{}}
	srv.Alloc = memory.DefaultAllocator
	addr := serve(t, srv, memory.DefaultAllocator)
	t.Cleanup(srv.release)
	return addr, srv
}

func (s *recordingServer) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.ingests {
		releaseAll(c.records)
	}
	for _, p := range s.prepared {
		releaseAll(p.params)
	}
	s.ingests, s.prepared = nil, nil
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

// readAll retains every record of rdr.
func readMessages(rdr flight.MessageReader) ([]arrow.RecordBatch, error) {
	var recs []arrow.RecordBatch
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rdr.Err(); err != nil {
		releaseAll(recs)
		return nil, err
	}
	return recs, nil
}

func (s *recordingServer) DoPutCommandStatementIngest(_ context.Context, cmd arrowflightsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	recs, err := readMessages(rdr)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, rec := range recs {
		n += rec.NumRows()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ingests = append(s.ingests, recordedIngest{table: cmd.GetTable(), options: cmd.GetTableDefinitionOptions(), records: recs})
	return n, nil
}

// ingested is what the server holds of its ingest calls.
func (s *recordingServer) ingested() []recordedIngest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recordedIngest(nil), s.ingests...)
}

func (s *recordingServer) CreatePreparedStatement(_ context.Context, req arrowflightsql.ActionCreatePreparedStatementRequest) (arrowflightsql.ActionCreatePreparedStatementResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextHandle++
	handle := fmt.Sprint(s.nextHandle)
	s.prepared[handle] = &preparedCall{query: req.GetQuery()}
	return arrowflightsql.ActionCreatePreparedStatementResult{Handle: []byte(handle), ParameterSchema: s.paramSchemas[req.GetQuery()]}, nil
}

func (s *recordingServer) ClosePreparedStatement(_ context.Context, req arrowflightsql.ActionClosePreparedStatementRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prepared[string(req.GetPreparedStatementHandle())]
	if !ok {
		return fmt.Errorf("no prepared statement %q", req.GetPreparedStatementHandle())
	}
	releaseAll(p.params)
	delete(s.prepared, string(req.GetPreparedStatementHandle()))
	return nil
}

// openStatements is how many prepared statements are not closed.
func (s *recordingServer) openStatements() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.prepared)
}

// bindCalls is how many times parameters were bound.
func (s *recordingServer) bindCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bindings
}

func (s *recordingServer) DoPutPreparedStatementQuery(_ context.Context, cmd arrowflightsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) ([]byte, error) {
	schema := rdr.Schema()
	recs, err := readMessages(rdr)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bindings++
	p, ok := s.prepared[string(cmd.GetPreparedStatementHandle())]
	if !ok {
		releaseAll(recs)
		return nil, fmt.Errorf("no prepared statement %q", cmd.GetPreparedStatementHandle())
	}
	releaseAll(p.params)
	p.schema, p.params = schema, recs
	return cmd.GetPreparedStatementHandle(), nil
}

func (s *recordingServer) GetFlightInfoPreparedStatement(_ context.Context, _ arrowflightsql.PreparedStatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return &flight.FlightInfo{
		Endpoint:         []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: desc.Cmd}}},
		FlightDescriptor: desc,
		TotalRecords:     -1,
		TotalBytes:       -1,
	}, nil
}

func (s *recordingServer) DoGetPreparedStatement(_ context.Context, cmd arrowflightsql.PreparedStatementQuery) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.prepared[string(cmd.GetPreparedStatementHandle())]
	if !ok || p.schema == nil {
		return nil, nil, fmt.Errorf("no parameters bound to prepared statement %q", cmd.GetPreparedStatementHandle())
	}
	ch := make(chan flight.StreamChunk, len(p.params))
	for _, rec := range p.params {
		rec.Retain() // the Flight SQL server releases each chunk it sends
		ch <- flight.StreamChunk{Data: rec}
	}
	close(ch)
	return p.schema, ch, nil
}
