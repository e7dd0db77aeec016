package mapper

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// The encoder reads Arrow's types through the table: these tests pin what
// it reads to what it wrote before, and to arrow-go.

func TestDictionariesLeftToArrowGoAreTheValueTypesTheyWereAndArrowGoBuildsThem(t *testing.T) {
	before := []arrow.Type{arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY, arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP,
		arrow.TIME32, arrow.TIME64, arrow.DURATION, arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256}
	assert.ElementsMatch(t, before, arrowtype.IDs(memoizedValues))

	mem := memory.NewGoAllocator()
	for _, id := range arrowtype.IDs(memoizedValues) {
		r := arrowtype.Of(id)
		dt := sampleType(t, r)
		d := arrowtype.DictionaryOf(arrow.PrimitiveTypes.Int32, dt, false)
		assert.True(t, memoizedByArrowGo(d), "%s", d)
		assert.False(t, memoizedByArrowGo(arrowtype.DictionaryOf(arrow.PrimitiveTypes.Int16, dt, false)), "int16 indexes run out")
		assert.NotPanics(t, func() { array.NewDictionaryBuilder(mem, d.(*arrow.DictionaryType)).Release() }, "arrow-go builds %s", d)
	}
}

func sampleType(t *testing.T, r *arrowtype.Row) arrow.DataType {
	t.Helper()
	switch {
	case r.Decimal:
		return r.DecimalOf(r.MaxPrecision, 0)
	case len(r.Units) > 0:
		dt, err := r.WithUnit(r.DefaultUnit, "UTC")
		require.NoError(t, err)
		return dt
	case r.Layout == arrowtype.FixedBinary:
		return arrowtype.FixedSizeBinaryOf(4)
	}
	return r.Make()
}

func TestTheTagsLayoutIsTheOneItPickedBefore(t *testing.T) {
	type family struct {
		name string
		l    *layouts
		// the layouts before: plain, large, view, large view
		want [4]arrow.Type
	}
	for _, f := range []family{
		{"strings", stringLayouts, [4]arrow.Type{arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW, arrow.STRING_VIEW}},
		{"binaries", binaryLayouts, [4]arrow.Type{arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.BINARY_VIEW}},
		{"lists", listLayouts, [4]arrow.Type{arrow.LIST, arrow.LARGE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW}},
	} {
		t.Run(f.name, func(t *testing.T) {
			for i, tag := range []tags.Tag{{}, {Large: true}, {View: true}, {Large: true, View: true}} {
				r, ok := f.l.layoutRow(tag)
				require.True(t, ok)
				assert.Equal(t, f.want[i], r.ID, "large=%v view=%v", tag.Large, tag.View)
			}
			for _, id := range f.want {
				r, ok := f.l.layoutRow(tags.Tag{Encoding: tagEncodingOf(t, arrowtype.Of(id).Name)})
				require.True(t, ok, "the pin %s", arrowtype.Of(id).Name)
				assert.Equal(t, id, r.ID)
			}
			_, ok := f.l.layoutRow(tags.Tag{Encoding: tags.FixedSizeBinary})
			assert.False(t, ok, "fixed_size_binary is none of them")
		})
	}
}

func tagEncodingOf(t *testing.T, name string) tags.Encoding {
	t.Helper()
	tag, err := tags.ParseOptions(name)
	require.NoError(t, err)
	return tag.Encoding
}

func TestTheWidthsOfIntegersAndDecimalsAreArrowGos(t *testing.T) {
	require.Len(t, integerWidths, 8)
	for i, w := range integerWidths {
		fw := w.dt.(arrow.FixedWidthDataType)
		assert.Equal(t, int(w.size)*8, fw.BitWidth(), "%s", w.dt)
		assert.Equal(t, w.id, w.dt.ID())
		if i > 0 && integerWidths[i-1].signed == w.signed {
			assert.Less(t, integerWidths[i-1].size, w.size, "narrowest first within each sign")
		}
	}
	assert.True(t, integerWidths[0].signed, "signed first")

	want := []struct {
		typ  any
		dt   arrow.DecimalType
		maxP int32
	}{
		{decimal.Decimal32(0), &arrow.Decimal32Type{Precision: 9}, 9},
		{decimal.Decimal64(0), &arrow.Decimal64Type{Precision: 18}, 18},
		{decimal.Decimal128{}, &arrow.Decimal128Type{Precision: 38}, 38},
		{decimal.Decimal256{}, &arrow.Decimal256Type{Precision: 76}, 76},
	}
	require.Len(t, decimalWidths, len(want))
	for i, w := range decimalWidths {
		assert.Equal(t, want[i].maxP, w.maxPrecision)
		assert.Equal(t, want[i].dt.BitWidth(), w.bits)
		assert.Equal(t, want[i].dt.ID(), w.id)
		assert.Equal(t, want[i].typ, decimalZero(w))
		assert.True(t, arrow.TypeEqual(&arrow.Decimal128Type{Precision: 20, Scale: 3}, decimalWidthFor[decimal.Decimal128]().typeOf(20, 3)))
	}
}

