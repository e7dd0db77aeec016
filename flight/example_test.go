package flight_test

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func ExampleOwnedPages() {
	type Event struct {
		ID       int64 `arrow:"id"`
		Endpoint int32 `arrow:"endpoint"`
	}
	// A server whose flight has 3 endpoints of 5, 0 and 250 rows.
	addr, stop := exampleFlightServer([]stream{{sizes: []int{5}}, {}, {sizes: []int{200, 50}}})
	defer stop()

	ctx := context.Background()
	client, err := flight.NewClientWithMiddleware(addr, nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	info, err := client.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte("events")})
	if err != nil {
		log.Fatal(err)
	}

	// The endpoints are read concurrently: pages of different endpoints
	// interleave, so count them rather than print them in order.
	rows := map[int32]int{}
	var all []Event
	for page, err := range amflight.OwnedPages[Event](ctx, amflight.Source{Client: client}, info, 100) {
		if err != nil {
			log.Fatal(err)
		}
		for _, e := range page {
			rows[e.Endpoint]++
		}
		all = append(all, page...) // a page is the caller's to keep
	}
	slices.SortFunc(all, func(a, b Event) int { return int(a.ID - b.ID) })
	fmt.Println("endpoint 0:", rows[0], "rows; endpoint 2:", rows[2], "rows")
	fmt.Println("first:", all[0], "last:", all[len(all)-1])
	// Output:
	// endpoint 0: 5 rows; endpoint 2: 250 rows
	// first: {0 0} last: {2000249 2}
}

func ExampleStream() {
	type Event struct {
		ID   int64  `arrow:"id"`
		Name string `arrow:"name"`
	}
	addr, stop := exampleFlightServer([]stream{{sizes: []int{3, 2}}})
	defer stop()
	client, err := flight.NewClientWithMiddleware(addr, nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	rdr, err := amflight.Stream[Event](context.Background(), client, &flight.Ticket{Ticket: []byte("0")})
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Release() // ends the stream, read to its end or not
	for page, err := range rdr.Pages(2) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(page)
	}
	// Output:
	// [{0 event-0} {1 event-1}]
	// [{2 event-2} {3 event-3}]
	// [{4 event-4}]
}

func ExampleOpen() {
	type Event struct {
		ID       int64 `arrow:"id"`
		Endpoint int32 `arrow:"endpoint"`
	}
	// Two nodes of an engine, each serving the endpoints placed on it.
	streams := []stream{{sizes: []int{2}}, {sizes: []int{3}}}
	addr0, stop0 := exampleFlightServer(streams)
	defer stop0()
	addr1, stop1 := exampleFlightServer(streams)
	defer stop1()
	// The FlightInfo the engine would answer with: endpoint 0 on one
	// node, endpoint 1 on the other, in order.
	info := &flight.FlightInfo{
		Schema:  flight.SerializeSchema(eventSchema, memory.DefaultAllocator),
		Ordered: true,
		Endpoint: []*flight.FlightEndpoint{
			{Ticket: &flight.Ticket{Ticket: []byte("0")}, Location: []*flight.Location{{Uri: "grpc://" + addr0}}},
			{Ticket: &flight.Ticket{Ticket: []byte("1")}, Location: []*flight.Location{{Uri: "grpc://" + addr1}}},
		},
	}

	src := amflight.Source{
		// Each location is dialed once for the read, with the caller's
		// options, and closed when it ends.
		Dial: func(ctx context.Context, uri string) (flight.Client, error) {
			u, err := url.Parse(uri)
			if err != nil {
				return nil, err
			}
			return flight.NewClientWithMiddlewareCtx(ctx, u.Host, nil, nil,
				grpc.WithTransportCredentials(insecure.NewCredentials()))
		},
	}
	rdr, err := amflight.Open[Event](context.Background(), src, info)
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Release()
	for e, err := range rdr.All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e)
	}
	// Output:
	// {0 0}
	// {1 0}
	// {1000000 1}
	// {1000001 1}
	// {1000002 1}
}

// exampleFlightServer serves streams on a loopback port.
func exampleFlightServer(streams []stream) (addr string, stop func()) {
	srv := flight.NewServerWithMiddleware(nil)
	if err := srv.Init("127.0.0.1:0"); err != nil {
		log.Fatal(err)
	}
	srv.RegisterFlightService(&eventServer{mem: memory.DefaultAllocator, streams: streams})
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	return srv.Addr().String(), func() {
		srv.Shutdown()
		if err := <-served; err != nil {
			log.Fatal(err)
		}
	}
}
