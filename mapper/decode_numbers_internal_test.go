package mapper

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloat16WidensToItsExactValue(t *testing.T) {
	// Half-precision bits and their values, from IEEE 754.
	cases := []struct {
		name string
		bits uint16
		want float32
	}{
		{"the smallest subnormal is 2⁻²⁴", 0x0001, 1.0 / (1 << 24)},
		{"the largest subnormal is 1023·2⁻²⁴", 0x03FF, 1023.0 / (1 << 24)},
		{"a negative subnormal keeps its sign", 0x8002, -2.0 / (1 << 24)},
		{"negative zero stays negative", 0x8000, float32(math.Copysign(0, -1))},
		{"the smallest normal is 2⁻¹⁴", 0x0400, 1.0 / (1 << 14)},
		{"one is one", 0x3C00, 1},
		{"the largest is 65504", 0x7BFF, 65504},
		{"infinity stays infinite", 0xFC00, float32(math.Inf(-1))},
	}
	b := array.NewFloat16Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, c := range cases {
		b.Append(float16.FromBits(c.bits))
	}
	arr := b.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "h", Type: arr.DataType()}}, nil), []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()

	f32, err := Decode[struct{ H float32 }](rec)
	require.NoError(t, err)
	f64, err := Decode[struct{ H float64 }](rec)
	require.NoError(t, err)
	for i, c := range cases {
		assert.Equal(t, c.want, f32[i].H, c.name)
		assert.Equal(t, math.Signbit(float64(c.want)), math.Signbit(float64(f32[i].H)), c.name)
		assert.Equal(t, float64(c.want), f64[i].H, c.name)
	}
}
