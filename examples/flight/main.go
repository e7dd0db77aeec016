// Command flight starts an Arrow Flight server in-process on a loopback
// port, whose flight has 2 endpoints, reads every endpoint concurrently with
// amflight.OwnedPages, prints the totals, and shuts the server down.
//
//	go run ./examples/flight
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Trade is one row of the flight.
type Trade struct {
	ID     int64   `arrow:"id"`
	Symbol string  `arrow:"symbol"`
	Price  float64 `arrow:"price"`
}

const (
	endpoints   = 2
	perEndpoint = 5_000
	batch       = 700
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "flight:", err)
		os.Exit(1)
	}
}

// run serves the trades with mem, reads them back and prints the totals
// to w.
func run(ctx context.Context, w io.Writer, mem memory.Allocator) (err error) {
	srv := flight.NewServerWithMiddleware(nil)
	if err := srv.Init("127.0.0.1:0"); err != nil {
		return err
	}
	srv.RegisterFlightService(&tradeServer{mem: mem})
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	defer func() {
		srv.Shutdown() // waits for the streams to end
		err = errors.Join(err, <-served)
	}()
	fmt.Fprintf(w, "serving %d endpoints of %d trades\n", endpoints, perEndpoint)

	client, err := flight.NewClientWithMiddleware(srv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer client.Close()
	info, err := client.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte("trades")})
	if err != nil {
		return err
	}

	var (
		rows, nPages int
		sum          float64
		maxID        int64
	)
	for page, err := range amflight.OwnedPages[Trade](ctx, amflight.Source{Client: client}, info, 1_000) {
		if err != nil {
			return err
		}
		nPages++
		for _, t := range page {
			rows++
			sum += t.Price
			maxID = max(maxID, t.ID)
		}
	}
	fmt.Fprintf(w, "read %d trades in %d pages from %d endpoints\n", rows, nPages, len(info.Endpoint))
	fmt.Fprintf(w, "total price %.2f, highest id %d\n", sum, maxID)
	return nil
}

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "symbol", Type: arrow.BinaryTypes.String},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
}, nil)

// tradeServer serves a flight of endpoints streams: stream e has the trades
// with ids e*perEndpoint up to (e+1)*perEndpoint, in records of batch rows.
type tradeServer struct {
	flight.BaseFlightServer
	mem memory.Allocator
}

func (s *tradeServer) GetFlightInfo(ctx context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	info := &flight.FlightInfo{
		Schema:           flight.SerializeSchema(schema, s.mem),
		FlightDescriptor: desc,
		TotalRecords:     endpoints * perEndpoint,
		TotalBytes:       -1,
	}
	for e := range endpoints {
		info.Endpoint = append(info.Endpoint, &flight.FlightEndpoint{
			Ticket: &flight.Ticket{Ticket: []byte(strconv.Itoa(e))},
		})
	}
	return info, nil
}

func (s *tradeServer) DoGet(tkt *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	e, err := strconv.Atoi(string(tkt.Ticket))
	if err != nil || e < 0 || e >= endpoints {
		return status.Errorf(codes.NotFound, "no endpoint %q", tkt.Ticket)
	}
	w := flight.NewRecordWriter(fs, ipc.WithSchema(schema), ipc.WithAllocator(s.mem))
	defer w.Close()
	b := array.NewRecordBuilder(s.mem, schema)
	defer b.Release()
	for id := e * perEndpoint; id < (e+1)*perEndpoint; {
		for n := min(batch, (e+1)*perEndpoint-id); n > 0; n-- {
			b.Field(0).(*array.Int64Builder).Append(int64(id))
			b.Field(1).(*array.StringBuilder).Append([]string{"ARRW", "GOPH", "PQRT"}[id%3])
			b.Field(2).(*array.Float64Builder).Append(float64(id%100) + 0.25)
			id++
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}
