package flight_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
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
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// node is a Flight server on a loopback port of its own, as one node of a
// distributed engine is: the endpoints a FlightInfo places there are read
// at its uri.
type node struct {
	svc    *eventServer
	uri    string
	addr   string
	srv    *grpc.Server
	served chan error
	once   sync.Once
}

// startNodes starts one node per element of streams, each serving the
// streams it is given under tickets "0", "1", …; they stop when the test
// ends.
func startNodes(t *testing.T, mem memory.Allocator, streams ...[]stream) []*node {
	t.Helper()
	var nodes []*node
	for _, st := range streams {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		n := &node{
			svc:    &eventServer{mem: mem, streams: st},
			addr:   lis.Addr().String(),
			uri:    "grpc://" + lis.Addr().String(),
			srv:    grpc.NewServer(),
			served: make(chan error, 1),
		}
		flight.RegisterFlightServiceServer(n.srv, n.svc)
		go func() { n.served <- n.srv.Serve(lis) }()
		t.Cleanup(n.kill)
		nodes = append(nodes, n)
	}
	return nodes
}

// kill stops the node at once: its connections close under the streams
// they carry, as when a server dies.
func (n *node) kill() {
	n.once.Do(func() {
		n.srv.Stop()
		<-n.served
	})
}

// client is a client of n, connected, for Source.Client; it is closed when
// the test ends.
func (n *node) client(t *testing.T) flight.Client {
	t.Helper()
	c, err := flight.NewClientWithMiddleware(n.addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	// The client connects at its first call: connect before counting
	// goroutines.
	_, err = c.GetFlightInfo(testContext(t), &flight.FlightDescriptor{Type: flight.DescriptorCMD})
	require.NoError(t, err)
	return c
}

// refusedURI is a loopback location nothing listens at any more.
func refusedURI(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	uri := "grpc://" + lis.Addr().String()
	require.NoError(t, lis.Close())
	return uri
}

// dialer is a Source.Dial over insecure gRPC that counts the dials of each
// location and the closes of the clients it opened.
type dialer struct {
	mu     sync.Mutex
	dials  map[string]int
	closes atomic.Int64
}

func newDialer() *dialer { return &dialer{dials: map[string]int{}} }

func (d *dialer) dial(ctx context.Context, uri string) (flight.Client, error) {
	d.mu.Lock()
	d.dials[uri]++
	d.mu.Unlock()
	u, err := url.Parse(uri)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "grpc" {
		return nil, fmt.Errorf("no dial for scheme %q", u.Scheme)
	}
	c, err := flight.NewClientWithMiddlewareCtx(ctx, u.Host, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &closeCounted{Client: c, closes: &d.closes}, nil
}

func (d *dialer) counts() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps(d.dials)
}

func (d *dialer) total() int {
	n := 0
	for _, c := range d.counts() {
		n += c
	}
	return n
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type closeCounted struct {
	flight.Client
	closes *atomic.Int64
}

func (c *closeCounted) Close() error {
	c.closes.Add(1)
	return c.Client.Close()
}

// at is endpoint e of the event streams (ticket "e") at the given
// locations.
func at(e int, uris ...string) *flight.FlightEndpoint {
	ep := &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: []byte(strconv.Itoa(e))}}
	for _, uri := range uris {
		ep.Location = append(ep.Location, &flight.Location{Uri: uri})
	}
	return ep
}

// eventInfo is a FlightInfo of eventSchema over eps.
func eventInfo(ordered bool, eps ...*flight.FlightEndpoint) *flight.FlightInfo {
	return &flight.FlightInfo{
		Schema:       flight.SerializeSchema(eventSchema, memory.DefaultAllocator),
		Endpoint:     eps,
		Ordered:      ordered,
		TotalRecords: -1,
		TotalBytes:   -1,
	}
}

// sizes is n records of size rows each.
func sizes(n, size int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = size
	}
	return s
}

// requireEndpointsInOrder checks that the rows of each endpoint come in
// the order its server sent them.
func requireEndpointsInOrder(t *testing.T, rows []event) {
	t.Helper()
	last := map[int32]int64{}
	for _, row := range rows {
		prev, seen := last[row.Endpoint]
		require.True(t, !seen || row.ID == prev+1, "the rows of endpoint %d come in order", row.Endpoint)
		last[row.Endpoint] = row.ID
	}
}

func sortedByID(rows []event) []event {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b event) int { return int(a.ID - b.ID) })
	return rows
}

