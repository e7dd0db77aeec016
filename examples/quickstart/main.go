// Command quickstart builds an Arrow record with arrow-go's builders,
// decodes it into Go structs with mapper.Decode, and encodes the structs
// back into a record with mapper.Encode.
//
//	go run ./examples/quickstart
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// Order is one row: tags name the columns; a pointer or a slice may be null.
type Order struct {
	ID   int64    `arrow:"id"`
	Tags []string `arrow:"tags"`
	Note *string  `arrow:"note"`
}

func main() {
	if err := run(os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, mem memory.Allocator) error {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	tags := b.Field(1).(*array.ListBuilder)
	tags.Append(true)
	tags.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"gift", "express"}, nil)
	tags.AppendNull()
	tags.Append(true)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"", "leave at the door", ""}, []bool{false, true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()

	// Decode: one plan per (Order, schema), compiled once and cached.
	orders, err := mapper.Decode[Order](rec)
	if err != nil {
		return err
	}
	for _, o := range orders {
		tags, note := fmt.Sprintf("%q", o.Tags), "null"
		if o.Tags == nil {
			tags = "null"
		}
		if o.Note != nil {
			note = fmt.Sprintf("%q", *o.Note)
		}
		fmt.Fprintf(w, "order %d: tags %s, note %s\n", o.ID, tags, note)
	}

	// Encode: the schema comes from the struct's types and tags.
	back, err := mapper.Encode(orders, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	defer back.Release()
	fmt.Fprintln(w, back.Schema())
	for i, col := range back.Columns() {
		fmt.Fprintf(w, "%s: %v\n", back.ColumnName(i), col)
	}
	return nil
}
