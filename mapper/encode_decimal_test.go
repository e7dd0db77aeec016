package mapper_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// Decimal text is exact on both sides of the int64 range, where decoding
// switches from machine integers to big ones.
func TestDecimalTextAroundTheInt64Range(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	big := func(s string) *big.Int {
		x, ok := new(big.Int).SetString(s, 10)
		require.True(t, ok)
		return x
	}
	cases := []struct{ unscaled, text string }{
		{"-9223372036854775808", "-9223372036854775.808"},
		{"9223372036854775807", "9223372036854775.807"},
		{"9223372036854775808", "9223372036854775.808"},
		{"-9223372036854775809", "-9223372036854775.809"},
		{"-18446744073709551616", "-18446744073709551.616"},
		{"5", "0.005"},
		{"-12345", "-12.345"},
		{"0", "0.000"},
	}
	dt := &arrow.Decimal128Type{Precision: 38, Scale: 3}
	b := array.NewDecimal128Builder(mem, dt)
	defer b.Release()
	for _, c := range cases {
		b.Append(decimal128.FromBigInt(big(c.unscaled)))
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil), []arrow.Array{col}, int64(len(cases)))
	defer rec.Release()

	type row struct {
		D string `arrow:"d"`
	}
	rows, err := mapper.Decode[row](rec)
	require.NoError(t, err)
	for i, c := range cases {
		require.Equal(t, c.text, rows[i].D, "unscaled %s", c.unscaled)
	}

	// decimal64(18, 0) holds 18 digits, the most that fit: the int64
	// minimum has 19, which the type cannot hold, and is refused, as
	// encoding refuses it.
	b64 := array.NewDecimal64Builder(mem, &arrow.Decimal64Type{Precision: 18, Scale: 0})
	defer b64.Release()
	b64.Append(decimal.Decimal64(-999_999_999_999_999_999))
	b64.Append(decimal.Decimal64(-9223372036854775808))
	col64 := b64.NewArray()
	defer col64.Release()
	rec64 := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "d", Type: col64.DataType()}}, nil), []arrow.Array{col64}, 2)
	defer rec64.Release()
	first := rec64.NewSlice(0, 1)
	defer first.Release()
	rows, err = mapper.Decode[row](first)
	require.NoError(t, err)
	require.Equal(t, "-999999999999999999", rows[0].D)
	_, err = mapper.Decode[row](rec64)
	fxRequireError(t, err, mapper.ErrInvalidData, "D", "d", 1)
}

// A scale past ±152 is refused for the record, before any text is made of
// it (a scale of 2^31 from a damaged file asked for 2 GiB a value); scales
// past the precision, either way, within it read exactly.
func TestADecimalScalePastTheBoundIsRefusedAndOnesPastThePrecisionRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	type row struct {
		D string `arrow:"d"`
	}
	read := func(scale int32) ([]row, error) {
		dt := &arrow.Decimal128Type{Precision: 5, Scale: scale}
		b := array.NewDecimal128Builder(mem, dt)
		defer b.Release()
		b.Append(decimal128.FromI64(-12345))
		col := b.NewArray()
		defer col.Release()
		rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil), []arrow.Array{col}, 1)
		defer rec.Release()
		return mapper.Decode[row](rec)
	}
	for scale, want := range map[int32]string{10: "-0.0000012345", -3: "-12345000", 152: "-0." + strings.Repeat("0", 147) + "12345"} {
		rows, err := read(scale)
		require.NoError(t, err, "scale %d", scale)
		require.Equal(t, want, rows[0].D, "scale %d", scale)
	}
	for _, scale := range []int32{153, -153, math.MaxInt32, math.MinInt32} {
		_, err := read(scale)
		require.ErrorIs(t, err, mapper.ErrInvalidData, "scale %d", scale)
		require.ErrorContains(t, err, "a scale past ±152", "scale %d", scale)
	}
}

type encDecimalText struct {
	V string `arrow:"v,decimal(8,3)"`
}

func TestEncodeDecimalTextExactly(t *testing.T) {
	cases := map[string]int64{
		"1": 1000, "-1": -1000, "+2.5": 2500, "0.001": 1, "-0.000": 0, "12345.678": 12345678,
		"1.500": 1500, ".5": 500, "5.": 5000, "1e3": 1000000, "1.5E-2": 15, "0e99": 0,
	}
	for text, want := range cases {
		rec, err := mapper.Encode([]encDecimalText{{text}})
		require.NoError(t, err, text)
		got := rec.Column(0).(*array.Decimal128).Value(0)
		assert.Equal(t, decimal128.FromI64(want), got, text)
		rec.Release()
	}
	for _, text := range []string{"", "-", ".", "1,5", " 1", "1e", "e5", "0x10", "1..2", "١"} {
		_, err := mapper.Encode([]encDecimalText{{text}})
		assert.ErrorIs(t, err, mapper.ErrInvalidData, "%q", text)
	}
	for _, text := range []string{"123456", "0.0001", "1e5", "99999.9999"} {
		_, err := mapper.Encode([]encDecimalText{{text}})
		assert.ErrorIs(t, err, mapper.ErrOverflow, "%q", text)
	}
}
