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
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
)

// appender is an Arrow builder that takes values of Go type V in bulk:
// every fixed-width one.
type appender[V any] interface {
	AppendValues(values []V, valid []bool)
}

// valuesEncoder writes Go values without pointers whose memory is the
// Arrow builder's value type (numbers, bools, decimals, durations in ns):
// they are gathered, checked when check is set, and appended in one call.
type valuesEncoder[V any] struct {
	encLevel
	// check returns the index of the first value the Arrow type cannot
	// hold and why, or -1.
	check func(values []V) (int, error)
}

type valuesWriter[V any] struct {
	*valuesEncoder[V]
	b       appender[V]
	values  []V
	present []bool
	buf     []bool
	// direct, for values with nothing to check going to one of our
	// builders: write gathers them from src straight into its buffer.
	direct *fixedBuilder[V]
	src    *goValues
}

func (e *valuesEncoder[V]) newWriter(b columnBuilder, _ *binding) writer {
	w := &valuesWriter[V]{valuesEncoder: e, b: b.(appender[V])}
	if fb, ok := b.(*fixedBuilder[V]); ok && e.check == nil {
		w.direct = fb
	}
	return w
}

func (w *valuesWriter[V]) prepare(s *goValues) error {
	w.present = s.presence(&w.buf)
	if w.direct != nil {
		w.src = s
		return nil
	}
	w.values = gather(s, w.values)
	if w.check != nil {
		if k, err := w.check(w.values); err != nil {
			return w.fail(s, k, err)
		}
	}
	return nil
}

func (w *valuesWriter[V]) write() {
	if w.direct != nil {
		w.direct.appendGathered(w.src, w.validity(w.present))
		return
	}
	w.b.AppendValues(w.values, w.validity(w.present))
}

// convertEncoder writes Go values of type V as Arrow values of type A
// through a conversion that may fail: time.Time to timestamps, decimal text
// to decimals, … All the values of a level are converted in prepare.
type convertEncoder[V, A any] struct {
	encLevel
	convert func(v *V) (A, error) // fails when A cannot hold v
}

type convertWriter[V, A any] struct {
	*convertEncoder[V, A]
	b       appender[A]
	values  []A
	present []bool
	buf     []bool
}

func (e *convertEncoder[V, A]) newWriter(b columnBuilder, _ *binding) writer {
	return &convertWriter[V, A]{convertEncoder: e, b: b.(appender[A])}
}

func (w *convertWriter[V, A]) prepare(s *goValues) error {
	w.values = resize(w.values, s.n)
	w.present = s.presence(&w.buf)
	bad, err := -1, error(nil)
	k := 0
	for i := 0; i < s.numSpans() && err == nil; i++ {
		sp := s.span(i)
		out := w.values[k : k+sp.n]
		if sp.p == nil {
			clear(out)
		} else {
			for j := range out {
				if out[j], err = w.convert((*V)(s.at(sp.p, j))); err != nil {
					bad = k + j
					break
				}
			}
		}
		k += sp.n
	}
	if err != nil {
		return w.fail(s, bad, err)
	}
	return nil
}

func (w *convertWriter[V, A]) write() { w.b.AppendValues(w.values, w.validity(w.present)) }

// overflow is an ErrOverflow saying why.
func overflow(format string, args ...any) error {
	return &detail{kind: ErrOverflow, msg: fmt.Sprintf(format, args...)}
}