func TestOpenRecordsReadsEveryEndpointWhereItLives(t *testing.T) {
	four := []stream{{sizes: []int{100, 7, 250}}, {sizes: []int{1, 1, 1, 64}}, {}, {sizes: []int{0, 5}}}
	seven := []stream{{sizes: []int{3}}, {sizes: []int{4, 4}}, {sizes: []int{1}}, {}, {sizes: []int{9, 9, 9}}, {sizes: []int{2}}, {sizes: []int{50}}}
	future := timestamppb.New(time.Now().Add(time.Hour))
	tests := []struct {
		name    string
		streams []stream
		nodes   int
		streamN int
		// info places the endpoints on the nodes; refused is a location
		// nothing listens at.
		info func(nodes []*node, refused string) *flight.FlightInfo
		// dials is how often each location is dialed.
		dials func(nodes []*node, refused string) map[string]int
	}{
		{
			name: "four endpoints on four nodes give every row exactly once", streams: four, nodes: 4,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(false, at(0, n[0].uri), at(1, n[1].uri), at(2, n[2].uri), at(3, n[3].uri))
			},
			dials: func(n []*node, _ string) map[string]int {
				return map[string]int{n[0].uri: 1, n[1].uri: 1, n[2].uri: 1, n[3].uri: 1}
			},
		},
		{
			name: "an endpoint whose first location refuses connections is read at its second", streams: four, nodes: 2,
			info: func(n []*node, refused string) *flight.FlightInfo {
				return eventInfo(false, at(0, refused, n[0].uri), at(1, n[1].uri), at(2, n[0].uri), at(3, refused, n[1].uri))
			},
			dials: func(n []*node, refused string) map[string]int {
				return map[string]int{refused: 1, n[0].uri: 1, n[1].uri: 1}
			},
		},
		{
			name: "the reuse-connection location and no location are read through Source.Client", streams: four, nodes: 1,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(false, at(0, flight.LocationReuseConnection), at(1), at(2, flight.LocationReuseConnection, n[0].uri), at(3))
			},
			dials: func([]*node, string) map[string]int { return map[string]int{} },
		},
		{
			name: "endpoints at one location share one connection", streams: four, nodes: 2,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(false, at(0, n[0].uri), at(1, n[0].uri), at(2, n[1].uri), at(3, n[0].uri))
			},
			dials: func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[1].uri: 1} },
		},
		{
			name: "more endpoints than streams, in endpoint order", streams: seven, nodes: 2, streamN: 2,
			info: func(n []*node, _ string) *flight.FlightInfo {
				var eps []*flight.FlightEndpoint
				for e := range seven {
					eps = append(eps, at(e, n[e%2].uri))
				}
				return eventInfo(true, eps...)
			},
			dials: func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[1].uri: 1} },
		},
		{
			name: "an info without a schema has the first endpoint's", streams: four, nodes: 2,
			info: func(n []*node, _ string) *flight.FlightInfo {
				info := eventInfo(false, at(0, n[0].uri), at(1, n[1].uri), at(2, n[0].uri), at(3, n[1].uri))
				info.Schema = nil
				return info
			},
			dials: func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[1].uri: 1} },
		},
		{
			name: "an expiration time still ahead is no error", streams: four, nodes: 1,
			info: func(n []*node, _ string) *flight.FlightInfo {
				info := eventInfo(false, at(0, n[0].uri), at(1, n[0].uri), at(2, n[0].uri), at(3, n[0].uri))
				for _, ep := range info.Endpoint {
					ep.ExpirationTime = future
				}
				return info
			},
			dials: func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the nodes stop
			var all [][]stream
			for range tt.nodes {
				all = append(all, tt.streams)
			}
			nodes := startNodes(t, mem, all...)
			refused := refusedURI(t)
			client := nodes[0].client(t)
			d := newDialer()
			info := tt.info(nodes, refused)
			before := settledGoroutines()

			r, err := amflight.Open[event](testContext(t), amflight.Source{Client: client, Dial: d.dial, Streams: tt.streamN}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			if info.Ordered {
				require.Equal(t, wantEvents(tt.streams), got, "every row once, in endpoint order")
			} else {
				requireEndpointsInOrder(t, got)
				require.Equal(t, wantEvents(tt.streams), sortedByID(got), "every row exactly once")
			}
			r.Release()

			require.Equal(t, tt.dials(nodes, refused), d.counts())
			require.EqualValues(t, d.total(), d.closes.Load(), "every connection dialed is closed")
			for _, n := range nodes {
				require.Zero(t, n.svc.active.Load(), "every DoGet has ended")
			}
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsReportsAnEndpointThatCannotBeRead(t *testing.T) {
	past := timestamppb.New(time.Now().Add(-time.Minute))
	narrow := arrow.NewSchema(eventSchema.Fields()[:2], nil)
	streams := []stream{{sizes: []int{3, 4}}, {sizes: []int{5}}, {sizes: []int{6}}}
	tests := []struct {
		name    string
		streams []stream
		noDial  bool // Source.Dial is nil
		noSrc   bool // Source.Client is nil
		// info places endpoint 1, the one that fails, on node 1.
		info     func(n []*node, refused string) *flight.FlightInfo
		wantIs   error
		wantCode codes.Code
		wantText func(n []*node, refused string) []string
		// dials is how often each location is dialed.
		dials func(n []*node, refused string) map[string]int
	}{
		{
			name: "an endpoint whose only location refuses connections", streams: streams,
			info: func(n []*node, refused string) *flight.FlightInfo {
				return eventInfo(true, at(0, n[0].uri), at(1, refused), at(2, n[0].uri))
			},
			wantCode: codes.Unavailable,
			wantText: func(_ []*node, refused string) []string { return []string{"flight endpoint 1", refused} },
			dials:    func(n []*node, refused string) map[string]int { return map[string]int{n[0].uri: 1, refused: 1} },
		},
		{
			name: "an endpoint none of whose locations answers names each", streams: streams,
			info: func(n []*node, refused string) *flight.FlightInfo {
				return eventInfo(true, at(0, n[0].uri), at(1, refused, "grpc://127.0.0.1:1"), at(2, n[0].uri))
			},
			wantCode: codes.Unavailable,
			wantText: func(_ []*node, refused string) []string {
				return []string{"flight endpoint 1: no location could be read", refused, "grpc://127.0.0.1:1"}
			},
			dials: func(n []*node, refused string) map[string]int {
				return map[string]int{n[0].uri: 1, refused: 1, "grpc://127.0.0.1:1": 1}
			},
		},
		{
			name: "an endpoint at a location to dial with no Source.Dial", streams: streams, noDial: true,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(true, at(0), at(1, n[1].uri), at(2))
			},
			wantText: func(n []*node, _ string) []string {
				return []string{"flight endpoint 1", n[1].uri, "Source.Dial is nil"}
			},
			dials: func([]*node, string) map[string]int { return map[string]int{} },
		},
		{
			name: "an endpoint without a location and no Source.Client", streams: streams, noSrc: true,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(true, at(0, n[0].uri), at(1), at(2, n[0].uri))
			},
			wantText: func([]*node, string) []string { return []string{"flight endpoint 1", "Source.Client is nil"} },
			dials:    func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1} },
		},
		{
			name: "a ticket a node does not know is the endpoint's error, not a reason to try its next location",
			// Node 1 serves one stream: it knows no ticket "1".
			streams: streams,
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(true, at(0, n[0].uri), at(1, n[2].uri, n[1].uri), at(2, n[0].uri))
			},
			wantCode: codes.NotFound,
			wantText: func(n []*node, _ string) []string { return []string{"flight endpoint 1", n[2].uri} },
			dials:    func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[2].uri: 1} },
		},
		{
			name: "an endpoint whose expiration time has passed", streams: streams,
			info: func(n []*node, _ string) *flight.FlightInfo {
				info := eventInfo(true, at(0, n[0].uri), at(1, n[1].uri), at(2, n[0].uri))
				info.Endpoint[1].ExpirationTime = past
				return info
			},
			wantIs:   amflight.ErrExpired,
			wantText: func([]*node, string) []string { return []string{"endpoint 1", "expiration time", "passed"} },
			dials:    func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1} },
		},
		{
			name:    "an endpoint whose stream's schema is not the info's",
			streams: []stream{{sizes: []int{3, 4}}, {schema: narrow}, {sizes: []int{6}}},
			info: func(n []*node, _ string) *flight.FlightInfo {
				return eventInfo(true, at(0, n[0].uri), at(1, n[1].uri), at(2, n[0].uri))
			},
			wantIs:   mapper.ErrTypeMismatch,
			wantText: func(n []*node, _ string) []string { return []string{"flight endpoint 1", n[1].uri, "schema"} },
			dials:    func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[1].uri: 1} },
		},
		{
			name:    "an endpoint whose stream's schema is not the first endpoint's, in an info without a schema",
			streams: []stream{{sizes: []int{3, 4}}, {schema: narrow}, {sizes: []int{6}}},
			info: func(n []*node, _ string) *flight.FlightInfo {
				info := eventInfo(true, at(0, n[0].uri), at(1, n[1].uri), at(2, n[0].uri))
				info.Schema = nil
				return info
			},
			wantIs:   mapper.ErrTypeMismatch,
			wantText: func(n []*node, _ string) []string { return []string{"flight endpoint 1", n[1].uri, "schema"} },
			dials:    func(n []*node, _ string) map[string]int { return map[string]int{n[0].uri: 1, n[1].uri: 1} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, tt.streams, tt.streams, tt.streams[:1])
			refused := refusedURI(t)
			src := amflight.Source{Client: nodes[0].client(t)}
			d := newDialer()
			if !tt.noDial {
				src.Dial = d.dial
			}
			if tt.noSrc {
				src.Client = nil
			}
			info := tt.info(nodes, refused)
			before := settledGoroutines()

			r, err := amflight.Open[event](testContext(t), src, info, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.Equal(t, wantEvents(tt.streams[:1]), got, "in endpoint order, every row before the failing endpoint")
			require.Error(t, err)
			assert.NotErrorIs(t, err, io.EOF)
			if tt.wantIs != nil {
				require.ErrorIs(t, err, tt.wantIs)
			}
			if tt.wantCode != codes.OK {
				require.Equal(t, tt.wantCode, status.Code(err), "%v", err)
			}
			for _, text := range tt.wantText(nodes, refused) {
				require.ErrorContains(t, err, text)
			}
			r.Release()

			require.Equal(t, tt.dials(nodes, refused), d.counts())
			require.EqualValues(t, d.total(), d.closes.Load(), "every connection dialed is closed")
			for _, n := range nodes {
				require.Eventually(t, func() bool { return n.svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond)
			}
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsKeepsEndpointOrderWhenTheInfoIsOrdered(t *testing.T) {
	// Endpoint 0 is slow: its records come 40ms apart, while the others
	// send theirs at once. Unordered, theirs come first.
	streams := []stream{
		{sizes: []int{5, 5, 5, 5}, delay: 40 * time.Millisecond},
		{sizes: []int{3, 3}},
		{sizes: []int{7}},
		{sizes: []int{2, 2, 2}},
	}
	for _, ordered := range []bool{true, false} {
		t.Run(fmt.Sprintf("ordered %v", ordered), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, streams, streams)
			d := newDialer()
			info := eventInfo(ordered, at(0, nodes[0].uri), at(1, nodes[1].uri), at(2, nodes[1].uri), at(3, nodes[0].uri))
			before := settledGoroutines()

			r, err := amflight.Open[event](testContext(t), amflight.Source{Dial: d.dial}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.NoError(t, err)
			r.Release()
			if ordered {
				require.Equal(t, wantEvents(streams), got, "endpoint k's rows all before endpoint k+1's")
			} else {
				requireEndpointsInOrder(t, got)
				require.Equal(t, wantEvents(streams), sortedByID(got))
				require.NotEqual(t, wantEvents(streams), got, "unordered, the fast endpoints come before the slow one")
			}
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsReadsAtMostStreamsEndpointsAtOnce(t *testing.T) {
	var streams []stream
	for range 6 {
		streams = append(streams, stream{sizes: []int{2, 2}, delay: 20 * time.Millisecond})
	}
	for _, streamN := range []int{1, 2, 3} {
		for _, ordered := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d streams, ordered %v", streamN, ordered), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				t.Cleanup(func() { mem.AssertSize(t, 0) })
				nodes := startNodes(t, mem, streams)
				var eps []*flight.FlightEndpoint
				for e := range streams {
					eps = append(eps, at(e, nodes[0].uri))
				}
				d := newDialer()
				before := settledGoroutines()

				r, err := amflight.Open[event](testContext(t), amflight.Source{Dial: d.dial, Streams: streamN}, eventInfo(ordered, eps...), mapper.Allocator(mem))
				require.NoError(t, err)
				got, err := r.ReadAll()
				require.NoError(t, err)
				r.Release()
				require.Equal(t, wantEvents(streams), sortedByID(got))
				require.EqualValues(t, streamN, nodes[0].svc.peak.Load(), "streamN endpoints, and no more, are read at once")
				requireGoroutinesBack(t, before)
			})
		}
	}
}

func TestOpenRecordsDoesNotReadFarAheadOfItsCaller(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		t.Run(fmt.Sprintf("ordered %v", ordered), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			long := sizes(10_000, 100)
			streams := []stream{{sizes: long}, {sizes: long}, {sizes: long}}
			nodes := startNodes(t, mem, streams)
			d := newDialer()
			info := eventInfo(ordered, at(0, nodes[0].uri), at(1, nodes[0].uri), at(2, nodes[0].uri))
			before := settledGoroutines()

			rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Dial: d.dial}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			require.True(t, rr.Next())
			require.EqualValues(t, 100, rr.RecordBatch().NumRows())
			svc := nodes[0].svc
			require.Eventually(t, func() bool { return svc.active.Load() == 3 }, 10*time.Second, 5*time.Millisecond)
			// The streams block once the queue and gRPC's window are full.
			sent := svc.sent.Load()
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
				time.Sleep(100 * time.Millisecond)
				now := svc.sent.Load()
				if now == sent {
					break
				}
				sent = now
			}
			t.Logf("%d records sent of %d, 1 read", sent, 3*len(long))
			require.Less(t, sent, int64(3*len(long)/10), "the streams are not read far ahead of the caller")

			rr.Release()
			require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond,
				"Release ends every DoGet")
			require.Equal(t, 1, d.total())
			require.EqualValues(t, 1, d.closes.Load())
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsDeliversTheRowsBeforeANodeDies(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	// Endpoint 1's node sends two records, then dies with the stream open.
	streams := []stream{{sizes: []int{4, 6}}, {sizes: []int{3, 4}, stall: true}}
	nodes := startNodes(t, mem, streams, streams)
	d := newDialer()
	info := eventInfo(true, at(0, nodes[0].uri), at(1, nodes[1].uri))
	before := settledGoroutines()

	rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Dial: d.dial}, info, mapper.Allocator(mem))
	require.NoError(t, err)
	var got []event
	for rr.Next() {
		rows, err := mapper.Decode[event](rr.RecordBatch())
		require.NoError(t, err)
		got = append(got, rows...)
		if len(got) == 17 {
			nodes[1].kill() // every record sent has arrived
		}
	}
	require.Equal(t, wantEvents(streams), got, "every row before the node died")
	err = rr.Err()
	require.Error(t, err)
	require.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	require.ErrorContains(t, err, "flight endpoint 1 at "+nodes[1].uri)
	require.NotErrorIs(t, err, io.EOF)
	require.False(t, rr.Next(), "the error ends reading")
	require.Equal(t, err, rr.Err())
	rr.Release()

	require.EqualValues(t, 2, d.closes.Load())
	requireGoroutinesBack(t, before)
}

