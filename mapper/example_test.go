package mapper_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// exampleItem and exampleOrder are the rows of exampleRecord.
type exampleItem struct {
	SKU string `arrow:"sku"`
	Qty int32  `arrow:"qty"`
}

type exampleOrder struct {
	ID    int64         `arrow:"id"`
	Items []exampleItem `arrow:"items"`
	Note  *string       `arrow:"note"`
}

func (o exampleOrder) String() string {
	items := make([]string, len(o.Items))
	for i, it := range o.Items {
		items[i] = fmt.Sprintf("%d×%s", it.Qty, it.SKU)
	}
	note := "null"
	if o.Note != nil {
		note = fmt.Sprintf("%q", *o.Note)
	}
	return fmt.Sprintf("#%d [%s] note=%s", o.ID, strings.Join(items, " "), note)
}

var exampleSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "items", Type: arrow.ListOfNonNullable(arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	))},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// exampleRecord is a record of n orders with ids from first: order k has
// k%3 items, and a note when k is even.
func exampleRecord(first, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, exampleSchema)
	defer b.Release()
	items := b.Field(1).(*array.ListBuilder)
	item := items.ValueBuilder().(*array.StructBuilder)
	for k := first; k < first+n; k++ {
		b.Field(0).(*array.Int64Builder).Append(int64(k))
		items.Append(true)
		for j := range k % 3 {
			item.Append(true)
			item.FieldBuilder(0).(*array.StringBuilder).Append([]string{"pen", "ink"}[j])
			item.FieldBuilder(1).(*array.Int32Builder).Append(int32(k + j))
		}
		if k%2 == 0 {
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("note %d", k))
		} else {
			b.Field(2).(*array.StringBuilder).AppendNull()
		}
	}
	return b.NewRecordBatch()
}

// exampleStream is an IPC stream of records of the given sizes, ids
// counting from 1.
func exampleStream(sizes ...int) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(exampleSchema))
	first := 1
	for _, n := range sizes {
		rec := exampleRecord(first, n)
		if err := w.Write(rec); err != nil {
			panic(err)
		}
		rec.Release()
		first += n
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// New compiles the plan once per Go type and schema, checking every field
// against its column before any row is read.
func ExampleNew() {
	m, err := mapper.New[exampleOrder](exampleSchema)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Schema().NumFields(), "columns, reads", m.ColumnIndexes())

	// A field that cannot hold its column fails here, not on the first row.
	type wrong struct {
		ID string `arrow:"id"`
	}
	_, err = mapper.New[wrong](exampleSchema)
	fmt.Println(errors.Is(err, mapper.ErrTypeMismatch))
	// Output:
	// 3 columns, reads [0 1 2]
	// true
}

