// Command columns builds an Arrow record, binds its columns to a struct of
// typed column views with mapper.Columns, and computes over them without
// decoding a row: the total of the prices, the number of items of each
// basket, the revenue per region, read through a dictionary column's
// indices, and the express deliveries per city, read from a struct column
// bound as a struct of its own columns. Then it writes the record twice to
// an IPC stream and reads it back in pages of two baskets with a
// ColumnsReader.
//
//	go run ./examples/columns
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// Baskets is the columns of the record: tags name them as for Decode. A
// column is not nullable unless tagged so: Note may hold nulls, the others
// are checked to hold none when Columns binds them.
type Baskets struct {
	Customer views.StringColumn                             `arrow:"customer"`
	Total    views.PrimitiveColumn[float64]                 `arrow:"total"`
	Items    views.ListColumn[views.PrimitiveColumn[int64]] `arrow:"items"`
	Note     views.StringColumn                             `arrow:"note,nullable"`
	// A dictionary-encoded column: each row an index into a few regions.
	Region views.DictionaryColumn[int32, views.StringColumn] `arrow:"region"`
	// A struct column, its fields bound by name like the record's.
	Shipping struct {
		City    views.StringColumn `arrow:"city"`
		Express views.BoolColumn   `arrow:"express"`
	} `arrow:"shipping"`
}

func main() {
	if err := run(os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "columns:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, mem memory.Allocator) error {
	rec := buildRecord(mem)
	defer rec.Release()

	cols, err := mapper.Columns[Baskets](rec)
	if err != nil {
		return err
	}

	// A sum over a []float64 that aliases the Arrow buffer.
	sum := 0.0
	for _, t := range cols.Total.Values() {
		sum += t
	}
	fmt.Fprintf(w, "baskets: %d, total: %.2f\n", cols.Total.Len(), sum)

	// Element counts from the list offsets; each row is itself a column.
	items := 0
	for i := range cols.Items.Len() {
		basket := cols.Items.Value(i)
		fmt.Fprintf(w, "%s: %d items %v", cols.Customer.Value(i), cols.Items.ValueLen(i), basket.Values())
		if !cols.Note.IsNull(i) {
			fmt.Fprintf(w, " (%s)", cols.Note.Value(i))
		}
		fmt.Fprintln(w)
		items += cols.Items.ValueLen(i)
	}
	fmt.Fprintf(w, "items: %d\n", items)

	// Revenue per region: one slot per dictionary entry, summed by index,
	// each region's name read once.
	regions := cols.Region.Dictionary()
	revenue := make([]float64, regions.Len())
	for i, t := range cols.Total.Values() {
		revenue[cols.Region.Index(i)] += t
	}
	for k, r := range revenue {
		fmt.Fprintf(w, "%s: %.2f\n", regions.Value(k), r)
	}

	// The struct's fields are columns over the same rows.
	ship := cols.Shipping
	for i := range ship.City.Len() {
		if ship.Express.Value(i) {
			fmt.Fprintf(w, "express to %s\n", ship.City.Value(i))
		}
	}

	// Slicing a column moves a window: nothing is copied or checked again.
	last := cols.Total.Slice(1, cols.Total.Len())
	fmt.Fprintf(w, "last %d totals: %v\n", last.Len(), last.Values())

	return readPages(w, rec, mem)
}

// readPages writes rec twice to an IPC stream, then reads the stream back in
// pages of two baskets: each record is validated once, then cut into
// pages, none spanning two records.
func readPages(w io.Writer, rec arrow.RecordBatch, mem memory.Allocator) error {
	var stream bytes.Buffer
	iw := ipc.NewWriter(&stream, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	for range 2 {
		if err := iw.Write(rec); err != nil {
			return err
		}
	}
	if err := iw.Close(); err != nil {
		return err
	}
	rr, err := ipc.NewReader(&stream, ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	defer rr.Release()
	cr, err := mapper.NewColumnsReader[Baskets](rr)
	if err != nil {
		return err
	}
	defer cr.Release()
	for page, err := range cr.Windows(2) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "page of %d: totals %v\n", page.Total.Len(), page.Total.Values())
	}
	return nil
}

func buildRecord(mem memory.Allocator) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "customer", Type: arrow.BinaryTypes.String},
		{Name: "total", Type: arrow.PrimitiveTypes.Float64},
		{Name: "items", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "region", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "shipping", Type: arrow.StructOf(
			arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
			arrow.Field{Name: "express", Type: arrow.FixedWidthTypes.Boolean},
		)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"ada", "grace", "linus"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{12.5, 3.25, 40}, nil)
	items := b.Field(2).(*array.ListBuilder)
	skus := items.ValueBuilder().(*array.Int64Builder)
	for _, basket := range [][]int64{{101, 102}, {}, {103, 104, 105}} {
		items.Append(true)
		skus.AppendValues(basket, nil)
	}
	b.Field(3).(*array.StringBuilder).AppendValues([]string{"gift", "", ""}, []bool{true, false, true})
	for _, region := range []string{"north", "south", "north"} {
		if err := b.Field(4).(*array.BinaryDictionaryBuilder).AppendString(region); err != nil {
			panic(err)
		}
	}
	shipping := b.Field(5).(*array.StructBuilder)
	for i, city := range []string{"Lisbon", "Oslo", "Quito"} {
		shipping.Append(true)
		shipping.FieldBuilder(0).(*array.StringBuilder).Append(city)
		shipping.FieldBuilder(1).(*array.BooleanBuilder).Append(i != 1)
	}
	return b.NewRecordBatch()
}
