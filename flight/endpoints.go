package flight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/mapper"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Dialer opens a client for a location's URI ("grpc://host:port",
// "grpc+tls://host:port", …): the caller's TLS, auth headers and gRPC
// options go here.
type Dialer func(ctx context.Context, uri string) (flight.Client, error)

// Source says how the endpoints of a FlightInfo are read: where they live.
type Source struct {
	// Client reads the endpoints that name no location, or the
	// arrow-flight-reuse-connection://? URI: the server the FlightInfo came
	// from.
	Client flight.Client
	// Dial opens the other locations, trying an endpoint's locations in
	// order and going on to the next on a connection error. Connections are
	// pooled by URI for one read and closed when it ends.
	Dial Dialer
	// Streams bounds the endpoints read at once; 0 means DefaultStreams.
	Streams int
}

// DefaultStreams is how many endpoints a Source reads at once unless it
// says otherwise.
const DefaultStreams = 4

// ErrExpired is the error of an endpoint whose expiration_time had passed
// when its read was to start: ask the server for the flight again, or
// renew the endpoint (RenewFlightEndpoint), and read anew.
var ErrExpired = errors.New("arrowmap/flight: flight endpoint expired")

// OpenRecords reads every endpoint of info, each at one of its locations,
// as one array.RecordReader, records of any schema: concurrently, at most src.Streams at once, in
// endpoint order when info.Ordered (and in no set order otherwise). Its
// Release ends every stream and closes every connection it opened.
//
// An endpoint is read at the first of its locations that answers: a
// connection error (a failed dial, gRPC's Unavailable) before any of its
// data arrived moves on to the next location; any error after, or of
// another kind, is the endpoint's. An endpoint without locations, or at
// flight.LocationReuseConnection, is read through src.Client; any other
// location is dialed with src.Dial, once per URI for the whole read.
//
// The schema is info's when it has one, else that of the first endpoint's
// stream, which OpenRecords then opens before it returns; every endpoint's
// stream must have that schema. The other streams start at the first
// Next, so a caller that checks the schema first (mapper.NewReader) reads
// nothing when it does not fit. An info without endpoints is an empty
// result of its schema.
//
// The first error ends reading: an endpoint's, named by its index and
// location, an endpoint expired before its read started (ErrExpired), or
// ctx's. Every record that arrived before it is handed on first; in
// endpoint order, that is every record of the endpoints before the one
// that failed. Err then reports it, an io.ErrUnexpectedEOF error for a
// stream cut short (see expansion.SourceEnd). Up to src.Streams × a few
// records wait between the streams and the caller; a record is valid until
// the next Next. Release stops every stream: its goroutines have all
// returned, and the connections it dialed are closed, when it returns.
//
// The reader is a mapper.RowsHinter of info.TotalRecords, so that
// mapper.Reader.ReadAll sizes its result once; ReadAll trusts it only as
// far as the rows received back it, and a server that counts wrong costs
// no rows.
//
// Every message a stream sends is checked before arrow-go reads it: its
// buffers inside its body, its counts of buffers and key-values, and the
// bytes its compressed buffers claim once decompressed, at most 64 MiB
// plus 64 times its body's (mapper.MaxExpansion changes the 64), which
// arrow-go would allocate before decompressing, and as much for the
// dictionaries of a stream in all, which arrow-go holds to its end; a
// message that claims more is an ErrTooLarge *mapper.Error, the
// endpoint's error.
//
// opts are mapper.Allocator, the allocator of the records read, and
// mapper.MaxExpansion.
func OpenRecords(ctx context.Context, src Source, info *flight.FlightInfo, opts ...ReadOption) (array.RecordReader, error) {
	c, err := parseRead("flight.OpenRecords", opts, recordsOption)
	if err != nil {
		return nil, err
	}
	return records(ctx, src, info, c)
}

