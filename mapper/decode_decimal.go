package mapper

import (
	"math/big"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/views"
)

// decimalAccept is the decimal types a decimal number type of width own
// holds without loss: those no wider; with strict, its own.
func decimalAccept(own decimalWidth, strict bool) views.Accept {
	var a views.Accept
	for _, w := range decimalWidths {
		if w.bits == own.bits || (!strict && w.bits < own.bits) {
			a |= views.AcceptOf(w.id)
		}
	}
	return a
}

// decimalDecoder decodes any decimal array no wider than D into D. The
// value is the unscaled integer; the scale is the column's.
type decimalDecoder[D decimal.DecimalTypes] struct{}

func (decimalDecoder[D]) inPlace() {}

func (decimalDecoder[D]) decode(v views.View, dst strided, _ *call) {
	widenDecimals[D](v, dst)
}

func widen[S, D any](src []S, nulls slice.Bitmap, dst strided, conv func(S) D) {
	for i, x := range src {
		if nulls.IsValid(i) {
			*(*D)(dst.at(i)) = conv(x)
		}
	}
}

// decodeDecimalText decodes a decimal array into strings of its exact
// value: 12345 at scale 2 is "123.45". The text of all rows goes into one
// arena.
func decodeDecimalText(v views.View, nulls slice.Bitmap, dst strided) {
	w := v.Window()
	node, ok := v.Node().(interface{ DataType() arrow.DataType })
	if !ok {
		return
	}
	dt, ok := node.DataType().(arrow.DecimalType)
	if !ok {
		return
	}
	scale := dt.GetScale()
	// Text of at most precision digits, a sign, a point and leading zeros.
	arena := make([]byte, 0, w.Len*(int(dt.GetPrecision())+3+max(int(scale), 0)))
	ends := make([]int, w.Len)
	var digits []byte // scratch for one value's digits, reused
	for i := range w.Len {
		if nulls.IsValid(i) {
			var neg bool
			neg, digits = unscaledDigits(digits[:0], v.Node(), w.Offset+i)
			arena = appendDecimal(arena, neg, digits, scale)
		}
		ends[i] = len(arena)
	}
	start := 0
	for i, end := range ends {
		if end > start {
			*(*string)(dst.at(i)) = unsafe.String(&arena[start], end-start)
		}
		start = end
	}
}

// unscaledDigitsOf is unscaledDigits of the value x.
func unscaledDigitsOf[D decimal.DecimalTypes](buf []byte, x D) (neg bool, digits []byte) {
	i, ok := arrowtype.DecimalInt64(x)
	if !ok {
		return bigDigits(buf, arrowtype.DecimalBigInt(x))
	}
	if i < 0 {
		return true, strconv.AppendUint(buf, uint64(-i), 10) // -MinInt64 wraps to its magnitude
	}
	return false, strconv.AppendUint(buf, uint64(i), 10)
}

func bigDigits(buf []byte, x *big.Int) (bool, []byte) {
	neg := x.Sign() < 0
	return neg, x.Abs(x).Append(buf, 10)
}

// appendDecimal appends the text of ±digits·10^-scale.
func appendDecimal(buf []byte, neg bool, digits []byte, scale int32) []byte {
	if neg {
		buf = append(buf, '-')
	}
	if scale <= 0 {
		buf = append(buf, digits...)
		if string(digits) != "0" {
			for range -scale {
				buf = append(buf, '0')
			}
		}
		return buf
	}
	s := int(scale)
	if len(digits) <= s {
		buf = append(buf, '0', '.')
		for range s - len(digits) {
			buf = append(buf, '0')
		}
		return append(buf, digits...)
	}
	buf = append(buf, digits[:len(digits)-s]...)
	buf = append(buf, '.')
	return append(buf, digits[len(digits)-s:]...)
}

// maxDecimalScale bounds the scale of a decimal column read, either way:
// twice the widest precision, 76. Arrow bounds the precision alone, but
// the text of a value takes a byte a unit of scale (a scale of 2^31 is 2
// GiB a value); DuckDB and Parquet hold 0 ≤ scale ≤ precision ≤ 38.
const maxDecimalScale = 2 * 76

func abs64(x int64) int64 { return max(x, -x) }

// decimalsInPrecision checks, when a record is viewed, that no value of a
// decimal column of width D has more digits than the column's declared
// precision: such a value is not of the type, and encoding refuses one too;
// and that its scale is within ±maxDecimalScale.
type decimalsInPrecision[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}] struct{ cd *codec }

func (p decimalsInPrecision[D]) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	n, ok := v.Node().(*views.Primitive[D])
	if !ok {
		return nil, nil
	}
	dt := n.DataType().(arrow.DecimalType)
	if s := dt.GetScale(); s > maxDecimalScale || s < -maxDecimalScale {
		return nil, p.cd.rowError(ErrInvalidData, c, -1, "%s: a scale past ±%d, whose text takes %d bytes and more a value", dt, maxDecimalScale, abs64(int64(s)))
	}
	low, high := decimalBounds[D](dt.GetPrecision())
	w := v.Window()
	nulls := v.Nulls()
	for i, d := range n.Values()[w.Offset:w.End()] {
		if (d.Cmp(high) >= 0 || d.Cmp(low) <= 0) && nulls.IsValid(i) {
			return nil, p.cd.rowError(ErrInvalidData, c, i, "%s has more digits than %s holds", d.ToString(dt.GetScale()), dt)
		}
	}
	return nil, nil
}

// decimalPrecisionPreparer is the check of the values of a decimal column
// of row r against its precision, or nil when r is no decimal.
func decimalPrecisionPreparer(cd *codec, r *arrowtype.Row) preparer {
	if w, ok := decimalWidthOf(r.Value.GoType()); ok && r.Decimal {
		return w.fitsPrecision(cd)
	}
	return nil
}

func (c *compiler) compileDecimal(l *level) (*codec, *views.Type, error) {
	w, _ := decimalWidthOf(l.t)
	accept := decimalAccept(w, c.opts.strict)
	if !l.takes(accept) {
		return l.mismatch("%s reads %s", l.t, accept)
	}
	l.cd.dec = w.decoder
	l.cd.prep = decimalPrecisionPreparer(l.cd, l.row)
	return c.done(l)
}
