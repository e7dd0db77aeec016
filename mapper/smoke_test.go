package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

type item struct {
	SKU   string  `arrow:"sku"`
	Price float64 `arrow:"price"`
}

type order struct {
	ID    int64     `arrow:"id"`
	Tags  []string  `arrow:"tags"`
	Items []item    `arrow:"items"`
	Note  *string   `arrow:"note"`
	At    time.Time `arrow:"at"`
	Small int32     `arrow:"small"`
}

func TestSmoke(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	itemT := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "items", Type: arrow.ListOf(itemT)},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}},
		{Name: "small", Type: arrow.PrimitiveTypes.Int16},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range 5 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		lb := b.Field(1).(*array.ListBuilder)
		if i == 2 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for k := range i {
				lb.ValueBuilder().(*array.StringBuilder).Append(string(rune('a' + k)))
			}
		}
		ib := b.Field(2).(*array.ListBuilder)
		ib.Append(true)
		sb := ib.ValueBuilder().(*array.StructBuilder)
		for k := range i % 3 {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append("sku" + string(rune('0'+k)))
			sb.FieldBuilder(1).(*array.Float64Builder).Append(float64(k) + 0.5)
		}
		if i%2 == 0 {
			b.Field(3).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append("note")
		}
		b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1000))
		b.Field(5).(*array.Int16Builder).Append(int16(-i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rows, err := mapper.Decode[order](rec)
	require.NoError(t, err)
	require.Len(t, rows, 5)
	t.Logf("%+v", rows)
	require.Nil(t, rows[2].Tags)
	require.Equal(t, []string{}, rows[0].Tags)
	require.Equal(t, []string{"a", "b", "c"}, rows[3].Tags)
	require.Equal(t, []item{{"sku0", 0.5}, {"sku1", 1.5}}, rows[2].Items)
	require.Nil(t, rows[0].Note)
	require.Equal(t, "note", *rows[1].Note)
	require.Equal(t, "Asia/Tokyo", rows[3].At.Location().String())
	require.Equal(t, int64(3000), rows[3].At.UnixMilli())
	require.Equal(t, int32(-4), rows[4].Small)

	m, err := mapper.New[order](schema)
	require.NoError(t, err)
	batch, err := m.View(rec)
	require.NoError(t, err)
	got := batch.Slice(1, 4).Slice(1, 3).Append(nil)
	require.Equal(t, rows[2:4], got)
	var one order
	batch.Row(4, &one)
	require.Equal(t, rows[4], one)
}