func TestOpenRecordsEndsWhenTheCallersContextDoes(t *testing.T) {
	// Endpoint 1 sends one record, then stalls until the caller gives up.
	streams := []stream{{sizes: []int{4, 6}}, {sizes: []int{3}, stall: true}, {sizes: []int{2}}}
	for _, ordered := range []bool{true, false} {
		t.Run(fmt.Sprintf("ordered %v", ordered), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, streams)
			d := newDialer()
			info := eventInfo(ordered, at(0, nodes[0].uri), at(1, nodes[0].uri), at(2, nodes[0].uri))
			before := settledGoroutines()

			ctx, cancel := context.WithTimeout(testContext(t), 300*time.Millisecond)
			defer cancel()
			r, err := amflight.Open[event](ctx, amflight.Source{Dial: d.dial}, info, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			require.ErrorIs(t, err, context.DeadlineExceeded, "the stalled endpoint ends with the deadline")
			want := wantEvents(streams[:2])
			if !ordered {
				// Endpoint 2 is not behind the stalled one.
				want = wantEvents(streams)
				got = sortedByID(got)
			}
			require.Equal(t, want, got, "every row that arrived before the deadline")
			r.Release()

			require.Eventually(t, func() bool { return nodes[0].svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond)
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsReleaseStopsEveryStream(t *testing.T) {
	long := sizes(10_000, 100)
	streams := []stream{{sizes: long}, {sizes: long}, {sizes: long}, {sizes: long}, {sizes: long}}
	for _, records := range []int{0, 1, 50} {
		t.Run(fmt.Sprintf("released after %d records", records), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, streams, streams)
			d := newDialer()
			var eps []*flight.FlightEndpoint
			for e := range streams {
				eps = append(eps, at(e, nodes[e%2].uri))
			}
			before := settledGoroutines()

			rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Dial: d.dial, Streams: 3}, eventInfo(false, eps...), mapper.Allocator(mem))
			require.NoError(t, err)
			rr.Retain()
			rr.Release() // not the last reference: nothing stops
			for range records {
				require.True(t, rr.Next())
			}
			rr.Release()
			for _, n := range nodes {
				require.Eventually(t, func() bool { return n.svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond,
					"every DoGet ends once Release has returned")
			}
			if records == 0 {
				require.Zero(t, d.total(), "nothing is dialed before the first Next")
			}
			require.EqualValues(t, d.total(), d.closes.Load())
			require.False(t, rr.Next(), "released, the reader has ended")
			requireGoroutinesBack(t, before)
		})
	}
}

func TestOpenRecordsOfAnInfoWithoutEndpoints(t *testing.T) {
	before := settledGoroutines()
	rr, err := amflight.OpenRecords(testContext(t), amflight.Source{}, eventInfo(false))
	require.NoError(t, err)
	require.True(t, rr.Schema().Equal(eventSchema), "the info's schema")
	require.False(t, rr.Next())
	require.NoError(t, rr.Err())
	rr.Release()

	r, err := amflight.Open[event](testContext(t), amflight.Source{}, eventInfo(true))
	require.NoError(t, err)
	rows, err := r.ReadAll()
	require.NoError(t, err)
	require.Empty(t, rows)
	r.Release()

	_, err = amflight.OpenRecords(testContext(t), amflight.Source{}, &flight.FlightInfo{})
	require.ErrorContains(t, err, "neither a schema nor an endpoint")
	requireGoroutinesBack(t, before)
}

func TestOpenRecordsChecksItsArguments(t *testing.T) {
	tests := []struct {
		name string
		src  amflight.Source
		info *flight.FlightInfo
		want string
	}{
		{"a nil info", amflight.Source{}, nil, "nil flight info"},
		{"a negative Streams", amflight.Source{Streams: -1}, eventInfo(false, at(0)), "Streams -1 is negative"},
		{"a nil endpoint", amflight.Source{}, eventInfo(false, at(0), nil), "flight endpoint 1 has no ticket"},
		{"an endpoint without a ticket", amflight.Source{}, eventInfo(false, &flight.FlightEndpoint{}), "flight endpoint 0 has no ticket"},
		{"a schema that is not one", amflight.Source{}, &flight.FlightInfo{Schema: []byte("nonsense"), Endpoint: []*flight.FlightEndpoint{at(0)}}, "the flight info's schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rr, err := amflight.OpenRecords(testContext(t), tt.src, tt.info)
			require.ErrorContains(t, err, tt.want)
			require.Nil(t, rr)
		})
	}
}

