package mapper

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// valuesEncoder writes Go values without pointers whose memory is the
// Arrow builder's value type (numbers, bools, decimals, durations in ns):
// they are gathered straight into the builder's staged values, and checked
// there when check is set.
type valuesEncoder[V any] struct {
	encLevel
	// check returns the index of the first value the Arrow type cannot
	// hold and why, or -1.
	check func(values []V) (int, error)
}

type valuesWriter[V any] struct {
	*valuesEncoder[V]
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *valuesEncoder[V]) newWriter(b columnBuilder) writer {
	return &valuesWriter[V]{valuesEncoder: e, b: b}
}

func (w *valuesWriter[V]) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	values := gather(s, staged[V](w.b, s.n))
	if w.check != nil {
		if k, err := w.check(values); err != nil {
			return w.fail(s, k, err)
		}
	}
	return nil
}

func (w *valuesWriter[V]) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// staged is b's stageFixed as values of V.
func staged[V any](b columnBuilder, n int) []V {
	buf := b.stageFixed(n, int(unsafe.Sizeof(*new(V))))
	return unsafe.Slice((*V)(unsafe.Pointer(unsafe.SliceData(buf))), n)
}

// convertEncoder writes Go values of type V as Arrow values of type A
// through a conversion that may fail: time.Time to timestamps, decimal text
// to decimals, … All the values of a level are converted in prepare,
// straight into the builder's staged values.
type convertEncoder[V, A any] struct {
	encLevel
	convert func(v *V) (A, error) // fails when A cannot hold v
}

type convertWriter[V, A any] struct {
	*convertEncoder[V, A]
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *convertEncoder[V, A]) newWriter(b columnBuilder) writer {
	return &convertWriter[V, A]{convertEncoder: e, b: b}
}

func (w *convertWriter[V, A]) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	values := staged[A](w.b, s.n)
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		out := values[k : k+sp.n]
		if sp.p == nil {
			clear(out)
		} else {
			for j := range out {
				var err error
				if out[j], err = w.convert((*V)(s.at(sp.p, j))); err != nil {
					return w.fail(s, k+j, err)
				}
			}
		}
		k += sp.n
	}
	return nil
}

func (w *convertWriter[V, A]) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// overflow is an ErrOverflow saying why.
func overflow(format string, args ...any) error {
	return &detail{kind: ErrOverflow, msg: fmt.Sprintf(format, args...)}
}

// timestampIn converts an instant to a count of unit since the epoch,
// floored to the unit as time.Time.UnixMilli is.
func timestampIn(unit arrow.TimeUnit) func(*time.Time) (int64, error) {
	div := int64(unit.Multiplier())
	per := int64(time.Second) / div
	// Seconds in [low, high] fit whatever their fraction: no check, no
	// division by a variable, on the common path.
	low, high := math.MinInt64/per, (math.MaxInt64-(per-1))/per
	return func(t *time.Time) (int64, error) {
		sec, nsec := t.Unix(), int64(t.Nanosecond())
		if sec >= low && sec <= high {
			if div != 1 {
				nsec /= div
			}
			return sec*per + nsec, nil
		}
		v, ok := unixIn(sec, nsec, per, div)
		if !ok {
			return 0, overflow("%s does not fit timestamp[%s]", t.Format(time.RFC3339Nano), unit)
		}
		return v, nil
	}
}

// unixIn is sec seconds and nsec nanoseconds (0 ≤ nsec < 1e9) since the
// epoch as a count of units, per to the second and div nanoseconds each,
// floored; ok is false when that does not fit an int64.
func unixIn(sec, nsec, per, div int64) (int64, bool) {
	f := nsec / div // 0 ≤ f < per
	if sec >= 0 {
		if sec > (math.MaxInt64-f)/per {
			return 0, false
		}
		return sec*per + f, true
	}
	// sec*per + f = (sec+1)*per - (per-f), each step in range.
	up := sec + 1
	if up < math.MinInt64/per {
		return 0, false
	}
	v := up * per
	if v < math.MinInt64+(per-f) {
		return 0, false
	}
	return v - (per - f), true
}

const secondsPerDayInt64 = int64(secondsPerDay)

