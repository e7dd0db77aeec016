package flight_test

import (
	"context"
	"fmt"
	"io"
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
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

type event struct {
	ID       int64  `arrow:"id"`
	Endpoint int32  `arrow:"endpoint"`
	Name     string `arrow:"name"`
}

var eventSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "endpoint", Type: arrow.PrimitiveTypes.Int32},
	{Name: "name", Type: arrow.BinaryTypes.String},
}, nil)

// stream is what the server sends for one ticket: records of the given
// sizes, then err (nil for a clean end). failFirst fails DoGet before any
// record is sent. delay comes before each record; stall holds the stream
// open after its records until the client goes away. schema, when set,
// replaces eventSchema, and the stream sends no record.
type stream struct {
	sizes     []int
	err       error
	failFirst bool
	delay     time.Duration
	stall     bool
	schema    *arrow.Schema
	// nullName, when set, is the row of the stream whose name is null.
	nullName *int
}

// eventServer serves one stream per endpoint; the rows of endpoint e have
// ids e*1_000_000, e*1_000_000+1, ….
type eventServer struct {
	flight.BaseFlightServer
	mem     memory.Allocator
	streams []stream
	active  atomic.Int64 // DoGet calls still running
	peak    atomic.Int64 // the most DoGet calls running at once
	gets    atomic.Int64 // DoGet calls
	sent    atomic.Int64 // records sent
}

func (s *eventServer) GetFlightInfo(ctx context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	info := &flight.FlightInfo{
		Schema:           flight.SerializeSchema(eventSchema, s.mem),
		FlightDescriptor: desc,
		TotalRecords:     -1,
		TotalBytes:       -1,
	}
	for e := range s.streams {
		info.Endpoint = append(info.Endpoint, &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: []byte(strconv.Itoa(e))}})
	}
	return info, nil
}

func (s *eventServer) DoGet(tkt *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	s.gets.Add(1)
	for now, peak := s.active.Add(1), s.peak.Load(); now > peak && !s.peak.CompareAndSwap(peak, now); peak = s.peak.Load() {
	}
	defer s.active.Add(-1)
	e, err := strconv.Atoi(string(tkt.Ticket))
	if err != nil || e < 0 || e >= len(s.streams) {
		return status.Errorf(codes.NotFound, "no stream %q", tkt.Ticket)
	}
	st := s.streams[e]
	if st.failFirst {
		return st.err
	}
	if st.schema != nil {
		w := flight.NewRecordWriter(fs, ipc.WithSchema(st.schema), ipc.WithAllocator(s.mem))
		return w.Close() // the schema, and no record
	}
	w := flight.NewRecordWriter(fs, ipc.WithSchema(eventSchema), ipc.WithAllocator(s.mem))
	defer w.Close()
	id := int64(e) * 1_000_000
	for _, n := range st.sizes {
		if st.delay > 0 {
			select {
			case <-time.After(st.delay):
			case <-fs.Context().Done():
				return fs.Context().Err()
			}
		}
		nullAt := -1
		if st.nullName != nil {
			nullAt = *st.nullName - int(id-int64(e)*1_000_000)
		}
		rec := eventRecord(s.mem, e, id, n, nullAt)
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return err // the client went away
		}
		s.sent.Add(1)
		id += int64(n)
	}
	if st.stall {
		<-fs.Context().Done()
		return fs.Context().Err()
	}
	return st.err
}

// eventRecord is n events of endpoint from id first, with a null name at
// its row nullAt, if that is one of its rows.
func eventRecord(mem memory.Allocator, endpoint int, first int64, n, nullAt int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, eventSchema)
	defer b.Release()
	for i := range int64(n) {
		b.Field(0).(*array.Int64Builder).Append(first + i)
		b.Field(1).(*array.Int32Builder).Append(int32(endpoint))
		if int(i) == nullAt {
			b.Field(2).(*array.StringBuilder).AppendNull()
			continue
		}
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("event-%d", first+i))
	}
	return b.NewRecordBatch()
}