func TestOpenChecksTheSchemaAgainstTBeforeAnyRow(t *testing.T) {
	type wrong struct {
		ID   int64  `arrow:"id"`
		Name []byte `arrow:"endpoint"`
	}
	streams := []stream{{sizes: []int{3}}, {sizes: []int{4}}, {sizes: []int{5}}}
	for _, withSchema := range []bool{true, false} {
		t.Run(fmt.Sprintf("schema in the info %v", withSchema), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, streams)
			d := newDialer()
			info := eventInfo(false, at(0, nodes[0].uri), at(1, nodes[0].uri), at(2, nodes[0].uri))
			if !withSchema {
				info.Schema = nil
			}
			before := settledGoroutines()

			r, err := amflight.Open[wrong](testContext(t), amflight.Source{Dial: d.dial}, info, mapper.Allocator(mem))
			require.Nil(t, r)
			require.ErrorIs(t, err, mapper.ErrTypeMismatch)
			var me *mapper.Error
			require.True(t, errors.As(err, &me), "%v", err)
			require.Equal(t, "Name", me.Path)
			require.Equal(t, "endpoint", me.Column)
			require.Equal(t, -1, me.Row)

			svc := nodes[0].svc
			if withSchema {
				require.Zero(t, svc.gets.Load(), "no stream is opened")
			} else {
				require.EqualValues(t, 1, svc.gets.Load(), "only the first endpoint's stream, for its schema")
			}
			require.Eventually(t, func() bool { return svc.active.Load() == 0 }, 10*time.Second, 5*time.Millisecond,
				"every stream has ended")
			require.EqualValues(t, d.total(), d.closes.Load())
			requireGoroutinesBack(t, before)
		})
	}
}

