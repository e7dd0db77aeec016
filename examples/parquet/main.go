// Command parquet writes orders to a Parquet file in a temporary directory
// with amparquet.NewWriter, reads them back page by page with
// amparquet.Open, then reads two of the four columns only: the other two
// are never read from the file.
//
//	go run ./examples/parquet
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// Order is a row of the file.
type Order struct {
	ID       int64   `arrow:"id"`
	Customer string  `arrow:"customer"`
	Items    []Item  `arrow:"items"`
	Note     *string `arrow:"note"`
}

// Item is one element of an order's items list.
type Item struct {
	SKU string `arrow:"sku"`
	Qty int32  `arrow:"qty"`
}

// Basket is what the projection reads: the id and items columns only.
type Basket struct {
	ID    int64  `arrow:"id"`
	Items []Item `arrow:"items"`
}

const (
	orders   = 2_500
	rowGroup = 1_000
	batch    = 500 // orders a Write
)

func main() {
	dir, err := os.MkdirTemp("", "arrowmap-parquet-")
	if err == nil {
		err = run(os.Stdout, memory.DefaultAllocator, dir)
		if rmErr := os.RemoveAll(dir); err == nil {
			err = rmErr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "parquet:", err)
		os.Exit(1)
	}
}

// run writes orders.parquet in dir, reads it back twice with mem and
// prints what it read to w.
func run(w io.Writer, mem memory.Allocator, dir string) error {
	path := filepath.Join(dir, "orders.parquet")
	if err := writeOrders(path, mem); err != nil {
		return err
	}

	// Every column, in pages of 256 rows: the reader holds one record of
	// BatchRows rows at a time, whatever the size of the file.
	rdr, err := amparquet.Open[Order](path, amparquet.ReadConfig{BatchRows: 512}, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	defer rdr.Release()
	n, notes := 0, 0
	for page, err := range rdr.Pages(256) {
		if err != nil {
			return err
		}
		for _, o := range page {
			if n < 3 {
				fmt.Fprintf(w, "order %d: %s %+v\n", o.ID, o.Customer, o.Items)
			}
			if o.Note != nil {
				notes++
			}
			n++
		}
	}
	fmt.Fprintf(w, "read %d orders, %d with a note\n", n, notes)

	// Two columns, from the row groups whose ids reach 2000: the footer's
	// statistics decide before any data is read.
	baskets, err := amparquet.Open[Basket](path, mapper.Allocator(mem), amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		id, ok := g.Column("id")
		return !ok || !id.HasMinMax || id.Max.(int64) >= 2000
	}})
	if err != nil {
		return err
	}
	defer baskets.Release()
	fmt.Fprintf(w, "columns read: %v\n", fieldNames(baskets))
	rows, items := 0, 0
	for b, err := range baskets.All() {
		if err != nil {
			return err
		}
		if rows == 0 {
			fmt.Fprintf(w, "first basket: %+v\n", b)
		}
		rows++
		items += len(b.Items)
	}
	fmt.Fprintf(w, "read %d baskets, %d items\n", rows, items)
	return nil
}

// writeOrders writes the orders to path in Writes of batch orders, in row
// groups of rowGroup rows. Order i has i%4 items, and a note every tenth.
func writeOrders(path string, mem memory.Allocator) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	pw, err := amparquet.NewWriter[Order](f, amparquet.WriteConfig{RowGroupRows: rowGroup, Compression: amparquet.Snappy}, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	page := make([]Order, batch)
	for first := 0; first < orders; first += batch {
		for k := range page {
			id := first + k
			o := Order{ID: int64(id), Customer: fmt.Sprintf("customer-%d", id%97), Items: []Item{}}
			for j := range id % 4 {
				o.Items = append(o.Items, Item{SKU: fmt.Sprintf("sku-%d", (id+j)%50), Qty: int32(j + 1)})
			}
			if id%10 == 0 {
				note := fmt.Sprintf("gift %d", id)
				o.Note = &note
			}
			page[k] = o
		}
		if _, err := pw.Write(page); err != nil {
			pw.Close()
			return err
		}
	}
	if err := pw.Close(); err != nil { // the footer; f stays open
		return err
	}
	return f.Close()
}

func fieldNames(r *mapper.Reader[Basket]) []string {
	var names []string
	for _, f := range r.Schema().Fields() {
		names = append(names, f.Name)
	}
	return names
}
