// Command nested decodes orders made of nested structs, lists of structs,
// maps and nulls into Go structs, then reads them a page at a time with
// Batch.Slice, which narrows the validated record without checking it
// again.
//
//	go run ./examples/nested
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// Address is a struct inside a struct.
type Address struct {
	City string  `arrow:"city"`
	Zip  *string `arrow:"zip"` // a null zip is nil
}

// Customer holds an Address: column customer.address.
type Customer struct {
	Name    string  `arrow:"name"`
	Address Address `arrow:"address"`
}

// Item is an element of a list of structs.
type Item struct {
	SKU string `arrow:"sku"`
	Qty int32  `arrow:"qty"`
}

// Order is one row.
type Order struct {
	ID       int64             `arrow:"id"`
	Customer Customer          `arrow:"customer"`
	Items    []Item            `arrow:"items"`
	Attrs    map[string]string `arrow:"attrs"`   // a null map is nil
	GiftTo   *Address          `arrow:"gift_to"` // a null struct is nil
	Notes    []*string         `arrow:"notes"`   // null elements are nil
}

var (
	address = arrow.StructOf(
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "zip", Type: arrow.BinaryTypes.String, Nullable: true},
	)
	schema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "customer", Type: arrow.StructOf(
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String},
			arrow.Field{Name: "address", Type: address},
		)},
		{Name: "items", Type: arrow.ListOfNonNullable(arrow.StructOf(
			arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
			arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		))},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
		{Name: "gift_to", Type: address, Nullable: true},
		{Name: "notes", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}, nil)
)

// The rows, in arrow-go's JSON form: a map is a list of key/value pairs.
const ordersJSON = `[
{"id": 1, "customer": {"name": "Ada", "address": {"city": "Lyon", "zip": "69001"}},
 "items": [{"sku": "pen", "qty": 2}, {"sku": "ink", "qty": 1}],
 "attrs": [{"key": "channel", "value": "web"}], "gift_to": null, "notes": ["fragile", null]},
{"id": 2, "customer": {"name": "Grace", "address": {"city": "Osaka", "zip": null}},
 "items": [], "attrs": null, "gift_to": {"city": "Perth", "zip": "6000"}, "notes": null},
{"id": 3, "customer": {"name": "Alan", "address": {"city": "Recife", "zip": "50000"}},
 "items": [{"sku": "pad", "qty": 5}], "attrs": [], "gift_to": null, "notes": []},
{"id": 4, "customer": {"name": "Edsger", "address": {"city": "Tromsø", "zip": "9008"}},
 "items": [{"sku": "pen", "qty": 1}, {"sku": "pad", "qty": 1}, {"sku": "cap", "qty": 3}],
 "attrs": [{"key": "channel", "value": "store"}, {"key": "coupon", "value": "C42"}],
 "gift_to": {"city": "Lyon", "zip": null}, "notes": ["call first"]},
{"id": 5, "customer": {"name": "Barbara", "address": {"city": "Perth", "zip": "6000"}},
 "items": [{"sku": "ink", "qty": 2}], "attrs": null, "gift_to": null, "notes": [null]}
]`

const pageSize = 2

func main() {
	if err := run(os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "nested:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, mem memory.Allocator) error {
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(ordersJSON))
	if err != nil {
		return err
	}
	defer rec.Release()

	// New checks every field against its column before any row is read;
	// View validates the record once.
	m, err := mapper.New[Order](rec.Schema())
	if err != nil {
		return err
	}
	batch, err := m.View(rec)
	if err != nil {
		return err
	}

	// Each page is a Slice of the batch: no validation again, and one
	// buffer of rows reused from page to page.
	var page []Order
	for start := 0; start < batch.Len(); start += pageSize {
		end := min(start+pageSize, batch.Len())
		page = batch.Slice(start, end).Append(page[:0])
		fmt.Fprintf(w, "rows [%d, %d):\n", start, end)
		for _, o := range page {
			fmt.Fprintf(w, "  %s\n", describe(o))
		}
	}

	// Row decodes one row into a value of your own.
	var last Order
	batch.Row(batch.Len()-1, &last)
	fmt.Fprintf(w, "last: %s\n", describe(last))
	return nil
}

// describe is an order on one line, null values written "null".
func describe(o Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s of %s", o.ID, o.Customer.Name, place(&o.Customer.Address))
	fmt.Fprintf(&b, ", items:")
	if len(o.Items) == 0 {
		fmt.Fprintf(&b, " none")
	}
	for _, it := range o.Items {
		fmt.Fprintf(&b, " %d×%s", it.Qty, it.SKU)
	}
	if o.Attrs == nil {
		fmt.Fprintf(&b, ", attrs: null")
	} else {
		fmt.Fprintf(&b, ", attrs: %v", o.Attrs)
	}
	fmt.Fprintf(&b, ", gift to: %s", place(o.GiftTo))
	if o.Notes == nil {
		fmt.Fprintf(&b, ", notes: null")
	} else {
		notes := make([]string, len(o.Notes))
		for i, n := range o.Notes {
			notes[i] = "null"
			if n != nil {
				notes[i] = fmt.Sprintf("%q", *n)
			}
		}
		fmt.Fprintf(&b, ", notes: [%s]", strings.Join(notes, " "))
	}
	return b.String()
}

func place(a *Address) string {
	switch {
	case a == nil:
		return "null"
	case a.Zip == nil:
		return a.City
	}
	return a.City + " " + *a.Zip
}
