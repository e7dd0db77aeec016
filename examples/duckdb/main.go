//go:build duckdb_arrow

// Command duckdb creates a DuckDB table from a []Order, runs an aggregate
// query with a parameter into a []Summary, and prints it: arrowmap's
// duckdb package over DuckDB's Arrow interface, in an in-memory database.
//
//	cd examples/duckdb && go run -tags duckdb_arrow .
//
// It is a module of its own, so that DuckDB (cgo, a prebuilt library of
// about 70 MB) stays out of what a user of arrowmap downloads.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/arrowmap/arrowmap/duckdb"
)

// Order is a row of the orders table, which Ingest creates from it.
type Order struct {
	ID     int64          `arrow:"id"`
	Region string         `arrow:"region"`
	Placed time.Time      `arrow:"placed,date32"`
	Total  decimal128.Num `arrow:"total,decimal(10,2)"`
	Items  []string       `arrow:"items"`
	Note   *string        `arrow:"note"`
}

// Summary is a row of the aggregate.
type Summary struct {
	Region string         `arrow:"region"`
	Orders int64          `arrow:"orders"`
	Total  decimal128.Num `arrow:"total,decimal(38,2)"`
	Items  int64          `arrow:"items"`
}

func cents(c int64) decimal128.Num { return decimal128.FromI64(c) }

func orders() []Order {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	rush := "rush"
	return []Order{
		{1, "north", day(2), cents(1250), []string{"pen"}, nil},
		{2, "east", day(3), cents(9999), []string{"desk", "lamp"}, &rush},
		{3, "north", day(5), cents(3175), []string{"ink", "paper", "pen"}, nil},
		{4, "south", day(8), cents(4000), nil, nil},
		{5, "east", day(9), cents(1000), []string{"chair"}, nil},
		{6, "west", day(11), cents(450), []string{"clip"}, &rush},
		{7, "south", day(12), cents(875), []string{"tape"}, nil},
		{8, "north", day(15), cents(199), nil, nil},
	}
}

// run writes the orders and prints the summary of those over minTotal.
func run(ctx context.Context, out io.Writer, db *sql.DB) error {
	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders", Mode: duckdb.Create}, orders())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %d orders\n", n)
	// DuckDB sums integers into a HUGEINT: the cast makes it the int64 of
	// Summary (a duckdb.HugeInt field would read it as it is).
	const minTotal = 9.00
	r, err := duckdb.QueryWith[Summary](ctx, db, `
		SELECT region, count(*) AS orders, sum(total)::DECIMAL(38,2) AS total, sum(len(coalesce(items, [])))::BIGINT AS items
		FROM orders WHERE total > ? GROUP BY region ORDER BY region`, []struct{ Min float64 }{{minTotal}})
	if err != nil {
		return err
	}
	defer r.Release()
	summaries, err := r.ReadAll()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "orders over %.2f, by region:\n", minTotal)
	for _, s := range summaries {
		fmt.Fprintf(out, "  %-6s %d orders, %7s, %d items\n", s.Region, s.Orders, s.Total.ToString(2), s.Items)
	}
	return nil
}

func main() {
	db, err := sql.Open("duckdb", "")
	if err == nil {
		defer db.Close()
		err = run(context.Background(), os.Stdout, db)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckdb:", err)
		os.Exit(1)
	}
}
