package adbc_test

import (
	"context"
	"fmt"
	"log"

	"github.com/apache/arrow-adbc/go/adbc"
	amadbc "github.com/arrowmap/arrowmap/adbc"
	"github.com/arrowmap/arrowmap/mapper"
)

type Order struct {
	ID    int64   `arrow:"id"`
	Buyer *string `arrow:"buyer"` // NULL is nil
	Total float64 `arrow:"total"`
}

// open is the connection of any ADBC driver: for Flight SQL,
// flightsql.NewDriver(mem).NewDatabase(map[string]string{adbc.OptionKeyURI:
// "grpc://host:port"}), then db.Open(ctx).
var open func(ctx context.Context) adbc.Connection

func Example() {
	ctx := context.Background()
	cnxn := open(ctx)
	r, err := amadbc.Query[Order](ctx, cnxn, "SELECT id, buyer, total FROM orders")
	if err != nil {
		log.Fatal(err) // a column that does not fit Order is reported here
	}
	defer r.Release() // closes the statement too
	for page, err := range r.Pages(1024) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page))
	}
}

func ExampleQueryWith() {
	ctx := context.Background()
	cnxn := open(ctx)
	type byID struct{ ID int64 }
	r, err := amadbc.QueryWith[Order](ctx, cnxn, "SELECT id, buyer, total FROM orders WHERE id = ?", []byID{{1}, {2}})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Release()
	orders, err := r.ReadAll()
	fmt.Println(orders, err)
}

func ExampleIngest() {
	ctx := context.Background()
	cnxn := open(ctx)
	n, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "orders", Mode: amadbc.CreateAppend}, []Order{{ID: 1, Total: 9.5}})
	fmt.Println(n, err)
}

func ExampleIngestPages() {
	// Copy a query's result page by page, each page a buffer reused.
	ctx := context.Background()
	from, to := open(ctx), open(ctx)
	r, err := amadbc.Query[Order](ctx, from, "SELECT id, buyer, total FROM orders")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Release()
	n, err := amadbc.IngestPages(ctx, to, amadbc.Table{Name: "orders_copy", Mode: amadbc.CreateAppend}, r.Pages(4096))
	fmt.Println(n, err)
}

func ExampleExecWith() {
	// The bulk insert of a driver without ingest: one execution per row.
	ctx := context.Background()
	cnxn := open(ctx)
	n, err := amadbc.ExecWith(ctx, cnxn, "INSERT INTO orders VALUES (?, ?, ?)", []Order{{ID: 1, Total: 9.5}}, mapper.Allocator(nil))
	fmt.Println(n, err)
}

func ExampleIngestSeq() {
	// Copy a query's result from one engine into another's table.
	ctx := context.Background()
	from, to := open(ctx), open(ctx)
	r, err := amadbc.Query[Order](ctx, from, "SELECT id, buyer, total FROM orders")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Release()
	n, err := amadbc.IngestSeq(ctx, to, amadbc.Table{Name: "orders_copy", Mode: amadbc.Create}, r.All())
	fmt.Println(n, err)
}
