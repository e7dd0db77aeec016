package arrowtype_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

func TestDictionaryOfIsArrowGosDictionaryTypeAndIndicesReadsItsIndexType(t *testing.T) {
	dt := arrowtype.DictionaryOf(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.String, true)
	want := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String, Ordered: true}
	assert.True(t, arrow.TypeEqual(want, dt), "%s", dt)

	index, ok := arrowtype.DictionaryIndices(dt)
	require.True(t, ok)
	assert.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Int16, index))
	values, ok := arrowtype.Encoded(dt)
	require.True(t, ok)
	assert.True(t, arrow.TypeEqual(arrow.BinaryTypes.String, values))

	_, ok = arrowtype.DictionaryIndices(arrow.PrimitiveTypes.Int16)
	assert.False(t, ok, "an integer has no indices")
}

func TestExtensionOfIsTheExtensionTypeAndNothingElse(t *testing.T) {
	uuid := extensions.NewUUIDType()
	ext, ok := arrowtype.ExtensionOf(uuid)
	require.True(t, ok)
	assert.Equal(t, uuid.ExtensionName(), ext.ExtensionName())
	assert.True(t, arrow.TypeEqual(uuid.StorageType(), ext.StorageType()))

	_, ok = arrowtype.ExtensionOf(uuid.StorageType())
	assert.False(t, ok, "the storage of an extension is none")
}

// TestAppendValuesAppendsEveryFixedTypeAsArrowGoReadsIt appends values of
// each Fixed row's buffer Go type through AppendValues to arrow-go's own
// builder of the type, and reads them back through arrow-go's array.
func TestAppendValuesAppendsEveryFixedTypeAsArrowGoReadsIt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Fixed {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			b := array.NewBuilder(mem, sample(t, r))
			defer b.Release()
			switch r.Value {
			case arrowtype.Int8:
				appendAndRead[int8](t, b, 1, -2)
			case arrowtype.Int16:
				appendAndRead[int16](t, b, 1, -2)
			case arrowtype.Int32:
				appendAndRead[int32](t, b, 1, -2)
			case arrowtype.Int64:
				appendAndRead[int64](t, b, 86400000, -86400000)
			case arrowtype.Uint8:
				appendAndRead[uint8](t, b, 1, 2)
			case arrowtype.Uint16:
				appendAndRead[uint16](t, b, 1, 2)
			case arrowtype.Uint32:
				appendAndRead[uint32](t, b, 1, 2)
			case arrowtype.Uint64:
				appendAndRead[uint64](t, b, 1, 2)
			case arrowtype.Float16:
				appendAndRead(t, b, float16.New(1.5), float16.New(-2))
			case arrowtype.Float32:
				appendAndRead[float32](t, b, 1.5, -2)
			case arrowtype.Float64:
				appendAndRead(t, b, 1.5, -2)
			case arrowtype.Decimal32:
				appendAndRead(t, b, decimal.Decimal32(15), decimal.Decimal32(-2))
			case arrowtype.Decimal64:
				appendAndRead(t, b, decimal.Decimal64(15), decimal.Decimal64(-2))
			case arrowtype.Decimal128:
				appendAndRead(t, b, decimal128.FromI64(15), decimal128.FromI64(-2))
			case arrowtype.Decimal256:
				appendAndRead(t, b, decimal256.FromI64(15), decimal256.FromI64(-2))
			case arrowtype.MonthInterval:
				appendAndRead[arrow.MonthInterval](t, b, 1, 14)
			case arrowtype.DayTimeInterval:
				appendAndRead(t, b, arrow.DayTimeInterval{Days: 1, Milliseconds: 2}, arrow.DayTimeInterval{Days: -3})
			case arrowtype.MonthDayNanoInterval:
				appendAndRead(t, b, arrow.MonthDayNanoInterval{Months: 1, Days: 2, Nanoseconds: 3}, arrow.MonthDayNanoInterval{Days: -3})
			default:
				t.Fatalf("no test values of %s", r.Value)
			}
		})
	}
}

// appendAndRead appends x, a null and y to b through AppendValues and
// checks arrow-go's array of them.
func appendAndRead[V arrowtype.FixedValue](t *testing.T, b array.Builder, x, y V) {
	t.Helper()
	appendValues, ok := arrowtype.AppendValues[V](b)
	require.True(t, ok, "%s takes %T", b.Type(), x)
	appendValues([]V{x, y, y}, []bool{true, false, true})
	arr := b.NewArray()
	defer arr.Release()
	require.Equal(t, 3, arr.Len())
	assert.True(t, arr.IsValid(0))
	assert.True(t, arr.IsNull(1))
	got := arrowtype.Values[V](arr.Data())
	assert.Equal(t, x, got[0])
	assert.Equal(t, y, got[2])
}

func TestAppendValuesRefusesValuesOfAnotherMemory(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, tc := range []struct {
		name string
		dt   arrow.DataType
		ok   func(b array.Builder) bool
	}{
		{"int64 values to an int32 builder", arrow.PrimitiveTypes.Int32, func(b array.Builder) bool { _, ok := arrowtype.AppendValues[int64](b); return ok }},
		{"float32 values to a date32 builder", arrow.FixedWidthTypes.Date32, func(b array.Builder) bool { _, ok := arrowtype.AppendValues[float32](b); return ok }},
		{"uint64 values to a timestamp builder", &arrow.TimestampType{Unit: arrow.Second}, func(b array.Builder) bool { _, ok := arrowtype.AppendValues[uint64](b); return ok }},
		{"int32 values to a utf8 builder", arrow.BinaryTypes.String, func(b array.Builder) bool { _, ok := arrowtype.AppendValues[int32](b); return ok }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := array.NewBuilder(mem, tc.dt)
			defer b.Release()
			assert.False(t, tc.ok(b))
		})
	}
}
