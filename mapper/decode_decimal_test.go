package mapper_test

import (
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeDecimals(t *testing.T) {
	d32 := func(x int64) decimal.Decimal32 { return decimal.Decimal32(x) }
	d64 := func(x int64) decimal.Decimal64 { return decimal.Decimal64(x) }
	big256, ok := new(big.Int).SetString("-1234567890123456789012345678901234567890", 10)
	require.True(t, ok)
	fxRun(t, []fxCase{
		{"decimal32 decodes into decimal.Decimal32", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, d32)},
		{"decimal64 decodes into decimal.Decimal64", fxDecimalsCase(&arrow.Decimal64Type{Precision: 18, Scale: 2}, d64)},
		{"decimal128 decodes into decimal.Decimal128", fxDecimalsCase(&arrow.Decimal128Type{Precision: 10, Scale: 2}, decimal128.FromI64)},
		{"decimal256 decodes into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal256Type{Precision: 40, Scale: 2}, decimal256.FromI64)},
		{"decimal32 widens into decimal.Decimal64", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, d64)},
		{"decimal64 widens into decimal.Decimal128", fxDecimalsCase(&arrow.Decimal64Type{Precision: 18, Scale: 2}, decimal128.FromI64)},
		{"decimal32 widens into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal32Type{Precision: 9, Scale: 2}, decimal256.FromI64)},
		{"decimal128 widens into decimal.Decimal256", fxDecimalsCase(&arrow.Decimal128Type{Precision: 10, Scale: 2}, decimal256.FromI64)},
		{"decimal256 keeps all 40 digits", func(t *testing.T, mem memory.Allocator) {
			const js = `["-12345678901234567890123456789012345678.90", null, "1", "0"]`
			dt := &arrow.Decimal256Type{Precision: 40, Scale: 2}
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxDecimalRow[decimal.Decimal256]](t, rec)
			require.Equal(t, big256.String(), got[0].V.BigInt().String())
			require.Equal(t, int64(100), got[2].V.BigInt().Int64())
		}},
		{"a decimal128 into a narrower decimal.Decimal64 is a type mismatch", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxDecimalRow[decimal.Decimal64]](fxSchema("v", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "p", &arrow.Decimal64Type{Precision: 10, Scale: 2}))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},

		{"decimal128(10,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal128Type{Precision: 10, Scale: 2},
			`["123.45", null, "-0.05", "0", "-12345678.90", "0.5"]`, "123.45", "", "-0.05", "0.00", "-12345678.90", "0.50")},
		{"decimal256(40,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal256Type{Precision: 40, Scale: 2},
			`["-12345678901234567890123456789012345678.90", null, "0.01", "7"]`, "-12345678901234567890123456789012345678.90", "", "0.01", "7.00")},
		{"decimal32(9,2) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal32Type{Precision: 9, Scale: 2},
			`["1234567.89", null, "-0.05", "-1234567.89"]`, "1234567.89", "", "-0.05", "-1234567.89")},
		{"decimal64(18,4) decodes into its exact text", fxDecimalTextCase(&arrow.Decimal64Type{Precision: 18, Scale: 4},
			`["12345.6789", null, "-0.0001", "0"]`, "12345.6789", "", "-0.0001", "0.0000")},
		{"decimal128(5,0) decodes into its text without a point", fxDecimalTextCase(&arrow.Decimal128Type{Precision: 5, Scale: 0},
			`["42", null, "-7", "0"]`, "42", "", "-7", "0")},
	})
}

type fxDecimalRow[D any] struct {
	V D  `arrow:"v,nullable"`
	P *D `arrow:"p"`
}

// fxDecimalsCase decodes 123.45, null, -0.05, 0 and 99.99 of a decimal
// column of scale 2 into D, the unscaled integer.
func fxDecimalsCase[D any](dt arrow.DataType, of func(int64) D) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		const js = `["123.45", null, "-0.05", "0", "99.99"]`
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		var want []fxDecimalRow[D]
		for i, x := range []int64{12345, 0, -5, 0, 9999} {
			if i == 1 {
				want = append(want, fxDecimalRow[D]{})
				continue
			}
			want = append(want, fxDecimalRow[D]{V: of(x), P: fxPtr(of(x))})
		}
		require.Equal(t, want, fxDecodeAll[fxDecimalRow[D]](t, rec))
	}
}

type fxDecimalText struct {
	V string  `arrow:"v,nullable"`
	P *string `arrow:"p"`
}

// fxDecimalTextCase decodes the decimal values of js (row 1 null) into their
// exact text.
func fxDecimalTextCase(dt arrow.DataType, js string, want ...string) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		rows := make([]fxDecimalText, len(want))
		for i, s := range want {
			if i != 1 {
				rows[i] = fxDecimalText{V: s, P: fxPtr(s)}
			}
		}
		require.Equal(t, rows, fxDecodeAll[fxDecimalText](t, rec))
	}
}

// TestDecimalsPastTheirPrecisionAreRefusedBothWays: a decimal(5,2) holds
// -999.99 to 999.99; a value with more digits is not of the type, so
// decoding refuses it (ErrInvalidData, naming the row) as encoding does
// (ErrOverflow), into every Go type a decimal decodes to.
func TestDecimalsPastTheirPrecisionAreRefusedBothWays(t *testing.T) {
	dt := &arrow.Decimal128Type{Precision: 5, Scale: 2}
	fxRun(t, []fxCase{
		{"values at the edge of the precision decode; one past it is ErrInvalidData", func(t *testing.T, mem memory.Allocator) {
			build := func(unscaled ...int64) arrow.Array {
				b := array.NewDecimal128Builder(mem, dt)
				defer b.Release()
				for _, x := range unscaled {
					b.Append(decimal128.FromI64(x))
				}
				return b.NewArray()
			}
			ok := fxRecord(t, fxCol{"d", build(99999, -99999)}, fxCol{"s", build(99999, -99999)}, fxCol{"w", build(1, 2)})
			defer ok.Release()
			rows := decodeOK[precisionRow](t, ok)
			require.Equal(t, "999.99", *rows[0].S)
			require.Equal(t, "-999.99", *rows[1].S)
			for col := range 3 {
				cols := []fxCol{{"d", build(1, 2, 3)}, {"s", build(1, 2, 3)}, {"w", build(1, 2, 3)}}
				cols[col].arr.Release()
				cols[col].arr = build(1, 2, -100000)
				bad := fxRecord(t, cols...)
				_, err := mapper.Decode[precisionRow](bad)
				fxRequireError(t, err, mapper.ErrInvalidData, []string{"D", "S", "W"}[col], []string{"d", "s", "w"}[col], 2)
				require.ErrorContains(t, err, "-1000.00 has more digits than decimal(5, 2) holds")
				window := bad.NewSlice(0, 2)
				_, err = mapper.Decode[precisionRow](window)
				require.NoError(t, err, "a value outside the window does not count")
				window.Release()
				bad.Release()
			}
		}},
		{"encoding refuses the same value", func(t *testing.T, mem memory.Allocator) {
			type tagged struct {
				D decimal.Decimal128 `arrow:"d,decimal(5,2)"`
			}
			_, err := mapper.Encode([]tagged{{decimal128.FromI64(99999)}, {decimal128.FromI64(-100000)}}, mapper.Allocator(mem))
			fxRequireError(t, err, mapper.ErrOverflow, "D", "d", 1)
		}},
	})
}
