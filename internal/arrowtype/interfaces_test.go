package arrowtype_test

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

func TestTheArrayInterfacesAreWhatArrowGoArraysOfEachLayoutGive(t *testing.T) {
	mem := memory.DefaultAllocator
	st, _, err := array.FromJSON(mem, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}),
		strings.NewReader(`[{"a": 1}, {"a": 2}, {"a": 3}]`))
	require.NoError(t, err)
	defer st.Release()
	sliced := array.NewSlice(st, 1, 3)
	defer sliced.Release()
	s, ok := sliced.(arrowtype.StructArray)
	require.True(t, ok, "a struct array is a StructArray")
	assert.Equal(t, 1, s.NumField())
	assert.Equal(t, sliced.(*array.Struct).Field(0), s.Field(0), "the field sliced as the struct")

	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	dict, _, err := array.FromJSON(mem, dt, strings.NewReader(`["x", "y", "x", null]`))
	require.NoError(t, err)
	defer dict.Release()
	d, ok := dict.(arrowtype.DictionaryArray)
	require.True(t, ok, "a dictionary array is a DictionaryArray")
	want := dict.(*array.Dictionary)
	assert.Same(t, want.Dictionary(), d.Dictionary())
	assert.Same(t, want.Indices(), d.Indices())
	for i := range 3 {
		assert.Equal(t, want.GetValueIndex(i), d.GetValueIndex(i))
	}

	ree := array.NewRunEndEncodedArray(mustArray(t, arrow.PrimitiveTypes.Int32, `[2, 5]`), mustArray(t, arrow.BinaryTypes.String, `["a", "b"]`), 5, 0)
	defer ree.Release()
	window := array.NewSlice(ree, 1, 4)
	defer window.Release()
	r, ok := window.(arrowtype.RunEndArray)
	require.True(t, ok, "a run-end encoded array is a RunEndArray")
	assert.Equal(t, window.(*array.RunEndEncoded).GetPhysicalOffset(), r.GetPhysicalOffset())
	assert.Equal(t, 2, r.GetPhysicalLength(), "the window [1, 4) spans both runs")
	assert.Same(t, window.(*array.RunEndEncoded).Values(), r.Values())
	assert.Same(t, window.(*array.RunEndEncoded).RunEndsArr(), r.RunEndsArr())

	fixed := array.NewSlice(mustArray(t, &arrow.FixedSizeBinaryType{ByteWidth: 2}, `["AAE=", "AgM=", "BAU="]`), 1, 3)
	defer fixed.Release()
	f, ok := fixed.(arrowtype.FixedBinaryArray)
	require.True(t, ok, "a fixed-size binary array is a FixedBinaryArray")
	assert.Equal(t, []byte{2, 3}, f.Value(0), "the window's first value, of the type's width")
	assert.Equal(t, []byte{4, 5}, f.Value(1))
}

func mustArray(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

func TestWithElemRebuildsEveryListLikeTypeAroundANewElement(t *testing.T) {
	elem := arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	for _, c := range []struct {
		dt, want arrow.DataType
	}{
		{arrow.ListOf(arrow.BinaryTypes.String), arrow.ListOfField(elem)},
		{arrow.LargeListOf(arrow.BinaryTypes.String), arrow.LargeListOfField(elem)},
		{arrow.ListViewOf(arrow.BinaryTypes.String), arrow.ListViewOfField(elem)},
		{arrow.LargeListViewOf(arrow.BinaryTypes.String), arrow.LargeListViewOfField(elem)},
		{arrow.FixedSizeListOf(3, arrow.BinaryTypes.String), arrow.FixedSizeListOfField(3, elem)},
	} {
		got, ok := arrowtype.WithElem(c.dt, elem)
		require.True(t, ok, "%s", c.dt)
		assert.True(t, arrow.TypeEqual(c.want, got), "%s: %s, want %s", c.dt, got, c.want)
	}
	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	m.KeysSorted = true
	entries := arrow.StructOf(arrow.Field{Name: "key", Type: arrow.BinaryTypes.LargeString, Nullable: true}, arrow.Field{Name: "value", Type: arrow.PrimitiveTypes.Int8, Nullable: true})
	got, ok := arrowtype.WithElem(m, arrow.Field{Name: "entries", Type: entries})
	require.True(t, ok)
	want := arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Int8)
	want.KeysSorted = true
	assert.True(t, arrow.TypeEqual(want, got), "the map's keys kept sorted, its key not nullable: %s", got)

	_, ok = arrowtype.WithElem(m, elem)
	assert.False(t, ok, "a map's entries are a struct of two fields")
	_, ok = arrowtype.WithElem(arrow.PrimitiveTypes.Int32, elem)
	assert.False(t, ok, "no list")
	_, ok = arrowtype.WithElem(arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.Field{Name: "item"})
	assert.False(t, ok, "a nil element type")
}

