package arrowtype_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/stretchr/testify/assert"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

func TestConvertDecimalKeepsAValueThatFitsEitherWay(t *testing.T) {
	assert.Equal(t, decimal256.FromI64(-12345), arrowtype.ConvertDecimal[decimal.Decimal32, decimal.Decimal256](-12345))
	assert.Equal(t, decimal128.FromI64(-7), arrowtype.ConvertDecimal[decimal.Decimal256, decimal.Decimal128](decimal256.FromI64(-7)))
	assert.Equal(t, decimal.Decimal32(-7), arrowtype.ConvertDecimal[decimal.Decimal256, decimal.Decimal32](decimal256.FromI64(-7)))
	assert.Equal(t, decimal.Decimal64(math.MinInt64), arrowtype.ConvertDecimal[decimal.Decimal128, decimal.Decimal64](decimal128.FromI64(math.MinInt64)))
	wide := decimal128.FromBigInt(new(big.Int).Lsh(big.NewInt(-3), 100))
	assert.Equal(t, wide, arrowtype.ConvertDecimal[decimal.Decimal256, decimal.Decimal128](decimal256.FromDecimal128(wide)),
		"a decimal128 past an int64 comes back from decimal256 whole")
}

func TestDecimalInt64SaysWhetherTheValueFitsAnInt64(t *testing.T) {
	x, ok := arrowtype.DecimalInt64(decimal128.FromI64(math.MinInt64))
	assert.True(t, ok)
	assert.Equal(t, int64(math.MinInt64), x)
	_, ok = arrowtype.DecimalInt64(decimal128.FromU64(1 << 63))
	assert.False(t, ok, "2^63 is past an int64")
	_, ok = arrowtype.DecimalInt64(decimal256.FromI64(-1).Sub(decimal256.FromU64(math.MaxUint64)))
	assert.False(t, ok, "-2^64 is past an int64")
	x, ok = arrowtype.DecimalInt64(decimal256.FromI64(-5))
	assert.True(t, ok)
	assert.Equal(t, int64(-5), x)
	assert.Equal(t, "-340282366920938463463374607431768211456", arrowtype.DecimalBigInt(decimal256.FromBigInt(new(big.Int).Lsh(big.NewInt(-1), 128))).String())
}

func TestDecimalsFitRefusesAValueOfMoreDigitsThanThePrecision(t *testing.T) {
	assert.True(t, arrowtype.DecimalsFit([]decimal.Decimal32{999, -999}, 3))
	assert.False(t, arrowtype.DecimalsFit([]decimal.Decimal32{999, -1000}, 3))
	assert.False(t, arrowtype.DecimalsFit([]decimal.Decimal64{1000}, 3))
	assert.True(t, arrowtype.DecimalsFit([]decimal128.Num{decimal128.FromI64(-999)}, 3))
	assert.False(t, arrowtype.DecimalsFit([]decimal256.Num{decimal256.FromI64(1000)}, 3))
	low, high := arrowtype.DecimalBounds[decimal.Decimal64](40)
	assert.Equal(t, decimal.Decimal64(1e18), high, "a precision past the width's is the width's")
	assert.Equal(t, decimal.Decimal64(-1e18), low)
}