// wantEvents is every row of the streams, by endpoint then id.
func wantEvents(streams []stream) []event {
	var rows []event
	for e, st := range streams {
		id := int64(e) * 1_000_000
		for _, n := range st.sizes {
			for range n {
				rows = append(rows, event{ID: id, Endpoint: int32(e), Name: fmt.Sprintf("event-%d", id)})
				id++
			}
		}
	}
	return rows
}

// serve starts svc on a loopback port and returns a client for it; both
// are stopped when the test ends.
func serve(t *testing.T, svc flight.FlightServer) flight.Client {
	t.Helper()
	srv := flight.NewServerWithMiddleware(nil)
	require.NoError(t, srv.Init("127.0.0.1:0"))
	srv.RegisterFlightService(svc)
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	client, err := flight.NewClientWithMiddleware(srv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, client.Close())
		srv.Shutdown()
		select {
		case err := <-served:
			require.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the flight server did not stop")
		}
	})
	return client
}

func flightInfo(t *testing.T, ctx context.Context, client flight.Client) *flight.FlightInfo {
	t.Helper()
	info, err := client.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte("events")})
	require.NoError(t, err)
	return info
}

func TestOwnedPagesYieldsEveryRowOfEveryEndpoint(t *testing.T) {
	tests := []struct {
		name     string
		streams  []stream
		pageSize int
	}{
		{"three endpoints of uneven records, pages across records", []stream{
			{sizes: []int{100, 7, 250}}, {sizes: []int{1, 1, 1, 64}}, {sizes: []int{333}},
		}, 50},
		{"an endpoint with no rows", []stream{{sizes: []int{10}}, {}, {sizes: []int{0, 5}}}, 3},
		{"pages larger than any endpoint", []stream{{sizes: []int{10}}, {sizes: []int{20}}, {sizes: []int{30}}}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			svc := &eventServer{mem: mem, streams: tt.streams}
			client := serve(t, svc)
			ctx := testContext(t)
			info := flightInfo(t, ctx, client)
			require.Len(t, info.Endpoint, 3)

			var pagesSeen [][]event
			for page, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, tt.pageSize) {
				require.NoError(t, err)
				require.NotEmpty(t, page)
				require.LessOrEqual(t, len(page), tt.pageSize)
				pagesSeen = append(pagesSeen, page) // kept, not copied
			}

			var got []event
			last := map[int32]int64{}
			for _, page := range pagesSeen {
				for _, row := range page {
					prev, seen := last[row.Endpoint]
					require.True(t, !seen || row.ID == prev+1, "the rows of one endpoint come in order")
					last[row.Endpoint] = row.ID
				}
				got = append(got, page...)
			}
			slices.SortFunc(got, func(a, b event) int { return int(a.ID - b.ID) })
			require.Equal(t, wantEvents(tt.streams), got)
			require.Zero(t, svc.active.Load())
		})
	}
}

func TestOwnedPagesReadsEveryEndpointWhereItLives(t *testing.T) {
	streams := []stream{{sizes: []int{100, 7, 250}}, {sizes: []int{1, 1, 1, 64}}, {}, {sizes: []int{0, 5}}, {sizes: []int{33}}}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the nodes stop
	// Both nodes serve every stream: an endpoint read at the wrong node,
	// or at both, shows as a row missing or twice.
	nodes := startNodes(t, mem, streams, streams)
	info := eventInfo(false, at(0, nodes[0].uri), at(1, nodes[1].uri), at(2, nodes[0].uri), at(3, nodes[1].uri), at(4, nodes[1].uri))
	d := newDialer()
	before := settledGoroutines()

	var got []event
	for page, err := range amflight.OwnedPages[event](testContext(t), amflight.Source{Dial: d.dial, Streams: 2}, info, 16, mapper.Allocator(mem)) {
		require.NoError(t, err)
		require.LessOrEqual(t, len(page), 16)
		got = append(got, page...)
	}

	requireEndpointsInOrder(t, got)
	require.Equal(t, wantEvents(streams), sortedByID(got), "every row served, exactly once")
	assert.EqualValues(t, 2, nodes[0].svc.gets.Load(), "endpoints 0 and 2 asked of their node")
	assert.EqualValues(t, 3, nodes[1].svc.gets.Load(), "endpoints 1, 3 and 4 asked of theirs")
	for _, n := range nodes {
		require.Zero(t, n.svc.active.Load(), "every DoGet has ended")
	}
	require.Equal(t, map[string]int{nodes[0].uri: 1, nodes[1].uri: 1}, d.counts(), "each location dialed once")
	require.EqualValues(t, 2, d.closes.Load(), "every connection dialed is closed")
	requireGoroutinesBack(t, before)
}