func records(ctx context.Context, src Source, info *flight.FlightInfo, c *readCall) (array.RecordReader, error) {
	streams, err := checkFlight(src, info)
	if err != nil {
		return nil, err
	}
	alloc := c.alloc
	if alloc == nil {
		alloc = memory.DefaultAllocator
	}
	e := &endpoints{src: src, info: info, alloc: alloc, ratio: c.ratio, pool: newPool(src.Dial)}
	if len(info.Schema) > 0 {
		schema, err := ipcschema.Decode(info.Schema, alloc)
		if err != nil {
			return nil, fmt.Errorf("arrowmap/flight: the flight info's schema: %w", err)
		}
		e.schema = schema
	} else if len(info.Endpoint) == 0 {
		return nil, errors.New("arrowmap/flight: a flight info with neither a schema nor an endpoint")
	}

	r := &endpointRecords{rows: info.TotalRecords}
	r.refs.Store(1)
	r.f = newFanIn(ctx, len(info.Endpoint), streams, info.Ordered, e.read, arrow.RecordBatch.Release)
	r.f.done = e.close
	if e.schema == nil {
		// The schema is the first stream's: opened now, read from the
		// first Next on.
		first, err := e.open(r.f.ctx, 0)
		if err != nil {
			r.f.stop()
			return nil, expansion.SourceEnd(err)
		}
		e.first, e.schema = first, first.Schema()
	}
	r.schema = e.schema
	return r, nil
}

// Open reads every endpoint of info as rows of T: mapper.NewReader over
// OpenRecords, so the schema is checked against T before any row is read.
//
// opts are mapper.NewReader's options, and mapper.Allocator for the
// records read.
func Open[T any](ctx context.Context, src Source, info *flight.FlightInfo, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("flight.Open", opts, nil)
	if err != nil {
		return nil, err
	}
	rr, err := records(ctx, src, info, c)
	if err != nil {
		return nil, err
	}
	defer rr.Release() // the Reader retains its own reference
	return mapper.NewReader[T](rr, c.mapper...)
}

// checkFlight checks src and info before any endpoint is read, and
// returns how many endpoints src reads at once.
func checkFlight(src Source, info *flight.FlightInfo) (streams int, err error) {
	if info == nil {
		return 0, errors.New("arrowmap/flight: nil flight info")
	}
	switch streams = src.Streams; {
	case streams < 0:
		return 0, fmt.Errorf("arrowmap/flight: Source.Streams %d is negative", streams)
	case streams == 0:
		streams = DefaultStreams
	}
	for i, ep := range info.Endpoint {
		if ep.GetTicket() == nil {
			return 0, fmt.Errorf("arrowmap/flight: flight endpoint %d has no ticket", i)
		}
	}
	return streams, nil
}

// endpoints is what reading the endpoints of one FlightInfo shares.
type endpoints struct {
	src    Source
	info   *flight.FlightInfo
	alloc  memory.Allocator
	ratio  int64 // mapper.MaxExpansion's, for verifiedStream
	pool   *pool
	schema *arrow.Schema
	// first is endpoint 0's stream when OpenRecords opened it for its schema:
	// taken by the stream of endpoint 0, else closed with the read.
	first *openStream
}

// read reads endpoint i, handing on its records retained.
func (e *endpoints) read(ctx context.Context, i int, emit func(arrow.RecordBatch) bool) error {
	var s *openStream
	if i == 0 && e.first != nil {
		// Only endpoint 0's stream touches first, before close does.
		s, e.first = e.first, nil
	} else {
		var err error
		if s, err = e.open(ctx, i); err != nil {
			return err
		}
	}
	defer s.close()
	if !s.Schema().Equal(e.schema) {
		return fmt.Errorf("arrowmap/flight: flight endpoint %d at %s: %w: its stream's schema %s is not the flight's %s",
			i, s.at, mapper.ErrTypeMismatch, oneLine(s.Schema()), oneLine(e.schema))
	}
	for s.Next() {
		rec := s.RecordBatch()
		rec.Retain()
		if !emit(rec) {
			return nil
		}
	}
	if err := expansion.SourceEnd(s.Err()); err != nil {
		return fmt.Errorf("arrowmap/flight: flight endpoint %d at %s: %w", i, s.at, err)
	}
	return nil
}

