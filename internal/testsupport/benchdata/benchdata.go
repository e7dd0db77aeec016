// Package benchdata is the rows of the benchmarks, shared by the library's
// benchmarks and the integration module's, so that every contender in
// every benchmark reads and writes the same values: the flat record of
// eight columns and the nested record of lists of strings, structs and
// floats.
package benchdata

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
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

// FlatSchema is Flat's schema, NestedSchema Nested's, ItemType the type of
// Nested's items.
var (
	FlatSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: arrowtype.Named("timestamp").MustWithUnit(arrow.Microsecond, "")},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	ItemType     = arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64})
	NestedSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
		{Name: "items", Type: arrow.ListOfNonNullable(ItemType)},
		{Name: "scores", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Float32)},
	}, nil)
)

// FlatRow is row i of every flat record: the one definition of its values,
// which the records are built from and each contender's output is checked
// against. Every third note is null.
func FlatRow(i int) Flat {
	r := Flat{
		ID:    int64(i),
		Qty:   int32(i % 1000),
		Price: float64(i) * 0.25,
		OK:    i%2 == 0,
		Name:  fmt.Sprintf("customer-%06d", i),
		At:    time.UnixMicro(1_700_000_000_000_000 + int64(i)*1_000_003).UTC(),
		Score: float32(i%100) / 4,
	}
	if i%3 != 0 {
		note := strings.Repeat("n", i%17)
		r.Note = &note
	}
	return r
}

// FlatRecord is rows [start, end) of the flat rows as a record of
// FlatSchema.
func FlatRecord(mem memory.Allocator, start, end int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, FlatSchema)
	defer b.Release()
	b.Reserve(end - start)
	ids := b.Field(0).(arrowtype.Appender[int64])
	qty := b.Field(1).(arrowtype.Appender[int32])
	price := b.Field(2).(arrowtype.Appender[float64])
	ok := b.Field(3).(arrowtype.Appender[bool])
	name := b.Field(4).(arrowtype.Appender[string])
	note := b.Field(5).(arrowtype.Appender[string])
	at := b.Field(6).(arrowtype.Appender[arrow.Timestamp])
	score := b.Field(7).(arrowtype.Appender[float32])
	for i := start; i < end; i++ {
		r := FlatRow(i)
		ids.Append(r.ID)
		qty.Append(r.Qty)
		price.Append(r.Price)
		ok.Append(r.OK)
		name.Append(r.Name)
		if r.Note == nil {
			note.AppendNull()
		} else {
			note.Append(*r.Note)
		}
		at.Append(arrow.Timestamp(r.At.UnixMicro()))
		score.Append(r.Score)
	}
	return b.NewRecordBatch()
}

// NestedRow is row i of every nested record, as FlatRow is of the flat
// ones: i%5 tags, i%4 items and i%6 scores, empty lists non-nil.
func NestedRow(i int) Nested {
	r := Nested{ID: int64(i), Tags: make([]string, i%5), Items: make([]Item, i%4), Scores: make([]float32, i%6)}
	for k := range r.Tags {
		r.Tags[k] = fmt.Sprintf("tag-%d", k)
	}
	for k := range r.Items {
		r.Items[k] = Item{SKU: fmt.Sprintf("sku-%d-%d", i%97, k), Price: float64(k) + 0.5}
	}
	for k := range r.Scores {
		r.Scores[k] = float32(k) / 2
	}
	return r
}

// NestedRecord is the nested rows [0, n) as a record of NestedSchema.
func NestedRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, NestedSchema)
	defer b.Release()
	ids := b.Field(0).(arrowtype.Appender[int64])
	tags := b.Field(1).(arrowtype.ListAppender)
	tag := tags.ValueBuilder().(arrowtype.Appender[string])
	items := b.Field(2).(arrowtype.ListAppender)
	item := items.ValueBuilder().(arrowtype.StructAppender)
	sku := item.FieldBuilder(0).(arrowtype.Appender[string])
	itemPrice := item.FieldBuilder(1).(arrowtype.Appender[float64])
	scores := b.Field(3).(arrowtype.ListAppender)
	score := scores.ValueBuilder().(arrowtype.Appender[float32])
	for i := range n {
		r := NestedRow(i)
		ids.Append(r.ID)
		tags.Append(true)
		tag.AppendValues(r.Tags, nil)
		items.Append(true)
		for _, it := range r.Items {
			item.Append(true)
			sku.Append(it.SKU)
			itemPrice.Append(it.Price)
		}
		scores.Append(true)
		score.AppendValues(r.Scores, nil)
	}
	return b.NewRecordBatch()
}