func TestOwnedPagesGivenZeroCopyYieldsAnErrOptionMapperError(t *testing.T) {
	client := serve(t, &eventServer{mem: memory.DefaultAllocator, streams: []stream{{sizes: []int{3}}}})
	ctx := testContext(t)
	info := flightInfo(t, ctx, client)
	var errs []error
	for page, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 10, mapper.ZeroCopy()) {
		require.Nil(t, page, "nothing is read")
		errs = append(errs, err)
	}
	require.Len(t, errs, 1, "one error, then the end")
	require.ErrorIs(t, errs[0], mapper.ErrOption)
	require.NotErrorIs(t, errs[0], mapper.ErrUnsupported)
	var e *mapper.Error
	require.ErrorAs(t, errs[0], &e)
	assert.EqualError(t, e, mapper.OptionError("flight.OwnedPages", mapper.ZeroCopy()).Error())
}

func TestOwnedPagesStopsEveryStreamWhenTheLoopBreaks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	long := make([]int, 10_000) // far more than the loop reads
	for i := range long {
		long[i] = 100
	}
	svc := &eventServer{mem: mem, streams: []stream{{sizes: long}, {sizes: long}, {sizes: long}}}
	client := serve(t, svc)
	ctx := testContext(t)
	info := flightInfo(t, ctx, client)
	baseline := runtime.NumGoroutine()
	watched := &watchedClient{Client: client}

	pagesRead := 0
	for page, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: watched}, info, 10) {
		require.NoError(t, err)
		require.Len(t, page, 10)
		pagesRead++
		break
	}
	require.Equal(t, 1, pagesRead)

	// Every stream is cancelled and no longer read once the loop is over.
	watched.mu.Lock()
	require.Len(t, watched.ctxs, 3)
	for _, ctx := range watched.ctxs {
		require.Error(t, ctx.Err(), "a stream's context is cancelled")
	}
	watched.mu.Unlock()
	received := watched.received.Load()

	require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond,
		"every DoGet ends once the loop breaks")
	require.Less(t, svc.sent.Load(), int64(3*len(long)), "the streams were not read to their end")
	// Not require.Eventually: it runs the condition on a goroutine of its own.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), baseline, "no goroutine outlives the loop")
	// Every goroutine that could receive has ended: a message received
	// after the loop shows in the count now, whenever it came.
	require.Equal(t, received, watched.received.Load(), "nothing receives after the loop")
}

// watchedClient records the context of each DoGet and counts the messages
// received on all streams.
type watchedClient struct {
	flight.Client
	mu       sync.Mutex
	ctxs     []context.Context
	received atomic.Int64
}

func (c *watchedClient) DoGet(ctx context.Context, tkt *flight.Ticket, opts ...grpc.CallOption) (flight.FlightService_DoGetClient, error) {
	c.mu.Lock()
	c.ctxs = append(c.ctxs, ctx)
	c.mu.Unlock()
	s, err := c.Client.DoGet(ctx, tkt, opts...)
	if err != nil {
		return nil, err
	}
	return &watchedStream{FlightService_DoGetClient: s, received: &c.received}, nil
}

type watchedStream struct {
	flight.FlightService_DoGetClient
	received *atomic.Int64
}

