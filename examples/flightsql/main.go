// Command flightsql starts arrow-go's SQLite Flight SQL example server
// in-process on a loopback port, writes a []Order into a table, runs an
// aggregate query with a parameter bound from a Go value, decodes the
// result into a []Summary and prints it.
//
// arrow-go's example server has no bulk ingest: the program tries
// amflightsql.Ingest first, as it would against a server that has one
// (Dremio, DataFusion's), and on the server's Unimplemented inserts the
// same rows through a prepared statement whose parameters are the rows,
// encoded with mapper.Encode.
//
//	cd examples/flightsql && go run .
//
// It is a module of its own, so that SQLite stays out of what a user of
// arrowmap downloads.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/mapper"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Order is a row written into the orders table.
type Order struct {
	ID     int64   `arrow:"id"`
	Region string  `arrow:"region"`
	Amount float64 `arrow:"amount"`
}

// Summary is a row of the query's result.
type Summary struct {
	Region string  `arrow:"region"`
	Orders int64   `arrow:"orders"`
	Total  float64 `arrow:"total"`
}

// MinAmount is the query's one parameter.
type MinAmount struct {
	Amount float64 `arrow:"amount"`
}

var orders = []Order{
	{1, "north", 12.50}, {2, "south", 40.00}, {3, "north", 8.25}, {4, "east", 99.99},
	{5, "south", 5.00}, {6, "north", 31.75}, {7, "east", 10.00}, {8, "west", 3.50},
}

const summaryQuery = `SELECT region, COUNT(*) AS orders, SUM(amount) AS total
	FROM orders WHERE amount > ? GROUP BY region ORDER BY region`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "flightsql:", err)
		os.Exit(1)
	}
}

// run serves a SQLite database, writes the orders into it, and prints the
// summaries to w; the client encodes and reads with mem.
func run(ctx context.Context, w io.Writer, mem memory.Allocator) (err error) {
	addr, stop, err := serveSQLite()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stop()) }()

	client, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer client.Close()
	client.Alloc = mem
	c := amflightsql.Conn{Client: client}

	if _, err := client.ExecuteUpdate(ctx, "CREATE TABLE orders (id INTEGER, region TEXT, amount REAL)"); err != nil {
		return err
	}
	n, err := amflightsql.Ingest(ctx, c, amflightsql.Table{Name: "orders", Mode: amflightsql.Append}, orders, mapper.Allocator(mem))
	if status.Code(err) == codes.Unimplemented {
		fmt.Fprintln(w, "the server has no bulk ingest; inserting through a prepared statement")
		n, err = insert(ctx, client, mem, orders)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d orders\n", n)

	r, err := amflightsql.QueryWith[Summary](ctx, c, summaryQuery, []MinAmount{{Amount: 9}}, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	defer r.Release() // ends the stream and closes the prepared statement
	summaries, err := r.ReadAll()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "orders over 9.00, by region:")
	for _, s := range summaries {
		fmt.Fprintf(w, "  %-6s %d orders, %7.2f\n", s.Region, s.Orders, s.Total)
	}
	return nil
}

// insert writes rows with a prepared INSERT, bound to the rows themselves:
// the server runs it once per row.
func insert(ctx context.Context, client *flightsql.Client, mem memory.Allocator, rows []Order) (n int64, err error) {
	params, err := mapper.Encode(rows, mapper.Allocator(mem))
	if err != nil {
		return 0, err
	}
	defer params.Release()
	stmt, err := client.Prepare(ctx, "INSERT INTO orders (id, region, amount) VALUES (?, ?, ?)")
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, stmt.Close(ctx)) }()
	stmt.SetParameters(params)
	return stmt.ExecuteUpdate(ctx)
}

// serveSQLite serves arrow-go's SQLite Flight SQL example server, over a
// new in-memory database, on a free loopback port; stop shuts it down.
func serveSQLite() (addr string, stop func() error, err error) {
	db, err := example.CreateDB()
	if err != nil {
		return "", nil, err
	}
	srv, err := example.NewSQLiteFlightSQLServer(db)
	if err != nil {
		return "", nil, errors.Join(err, db.Close())
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, errors.Join(err, db.Close())
	}
	s := flight.NewServerWithMiddleware(nil)
	s.RegisterFlightService(flightsql.NewFlightServer(srv))
	s.InitListener(lis)
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	return lis.Addr().String(), func() error {
		s.Shutdown() // waits for the streams to end
		return errors.Join(<-served, db.Close())
	}, nil
}