func decimalZero(w decimalWidth) any {
	switch w.bits {
	case 32:
		return decimal.Decimal32(0)
	case 64:
		return decimal.Decimal64(0)
	case 128:
		return decimal.Decimal128{}
	}
	return decimal.Decimal256{}
}

func TestTheTemporalTypesOfTagsAreTheOnesWrittenBefore(t *testing.T) {
	type row struct {
		Stamp     time.Time     `arrow:"stamp"`
		StampMs   time.Time     `arrow:"stamp_ms,timestamp,unit=ms,tz=Europe/Paris"`
		Naive     time.Time     `arrow:"naive,timestamp,naive,unit=us"`
		Day       time.Time     `arrow:"day,date32"`
		Midnight  time.Time     `arrow:"midnight,date64"`
		Clock32   time.Time     `arrow:"clock32,time32"`
		Clock64   time.Time     `arrow:"clock64,time64,unit=us"`
		Span      time.Duration `arrow:"span"`
		SpanS     time.Duration `arrow:"span_s,duration,unit=s"`
		Of32      time.Duration `arrow:"of32,time32,unit=s"`
		Of64      time.Duration `arrow:"of64,time64"`
		Raw32     int32         `arrow:"raw32,date32"`
		Raw64     int64         `arrow:"raw64,timestamp,unit=s"`
		RawDur    int64         `arrow:"raw_dur,duration"`
		RawDate64 int64         `arrow:"raw_date64,date64"`
		RawTime32 int32         `arrow:"raw_time32,time32,unit=ms"`
		RawTime64 int64         `arrow:"raw_time64,time64"`
	}
	want := []arrow.DataType{
		&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"},
		&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Europe/Paris"},
		&arrow.TimestampType{Unit: arrow.Microsecond},
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
		&arrow.Time32Type{Unit: arrow.Millisecond}, &arrow.Time64Type{Unit: arrow.Microsecond},
		&arrow.DurationType{Unit: arrow.Nanosecond}, &arrow.DurationType{Unit: arrow.Second},
		&arrow.Time32Type{Unit: arrow.Second}, &arrow.Time64Type{Unit: arrow.Nanosecond},
		arrow.FixedWidthTypes.Date32, &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"},
		&arrow.DurationType{Unit: arrow.Nanosecond}, arrow.FixedWidthTypes.Date64,
		&arrow.Time32Type{Unit: arrow.Millisecond}, &arrow.Time64Type{Unit: arrow.Nanosecond},
	}
	schema, err := SchemaOf[row]()
	require.NoError(t, err)
	require.Equal(t, len(want), schema.NumFields())
	for i, f := range schema.Fields() {
		assert.True(t, arrow.TypeEqual(want[i], f.Type), "%s: %s, want %s", f.Name, f.Type, want[i])
	}

	at := time.Date(2024, 3, 1, 13, 14, 15, 123456789, time.UTC)
	rec, err := Encode([]row{{Stamp: at, StampMs: at, Naive: at, Day: at, Midnight: at.Truncate(24 * time.Hour),
		Clock32: at, Clock64: at, Span: 90 * time.Second, SpanS: 90 * time.Second, Of32: 13 * time.Hour, Of64: time.Hour,
		Raw32: 19783, Raw64: 1709298855, RawDur: 7, RawDate64: 86400000, RawTime32: 1000, RawTime64: 5}})
	require.NoError(t, err)
	defer rec.Release()
	clock := int64(13*3600+14*60+15) * int64(time.Second)
	for i, want := range []int64{at.UnixNano(), at.UnixMilli(), at.UnixMicro(), at.Unix() / 86400, at.Truncate(24 * time.Hour).UnixMilli(),
		(clock + 123456789) / 1e6, (clock + 123456789) / 1e3, 90e9, 90, 13 * 3600, 3600e9,
		19783, 1709298855, 7, 86400000, 1000, 5} {
		assert.Equal(t, want, storedValue(rec.Column(i)), "%s", schema.Field(i).Name)
	}
}

// storedValue is the first value of a temporal array, as its buffer holds
// it.
func storedValue(arr arrow.Array) int64 {
	if arrowtype.OfType(arr.DataType()).Value == arrowtype.Int32 {
		return int64(arrowtype.Values[int32](arr.Data())[0])
	}
	return arrowtype.Values[int64](arr.Data())[0]
}
