package flight_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zstdServer sends every ticket's events compressed, so that the client
// allocates the bodies it decompresses (an uncompressed body is read in
// place, allocating nothing).
type zstdServer struct {
	flight.BaseFlightServer
	rows int
}

func (s *zstdServer) DoGet(tkt *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	w := flight.NewRecordWriter(fs, ipc.WithSchema(eventSchema), ipc.WithZstd())
	defer w.Close()
	rec := eventRecord(memory.DefaultAllocator, 0, 0, s.rows, -1)
	defer rec.Release()
	return w.Write(rec)
}

func (s *zstdServer) GetFlightInfo(_ context.Context, _ *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return &flight.FlightInfo{
		Schema:   flight.SerializeSchema(eventSchema, memory.DefaultAllocator),
		Endpoint: []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: []byte("0")}}},
	}, nil
}

type countingAllocator struct {
	*memory.CheckedAllocator
	calls int
}

func (a *countingAllocator) Allocate(n int) []byte { a.calls++; return a.CheckedAllocator.Allocate(n) }

func TestAllocatorIsHonouredByStreamOpenAndOwnedPages(t *testing.T) {
	client := serve(t, &zstdServer{rows: 500})
	ctx := testContext(t)
	info := flightInfo(t, ctx, client)
	for name, read := range map[string]func(mem memory.Allocator) (int, error){
		"Stream": func(mem memory.Allocator) (int, error) {
			r, err := amflight.Stream[event](ctx, client, &flight.Ticket{Ticket: []byte("0")}, mapper.Allocator(mem))
			if err != nil {
				return 0, err
			}
			defer r.Release()
			rows, err := r.ReadAll()
			return len(rows), err
		},
		"Open": func(mem memory.Allocator) (int, error) {
			r, err := amflight.Open[event](ctx, amflight.Source{Client: client}, info, mapper.Allocator(mem))
			if err != nil {
				return 0, err
			}
			defer r.Release()
			rows, err := r.ReadAll()
			return len(rows), err
		},
		"OwnedPages": func(mem memory.Allocator) (int, error) {
			n := 0
			for page, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 64, mapper.Allocator(mem)) {
				if err != nil {
					return n, err
				}
				n += len(page)
			}
			return n, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			mem := &countingAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
			n, err := read(mem)
			require.NoError(t, err)
			assert.Equal(t, 500, n)
			assert.Positive(t, mem.calls, "the allocator given allocates the records")
			mem.AssertSize(t, 0)
		})
	}
}

func TestOwnedPagesChecksItsOptionsWhenCalledNotWhenRanged(t *testing.T) {
	client := serve(t, &zstdServer{rows: 10})
	ctx := testContext(t)
	info := flightInfo(t, ctx, client)

	// Refused at the call: changing the options before ranging changes
	// nothing.
	opts := []amflight.ReadOption{mapper.ZeroCopy()}
	seq := amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 4, opts...)
	opts[0] = mapper.Strict()
	var errs []error
	for _, err := range seq {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], mapper.ErrOption)
	assert.ErrorContains(t, errs[0], "flight.OwnedPages does not take ZeroCopy")

	// Accepted at the call: a refused option put in after it is not seen.
	opts = []amflight.ReadOption{mapper.Strict()}
	seq = amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 4, opts...)
	opts[0] = mapper.ZeroCopy()
	n := 0
	for page, err := range seq {
		require.NoError(t, err)
		n += len(page)
	}
	assert.Equal(t, 10, n)

	_, err := amflight.OpenRecords(ctx, amflight.Source{Client: client}, info, mapper.Strict())
	assert.ErrorIs(t, err, mapper.ErrOption)
	assert.ErrorContains(t, err, "flight.OpenRecords does not take Strict")
}