func (s *watchedStream) Recv() (*flight.FlightData, error) {
	d, err := s.FlightService_DoGetClient.Recv()
	s.received.Add(1)
	return d, err
}

func TestOwnedPagesYieldsTheErrorOfAStream(t *testing.T) {
	failure := status.Error(codes.Unavailable, "disk on fire")
	tests := []struct {
		name    string
		streams []stream
	}{
		{"DoGet fails before any record", []stream{{sizes: []int{5}}, {err: failure, failFirst: true}, {sizes: []int{5}}}},
		{"DoGet fails after some records", []stream{{sizes: []int{5}}, {sizes: []int{4, 4}, err: failure}, {sizes: []int{5}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			svc := &eventServer{mem: mem, streams: tt.streams}
			client := serve(t, svc)
			ctx := testContext(t)

			var errs []error
			rows := 0
			for page, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, flightInfo(t, ctx, client), 2) {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				rows += len(page)
			}
			require.Len(t, errs, 1, "the error ends the sequence")
			require.Equal(t, codes.Unavailable, status.Code(errs[0]), "%v", errs[0])
			require.ErrorContains(t, errs[0], "disk on fire")
			require.ErrorContains(t, errs[0], "endpoint 1")
			require.LessOrEqual(t, rows, 18)
			require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond)
		})
	}
}

func TestOwnedPagesYieldsTheContextError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	long := make([]int, 10_000)
	for i := range long {
		long[i] = 10
	}
	svc := &eventServer{mem: mem, streams: []stream{{sizes: long}, {sizes: long}}}
	client := serve(t, svc)
	info := flightInfo(t, testContext(t), client)

	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	var err error
	pagesRead := 0
	for page, e := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 10) {
		if e != nil {
			err = e
			break
		}
		require.Len(t, page, 10)
		if pagesRead++; pagesRead == 3 {
			cancel()
		}
		require.Less(t, pagesRead, 10_000, "the sequence ends soon after ctx is cancelled")
	}
	require.ErrorIs(t, err, context.Canceled)
	require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond)
}

func TestOwnedPagesChecksItsArguments(t *testing.T) {
	ctx := testContext(t)
	for _, size := range []int{0, -1} {
		for _, err := range amflight.OwnedPages[event](ctx, amflight.Source{}, &flight.FlightInfo{}, size) {
			require.ErrorContains(t, err, "page size")
		}
	}
	for _, err := range amflight.OwnedPages[event](ctx, amflight.Source{}, nil, 10) {
		require.ErrorContains(t, err, "nil flight info")
	}
	n := 0
	for range amflight.OwnedPages[event](ctx, amflight.Source{}, &flight.FlightInfo{}, 10) {
		n++
	}
	require.Zero(t, n, "no endpoints, no pages")
	// Its pages outlive their records, so ZeroCopy would alias released
	// memory: refused before any stream is opened (client is nil).
	n = 0
	for _, err := range amflight.OwnedPages[event](ctx, amflight.Source{}, &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{}}}, 10, mapper.ZeroCopy()) {
		require.ErrorIs(t, err, mapper.ErrOption)
		require.ErrorContains(t, err, "flight.OwnedPages does not take ZeroCopy")
		n++
	}
	require.Equal(t, 1, n, "one error, then the end")
}

func TestStreamReadsOneTicket(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	streams := []stream{{sizes: []int{3}}, {sizes: []int{4, 6}}}
	svc := &eventServer{mem: mem, streams: streams}
	client := serve(t, svc)
	ctx := testContext(t)

	r, err := amflight.Stream[event](ctx, client, &flight.Ticket{Ticket: []byte("1")})
	require.NoError(t, err)
	require.Equal(t, wantEvents(streams)[3:], readAll(t, r, 4))
	r.Release()

	type wrong struct {
		ID string `arrow:"id"`
	}
	_, err = amflight.Stream[wrong](ctx, client, &flight.Ticket{Ticket: []byte("1")})
	require.ErrorIs(t, err, mapper.ErrTypeMismatch)

	_, err = amflight.Stream[event](ctx, client, &flight.Ticket{Ticket: []byte("7")})
	require.Equal(t, codes.NotFound, status.Code(err), "%v", err)

	// Released before its end, a stream is cancelled: DoGet returns.
	r, err = amflight.Stream[event](ctx, client, &flight.Ticket{Ticket: []byte("0")})
	require.NoError(t, err)
	r.Release()
	require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond)
}