// View validates a record once; its Batch then decodes any window of rows
// without checking the data again.
func ExampleMapper_View() {
	rec := exampleRecord(1, 4)
	defer rec.Release()
	m, err := mapper.New[exampleOrder](rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	batch, err := m.View(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(batch.Len(), "rows")
	for _, o := range batch.Slice(1, 3).Append(nil) {
		fmt.Println(o)
	}
	// Output:
	// 4 rows
	// #2 [2×pen 3×ink] note="note 2"
	// #3 [] note=null
}

// One Mapper decodes every record of its schema.
func ExampleMapper_Decode() {
	m, err := mapper.New[exampleOrder](exampleSchema)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, first := range []int{1, 10} {
		rec := exampleRecord(first, 2)
		orders, err := m.Decode(rec)
		rec.Release()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(orders)
	}
	// Output:
	// [#1 [1×pen] note=null #2 [2×pen 3×ink] note="note 2"]
	// [#10 [10×pen] note="note 10" #11 [11×pen 12×ink] note=null]
}

// Append gathers the rows of many records into one slice; a record that
// fails leaves the slice as it was.
func ExampleMapper_Append() {
	type noted struct {
		ID   int64  `arrow:"id"`
		Note string `arrow:"note"` // not nullable: a null is an error
	}
	m, err := mapper.New[noted](exampleSchema)
	if err != nil {
		fmt.Println(err)
		return
	}
	var all []noted
	for _, first := range []int{2, 4, 5} {
		rec := exampleRecord(first, 1)
		all, err = m.Append(all, rec)
		rec.Release()
		if err != nil {
			fmt.Printf("order %d: null note: %t; still %d rows\n", first, errors.Is(err, mapper.ErrNull), len(all))
		}
	}
	fmt.Println(all)
	// Output:
	// order 5: null note: true; still 2 rows
	// [{2 note 2} {4 note 4}]
}

// Slice narrows a validated batch to a window of rows: paging through a
// record costs no validation and no allocation per page.
func ExampleBatch_Slice() {
	rec := exampleRecord(1, 5)
	defer rec.Release()
	m, err := mapper.New[exampleOrder](rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	batch, err := m.View(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	var page []exampleOrder
	for start := 0; start < batch.Len(); start += 2 {
		page = batch.Slice(start, min(start+2, batch.Len())).Append(page[:0])
		fmt.Println(page)
	}
	// Output:
	// [#1 [1×pen] note=null #2 [2×pen 3×ink] note="note 2"]
	// [#3 [] note=null #4 [4×pen] note="note 4"]
	// [#5 [5×pen 6×ink] note=null]
}

// Row decodes one row into a value the caller owns, overwriting it.
func ExampleBatch_Row() {
	rec := exampleRecord(1, 3)
	defer rec.Release()
	m, err := mapper.New[exampleOrder](rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	batch, err := m.View(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	var o exampleOrder
	for i := batch.Len() - 1; i >= 0; i-- {
		batch.Row(i, &o)
		fmt.Println(o)
	}
	// Output:
	// #3 [] note=null
	// #2 [2×pen 3×ink] note="note 2"
	// #1 [1×pen] note=null
}

// Append decodes a batch's rows after those already in dst, growing it
// once; passing dst[:0] reuses its memory.
func ExampleBatch_Append() {
	rec := exampleRecord(1, 3)
	defer rec.Release()
	m, err := mapper.New[exampleOrder](rec.Schema())
	if err != nil {
		fmt.Println(err)
		return
	}
	batch, err := m.View(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	rows := batch.Slice(0, 1).Append(nil)
	rows = batch.Slice(2, 3).Append(rows)
	fmt.Println(len(rows), rows)
	rows = batch.Append(rows[:0])
	fmt.Println(len(rows), rows[2])
	// Output:
	// 2 [#1 [1×pen] note=null #3 [] note=null]
	// 3 #3 [] note=null
}

// Decode is the one call most users need: the plan is compiled on the
// first call for a schema and cached.
func ExampleDecode() {
	rec := exampleRecord(1, 2)
	defer rec.Release()
	orders, err := mapper.Decode[exampleOrder](rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range orders {
		fmt.Println(o)
	}
	// Output:
	// #1 [1×pen] note=null
	// #2 [2×pen 3×ink] note="note 2"
}

// A Reader decodes a stream of records like an io.Reader of rows: each Read
// fills dst across record boundaries, and io.EOF itself ends the stream (a
// stream cut short is an io.ErrUnexpectedEOF error instead).
func ExampleNewReader() {
	stream, err := ipc.NewReader(bytes.NewReader(exampleStream(3, 4)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Release()
	r, err := mapper.NewReader[exampleOrder](stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	dst := make([]exampleOrder, 5)
	for {
		n, err := r.Read(dst)
		if n > 0 {
			fmt.Println(n, "rows from", dst[0].ID, "to", dst[n-1].ID)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// 5 rows from 1 to 5
	// 2 rows from 6 to 7
}

// All yields the rows one by one; the loop sees every row, then at most one
// error, and none at a clean end.
func ExampleReader_All() {
	stream, err := ipc.NewReader(bytes.NewReader(exampleStream(2, 0, 1)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Release()
	r, err := mapper.NewReader[exampleOrder](stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	for order, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(order)
	}
	// Output:
	// #1 [1×pen] note=null
	// #2 [2×pen 3×ink] note="note 2"
	// #3 [] note=null
}

// ReadAll returns the rows before an error along with it: here, a stream
// cut in the middle of its second record.
func ExampleReader_ReadAll() {
	data := exampleStream(2, 3)
	first := exampleStream(2)
	cut := data[:len(first)-8+40] // the schema and first record, then 40 bytes of the second
	stream, err := ipc.NewReader(bytes.NewReader(cut))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Release()
	r, err := mapper.NewReader[exampleOrder](stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	orders, err := r.ReadAll()
	fmt.Println(len(orders), "orders")
	fmt.Println("cut short:", errors.Is(err, io.ErrUnexpectedEOF), "the end:", errors.Is(err, io.EOF))
	// Output:
	// 2 orders
	// cut short: true the end: false
}

// A ColumnsReader's All yields the typed columns of each record; Windows
// would cut them into zero-copy windows of at most n rows of one record.
func ExampleColumnsReader_All() {
	type orderColumns struct {
		ID   views.PrimitiveColumn[int64] `arrow:"id"`
		Note views.StringColumn           `arrow:"note,nullable"`
	}
	stream, err := ipc.NewReader(bytes.NewReader(exampleStream(3, 0, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Release()
	r, err := mapper.NewColumnsReader[orderColumns](stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	for cols, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		notes := 0
		for i := range cols.Note.Len() {
			if !cols.Note.IsNull(i) {
				notes++
			}
		}
		fmt.Println(cols.ID.Len(), "orders", cols.ID.Values(), notes, "notes")
	}
	// Output:
	// 3 orders [1 2 3] 1 notes
	// 0 orders [] 0 notes
	// 2 orders [4 5] 1 notes
}

// Pages yields pages of exactly size rows whatever the record sizes; only
// the last is short.
func ExampleReader_Pages() {
	stream, err := ipc.NewReader(bytes.NewReader(exampleStream(4, 1, 4)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Release()
	r, err := mapper.NewReader[exampleOrder](stream)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Release()
	for page, err := range r.Pages(3) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(len(page), "rows, first", page[0].ID)
	}
	// Output:
	// 3 rows, first 1
	// 3 rows, first 4
	// 3 rows, first 7
}

// As decodes a type the mapper does not know from a column it does: here
// times stored as Unix seconds in an int64 column.
func ExampleAs() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "at", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{0, 1_700_000_000}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	type event struct {
		At time.Time `arrow:"at"`
	}
	unix := mapper.As(
		func(s int64) (time.Time, error) { return time.Unix(s, 0).UTC(), nil },
		func(t time.Time) (int64, error) { return t.Unix(), nil },
	)
	// Plans with As are not cached: build the Mapper once and keep it.
	m, err := mapper.New[event](schema, unix)
	if err != nil {
		fmt.Println(err)
		return
	}
	events, err := m.Decode(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range events {
		fmt.Println(e.At.Format(time.RFC3339))
	}
	// Output:
	// 1970-01-01T00:00:00Z
	// 2023-11-14T22:13:20Z
}

// Strict turns lossless widening off: an int64 field no longer accepts an
// int32 column.
func ExampleStrict() {
	type quantity struct {
		Qty int64 `arrow:"qty"`
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "qty", Type: arrow.PrimitiveTypes.Int32}}, nil)
	_, err := mapper.New[quantity](schema)
	fmt.Println("by default:", err)
	_, err = mapper.New[quantity](schema, mapper.Strict())
	fmt.Println("strict:", errors.Is(err, mapper.ErrTypeMismatch))
	// Output:
	// by default: <nil>
	// strict: true
}

// ZeroCopy makes strings point into the record's memory instead of
// copying them: they are valid only while the record is.
func ExampleZeroCopy() {
	rec := exampleRecord(1, 4)
	defer rec.Release()
	notes := rec.Column(2).(*array.String)
	inRecord := func(s string) bool {
		data := notes.ValueBytes()
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		return p >= start && p < start+uintptr(len(data))
	}

	copied, err := mapper.Decode[exampleOrder](rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	aliased, err := mapper.Decode[exampleOrder](rec, mapper.ZeroCopy())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*copied[1].Note, "copied:", !inRecord(*copied[1].Note))
	fmt.Println(*aliased[1].Note, "aliases the record:", inRecord(*aliased[1].Note))
	// Output:
	// note 2 copied: true
	// note 2 aliases the record: true
}

// AllowMissing lets a field without a column keep its zero value.
func ExampleAllowMissing() {
	type withDiscount struct {
		ID       int64   `arrow:"id"`
		Discount float64 `arrow:"discount"` // not in the record
	}
	rec := exampleRecord(1, 2)
	defer rec.Release()
	_, err := mapper.Decode[withDiscount](rec)
	fmt.Println(errors.Is(err, mapper.ErrMissingColumn))
	rows, err := mapper.Decode[withDiscount](rec, mapper.AllowMissing())
	fmt.Println(rows, err)
	// Output:
	// true
	// [{1 0} {2 0}] <nil>
}

// SnakeCase matches untagged fields to snake_case columns.
func ExampleSnakeCase() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "user_id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "display_name", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(7)
	b.Field(1).(*array.StringBuilder).Append("Ada")
	rec := b.NewRecordBatch()
	defer rec.Release()

	type user struct {
		UserID      int64
		DisplayName string
	}
	_, err := mapper.Decode[user](rec)
	fmt.Println(errors.Is(err, mapper.ErrMissingColumn))
	users, err := mapper.Decode[user](rec, mapper.SnakeCase())
	fmt.Printf("%+v %v\n", users, err)
	// Output:
	// true
	// [{UserID:7 DisplayName:Ada}] <nil>
}

// Parallelism decodes a large record on several goroutines, with the same
// result as one.
func ExampleParallelism() {
	rec := exampleRecord(1, 10_000)
	defer rec.Release()
	one, err := mapper.Decode[exampleOrder](rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	four, err := mapper.Decode[exampleOrder](rec, mapper.Parallelism(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(four), reflect.DeepEqual(one, four))
	fmt.Println(four[9_999])
	// Output:
	// 10000 true
	// #10000 [10000×pen] note="note 10000"
}

// Every failure is an *Error naming the Go field, the column and, when it
// is about data, the first row at fault.
func ExampleError() {
	rec := exampleRecord(1, 4)
	defer rec.Release()

	type smallQty struct {
		Items []struct {
			Qty int8 `arrow:"qty"` // narrower than the int32 column
		} `arrow:"items"`
	}
	type requiredNote struct {
		Note string `arrow:"note"` // row 0 has a null note
	}
	for _, decode := range []func() error{
		func() error { _, err := mapper.Decode[smallQty](rec); return err },
		func() error { _, err := mapper.Decode[requiredNote](rec); return err },
	} {
		var e *mapper.Error
		if err := decode(); errors.As(err, &e) {
			fmt.Printf("path %s, column %s, row %d, null: %t, type mismatch: %t\n",
				e.Path, e.Column, e.Row, errors.Is(err, mapper.ErrNull), errors.Is(err, mapper.ErrTypeMismatch))
		}
	}
	// Output:
	// path Items[].Qty, column items.item.qty, row -1, null: false, type mismatch: true
	// path Note, column note, row 0, null: true, type mismatch: false
}

// SchemaOf is the schema Encode writes: a column per field, from the Go
// types and their tags.
func ExampleSchemaOf() {
	type reading struct {
		Sensor string            `arrow:"sensor,dict"`
		At     time.Time         `arrow:"at,timestamp,unit=ms,tz=UTC"`
		Values []float64         `arrow:"values"`
		Labels map[string]string `arrow:"labels"`
		Note   *string           `arrow:"note"`
	}
	schema, err := mapper.SchemaOf[reading]()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range schema.Fields() {
		fmt.Printf("%s: %s, nullable=%t\n", f.Name, f.Type, f.Nullable)
	}
	// Output:
	// sensor: dictionary<values=utf8, indices=int32, ordered=false>, nullable=false
	// at: timestamp[ms, tz=UTC], nullable=false
	// values: list<item: float64>, nullable=true
	// labels: map<utf8, utf8, items_non_nullable>, nullable=true
	// note: utf8, nullable=true
}

// Encode writes rows into a new record; decoding it gives the rows back.
func ExampleEncode() {
	note := "fragile"
	orders := []exampleOrder{
		{ID: 1, Items: []exampleItem{{"pen", 2}}, Note: &note},
		{ID: 2, Items: []exampleItem{}},
	}
	rec, err := mapper.Encode(orders)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Release()
	for i, col := range rec.Columns() {
		fmt.Printf("%s: %v\n", rec.ColumnName(i), col)
	}
	back, err := mapper.Decode[exampleOrder](rec)
	fmt.Println(back, err)
	// Output:
	// id: [1 2]
	// items: [{["pen"] [2]} {[] []}]
	// note: ["fragile" (null)]
	// [#1 [2×pen] note="fragile" #2 [] note=null] <nil>
}

// A Builder appends rows as they come and hands them over as one record,
// as many times as needed.
func ExampleNewBuilder() {
	b, err := mapper.NewBuilder[exampleOrder]()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Release()
	for id := int64(1); id <= 5; id++ {
		if err := b.Append(exampleOrder{ID: id}); err != nil {
			fmt.Println(err)
			return
		}
		if id%2 == 0 {
			rec := b.NewRecordBatch()
			fmt.Println(rec.NumRows(), "rows:", rec.Column(0))
			rec.Release()
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	fmt.Println(rec.NumRows(), "row:", rec.Column(0))
	// Output:
	// 2 rows: [1 2]
	// 2 rows: [3 4]
	// 1 row: [5]
}

// WithAllocator gives the encoders the allocator for the Arrow memory they
// build: a checked one shows that releasing the record frees it all.
func ExampleAllocator() {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	rec, err := mapper.Encode([]exampleOrder{{ID: 1}, {ID: 2}}, mapper.Allocator(mem))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("allocated:", mem.CurrentAlloc() > 0)
	rec.Release()
	fmt.Println("after Release:", mem.CurrentAlloc())
	// Output:
	// allocated: true
	// after Release: 0
}
