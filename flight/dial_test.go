package flight_test

import (
	"context"
	"github.com/arrowmap/arrowmap/mapper"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/stretchr/testify/require"
)

func TestGRPCDialerReadsGRPCLocations(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	streams := []stream{{sizes: []int{3}}, {sizes: []int{2}}}
	nodes := startNodes(t, mem, streams, streams)
	// One endpoint per node, each named with another spelling of plain gRPC.
	info := eventInfo(true, at(0, nodes[0].uri), at(1, "grpc+tcp://"+nodes[1].addr))
	before := settledGoroutines()
	r, err := amflight.Open[event](testContext(t), amflight.Source{Dial: amflight.GRPCDialer()}, info, mapper.Allocator(mem))
	require.NoError(t, err)
	rows, err := r.ReadAll()
	require.NoError(t, err)
	r.Release()
	require.Len(t, rows, 5)
	requireEndpointsInOrder(t, rows)
	requireGoroutinesBack(t, before)

	for uri, says := range map[string]string{
		"http://127.0.0.1:1":  `no dialer for scheme "http"`,
		"grpc://":             "has no host",
		"grpc://%zz":          "invalid URL escape",
		"unix:///tmp/socket":  `no dialer for scheme "unix"`,
		"grpc+tls:///nothing": "has no host",
	} {
		_, err := amflight.GRPCDialer()(context.Background(), uri)
		require.ErrorContains(t, err, says, uri)
	}
}