// date32Of is the day of an instant in UTC, in days since the epoch.
func date32Of(t *time.Time) (int32, error) {
	days := floorDiv(t.Unix(), secondsPerDayInt64)
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, overflow("%s does not fit date32", t.Format(time.RFC3339))
	}
	return int32(days), nil
}

const msPerDay = secondsPerDayInt64 * 1000

// date64Of is an instant that is a UTC midnight, in milliseconds since the
// epoch. Any other instant is ErrInvalidData: date64 holds whole days
// only, as the Arrow format says, and rounding would change the value.
func date64Of(t *time.Time) (int64, error) {
	sec := t.Unix()
	days := floorDiv(sec, secondsPerDayInt64)
	if sec != days*secondsPerDayInt64 || t.Nanosecond() != 0 {
		return 0, &detail{kind: ErrInvalidData, msg: fmt.Sprintf(
			"%s is not a whole day in UTC, which date64 holds: truncate it to its UTC midnight, or tag it date32 (its day)", t.Format(time.RFC3339Nano))}
	}
	if days < math.MinInt64/msPerDay || days > math.MaxInt64/msPerDay {
		return 0, overflow("%s does not fit date64", t.Format(time.RFC3339))
	}
	return days * msPerDay, nil
}

// wholeDayMillis checks that the int64 values of a date64 column are whole
// days in milliseconds, as the Arrow format says; it returns the first
// that is not, or -1.
func wholeDayMillis(values []int64) (int, error) {
	for k, ms := range values {
		if ms%msPerDay != 0 {
			return k, &detail{kind: ErrInvalidData, msg: fmt.Sprintf("date64 %d ms is not a whole number of days (%d ms)", ms, msPerDay)}
		}
	}
	return -1, nil
}

// clockTimeIn is the time of day of an instant in UTC, in unit, truncated,
// as arreflect writes a time.Time tagged time32 or time64.
func clockTimeIn[A int32 | int64](unit arrow.TimeUnit) func(*time.Time) (A, error) {
	div := int64(unit.Multiplier())
	per := int64(time.Second) / div
	return func(t *time.Time) (A, error) {
		second := t.Unix() - floorDiv(t.Unix(), secondsPerDayInt64)*secondsPerDayInt64
		return A(second*per + int64(t.Nanosecond())/div), nil
	}
}

// timeOfDayIn converts a duration since midnight, which must be in
// [0, 24h), to time32 or time64 in unit, truncated.
func timeOfDayIn[A int32 | int64](unit arrow.TimeUnit) func(*time.Duration) (A, error) {
	div := time.Duration(unit.Multiplier())
	return func(d *time.Duration) (A, error) {
		if *d < 0 || *d >= 24*time.Hour {
			return 0, overflow("%s is not a time of day", *d)
		}
		return A(*d / div), nil
	}
}

