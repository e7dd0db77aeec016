package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// update rewrites sample.arrow from writeSample: go test ./cmd/arrowmap
// -run TestTheEmbeddedSampleIsWhatWriteSampleWrites -update
var update = flag.Bool("update", false, "rewrite sample.arrow, the embedded sample, from writeSample")

// sampleRows is the number of rows of the embedded sample.
const sampleRows = 3000

// The command line embeds sample.arrow, so that its main job runs on a
// fresh clone with no file at hand. The file is data, written here, out of
// the command's code: it must be what writeSample writes, or the two have
// drifted apart.
func TestTheEmbeddedSampleIsWhatWriteSampleWrites(t *testing.T) {
	var written bytes.Buffer
	require.NoError(t, writeSample(&written, sampleRows))
	if *update {
		require.NoError(t, os.WriteFile("sample.arrow", written.Bytes(), 0o644))
	}
	embedded, err := os.ReadFile("sample.arrow")
	require.NoError(t, err)
	require.True(t, bytes.Equal(embedded, written.Bytes()), "writeSample writes %d bytes, sample.arrow holds %d: run go test ./cmd/arrowmap -run TestTheEmbeddedSampleIsWhatWriteSampleWrites -update", written.Len(), len(embedded))
}

func TestWriteSampleIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, writeSample(&a, 1500))
	require.NoError(t, writeSample(&b, 1500))
	require.Equal(t, a.Bytes(), b.Bytes())
}

func TestWriteSampleMakesAnIPCFileOfTheSchemaInBatchesOfAThousand(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	require.NoError(t, writeSample(&buf, 2500))

	f, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer f.Close()
	assert.True(t, f.Schema().Equal(sampleSchema), "schema: %s", f.Schema())
	var sizes []int64
	for i := range f.NumRecords() {
		rec, err := f.RecordBatch(i)
		require.NoError(t, err)
		sizes = append(sizes, rec.NumRows())
		rec.Release()
	}
	assert.Equal(t, []int64{1000, 1000, 500}, sizes)
}

var sampleItem = arrow.StructOf(
	arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64},
)

// sampleSchema is the schema of the sample: orders with lists, structs,
// maps, a dictionary column, timestamps with a zone, decimals and nulls.
var sampleSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrowtype.DictionaryOf(arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String, false)},
	{Name: "placed_at", Type: arrowtype.Named("timestamp").MustWithUnit(arrow.Millisecond, "Europe/Paris")},
	{Name: "total", Type: arrowtype.Named("decimal128").DecimalOf(12, 2)},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "items", Type: arrow.ListOfNonNullable(sampleItem)},
	{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "shipping", Type: arrow.StructOf(
		arrow.Field{Name: "city", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "zip", Type: arrow.BinaryTypes.String, Nullable: true},
	), Nullable: true},
}, nil)

var (
	sampleRegions = []string{"north", "south", "east", "west"}
	sampleTags    = []string{"gift", "express", "fragile", "bulk", "returning"}
	sampleCities  = []string{"Lyon", "Osaka", "Recife", "Tromsø", "Perth"}
)

// writeSample writes rows rows of the sample as an IPC file, in batches of
// 1000, the same bytes every time.
func writeSample(w io.Writer, rows int) error {
	mem := memory.NewGoAllocator()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(sampleSchema), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// An IPC file holds one dictionary per field: every batch shares it.
	dict := array.NewBuilder(mem, arrow.BinaryTypes.String).(arrowtype.Appender[string])
	dict.AppendValues(sampleRegions, nil)
	regionDict := dict.NewArray()
	dict.Release()
	defer regionDict.Release()
	for start := 0; start < rows; start += 1000 {
		rec := sampleBatch(mem, rng, regionDict, start, min(rows, start+1000))
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return fw.Close()
}

func sampleBatch(mem memory.Allocator, rng *rand.Rand, regionDict arrow.Array, from, to int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, sampleSchema)
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
		region.Append(int8(rng.IntN(len(sampleRegions))))
		placed.Append(arrow.Timestamp(1_735_689_600_000 + int64(i)*3_600_000 + rng.Int64N(3_600_000)))
		cents := int64(0)
		if rng.IntN(7) == 0 {
			tagList.AppendNull()
		} else {
			tagList.Append(true)
			for range rng.IntN(3) {
				tag.Append(sampleTags[rng.IntN(len(sampleTags))])
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
			city.Append(sampleCities[rng.IntN(len(sampleCities))])
			if rng.IntN(5) == 0 {
				zip.AppendNull()
			} else {
				zip.Append(fmt.Sprintf("%05d", rng.IntN(100_000)))
			}
		}
	}
	indices := region.NewArray()
	defer indices.Release()
	cols := make([]arrow.Array, len(sampleSchema.Fields()))
	for k := range cols {
		if k == 1 {
			cols[k] = array.NewDictionaryArray(sampleSchema.Field(1).Type, indices, regionDict)
		} else {
			cols[k] = b.Field(k).NewArray()
		}
		defer cols[k].Release()
	}
	return array.NewRecordBatch(sampleSchema, cols, int64(to-from))
}
