package mapper

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// time.Time, time.Duration, integers tagged with a temporal type and
// arrow-go's interval types encoded to Arrow's temporal types;
// decode_temporal.go reads them.

// temporalTypeOf is the temporal type of a level as its tag gives it: the
// row it pins, else def, in the tag's unit, else the row's default.
func temporalTypeOf(tag tags.Tag, def *arrowtype.Row, at where) (*arrowtype.Row, arrow.DataType, arrow.TimeUnit, error) {
	r := cmp.Or(temporalRow(tag.Temporal), def)
	dt, err := temporalOf(r, tag)
	if err != nil {
		return nil, nil, 0, newError(ErrTag, at.path, at.column, -1, "%v", err)
	}
	unit, _ := arrowtype.Unit(dt)
	return r, dt, unit, nil
}

// timeEncoderOf maps time.Time: timestamp[ns, UTC] unless tagged. An
// instant is counted in its type's ticks since the epoch, floored (a
// date32's day is the instant's day in UTC), except that a date64 must be
// a UTC midnight; a time of day is the instant's clock time in UTC.
func timeEncoderOf(tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(timeType, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, unit, err := temporalTypeOf(tag, timestampRow, lv.at)
	if err != nil {
		return nil, nil, err
	}
	tick, times := arrowtype.TickOf(dt)
	narrow := r.Bytes == 4 // date32 and time32
	switch {
	case !times:
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to time.Time", tag.Temporal)
	case r.MillisecondDate():
		return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: date64Of}, nil
	case r.Instant() && narrow:
		return dt, &convertEncoder[time.Time, int32]{encLevel: lv, convert: instantIn[int32](tick, dt)}, nil
	case r.Instant():
		return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: instantIn[int64](tick, dt)}, nil
	case narrow:
		return dt, &convertEncoder[time.Time, int32]{encLevel: lv, convert: clockTimeIn[int32](unit)}, nil
	}
	return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: clockTimeIn[int64](unit)}, nil
}

// temporalStorageOf maps a signed integer tagged with a temporal type to
// that type, the integer its storage as written: the Go type of a column
// whose values a time.Duration or a time.Time cannot all hold
// (duration[s] up to 2⁶³ seconds).
func temporalStorageOf(t reflect.Type, tag tags.Tag, w integerWidth, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, _, err := temporalTypeOf(tag, nil, lv.at)
	if err != nil {
		return nil, nil, err
	}
	if !w.signed || int(w.size) != r.Bytes {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to %s: its storage is int%d", tag.Temporal, t, 8*r.Bytes)
	}
	if r.MillisecondDate() { // whole days in milliseconds
		return dt, &valuesEncoder[int64]{encLevel: lv, check: wholeDayMillis}, nil
	}
	return dt, w.encoder(lv), nil
}

// durationEncoderOf maps time.Duration: duration[ns] unless tagged.
func durationEncoderOf(tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(durationType, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, unit, err := temporalTypeOf(tag, durationRow, lv.at)
	if err != nil {
		return nil, nil, err
	}
	if r.GoType != durationType { // a date, a timestamp
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to time.Duration", tag.Temporal)
	}
	narrow := r.Bytes == 4 // time32
	switch {
	case r.Times() && narrow: // a time of day: since midnight
		return dt, &convertEncoder[time.Duration, int32]{encLevel: lv, convert: timeOfDayIn[int32](unit)}, nil
	case r.Times():
		return dt, &convertEncoder[time.Duration, int64]{encLevel: lv, convert: timeOfDayIn[int64](unit)}, nil
	case unit == arrow.Nanosecond:
		return dt, &valuesEncoder[time.Duration]{encLevel: lv}, nil
	}
	return dt, &convertEncoder[time.Duration, int64]{encLevel: lv, convert: durationIn(unit)}, nil
}

// instantIn converts an instant to a count of tick since the epoch,
// floored as time.Time.UnixMilli is: a date32's day, a timestamp's unit.
func instantIn[A int32 | int64](tick arrowtype.Tick, dt arrow.DataType) func(*time.Time) (A, error) {
	if tick.Seconds > 1 { // a day, the one tick of seconds TickOf gives: divided by a constant
		return func(t *time.Time) (A, error) {
			n := floorDiv(t.Unix(), arrowtype.SecondsPerDay)
			if int64(A(n)) != n {
				return 0, overflow("%s does not fit %s", t.Format(time.RFC3339), dt)
			}
			return A(n), nil
		}
	}
	div := int64(tick.Unit.Multiplier())
	per := int64(time.Second) / div
	// Seconds in [low, high] fit whatever their fraction: no check, no
	// division by a variable, on the common path.
	low, high := math.MinInt64/per, (math.MaxInt64-(per-1))/per
	return func(t *time.Time) (A, error) {
		sec, nsec := t.Unix(), int64(t.Nanosecond())
		v, ok := int64(0), true
		if sec >= low && sec <= high {
			if div != 1 {
				nsec /= div
			}
			v = sec*per + nsec
		} else {
			v, ok = unixIn(sec, nsec, per, div)
		}
		if !ok || int64(A(v)) != v {
			return 0, overflow("%s does not fit %s", t.Format(time.RFC3339Nano), dt)
		}
		return A(v), nil
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
