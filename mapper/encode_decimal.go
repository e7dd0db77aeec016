package mapper

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// Decimal number types, and strings tagged decimal(p,s), encoded to Arrow
// decimals; decode_decimal.go reads them.

// decimalEncoderOf maps a decimal number type: to its own width, with the
// tag's precision and scale, or its maximum precision and scale 0.
func decimalEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partDecimal); err != nil {
		return nil, nil, err
	}
	w, _ := decimalWidthOf(t)
	precision, scale := w.maxPrecision, int32(0)
	if tag.Decimal != nil {
		precision, scale = tag.Decimal.Precision, tag.Decimal.Scale
		if precision > w.maxPrecision {
			return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1,
				"decimal(%d,%d) needs more digits than the %d of %s", precision, scale, w.maxPrecision, t)
		}
	}
	dt, enc := w.encoder(precision, scale, lv)
	return dt, enc, nil
}

// decimalTextEncoderOf maps a string holding decimal text: decimal128, or
// decimal256 past its digits.
func decimalTextEncoderOf(d *tags.Decimal, lv encLevel) (arrow.DataType, encoder, error) {
	if w := decimalWidthFor[decimal.Decimal128](); d.Precision <= w.maxPrecision {
		return w.typeOf(d.Precision, d.Scale),
			&convertEncoder[string, decimal.Decimal128]{encLevel: lv, convert: decimalFromText(d.Precision, d.Scale, decimal128.FromI64, decimal128.FromBigInt)}, nil
	}
	return decimalWidthFor[decimal.Decimal256]().typeOf(d.Precision, d.Scale),
		&convertEncoder[string, decimal.Decimal256]{encLevel: lv, convert: decimalFromText(d.Precision, d.Scale, decimal256.FromI64, decimal256.FromBigInt)}, nil
}

// decimalsFit checks that decimals have at most precision digits.
func decimalsFit[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}](precision, scale int32) func([]D) (int, error) {
	low, high := decimalBounds[D](precision)
	return func(values []D) (int, error) {
		for k, d := range values {
			if d.Cmp(high) >= 0 || d.Cmp(low) <= 0 {
				return k, overflow("%s does not fit decimal(%d,%d)", d.ToString(scale), precision, scale)
			}
		}
		return -1, nil
	}
}

// decimalBounds are the exclusive bounds -10^precision and 10^precision of
// the unscaled values of a decimal of precision: the table's, the one
// rule by which encoding, decoding and the record writers refuse a value
// past the declared precision.
func decimalBounds[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}](precision int32) (low, high D) {
	return arrowtype.DecimalBounds[D](precision)
}

// decimalFromText converts decimal text to a decimal of precision and
// scale, exactly: text that is not a number is ErrInvalidData, a number
// with more digits than the precision, or more decimal places than the
// scale, ErrOverflow.
func decimalFromText[D any](precision, scale int32, fromI64 func(int64) D, fromBig func(*big.Int) D) func(*string) (D, error) {
	return func(s *string) (D, error) {
		neg, digits, err := parseDecimal(*s, precision, scale)
		var d D
		switch {
		case err != nil:
			return d, err
		case len(digits) <= 18: // fits an int64
			x, _ := strconv.ParseInt(digits, 10, 64)
			if neg {
				x = -x
			}
			return fromI64(x), nil
		}
		x, _ := new(big.Int).SetString(digits, 10)
		if neg {
			x.Neg(x)
		}
		return fromBig(x), nil
	}
}

// parseDecimal is the unscaled integer of decimal text s ("-12.5", "1e3")
// at scale: its sign and digits, "0" for zero.
func parseDecimal(s string, precision, scale int32) (neg bool, digits string, err error) {
	text := s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	notNumber := &detail{kind: ErrInvalidData, msg: fmt.Sprintf("%q is not a decimal number", text)}
	mantissa, exponent, hasExponent := strings.Cut(strings.Replace(s, "E", "e", 1), "e")
	whole, fraction, _ := strings.Cut(mantissa, ".")
	if whole+fraction == "" || !isDigits(whole) || !isDigits(fraction) {
		return false, "", notNumber
	}
	// The unscaled integer is digits·10^shift.
	shift := int64(scale) - int64(len(fraction))
	digits = strings.TrimLeft(whole+fraction, "0")
	if hasExponent {
		e, err := strconv.ParseInt(exponent, 10, 32)
		switch {
		case errors.Is(err, strconv.ErrRange) && digits != "":
			return false, "", overflow("%q does not fit decimal(%d,%d)", text, precision, scale)
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return false, "", notNumber
		}
		shift += e
	}
	if digits == "" {
		return false, "0", nil
	}
	if shift < 0 {
		cut := -shift
		if cut >= int64(len(digits)) || strings.Trim(digits[int64(len(digits))-cut:], "0") != "" {
			return false, "", overflow("%q has more decimal places than scale %d", text, scale)
		}
		digits = digits[:int64(len(digits))-cut]
		shift = 0
	}
	if int64(len(digits))+shift > int64(precision) {
		return false, "", overflow("%q does not fit decimal(%d,%d)", text, precision, scale)
	}
	return neg, digits + strings.Repeat("0", int(shift)), nil
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