// close ends the read: once every stream has returned.
func (e *endpoints) close() {
	if e.first != nil {
		e.first.close()
		e.first = nil
	}
	e.pool.close() // nothing to do about a connection that fails to close
}

// open opens the stream of endpoint i at the first of its locations that
// answers.
func (e *endpoints) open(ctx context.Context, i int) (*openStream, error) {
	ep := e.info.Endpoint[i]
	if exp := ep.GetExpirationTime(); exp != nil && !time.Now().Before(exp.AsTime()) {
		return nil, fmt.Errorf("%w: endpoint %d's expiration time %s had passed before its read started",
			ErrExpired, i, exp.AsTime().Format(time.RFC3339Nano))
	}
	uris := []string{""} // no location: the server of the FlightInfo
	if len(ep.Location) > 0 {
		uris = uris[:0]
		for _, loc := range ep.Location {
			uris = append(uris, loc.GetUri())
		}
	}
	var failed []error // the locations that could not be reached, in order
	for _, uri := range uris {
		client, err := e.client(ctx, uri)
		if err == nil {
			var s *openStream
			if s, err = newOpenStream(ctx, client, ep.Ticket, e.alloc, e.ratio); err == nil {
				s.at = where(uri)
				return s, nil
			}
		}
		failed = append(failed, fmt.Errorf("at %s: %w", where(uri), err))
		if ctx.Err() != nil || !isConnectionError(err) {
			break // the endpoint's own error: another location would not do better
		}
	}
	if len(failed) == 1 {
		return nil, fmt.Errorf("arrowmap/flight: flight endpoint %d %w", i, failed[0])
	}
	// Every error is wrapped, so that errors.Is and status.Code see them.
	format := "arrowmap/flight: flight endpoint %d: no location could be read:" + strings.Repeat(" %w;", len(failed))
	args := []any{i}
	for _, err := range failed {
		args = append(args, err)
	}
	return nil, fmt.Errorf(strings.TrimSuffix(format, ";"), args...)
}

// client is the client that reads uri: src.Client for the FlightInfo's
// own server, else the pool's.
func (e *endpoints) client(ctx context.Context, uri string) (flight.Client, error) {
	switch {
	case uri == "" || uri == flight.LocationReuseConnection:
		if e.src.Client == nil {
			return nil, connectError{errors.New("Source.Client is nil")}
		}
		return e.src.Client, nil
	case e.src.Dial == nil:
		return nil, connectError{errors.New("Source.Dial is nil, so it cannot be dialed")}
	default:
		c, err := e.pool.get(ctx, uri)
		if err != nil && ctx.Err() == nil {
			err = connectError{err}
		}
		return c, err
	}
}

// connectError is a location that could not be connected to: the next
// location may do.
type connectError struct{ err error }

func (e connectError) Error() string { return e.err.Error() }
func (e connectError) Unwrap() error { return e.err }

// isConnectionError reports whether err, met before any data of an
// endpoint arrived, says its location cannot be reached, rather than that
// the endpoint cannot be read.
func isConnectionError(err error) bool {
	var ce connectError
	return errors.As(err, &ce) || status.Code(err) == codes.Unavailable
}

// where names a location in errors.
func where(uri string) string {
	if uri == "" {
		return "Source.Client (no location)"
	}
	return uri
}

// oneLine is a schema's fields on one line, for an error message.
func oneLine(s *arrow.Schema) string {
	fields := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		fields[i] = f.String()
	}
	return "[" + strings.Join(fields, ", ") + "]"
}

// openStream is the record reader of one DoGet stream and the cancel
// that ends the stream.
type openStream struct {
	*flight.Reader
	cancel context.CancelFunc
	at     string // where it is read, for errors
}