func TestWithEncodedValuesKeepsTheIndicesRunEndsAndOrder(t *testing.T) {
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String, Ordered: true}
	got, ok := arrowtype.WithEncodedValues(dict, arrow.BinaryTypes.Binary)
	require.True(t, ok)
	assert.True(t, arrow.TypeEqual(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.Binary, Ordered: true}, got), "%s", got)

	ree := arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32)
	ree.ValueNullable = false
	got, ok = arrowtype.WithEncodedValues(ree, arrow.PrimitiveTypes.Float64)
	require.True(t, ok)
	want := arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float64)
	want.ValueNullable = false
	assert.True(t, arrow.TypeEqual(want, got), "%s", got)
	values, _ := arrowtype.Encoded(got)
	assert.Equal(t, arrow.PrimitiveTypes.Float64, values)

	_, ok = arrowtype.WithEncodedValues(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	assert.False(t, ok)
}

func TestSinceEpochCountsADatesDaysInSecondsAndItsMillisecondsAsThey(t *testing.T) {
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	d32 := arrow.Date32FromTime(day)
	x, unit := arrowtype.OfType(arrow.FixedWidthTypes.Date32).SinceEpoch(int64(d32), arrow.Nanosecond)
	assert.Equal(t, arrow.Second, unit)
	assert.Equal(t, day, time.Unix(x, 0).UTC())
	assert.Equal(t, d32.ToTime(), time.Unix(x, 0).UTC(), "arrow-go's date32 is the same day")
	d64 := arrow.Date64FromTime(day)
	x, unit = arrowtype.OfType(arrow.FixedWidthTypes.Date64).SinceEpoch(int64(d64), arrow.Nanosecond)
	assert.Equal(t, arrow.Millisecond, unit)
	assert.Equal(t, d64.ToTime(), time.UnixMilli(x).UTC())
	x, unit = arrowtype.OfType(&arrow.TimestampType{Unit: arrow.Microsecond}).SinceEpoch(7, arrow.Microsecond)
	assert.Equal(t, int64(7), x)
	assert.Equal(t, arrow.Microsecond, unit)
}

func TestPerSecondAndIntegerOfAgreeWithArrowGo(t *testing.T) {
	for _, unit := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		ts := arrow.Timestamp(arrowtype.PerSecond(unit))
		assert.Equal(t, time.Unix(1, 0).UTC(), ts.ToTime(unit), "%s", unit)
	}
	for _, r := range arrowtype.Rows() {
		if r.Layout != arrowtype.Fixed || r.Temporal == arrowtype.NotTemporal || r.Temporal == arrowtype.Interval {
			continue
		}
		dt, ok := arrowtype.IntegerOf(r.Value)
		require.True(t, ok, r.Name)
		assert.Equal(t, r.Bytes, dt.(arrow.FixedWidthDataType).Bytes(), "%s is stored as %s", r.Name, dt)
		assert.True(t, arrowtype.OfType(dt).Integer && arrowtype.OfType(dt).Signed)
	}
	_, ok := arrowtype.IntegerOf(arrowtype.Float64)
	assert.False(t, ok)
}

func TestTheAppendersAreWhatArrowGosBuildersOfEachTypeDo(t *testing.T) {
	mem := memory.DefaultAllocator
	ts := arrowtype.Named("timestamp").MustWithUnit(arrow.Microsecond, "UTC")
	assert.True(t, arrow.TypeEqual(&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, ts))
	assert.Panics(t, func() { arrowtype.Named("time32").MustWithUnit(arrow.Nanosecond, "") }, "time32 takes no nanoseconds")
	assert.Panics(t, func() { arrowtype.Named("no such type") })

	b := array.NewBuilder(mem, ts)
	defer b.Release()
	b.(arrowtype.Appender[arrow.Timestamp]).Append(7)
	a := b.NewArray()
	defer a.Release()
	assert.Equal(t, arrow.Timestamp(7), a.(*array.Timestamp).Value(0))

	for _, c := range []struct {
		dt arrow.DataType
		ok func(array.Builder) bool
	}{
		{arrow.ListOf(arrow.PrimitiveTypes.Int8), func(b array.Builder) bool { _, ok := b.(arrowtype.ListAppender); return ok }},
		{arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8}), func(b array.Builder) bool { _, ok := b.(arrowtype.StructAppender); return ok }},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int8), func(b array.Builder) bool { _, ok := b.(arrowtype.MapAppender); return ok }},
		{arrow.BinaryTypes.String, func(b array.Builder) bool { _, ok := b.(arrowtype.Appender[string]); return ok }},
		{arrow.FixedWidthTypes.Boolean, func(b array.Builder) bool { _, ok := b.(arrowtype.Appender[bool]); return ok }},
	} {
		b := array.NewBuilder(mem, c.dt)
		assert.True(t, c.ok(b), "%s", c.dt)
		b.Release()
	}
}
