package arrowtype

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// What the table knows of the Go types of its decimals beyond arrow-go's
// decimal.Num: how a value of one width is one of another, its integer
// and its bounds. Code generic over D reads decimals of every width
// through these, so a new width is a case here, not in each package.

// DecimalNum is a decimal Go type of the table with arrow-go's arithmetic.
type DecimalNum[D decimal.DecimalTypes] interface {
	FixedValue
	arithmetic[D]
}

// arithmetic is a decimal Go type of arrow-go, of the table or not.
type arithmetic[D decimal.DecimalTypes] interface {
	decimal.DecimalTypes
	decimal.Num[D]
}

// ConvertDecimal is the unscaled value x as a decimal of D: exact where D
// is as wide as S or x fits D, else cut to D's width (callers check the
// precision first).
func ConvertDecimal[S, D decimal.DecimalTypes](x S) D {
	switch x := any(x).(type) {
	case decimal.Decimal32:
		return DecimalOfInt64[D](int64(x))
	case decimal.Decimal64:
		return DecimalOfInt64[D](int64(x))
	case decimal128.Num:
		return decimalOf128[D](x)
	case decimal256.Num:
		return decimalOf256[D](x)
	}
	panic("arrowtype: no decimal width for the value") // the constraint admits none
}

// DecimalOfInt64 is x as a decimal of D, cut to D's width.
func DecimalOfInt64[D decimal.DecimalTypes](x int64) D {
	var d D
	switch p := any(&d).(type) {
	case *decimal.Decimal32:
		*p = decimal.Decimal32(x)
	case *decimal.Decimal64:
		*p = decimal.Decimal64(x)
	case *decimal128.Num:
		*p = decimal128.FromI64(x)
	case *decimal256.Num:
		*p = decimal256.FromI64(x)
	}
	return d
}

func decimalOf128[D decimal.DecimalTypes](x decimal128.Num) D {
	var d D
	switch p := any(&d).(type) {
	case *decimal128.Num:
		*p = x
	case *decimal256.Num:
		*p = decimal256.FromDecimal128(x)
	default:
		d = DecimalOfInt64[D](int64(x.LowBits()))
	}
	return d
}

func decimalOf256[D decimal.DecimalTypes](x decimal256.Num) D {
	var d D
	words := x.Array() // little-endian 64-bit words
	switch p := any(&d).(type) {
	case *decimal256.Num:
		*p = x
	case *decimal128.Num:
		*p = decimal128.New(int64(words[1]), words[0])
	default:
		d = DecimalOfInt64[D](int64(words[0]))
	}
	return d
}

// DecimalInt64 is the unscaled x as an int64; false when it does not fit
// one (every decimal32 and decimal64 does).
func DecimalInt64[D decimal.DecimalTypes](x D) (int64, bool) {
	switch x := any(x).(type) {
	case decimal.Decimal32:
		return int64(x), true
	case decimal.Decimal64:
		return int64(x), true
	case decimal128.Num:
		lo := x.LowBits()
		return int64(lo), (x.HighBits() == 0 && lo < 1<<63) || (x.HighBits() == -1 && lo >= 1<<63)
	case decimal256.Num:
		w := x.Array()
		return int64(w[0]), (w[3] == 0 && w[2] == 0 && w[1] == 0 && w[0] < 1<<63) ||
			(w[3] == ^uint64(0) && w[2] == ^uint64(0) && w[1] == ^uint64(0) && w[0] >= 1<<63)
	}
	return 0, false
}

// DecimalBigInt is the unscaled x as a big.Int.
func DecimalBigInt[D decimal.DecimalTypes](x D) *big.Int {
	if i, ok := DecimalInt64(x); ok {
		return big.NewInt(i)
	}
	switch x := any(x).(type) {
	case decimal128.Num:
		return x.BigInt()
	case decimal256.Num:
		return x.BigInt()
	}
	return new(big.Int)
}

// DecimalBounds are the exclusive bounds -10^precision and 10^precision
// of the unscaled values of a decimal of precision: the one rule by which
// a value past the declared precision is refused, both ways. A precision
// past D's maximum is D's maximum.
func DecimalBounds[D arithmetic[D]](precision int32) (low, high D) {
	precision = min(precision, int32(decimal.MaxPrecision[D]()))
	high = DecimalOfInt64[D](1).IncreaseScaleBy(precision) // D holds 10^p up to its maximum precision
	return high.Negate(), high
}

// DecimalsFit reports whether every value is within the bounds of
// precision, with each width's loop written out: plain integer
// comparisons for decimal32 and decimal64, Less (inlined) for the wider
// ones, where a generic loop would call Cmp through a dictionary per
// value.
func DecimalsFit[D arithmetic[D]](values []D, precision int32) bool {
	switch vs := any(values).(type) {
	case []decimal.Decimal32:
		_, high := DecimalBounds[decimal.Decimal32](precision)
		return integersFit(vs, high)
	case []decimal.Decimal64:
		_, high := DecimalBounds[decimal.Decimal64](precision)
		return integersFit(vs, high)
	case []decimal128.Num:
		low, high := DecimalBounds[decimal128.Num](precision)
		for _, d := range vs {
			if !d.Less(high) || !low.Less(d) {
				return false
			}
		}
		return true
	case []decimal256.Num:
		low, high := DecimalBounds[decimal256.Num](precision)
		for _, d := range vs {
			if !d.Less(high) || !low.Less(d) {
				return false
			}
		}
		return true
	}
	low, high := DecimalBounds[D](precision)
	for _, d := range values {
		if d.Cmp(high) >= 0 || d.Cmp(low) <= 0 {
			return false
		}
	}
	return true
}

func integersFit[D decimal.Decimal32 | decimal.Decimal64](values []D, high D) bool {
	low := -high
	for _, d := range values {
		if d >= high || d <= low {
			return false
		}
	}
	return true
}