// TestOpenRecordsIsAnArrowRecordReader: a consumer of array.RecordReader sees
// each record valid until the next Next, and Record as RecordBatch.
func TestOpenRecordsIsAnArrowRecordReader(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	streams := []stream{{sizes: []int{3, 1}}, {sizes: []int{2}}}
	nodes := startNodes(t, mem, streams)
	info := eventInfo(true, at(0), at(1))
	rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Client: nodes[0].client(t)}, info, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	var got []event
	var lens []int64
	for rr.Next() {
		rec := rr.RecordBatch()
		require.Same(t, rec, rr.Record()) //lint:ignore SA1019 Record is the name older consumers call
		lens = append(lens, rec.NumRows())
		rows, err := mapper.Decode[event](rec)
		require.NoError(t, err)
		got = append(got, rows...)
		// A reader of arrow-go's own, over the same records, agrees.
		require.Equal(t, fmt.Sprintf("event-%d", got[len(got)-int(rec.NumRows())].ID),
			rec.Column(2).(*array.String).Value(0))
	}
	require.NoError(t, rr.Err())
	require.Equal(t, []int64{3, 1, 2}, lens)
	require.Equal(t, wantEvents(streams), got)
}

// sizeAllocator records the largest allocation asked of it and refuses
// (panicking, as an allocator can only) any past 256 MiB: a reader that
// trusts a claim then fails with an error, rather than the test
// allocating what the claim asks.
type sizeAllocator struct {
	memory.Allocator
	largest atomic.Int64
}

