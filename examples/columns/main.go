// Command columns builds an Arrow record, binds its columns to a struct of
// typed column views with mapper.Columns, and computes over them without
// decoding a row: the total of the prices, the number of items of each
// basket, and the revenue per region, read through a dictionary column's
// indices.
//
//	go run ./examples/columns
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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

	// Slicing a column moves a window: nothing is copied or checked again.
	last := cols.Total.Slice(1, cols.Total.Len())
	fmt.Fprintf(w, "last %d totals: %v\n", last.Len(), last.Values())
	return nil
}

func buildRecord(mem memory.Allocator) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "customer", Type: arrow.BinaryTypes.String},
		{Name: "total", Type: arrow.PrimitiveTypes.Float64},
		{Name: "items", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "region", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
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
	return b.NewRecordBatch()
}