// cutClient's DoGet streams hand out keep messages, then fail with err, as
// a transport that ran out of bytes might.
type cutClient struct {
	flight.Client
	keep int
	err  error
}

func (c *cutClient) DoGet(ctx context.Context, tkt *flight.Ticket, opts ...grpc.CallOption) (flight.FlightService_DoGetClient, error) {
	s, err := c.Client.DoGet(ctx, tkt, opts...)
	if err != nil {
		return nil, err
	}
	return &cutStream{FlightService_DoGetClient: s, left: c.keep, err: c.err}, nil
}

type cutStream struct {
	flight.FlightService_DoGetClient
	left int
	err  error
}

func (s *cutStream) Recv() (*flight.FlightData, error) {
	if s.left == 0 {
		return nil, s.err
	}
	s.left--
	return s.FlightService_DoGetClient.Recv()
}

// TestFlightReadersReportAStreamCutShort: a stream that ends before its
// schema, or whose transport fails with an error wrapping io.EOF before
// the dictionaries its schema declares, is an io.ErrUnexpectedEOF error
// from Stream, OwnedPages and Open, never one that is io.EOF.
func TestFlightReadersReportAStreamCutShort(t *testing.T) {
	transportEOF := fmt.Errorf("transport: connection lost: %w", io.EOF)
	cases := []struct {
		name string
		keep int
		err  error
	}{
		{"a stream that ends before its schema", 0, io.EOF},
		{"a stream whose transport fails with a wrapped io.EOF before its schema", 0, transportEOF},
		{"a stream whose transport fails with a wrapped io.EOF after its schema", 1, transportEOF},
		{"a stream whose transport fails with a wrapped io.EOF between its dictionaries", 2, transportEOF},
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs, _ := contractRecords(mem, -1, 3, 4)
	relay := &relayServer{}
	tkt := relay.add(contractStream(t, mem, recs))
	client := serve(t, relay)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := testContext(t)
			cut := &cutClient{Client: client, keep: c.keep, err: c.err}
			requireCutShort := func(err error) {
				t.Helper()
				require.ErrorIs(t, err, io.ErrUnexpectedEOF)
				require.NotErrorIs(t, err, io.EOF)
				require.ErrorContains(t, err, "EOF")
			}

			r, err := amflight.Stream[contractRow](ctx, cut, tkt)
			if err == nil {
				rows, rerr := r.ReadAll()
				require.Empty(t, rows)
				err = rerr
				r.Release()
			}
			requireCutShort(err)

			info := &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: tkt}}}
			var errs []error
			for page, err := range amflight.OwnedPages[contractRow](ctx, amflight.Source{Client: cut}, info, 2) {
				require.Empty(t, page)
				errs = append(errs, err)
			}
			require.Len(t, errs, 1)
			requireCutShort(errs[0])
			require.ErrorContains(t, errs[0], "endpoint 0")

			nr, err := amflight.Open[contractRow](ctx, amflight.Source{Client: cut}, info)
			if err == nil {
				rows, rerr := nr.ReadAll()
				require.Empty(t, rows)
				err = rerr
				nr.Release()
			}
			requireCutShort(err)
			require.ErrorContains(t, err, "flight endpoint 0")
		})
	}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func readAll[T any](t *testing.T, r *mapper.Reader[T], size int) []T {
	t.Helper()
	var got []T
	for page, err := range r.Pages(size) {
		require.NoError(t, err)
		got = append(got, page...)
	}
	return got
}