func (a *sizeAllocator) check(size int) {
	for {
		old := a.largest.Load()
		if int64(size) <= old || a.largest.CompareAndSwap(old, int64(size)) {
			break
		}
	}
	if size > 256<<20 {
		panic(fmt.Sprintf("sizeAllocator: %d bytes asked", size))
	}
}

func (a *sizeAllocator) Allocate(size int) []byte {
	a.check(size)
	return a.Allocator.Allocate(size)
}

func (a *sizeAllocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.Allocator.Reallocate(size, b)
}

// flightReadEntry is one entry point of this package reading every row of
// the stream of tkt through c, as rows of T: the error that ended it.
type flightReadEntry[T any] struct {
	name string
	read func(t *testing.T, c flight.Client, tkt *flight.Ticket, opts ...amflight.ReadOption) error
}

// flightReadEntries is every entry point of this package, each reading to
// its end: the readers of rows with ReadAll, OwnedPages in pages, OpenRecords
// record by record.
func flightReadEntries[T any]() []flightReadEntry[T] {
	info := func(tkt *flight.Ticket) *flight.FlightInfo {
		return &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: tkt}}, TotalRecords: -1}
	}
	readAll := func(r *mapper.Reader[T], err error) error {
		if err != nil {
			return err
		}
		defer r.Release()
		_, err = r.ReadAll()
		return err
	}
	return []flightReadEntry[T]{
		{"Stream, read with ReadAll", func(t *testing.T, c flight.Client, tkt *flight.Ticket, opts ...amflight.ReadOption) error {
			return readAll(amflight.Stream[T](testContext(t), c, tkt, opts...))
		}},
		{"Open, read with ReadAll", func(t *testing.T, c flight.Client, tkt *flight.Ticket, opts ...amflight.ReadOption) error {
			return readAll(amflight.Open[T](testContext(t), amflight.Source{Client: c}, info(tkt), opts...))
		}},
		{"OwnedPages", func(t *testing.T, c flight.Client, tkt *flight.Ticket, opts ...amflight.ReadOption) error {
			for _, err := range amflight.OwnedPages[T](testContext(t), amflight.Source{Client: c}, info(tkt), 64, opts...) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"OpenRecords", func(t *testing.T, c flight.Client, tkt *flight.Ticket, opts ...amflight.ReadOption) error {
			rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Client: c}, info(tkt), opts...)
			if err != nil {
				return err
			}
			defer rr.Release()
			for rr.Next() {
			}
			return rr.Err()
		}},
	}
}

