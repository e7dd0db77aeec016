package flight_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
)

// hugeClaim is a count of fields arrow-go would allocate for, trusting it.
const hugeClaim = 1<<31 - 1

func TestAFlightInfoSchemaClaimingBillionsOfFieldsIsAnErrorNotAnAllocation(t *testing.T) {
	info := eventInfo(false, at(0))
	info.Schema = arrowtest.ClaimFields(flight.SerializeSchema(eventSchema, memory.DefaultAllocator), eventSchema.NumFields(), hugeClaim)
	require.NotNil(t, info.Schema)
	rr, err := amflight.OpenRecords(testContext(t), amflight.Source{}, info)
	require.ErrorIs(t, err, ipcschema.ErrMalformed)
	require.ErrorContains(t, err, "the flight info's schema")
	require.Nil(t, rr)
}

// claimingClient's DoGet streams send a first message, the schema, whose
// fields claim hugeClaim elements.
type claimingClient struct{ flight.Client }

func (c claimingClient) DoGet(ctx context.Context, tkt *flight.Ticket, opts ...grpc.CallOption) (flight.FlightService_DoGetClient, error) {
	s, err := c.Client.DoGet(ctx, tkt, opts...)
	if err != nil {
		return nil, err
	}
	return &claimingStream{FlightService_DoGetClient: s}, nil
}

type claimingStream struct {
	flight.FlightService_DoGetClient
	sent bool
}

func (s *claimingStream) Recv() (*flight.FlightData, error) {
	fd, err := s.FlightService_DoGetClient.Recv()
	if err != nil || s.sent {
		return fd, err
	}
	s.sent = true
	header := arrowtest.ClaimFields(fd.DataHeader, eventSchema.NumFields(), hugeClaim)
	if header == nil || bytes.Equal(header, fd.DataHeader) {
		panic("no fields vector in the schema message")
	}
	fd.DataHeader = header
	return fd, nil
}

func TestADoGetStreamWhoseSchemaClaimsBillionsOfFieldsIsAnErrorNotAnAllocation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	// After the server stops (a cleanup of serve, run before this one):
	// its handler may still hold the record the client no longer reads.
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	svc := &eventServer{mem: mem, streams: []stream{{sizes: []int{3}}}}
	client := claimingClient{serve(t, svc)}

	_, err := amflight.Stream[event](testContext(t), client, &flight.Ticket{Ticket: []byte("0")})
	require.ErrorIs(t, err, ipcschema.ErrMalformed)

	rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Client: client}, eventInfo(false, at(0)))
	if err == nil {
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
	}
	require.ErrorIs(t, err, ipcschema.ErrMalformed)
}
