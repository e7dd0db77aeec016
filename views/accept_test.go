package views

import (
	"testing"

	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// The exported sets are public API: each keeps the IDs it had when it was
// spelled out by hand.
func TestTheExportedSetsOfEncodingsKeepTheirIDs(t *testing.T) {
	for name, c := range map[string]struct {
		got  Accept
		want []arrow.Type
	}{
		"Strings":      {Strings, []arrow.Type{arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW}},
		"Binaries":     {Binaries, []arrow.Type{arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW}},
		"Lists":        {Lists, []arrow.Type{arrow.LIST, arrow.LARGE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW}},
		"Decimals":     {Decimals, []arrow.Type{arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256}},
		"Encodings":    {Encodings, []arrow.Type{arrow.DICTIONARY, arrow.RUN_END_ENCODED}},
		"SignedInts":   {SignedInts, []arrow.Type{arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64}},
		"UnsignedInts": {UnsignedInts, []arrow.Type{arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64}},
	} {
		assert.Equal(t, AcceptOf(c.want...), c.got, "%s is %s", name, c.got)
	}
}

// fixedIDs is what a PrimitiveColumn[T] accepts: every type whose buffer
// holds T, as it was spelled out by hand.
func TestAPrimitiveColumnAcceptsTheTypesWhoseBuffersHoldItsValues(t *testing.T) {
	for _, c := range []struct {
		got  Accept
		want []arrow.Type
	}{
		{fixedIDs[int8](), []arrow.Type{arrow.INT8}},
		{fixedIDs[int16](), []arrow.Type{arrow.INT16}},
		{fixedIDs[int32](), []arrow.Type{arrow.INT32, arrow.DATE32, arrow.TIME32}},
		{fixedIDs[int64](), []arrow.Type{arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION}},
		{fixedIDs[uint8](), []arrow.Type{arrow.UINT8}},
		{fixedIDs[uint16](), []arrow.Type{arrow.UINT16}},
		{fixedIDs[uint32](), []arrow.Type{arrow.UINT32}},
		{fixedIDs[uint64](), []arrow.Type{arrow.UINT64}},
		{fixedIDs[float16.Num](), []arrow.Type{arrow.FLOAT16}},
		{fixedIDs[float32](), []arrow.Type{arrow.FLOAT32}},
		{fixedIDs[float64](), []arrow.Type{arrow.FLOAT64}},
		{fixedIDs[decimal.Decimal32](), []arrow.Type{arrow.DECIMAL32}},
		{fixedIDs[decimal.Decimal64](), []arrow.Type{arrow.DECIMAL64}},
		{fixedIDs[decimal.Decimal128](), []arrow.Type{arrow.DECIMAL128}},
		{fixedIDs[decimal.Decimal256](), []arrow.Type{arrow.DECIMAL256}},
		{fixedIDs[arrow.MonthInterval](), []arrow.Type{arrow.INTERVAL_MONTHS}},
		{fixedIDs[arrow.DayTimeInterval](), []arrow.Type{arrow.INTERVAL_DAY_TIME}},
		{fixedIDs[arrow.MonthDayNanoInterval](), []arrow.Type{arrow.INTERVAL_MONTH_DAY_NANO}},
	} {
		assert.Equal(t, AcceptOf(c.want...), c.got, "%s", c.got)
	}
}

// Fixed and the table's FixedValue are one type set: each satisfies the
// other, which the compiler checks here.
func fixedIsFixedValue[T Fixed]() arrowtype.Value       { return arrowtype.ValueOf[T]() }
func fixedValueIsFixed[T arrowtype.FixedValue]() Accept { return fixedIDs[T]() }

var _, _ = fixedIsFixedValue[int8], fixedValueIsFixed[int8]

// sampleType is a datatype of r's ID.
func sampleType(t *testing.T, r *arrowtype.Row) arrow.DataType {
	t.Helper()
	switch {
	case r.Decimal:
		return r.DecimalOf(r.MaxPrecision, 0)
	case len(r.Units) > 0:
		dt, err := r.WithUnit(r.DefaultUnit, "")
		require.NoError(t, err)
		return dt
	}
	return r.Make()
}

// sliceElem is the Go type of the elements of the slice method name of n
// returns.
func sliceElem(n any, name string) reflect.Type {
	return reflect.ValueOf(n).MethodByName(name).Call(nil)[0].Type().Elem()
}

// Every fixed-width type is built as the node of its buffer's Go type.
func TestEveryFixedWidthTypeIsViewedAsItsBuffersGoType(t *testing.T) {
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Fixed {
			continue
		}
		buf := memory.NewBufferBytes(make([]byte, 2*r.Bytes))
		arr := array.MakeFromData(array.NewData(sampleType(t, r), 2, []*memory.Buffer{nil, buf}, nil, 0, 0))
		v, err := New(arr, Type{Accept: AcceptOf(r.ID)})
		require.NoError(t, err, r.Name)
		assert.Equal(t, r.Value.GoType(), sliceElem(v.node, "Values"), r.Name)
	}
}

// Every integer indexes a dictionary, read as its own Go type; int16,
// int32 and int64, and no other type, end runs.
func TestDictionaryIndicesAndRunEndsAreReadAsTheirGoTypes(t *testing.T) {
	values := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Int8, 1,
		[]*memory.Buffer{nil, memory.NewBufferBytes([]byte{7})}, nil, 0, 0))
	runEnds := map[arrow.Type]bool{arrow.INT16: true, arrow.INT32: true, arrow.INT64: true}
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Fixed {
			continue
		}
		index := sampleType(t, r)
		zero := memory.NewBufferBytes(make([]byte, r.Bytes))
		t.Run(r.Name, func(t *testing.T) {
			d := array.NewData(&arrow.DictionaryType{IndexType: index, ValueType: values.DataType()}, 1,
				[]*memory.Buffer{nil, zero}, nil, 0, 0)
			d.SetDictionary(values.Data())
			v, err := New(array.MakeFromData(d), Type{Accept: AcceptOf(arrow.DICTIONARY, arrow.INT8)})
			if r.Integer {
				require.NoError(t, err)
				assert.Equal(t, r.Value.GoType(), sliceElem(v.node, "Indices"))
			} else {
				require.ErrorIs(t, err, ErrInvalidData)
				assert.ErrorContains(t, err, "is not an integer")
			}

			// arrow-go refuses other run ends: hand views the data alone.
			ends := array.NewData(index, 1, []*memory.Buffer{nil, oneOf(r)}, nil, 0, 0)
			ree := array.NewData(arrow.RunEndEncodedOf(index, values.DataType()), 1, []*memory.Buffer{nil},
				[]arrow.ArrayData{ends, values.Data()}, 0, 0)
			v, err = New(dataOnly{data: ree}, Type{Accept: AcceptOf(arrow.RUN_END_ENCODED, arrow.INT8)})
			if runEnds[r.ID] {
				require.NoError(t, err)
				assert.Equal(t, r.Value.GoType(), sliceElem(v.node, "RunEnds"))
			} else {
				require.ErrorIs(t, err, ErrInvalidData)
				assert.ErrorContains(t, err, "is not int16, int32 or int64")
			}
		})
	}
}

// oneOf is a buffer of one value 1 of r's width, little-endian.
func oneOf(r *arrowtype.Row) *memory.Buffer {
	b := make([]byte, r.Bytes)
	b[0] = 1
	return memory.NewBufferBytes(b)
}

// dataOnly is an arrow.Array of which New calls Data only.
type dataOnly struct {
	arrow.Array
	data arrow.ArrayData
}

func (a dataOnly) Data() arrow.ArrayData { return a.data }