// compressedStream is an IPC stream of rows of contractRow's schema, its
// bodies compressed by codec.
func compressedStream(t *testing.T, codec func() ipc.Option) []byte {
	t.Helper()
	recs, _ := contractRecords(memory.DefaultAllocator, -1, 40, 40)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(contractSchema), codec())
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
		rec.Release()
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestAFlightMessageWhoseBuffersClaimTerabytesIsErrTooLargeBeforeItIsAllocated(t *testing.T) {
	relay := &relayServer{}
	c := serve(t, relay)
	for codec, option := range map[string]func() ipc.Option{"LZ4": ipc.WithLZ4, "ZSTD": ipc.WithZstd} {
		data := compressedStream(t, option)
		for _, claim := range []int64{1 << 31, 1 << 40} {
			damaged := arrowtest.ClaimUncompressed(data, claim)
			require.NotNil(t, damaged, "the compressed buffers")
			tkt := relay.add(damaged)
			for _, e := range flightReadEntries[contractRow]() {
				t.Run(fmt.Sprintf("%s, %s, %d bytes claimed", e.name, codec, claim), func(t *testing.T) {
					mem := &sizeAllocator{Allocator: memory.NewGoAllocator()}
					err := e.read(t, c, tkt, mapper.Allocator(mem))
					require.ErrorIs(t, err, mapper.ErrTooLarge)
					var me *mapper.Error
					require.ErrorAs(t, err, &me)
					assert.Contains(t, err.Error(), fmt.Sprint(claim), "the claim named")
					assert.Less(t, mem.largest.Load(), int64(1<<20), "the largest allocation")
				})
			}
		}
	}
	// The same streams undamaged read whole.
	for codec, option := range map[string]func() ipc.Option{"LZ4": ipc.WithLZ4, "ZSTD": ipc.WithZstd} {
		tkt := relay.add(compressedStream(t, option))
		for _, e := range flightReadEntries[contractRow]() {
			t.Run(fmt.Sprintf("%s, %s, undamaged", e.name, codec), func(t *testing.T) {
				require.NoError(t, e.read(t, c, tkt))
			})
		}
	}
}