// newOpenStream opens the DoGet stream of ticket and reads its schema;
// ratio bounds what the compressed buffers of its messages may claim
// (see verifiedStream).
func newOpenStream(ctx context.Context, client flight.Client, ticket *flight.Ticket, alloc memory.Allocator, ratio int64) (*openStream, error) {
	ctx, cancel := context.WithCancel(ctx)
	stream, err := client.DoGet(ctx, ticket, callCodec...)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("flight DoGet: %w", err)
	}
	var opts []ipc.Option
	if alloc != nil {
		opts = append(opts, ipc.WithAllocator(alloc))
	}
	fr, err := flight.NewRecordReader(&verifiedStream{DataStreamReader: stream, ratio: ratio}, opts...)
	if err != nil {
		cancel()
		// io.EOF here is a stream without even a schema: wrapped, it is
		// the truncation expansion.SourceEnd reports.
		return nil, fmt.Errorf("flight stream: %w", err)
	}
	return &openStream{Reader: fr, cancel: cancel}, nil
}

// verifiedStream is a DoGet stream whose messages are checked before
// arrow-go's reader parses them trusting their lengths: the first, the
// schema, by ipcschema.SchemaOfMessage, and every one after it, with
// its body, by ipcschema.CheckBatch, whose limit on what compressed
// buffers claim uncompressed ratio sets (the dictionaries held in all).
type verifiedStream struct {
	flight.DataStreamReader
	ratio  int64
	schema *ipcschema.Schema // the stream's, from its first message
	dicts  ipcschema.Dictionaries
	read   int // the messages received
}

func (s *verifiedStream) Recv() (*flight.FlightData, error) {
	fd, err := s.DataStreamReader.Recv()
	if err != nil {
		return fd, err
	}
	s.read++
	if s.read == 1 {
		if s.schema, err = ipcschema.SchemaOfMessage(fd.GetDataHeader()); err != nil {
			return nil, fmt.Errorf("the stream's schema: %w", err)
		}
		return fd, nil
	}
	if err := ipcschema.CheckBatch(fd.GetDataHeader(), ipcschema.BodyAt(fd.GetDataBody()), int64(len(fd.GetDataBody())), s.ratio, s.schema, &s.dicts); err != nil {
		return nil, limitError(fmt.Errorf("message %d of the stream: %w", s.read, err))
	}
	return fd, nil
}

// limitError is err as a *mapper.Error when it is a claim past the limit
// of mapper.MaxExpansion (an error wrapping mapper.ErrTooLarge), so that
// errors.As finds it as it finds every other limit of the readers; any
// other err as it is.
func limitError(err error) error {
	var e *mapper.Error
	if errors.Is(err, mapper.ErrTooLarge) && !errors.As(err, &e) {
		return &mapper.Error{Row: -1, Err: err}
	}
	return err
}

// close releases the reader and ends its stream, read to its end or not.
func (s *openStream) close() {
	s.Reader.Release()
	s.cancel()
}

// endpointRecords is the array.RecordReader of OpenRecords.
type endpointRecords struct {
	refs   atomic.Int64
	schema *arrow.Schema
	f      *fanIn[arrow.RecordBatch]
	cur    arrow.RecordBatch
	rows   int64 // the FlightInfo's TotalRecords: -1 when unknown
}

func (r *endpointRecords) Retain() { r.refs.Add(1) }

func (r *endpointRecords) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseCurrent()
		r.f.stop()
	}
}

func (r *endpointRecords) Schema() *arrow.Schema { return r.schema }

func (r *endpointRecords) Next() bool {
	r.releaseCurrent()
	rec, ok := r.f.next()
	r.cur = rec
	return ok
}

// RowsHint is the rows the FlightInfo says the flight has: a hint for
// mapper.Reader.ReadAll, which does not trust it past the rows received.
func (r *endpointRecords) RowsHint() int64 { return r.rows }

func (r *endpointRecords) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch, which arrow-go's array.RecordReader still
// requires by its older name.
func (r *endpointRecords) Record() arrow.RecordBatch { return r.cur }

func (r *endpointRecords) Err() error { return r.f.err }

func (r *endpointRecords) releaseCurrent() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}
