package arrowtype_test

import (
	"strings"
	"testing"

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
}

func mustArray(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}