// trillion is the rows the records of the tests below claim: 2^40, a few
// bytes each.
const trillion = 1 << 40

// claimingRowsStream is an IPC stream of one record of column, claiming its
// rows, of the one field "v".
func claimingRowsStream(t *testing.T, column arrow.Array) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: column.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{column}, int64(column.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// runEndColumn is a run-end-encoded int64 column of one run of n rows of
// 7: 16 bytes of buffers.
func runEndColumn(n int64) arrow.Array {
	ends := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{n}))}, nil, 0, 0))
	defer ends.Release()
	values := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{7}))}, nil, 0, 0))
	defer values.Release()
	return array.NewRunEndEncodedArray(ends, values, int(n), 0)
}

func TestReadAllOfAFlightRefusesARecordOfTrillionsOfRowsInAFewBytes(t *testing.T) {
	relay := &relayServer{}
	c := serve(t, relay)
	ree, null := runEndColumn(trillion), array.NewNull(trillion)
	defer ree.Release()
	defer null.Release()
	type intRow struct {
		V int64 `arrow:"v"`
	}
	type nullRow struct {
		V mapper.Null `arrow:"v"`
	}
	reeTicket, nullTicket := relay.add(claimingRowsStream(t, ree)), relay.add(claimingRowsStream(t, null))
	check := func(t *testing.T, err error) {
		t.Helper()
		require.ErrorIs(t, err, mapper.ErrTooLarge)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, -1, me.Row, "the message refused before a row of it is read")
		assert.Contains(t, err.Error(), fmt.Sprint(trillion), "the rows claimed")
		assert.Contains(t, err.Error(), "MaxExpansion", "the remedy named")
	}
	for _, e := range flightReadEntries[intRow]()[:2] { // the readers of rows, with ReadAll
		t.Run("a run-end-encoded column, "+e.name, func(t *testing.T) {
			check(t, e.read(t, c, reeTicket))
		})
	}
	for _, e := range flightReadEntries[nullRow]()[:2] {
		t.Run("a null column, "+e.name, func(t *testing.T) {
			check(t, e.read(t, c, nullTicket))
		})
	}
}

func TestReadAllOfAFlightReadsALongRunWithinItsLimitOrWithMaxExpansion(t *testing.T) {
	relay := &relayServer{}
	c := serve(t, relay)
	// A row of 4 KiB, its padding no column's: 16 bytes of buffers hold
	// 64 MiB + 64 × 16 bytes of them, 16,384 rows.
	type intRow struct {
		V   int64      `arrow:"v"`
		Pad [4088]byte `arrow:"-"`
	}
	limit := int64(64<<20+64*16) / 4096
	for _, tt := range []struct {
		name string
		rows int64
		opts []amflight.ReadOption
		ok   bool
	}{
		{"the rows of the limit are read", limit, nil, true},
		{"one row more is refused", limit + 1, nil, false},
		{"MaxExpansion raises the limit", limit + 1, []amflight.ReadOption{mapper.MaxExpansion(1 << 16)}, true},
	} {
		col := runEndColumn(tt.rows)
		tkt := relay.add(claimingRowsStream(t, col))
		col.Release()
		for _, e := range flightReadEntries[intRow]()[:2] {
			t.Run(tt.name+", "+e.name, func(t *testing.T) {
				err := e.read(t, c, tkt, tt.opts...)
				if tt.ok {
					require.NoError(t, err)
				} else {
					require.ErrorIs(t, err, mapper.ErrTooLarge)
				}
			})
		}
	}
}
