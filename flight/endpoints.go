package flight

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
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
	// Alloc allocates the records read; nil means memory.DefaultAllocator.
	Alloc memory.Allocator
}

// DefaultStreams is how many endpoints a Source reads at once unless it
// says otherwise.
const DefaultStreams = 4

// Records reads every endpoint of info, each at one of its locations, as
// one array.RecordReader: concurrently, at most src.Streams at once, in
// endpoint order when info.Ordered (and in no set order otherwise). Its
// Release ends every stream and closes every connection it opened.
func Records(ctx context.Context, src Source, info *flight.FlightInfo) (array.RecordReader, error) {
	return nil, errors.New("arrowmap/flight: Records is not written yet")
}

// NewReader reads every endpoint of info as rows of T: mapper.NewReader
// over Records, so the schema is checked against T before any row is read.
func NewReader[T any](ctx context.Context, src Source, info *flight.FlightInfo, opts ...mapper.Option) (*mapper.Reader[T], error) {
	rr, err := Records(ctx, src, info)
	if err != nil {
		return nil, err
	}
	defer rr.Release() // the Reader retains its own reference
	return mapper.NewReader[T](rr, opts...)
}
