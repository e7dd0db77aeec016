// Command parquet writes a Parquet file of orders to a temporary directory,
// then reads it back with amparquet.NewReader into a struct that uses two of its
// four columns: the other two are never read from the file.
//
//	go run ./examples/parquet
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// Order is what the program reads: the id and items columns only.
type Order struct {
	ID    int64  `arrow:"id"`
	Items []Item `arrow:"items"`
}

// Item is one element of an order's items list.
type Item struct {
	SKU string `arrow:"sku"`
	Qty int32  `arrow:"qty"`
}

const (
	orders   = 2_500
	rowGroup = 1_000
)

func main() {
	dir, err := os.MkdirTemp("", "arrowmap-parquet-")
	if err == nil {
		err = run(context.Background(), os.Stdout, memory.DefaultAllocator, dir)
		if rmErr := os.RemoveAll(dir); err == nil {
			err = rmErr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "parquet:", err)
		os.Exit(1)
	}
}

// run writes orders.parquet in dir with mem, reads it back and prints
// what it read to w.
func run(ctx context.Context, w io.Writer, mem memory.Allocator, dir string) error {
	path := filepath.Join(dir, "orders.parquet")
	if err := writeOrders(mem, path); err != nil {
		return err
	}

	pf, err := file.OpenParquetFile(path, false, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 512}, mem)
	if err != nil {
		return err
	}
	rdr, err := amparquet.NewReader[Order](ctx, fr)
	if err != nil {
		return err
	}
	defer rdr.Release()
	fmt.Fprintf(w, "%s: %d row groups, columns read: %v\n",
		filepath.Base(path), pf.NumRowGroups(), fieldNames(rdr.Schema()))

	n, items := 0, 0
	for page, err := range rdr.Pages(256) {
		if err != nil {
			return err
		}
		for _, o := range page {
			if n < 3 || n == orders-1 {
				fmt.Fprintf(w, "order %d: %+v\n", o.ID, o.Items)
			}
			n++
			items += len(o.Items)
		}
	}
	fmt.Fprintf(w, "read %d orders, %d items\n", n, items)
	return nil
}

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "customer", Type: arrow.BinaryTypes.String},
	{Name: "items", Type: arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	))},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// writeOrders writes the orders to path with arrow-go's Parquet writer, in
// row groups of rowGroup rows. Order i has i%4 items.
func writeOrders(mem memory.Allocator, path string) error {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for id := range orders {
		b.Field(0).(*array.Int64Builder).Append(int64(id))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("customer-%d", id%97))
		lb := b.Field(2).(*array.ListBuilder)
		lb.Append(true)
		sb := lb.ValueBuilder().(*array.StructBuilder)
		for k := range id % 4 {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append(fmt.Sprintf("sku-%d", (id+k)%50))
			sb.FieldBuilder(1).(*array.Int32Builder).Append(int32(k + 1))
		}
		b.Field(3).(*array.StringBuilder).AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fw, err := pqarrow.NewFileWriter(schema, f,
		parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithMaxRowGroupLength(rowGroup)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	if err := fw.Close(); err != nil { // closes f too
		return err
	}
	return nil
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}