// durationIn converts a duration to a count of unit, truncated toward zero
// as time.Duration.Milliseconds is.
func durationIn(unit arrow.TimeUnit) func(*time.Duration) (int64, error) {
	div := time.Duration(unit.Multiplier())
	return func(d *time.Duration) (int64, error) { return int64(*d / div), nil }
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
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

// binaryEncoder writes strings and []byte (and the named types of them)
// in any utf8 or binary layout, staged straight from the Go values. A nil
// []byte is null; a value of a utf8 layout that is not UTF-8 is
// ErrInvalidData.
type binaryEncoder struct {
	encLevel
	text bool // strings, else []byte
	utf8 bool // into utf8, large_utf8 or utf8_view: the values must be UTF-8
}

type binaryWriter struct {
	*binaryEncoder
	b     columnBuilder
	n     int    // values staged
	valid []bool // of the values staged, when nulls
	nulls bool
}

func (e *binaryEncoder) newWriter(b columnBuilder) writer {
	return &binaryWriter{binaryEncoder: e, b: b}
}

// prepare stages the values of s, which fails when they do not fit the
// layout's offsets.
func (w *binaryWriter) prepare(s *goValues) error {
	w.n = s.n
	w.valid = resize(w.valid, s.n)
	var bad int
	var err error
	if w.nulls, bad, err = w.b.stageBytes(s, bytesOf{text: w.text, utf8: w.utf8, nullable: w.nullable}, w.valid); bad >= 0 {
		return w.fail(s, bad, err)
	}
	return nil
}

func (w *binaryWriter) write() { w.b.appendSlots(w.n, nullsOnly(w.valid, w.nulls)) }

// nullsOnly is valid when nulls, else nil: all valid.
func nullsOnly(valid []bool, nulls bool) []bool {
	if nulls {
		return valid
	}
	return nil
}

// byteArrayEncoder writes [N]byte as fixed_size_binary(N).
type byteArrayEncoder struct {
	encLevel
	width int
}

type byteArrayWriter struct {
	*byteArrayEncoder
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *byteArrayEncoder) newWriter(b columnBuilder) writer {
	return &byteArrayWriter{byteArrayEncoder: e, b: b}
}

// prepare copies the arrays into the builder's staged values, zeros for
// an absent one.
func (w *byteArrayWriter) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	dst := w.b.stageFixed(s.n, w.width)
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		out := dst[k*w.width : (k+sp.n)*w.width]
		switch {
		case sp.p == nil:
			clear(out)
		case s.stride == uintptr(w.width): // then off is 0: the arrays are back to back
			copy(out, unsafe.Slice((*byte)(sp.p), len(out)))
		default:
			for j := range sp.n {
				copy(out[j*w.width:], unsafe.Slice((*byte)(s.at(sp.p, j)), w.width))
			}
		}
		k += sp.n
	}
	return nil
}

func (w *byteArrayWriter) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// textEncoder writes a type that implements encoding.TextMarshaler as its
// text, which must be UTF-8 (ErrInvalidData).
type textEncoder struct {
	encLevel
	typ reflect.Type
}

type textWriter struct {
	*textEncoder
	b     columnBuilder
	addrs []unsafe.Pointer
	text  []byte // the text of every value, back to back
	ends  []int
	strs  []string         // the text of each value, in text
	ptrs  []unsafe.Pointer // to strs, nil for an absent value
	valid []bool
	nulls bool
}

func (e *textEncoder) newWriter(b columnBuilder) writer {
	return &textWriter{textEncoder: e, b: b}
}

// prepare marshals the values of s and stages their text as strings.
func (w *textWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.ends = resize(w.ends, s.n)
	w.text = w.text[:0]
	for k, p := range w.addrs {
		if p != nil {
			text, err := reflect.NewAt(w.typ, p).Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return w.fail(s, k, fmt.Errorf("%w: %s.MarshalText: %w", ErrInvalidData, w.typ, err))
			}
			w.text = append(w.text, text...)
		}
		w.ends[k] = len(w.text)
	}
	w.strs, w.ptrs = resize(w.strs, s.n), resize(w.ptrs, s.n)
	start := 0
	for k, end := range w.ends {
		w.strs[k] = ""
		if end > start {
			w.strs[k] = unsafe.String(&w.text[start], end-start)
		}
		w.ptrs[k] = nil
		if w.addrs[k] != nil {
			w.ptrs[k] = unsafe.Pointer(&w.strs[k])
		}
		start = end
	}
	texts := goValues{ptrs: w.ptrs, n: s.n, parent: s}
	w.valid = resize(w.valid, s.n)
	var bad int
	var err error
	if w.nulls, bad, err = w.b.stageBytes(&texts, bytesOf{text: true, utf8: true, nullable: w.nullable}, w.valid); bad >= 0 {
		return w.fail(s, bad, err)
	}
	return nil
}

func (w *textWriter) write() { w.b.appendSlots(len(w.ends), nullsOnly(w.valid, w.nulls)) }

func implementsTextMarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textMarshalerType)
}

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()

// nullEncoder writes a Null field: a null per row, of the null type.
type nullEncoder struct{}

func (nullEncoder) newWriter(b columnBuilder) writer { return &nullWriter{b: b} }

type nullWriter struct {
	b columnBuilder
	n int
}

func (w *nullWriter) prepare(s *goValues) error { w.n = s.n; return nil }
func (w *nullWriter) write()                    { w.b.appendSlots(w.n, nil) }
