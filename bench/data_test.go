package bench

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Flat is the flat record of the decode benchmarks: eight columns of the
// common kinds, one of them nullable.
type Flat struct {
	ID    int64     `arrow:"id" json:"id"`
	Qty   int32     `arrow:"qty" json:"qty"`
	Price float64   `arrow:"price" json:"price"`
	OK    bool      `arrow:"ok" json:"ok"`
	Name  string    `arrow:"name" json:"name"`
	Note  *string   `arrow:"note" json:"note"`
	At    time.Time `arrow:"at" json:"at"`
	Score float32   `arrow:"score" json:"score"`
}

// Nested is the nested record: lists of strings, of structs and of floats.
type Nested struct {
	ID     int64     `arrow:"id" json:"id"`
	Tags   []string  `arrow:"tags" json:"tags"`
	Items  []Item    `arrow:"items" json:"items"`
	Scores []float32 `arrow:"scores" json:"scores"`
}

// Item is an element of Nested.Items.
type Item struct {
	SKU   string  `arrow:"sku" json:"sku"`
	Price float64 `arrow:"price" json:"price"`
}

var (
	flatSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	itemType     = arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64})
	nestedSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
		{Name: "items", Type: arrow.ListOfNonNullable(itemType)},
		{Name: "scores", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Float32)},
	}, nil)
)

// flatRecord is a flat record of n rows, with a null note every third row.
func flatRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, flatSchema)
	defer b.Release()
	b.Reserve(n)
	ids := b.Field(0).(*array.Int64Builder)
	qty := b.Field(1).(*array.Int32Builder)
	price := b.Field(2).(*array.Float64Builder)
	ok := b.Field(3).(*array.BooleanBuilder)
	name := b.Field(4).(*array.StringBuilder)
	note := b.Field(5).(*array.StringBuilder)
	at := b.Field(6).(*array.TimestampBuilder)
	score := b.Field(7).(*array.Float32Builder)
	for i := range n {
		ids.Append(int64(i))
		qty.Append(int32(i % 1000))
		price.Append(float64(i) * 0.25)
		ok.Append(i%2 == 0)
		name.Append(fmt.Sprintf("customer-%06d", i))
		if i%3 == 0 {
			note.AppendNull()
		} else {
			note.Append(strings.Repeat("n", i%17))
		}
		at.Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1_000_003))
		score.Append(float32(i%100) / 4)
	}
	return b.NewRecordBatch()
}

// nestedRecord is a nested record of n rows with 0–4 tags, 0–3 items and
// 0–5 scores a row.
func nestedRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, nestedSchema)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	tags := b.Field(1).(*array.ListBuilder)
	tag := tags.ValueBuilder().(*array.StringBuilder)
	items := b.Field(2).(*array.ListBuilder)
	item := items.ValueBuilder().(*array.StructBuilder)
	sku := item.FieldBuilder(0).(*array.StringBuilder)
	itemPrice := item.FieldBuilder(1).(*array.Float64Builder)
	scores := b.Field(3).(*array.ListBuilder)
	score := scores.ValueBuilder().(*array.Float32Builder)
	for i := range n {
		ids.Append(int64(i))
		tags.Append(true)
		for k := range i % 5 {
			tag.Append(fmt.Sprintf("tag-%d", k))
		}
		items.Append(true)
		for k := range i % 4 {
			item.Append(true)
			sku.Append(fmt.Sprintf("sku-%d-%d", i%97, k))
			itemPrice.Append(float64(k) + 0.5)
		}
		scores.Append(true)
		for k := range i % 6 {
			score.Append(float32(k) / 2)
		}
	}
	return b.NewRecordBatch()
}

// records caches the benchmark inputs, built once per process.
var records = struct {
	sync.Mutex
	m map[string]arrow.RecordBatch
}{m: map[string]arrow.RecordBatch{}}

func record(kind string, n int) arrow.RecordBatch {
	records.Lock()
	defer records.Unlock()
	key := fmt.Sprintf("%s/%d", kind, n)
	if rec, ok := records.m[key]; ok {
		return rec
	}
	var rec arrow.RecordBatch
	switch kind {
	case "flat":
		rec = flatRecord(memory.DefaultAllocator, n)
	case "nested":
		rec = nestedRecord(memory.DefaultAllocator, n)
	}
	records.m[key] = rec
	return rec
}