// timestampIn converts an instant to a count of unit since the epoch,
// floored to the unit as time.Time.UnixMilli is.
func timestampIn(unit arrow.TimeUnit) func(*time.Time) (arrow.Timestamp, error) {
	div := int64(unit.Multiplier())
	per := int64(time.Second) / div
	// Seconds in [low, high] fit whatever their fraction: no check, no
	// division by a variable, on the common path.
	low, high := math.MinInt64/per, (math.MaxInt64-(per-1))/per
	return func(t *time.Time) (arrow.Timestamp, error) {
		sec, nsec := t.Unix(), int64(t.Nanosecond())
		if sec >= low && sec <= high {
			if div != 1 {
				nsec /= div
			}
			return arrow.Timestamp(sec*per + nsec), nil
		}
		v, ok := unixIn(sec, nsec, per, div)
		if !ok {
			return 0, overflow("%s does not fit timestamp[%s]", t.Format(time.RFC3339Nano), unit)
		}
		return arrow.Timestamp(v), nil
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
func date32Of(t *time.Time) (arrow.Date32, error) {
	days := floorDiv(t.Unix(), secondsPerDayInt64)
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, overflow("%s does not fit date32", t.Format(time.RFC3339))
	}
	return arrow.Date32(days), nil
}

// date64Of is the UTC midnight of an instant's day, in milliseconds since
// the epoch.
func date64Of(t *time.Time) (arrow.Date64, error) {
	const msPerDay = secondsPerDayInt64 * 1000
	days := floorDiv(t.Unix(), secondsPerDayInt64)
	if days < math.MinInt64/msPerDay || days > math.MaxInt64/msPerDay {
		return 0, overflow("%s does not fit date64", t.Format(time.RFC3339))
	}
	return arrow.Date64(days * msPerDay), nil
}

// clockTimeIn is the time of day of an instant in UTC, in unit, truncated,
// as arreflect writes a time.Time tagged time32 or time64.
func clockTimeIn[A arrow.Time32 | arrow.Time64](unit arrow.TimeUnit) func(*time.Time) (A, error) {
	div := int64(unit.Multiplier())
	per := int64(time.Second) / div
	return func(t *time.Time) (A, error) {
		second := t.Unix() - floorDiv(t.Unix(), secondsPerDayInt64)*secondsPerDayInt64
		return A(second*per + int64(t.Nanosecond())/div), nil
	}
}

// timeOfDayIn converts a duration since midnight, which must be in
// [0, 24h), to time32 or time64 in unit, truncated.
func timeOfDayIn[A arrow.Time32 | arrow.Time64](unit arrow.TimeUnit) func(*time.Duration) (A, error) {
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
func durationIn(unit arrow.TimeUnit) func(*time.Duration) (arrow.Duration, error) {
	div := time.Duration(unit.Multiplier())
	return func(d *time.Duration) (arrow.Duration, error) { return arrow.Duration(*d / div), nil }
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
	high := fromInt64[D](1).IncreaseScaleBy(precision) // 10^precision, which D holds up to its maximum precision
	low := high.Negate()
	return func(values []D) (int, error) {
		for k, d := range values {
			if d.Cmp(high) >= 0 || d.Cmp(low) <= 0 {
				return k, overflow("%s does not fit decimal(%d,%d)", d.ToString(scale), precision, scale)
			}
		}
		return -1, nil
	}
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
// in any utf8 or binary layout, appended straight from the Go values. A nil
// []byte is null.
type binaryEncoder struct {
	encLevel
	text bool // strings, else []byte
}

type binaryWriter struct {
	*binaryEncoder
	out    bytesAppender
	values *goValues // of the last prepare, read again by write
	bytes  int       // their bytes in all, reserved at once
	// For one of our builders, prepare writes the values past the end of
	// its data already, and write commits them: the end of the data, and
	// which values are null.
	end   int
	nulls []int
}

// binaryChunk is how many values a plain builder is handed at once.
const binaryChunk = 256

func (e *binaryEncoder) newWriter(b columnBuilder, _ *binding) writer {
	return &binaryWriter{binaryEncoder: e, out: bytesAppenderOf(b)}
}

// prepare checks that the values of s fit the layout's offsets. Into one
// of our builders it writes them as it goes, past the end of the data,
// where they count only once write commits them; for arrow-go's it counts
// their bytes.
func (w *binaryWriter) prepare(s *goValues) error {
	w.values, w.bytes = s, 0
	room := w.out.room()
	bad := -1
	switch b := w.out.plain.(type) {
	case *binaryBuilder[int32]:
		w.end, w.nulls, bad = stage(b, s, w.text, w.nullable, room, w.nulls)
	case *binaryBuilder[int64]:
		w.end, w.nulls, bad = stage(b, s, w.text, w.nullable, room, w.nulls)
	default:
		k := 0
		for i := 0; i < s.numSpans() && bad < 0; i++ {
			sp := s.span(i)
			if sp.p != nil {
				for j := range sp.n {
					if w.bytes += len(w.bytesAt(s.at(sp.p, j))); w.bytes > room {
						bad = k + j
						break
					}
				}
			}
			k += sp.n
		}
	}
	if bad >= 0 {
		return w.fail(s, bad, overflow("more than %d bytes do not fit 32-bit offsets: use large_utf8 or large_binary", maxOffset32))
	}
	return nil
}

func (w *binaryWriter) write() {
	s := w.values
	switch b := w.out.plain.(type) {
	case *binaryBuilder[int32]:
		b.commit(s.n, w.end, w.nulls)
		return
	case *binaryBuilder[int64]:
		b.commit(s.n, w.end, w.nulls)
		return
	}
	if w.out.plain != nil {
		w.out.plain.ReserveData(w.bytes)
	}
	w.out.reserve(s.n)
	if w.out.plain != nil {
		w.writePlain(s)
		return
	}
	for i := range s.numSpans() {
		sp := s.span(i)
		for j := range sp.n {
			switch {
			case sp.p == nil:
				w.out.appendAbsent(w.nullable)
			case !w.text && *(*[]byte)(s.at(sp.p, j)) == nil:
				w.out.appendAbsent(true)
			default:
				w.out.append(w.bytesAt(s.at(sp.p, j)))
			}
		}
	}
}

// writePlain appends the values of s to the plain builder a chunk at a
// time: the builder writes a chunk's offsets, bytes and validity in bulk.
// The chunk lives on the stack, so filling it takes no write barriers.
func (w *binaryWriter) writePlain(s *goValues) {
	var (
		chunk [binaryChunk][]byte
		valid [binaryChunk]bool
		k     int  // values in chunk
		nulls bool // whether valid is in use
	)
	for i := range s.numSpans() {
		sp := s.span(i)
		p, n := sp.p, sp.n
		for j := 0; j < n; {
			if k == binaryChunk {
				w.flush(chunk[:k], valid[:k], nulls)
				k, nulls = 0, false
			}
			m := min(n-j, binaryChunk-k)
			out := chunk[k : k+m]
			switch {
			case p == nil:
				clear(out)
				if w.nullable {
					if !nulls {
						nulls = true
						setAll(valid[:], true)
					}
					setAll(valid[k:k+m], false)
				}
			case w.text:
				for i := range out {
					v := *(*string)(s.at(p, j+i))
					out[i] = unsafe.Slice(unsafe.StringData(v), len(v))
				}
			default:
				for i := range out {
					v := *(*[]byte)(s.at(p, j+i))
					out[i] = v
					if v == nil {
						if !nulls {
							nulls = true
							setAll(valid[:], true)
						}
						valid[k+i] = false
					}
				}
			}
			k += m
			j += m
		}
	}
	w.flush(chunk[:k], valid[:k], nulls)
}

// stage writes the strings (text) or []byte of s past the end of one of
// our builders: offsets and bytes straight from the Go values. An absent
// value is null where nullable, else empty; a nil []byte is null. It
// returns the end of the data, the values that are null (in nulls, scratch
// memory returned grown) and -1, or the first value past room more bytes.
// Nothing counts until commit.
func stage[O int32 | int64](b *binaryBuilder[O], s *goValues, text, nullable bool, room int, nulls []int) (end int, _ []int, bad int) {
	offsets := b.offsetsFor(b.n + s.n)[b.n:]
	data := b.data.grow(b.size)
	at, k := b.size, 0
	nulls = nulls[:0]
	for i := range s.numSpans() {
		sp := s.span(i)
		p, n := sp.p, sp.n
		for j := range n {
			offsets[k] = O(at)
			var v []byte
			switch {
			case p == nil:
				if nullable {
					nulls = append(nulls, k)
				}
			case text:
				str := *(*string)(s.at(p, j))
				v = unsafe.Slice(unsafe.StringData(str), len(str))
			default:
				v = *(*[]byte)(s.at(p, j))
				if v == nil {
					nulls = append(nulls, k)
				}
			}
			if at-b.size+len(v) > room {
				return 0, nulls, k
			}
			if len(v) > len(data)-at {
				data = b.data.grow(at + len(v))
			}
			at += copy(data[at:], v)
			k++
		}
	}
	offsets[k] = O(at)
	return at, nulls, -1
}

func setAll(b []bool, v bool) {
	for i := range b {
		b[i] = v
	}
}

// flush appends values to the builder, with their validity if nulls.
func (w *binaryWriter) flush(values [][]byte, valid []bool, nulls bool) {
	if !nulls {
		valid = nil
	}
	w.out.plain.AppendValues(values, valid)
}

// bytesAt is the bytes of the string or []byte at p.
func (w *binaryWriter) bytesAt(p unsafe.Pointer) []byte {
	if w.text {
		return unsafe.Slice(unsafe.StringData(*(*string)(p)), len(*(*string)(p)))
	}
	return *(*[]byte)(p)
}

// bytesAppender appends values one by one to a builder of any utf8 or
// binary layout.
type bytesAppender struct {
	plain plainBinary              // utf8, large_utf8, binary, large_binary
	view  *array.BinaryViewBuilder // utf8_view, binary_view
}

// plainBinary is a builder of utf8, large_utf8, binary or large_binary:
// ours, or arrow-go's (below levels that arrow-go builds).
type plainBinary interface {
	Type() arrow.DataType
	DataLen() int
	Reserve(n int)
	ReserveData(n int)
	AppendValues(values [][]byte, valid []bool)
	UnsafeAppend(v []byte)
	AppendNull()
	AppendEmptyValue()
}

func bytesAppenderOf(b columnBuilder) bytesAppender {
	switch b := b.(type) {
	case *binaryBuilder[int32]:
		return bytesAppender{plain: b}
	case *binaryBuilder[int64]:
		return bytesAppender{plain: b}
	case *array.StringBuilder:
		return bytesAppender{plain: b.BinaryBuilder}
	case *array.LargeStringBuilder:
		return bytesAppender{plain: b.BinaryBuilder}
	case *array.StringViewBuilder:
		return bytesAppender{view: b.BinaryViewBuilder}
	case *array.BinaryViewBuilder:
		return bytesAppender{view: b}
	}
	return bytesAppender{plain: b.(*array.BinaryBuilder)}
}

// room is how many more bytes the builder takes: a 32-bit layout's
// offsets hold maxOffset32 bytes in all; the others, as many as memory.
func (a bytesAppender) room() int {
	if a.plain == nil {
		return math.MaxInt // a view layout: each value has its own offset
	}
	switch a.plain.Type().ID() {
	case arrow.STRING, arrow.BINARY:
		return maxOffset32 - a.plain.DataLen()
	}
	return math.MaxInt
}

// reserve makes room for n values.
func (a bytesAppender) reserve(n int) {
	if a.plain != nil {
		a.plain.Reserve(n)
		return
	}
	a.view.Reserve(n)
}

func (a bytesAppender) append(b []byte) {
	if a.plain != nil {
		a.plain.UnsafeAppend(b)
		return
	}
	a.view.Append(b)
}

// appendAbsent appends a null, or the empty value where nulls are not
// allowed.
func (a bytesAppender) appendAbsent(null bool) {
	var b interface {
		AppendNull()
		AppendEmptyValue()
	} = a.view
	if a.plain != nil {
		b = a.plain
	}
	if null {
		b.AppendNull()
	} else {
		b.AppendEmptyValue()
	}
}

// byteArrayEncoder writes [N]byte as fixed_size_binary(N).
type byteArrayEncoder struct {
	encLevel
	width int
}

type byteArrayWriter struct {
	*byteArrayEncoder
	b      *array.FixedSizeBinaryBuilder
	values *goValues
	zeros  []byte
}

func (e *byteArrayEncoder) newWriter(b columnBuilder, _ *binding) writer {
	return &byteArrayWriter{byteArrayEncoder: e, b: b.(*array.FixedSizeBinaryBuilder), zeros: make([]byte, e.width)}
}

func (w *byteArrayWriter) prepare(s *goValues) error {
	w.values = s
	return nil
}

func (w *byteArrayWriter) write() {
	s := w.values
	w.b.Reserve(s.n)
	for i := range s.numSpans() {
		sp := s.span(i)
		for j := range sp.n {
			switch {
			case sp.p != nil:
				w.b.UnsafeAppend(unsafe.Slice((*byte)(s.at(sp.p, j)), w.width))
			case w.nullable:
				w.b.AppendNull()
			default:
				w.b.UnsafeAppend(w.zeros)
			}
		}
	}
}

// textEncoder writes a type that implements encoding.TextMarshaler as its
// text.
type textEncoder struct {
	encLevel
	typ reflect.Type
}

type textWriter struct {
	*textEncoder
	out   bytesAppender
	addrs []unsafe.Pointer
	text  []byte // the text of every value, back to back
	ends  []int
}

func (e *textEncoder) newWriter(b columnBuilder, _ *binding) writer {
	return &textWriter{textEncoder: e, out: bytesAppenderOf(b)}
}

func (w *textWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.ends = resize(w.ends, s.n)
	w.text = w.text[:0]
	room := w.out.room()
	for k, p := range w.addrs {
		if p != nil {
			text, err := reflect.NewAt(w.typ, p).Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return w.fail(s, k, fmt.Errorf("%w: %s.MarshalText: %w", ErrInvalidData, w.typ, err))
			}
			w.text = append(w.text, text...)
			if len(w.text) > room {
				return w.fail(s, k, overflow("more than %d bytes do not fit 32-bit offsets: use large_utf8", maxOffset32))
			}
		}
		w.ends[k] = len(w.text)
	}
	return nil
}

func (w *textWriter) write() {
	w.out.reserve(len(w.ends))
	if w.out.plain != nil {
		w.out.plain.ReserveData(len(w.text))
	}
	start := 0
	for k, end := range w.ends {
		if w.addrs[k] == nil {
			w.out.appendAbsent(w.nullable)
		} else {
			w.out.append(w.text[start:end])
		}
		start = end
	}
}

func implementsTextMarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textMarshalerType)
}

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
