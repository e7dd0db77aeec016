// Package sample makes the record batches embedded in the arrowmap command
// line, so that its main job runs on a fresh clone with no file at hand:
// orders with lists, structs, maps, a dictionary column, timestamps with a
// zone, decimals and nulls.
package sample

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// Rows is the number of rows of the embedded sample.
const Rows = 3000

var item = arrow.StructOf(
	arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64},
)

// Schema is the schema of the sample.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrowtype.DictionaryOf(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String, false)},
	{Name: "placed_at", Type: arrowtype.Named("timestamp").MustWithUnit(arrow.Millisecond, "Europe/Paris")},
	{Name: "total", Type: arrowtype.Named("decimal128").DecimalOf(12, 2)},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "items", Type: arrow.ListOfNonNullable(item)},
	{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "shipping", Type: arrow.StructOf(
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "zip", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
}, nil)

var (
	regions = []string{"north", "south", "east", "west"}
	tags    = []string{"gift", "express", "fragile", "bulk", "returning"}
	cities  = []string{"Lyon", "Osaka", "Recife", "Tromsø", "Perth"}
)

// Write writes rows rows of the sample as an IPC file, in batches of 1000,
// the same bytes every time.
func Write(w io.Writer, rows int) error {
	mem := memory.NewGoAllocator()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(Schema), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// An IPC file holds one dictionary per field: every batch shares it.
	dict := array.NewBuilder(mem, arrow.BinaryTypes.String).(arrowtype.Appender[string])
	dict.AppendValues(regions, nil)
	regionDict := dict.NewArray()
	dict.Release()
	defer regionDict.Release()
	for start := 0; start < rows; start += 1000 {
		rec := batch(mem, rng, regionDict, start, min(rows, start+1000))
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return fw.Close()
}

func batch(mem memory.Allocator, rng *rand.Rand, regionDict arrow.Array, from, to int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, Schema)
	defer b.Release()
	id := b.Field(0).(arrowtype.Appender[int64])
	region := array.NewBuilder(mem, arrow.PrimitiveTypes.Int8).(arrowtype.Appender[int8])
	defer region.Release()
	placed := b.Field(2).(arrowtype.Appender[arrow.Timestamp])
	total := b.Field(3).(arrowtype.Appender[decimal128.Num])
	tagList := b.Field(4).(arrowtype.ListAppender)
	tag := tagList.ValueBuilder().(arrowtype.Appender[string])
	itemList := b.Field(5).(arrowtype.ListAppender)
	it := itemList.ValueBuilder().(arrowtype.StructAppender)
	sku := it.FieldBuilder(0).(arrowtype.Appender[string])
	qty := it.FieldBuilder(1).(arrowtype.Appender[int32])
	price := it.FieldBuilder(2).(arrowtype.Appender[float64])
	attrs := b.Field(6).(arrowtype.MapAppender)
	key := attrs.KeyBuilder().(arrowtype.Appender[string])
	val := attrs.ItemBuilder().(arrowtype.Appender[string])
	note := b.Field(7).(arrowtype.Appender[string])
	ship := b.Field(8).(arrowtype.StructAppender)
	city := ship.FieldBuilder(0).(arrowtype.Appender[string])
	zip := ship.FieldBuilder(1).(arrowtype.Appender[string])
	for i := from; i < to; i++ {
		id.Append(int64(i + 1))
		region.Append(int8(rng.IntN(len(regions))))
		placed.Append(arrow.Timestamp(1_735_689_600_000 + int64(i)*3_600_000 + rng.Int64N(3_600_000)))
		cents := int64(0)
		if rng.IntN(7) == 0 {
			tagList.AppendNull()
		} else {
			tagList.Append(true)
			for range rng.IntN(3) {
				tag.Append(tags[rng.IntN(len(tags))])
			}
		}
		itemList.Append(true)
		for k := range 1 + rng.IntN(3) {
			it.Append(true)
			sku.Append(fmt.Sprintf("SKU-%04d-%d", rng.IntN(10_000), k))
			q := int32(1 + rng.IntN(5))
			p := int64(99 + rng.IntN(20_000))
			qty.Append(q)
			price.Append(float64(p) / 100)
			cents += int64(q) * p
		}
		total.Append(decimal128.FromI64(cents))
		if rng.IntN(3) == 0 {
			attrs.AppendNull()
		} else {
			attrs.Append(true)
			key.Append("channel")
			val.Append([]string{"web", "store", "phone"}[rng.IntN(3)])
			if rng.IntN(2) == 0 {
				key.Append("coupon")
				val.Append(fmt.Sprintf("C%03d", rng.IntN(1000)))
			}
		}
		if rng.IntN(4) == 0 {
			note.Append("leave at the door")
		} else {
			note.AppendNull()
		}
		if rng.IntN(10) == 0 {
			ship.AppendNull()
		} else {
			ship.Append(true)
			city.Append(cities[rng.IntN(len(cities))])
			if rng.IntN(5) == 0 {
				zip.AppendNull()
			} else {
				zip.Append(fmt.Sprintf("%05d", rng.IntN(100_000)))
			}
		}
	}
	indices := region.NewArray()
	defer indices.Release()
	cols := make([]arrow.Array, len(Schema.Fields()))
	for k := range cols {
		if k == 1 {
			cols[k] = array.NewDictionaryArray(Schema.Field(1).Type, indices, regionDict)
		} else {
			cols[k] = b.Field(k).NewArray()
		}
		defer cols[k].Release()
	}
	return array.NewRecordBatch(Schema, cols, int64(to-from))
}
