package main

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/zone"
)

// appendJSON appends the JSON of v, a value of the Go type GoTypeOf gives
// head's jsonSchema, whose Arrow type in the file is dt. It prints every
// value the file can hold, which encoding/json alone does not:
//
//   - object keys are the file's names, a name twice printed twice;
//   - NaN, +Inf and -Inf floats are the strings "NaN", "+Inf" and "-Inf";
//   - timestamps and dates are RFC 3339 text in the column's zone, a year
//     outside 0–9999 with its sign and all its digits ("+10000-01-01T00:00:00Z",
//     "-0001-12-31T00:00:00Z");
//   - times of day and durations are numbers of nanoseconds, or when that
//     overflows int64, the column's number and unit as a string ("-9223372036854775808s").
//
// Everything else is as encoding/json writes it.
func appendJSON(b []byte, v reflect.Value, dt arrow.DataType) ([]byte, error) {
	dt = arrowtype.Decoded(dt)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
	}
	switch r := arrowtype.OfType(dt); {
	case r.Layout == arrowtype.Struct:
		b = append(b, '{')
		for i, f := range dt.(arrow.NestedType).Fields() {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, f.Name)
			b = append(b, ':')
			var err error
			if b, err = appendJSON(b, v.Field(i), f.Type); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case r.Layout == arrowtype.Union:
		// A union row is its selected variant, as arrow-go's JSON writes
		// it: GoTypeOf's struct has a pointer per child, in order.
		for i, f := range dt.(arrow.UnionType).Fields() {
			if variant := v.Field(i); !variant.IsNil() {
				return appendJSON(b, variant, f.Type)
			}
		}
		return append(b, "null"...), nil
	case r.Map:
		return appendMap(b, v, dt.(arrow.ListLikeType).Elem().(arrow.NestedType).Fields())
	case r.AnyList():
		b = append(b, '[')
		elem := dt.(arrow.ListLikeType).Elem()
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, v.Index(i), elem); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case r.Float:
		switch f := v.Float(); {
		case math.IsNaN(f):
			return append(b, `"NaN"`...), nil
		case math.IsInf(f, 1):
			return append(b, `"+Inf"`...), nil
		case math.IsInf(f, -1):
			return append(b, `"-Inf"`...), nil
		}
	case r.Instant(): // a date is its midnight in UTC
		tz, _ := arrowtype.Zone(dt)
		loc, err := zone.OfTimestamp(tz) // as the decoder reads it: "Local" is refused
		if err != nil {
			return nil, err
		}
		unit, _ := arrowtype.Unit(dt)
		x, unit := r.SinceEpoch(v.Int(), unit)
		return appendInstant(b, x, unit, loc), nil
	case r.Counts(): // a time of day or a duration: a span
		unit, _ := arrowtype.Unit(dt)
		return appendNanoseconds(b, v.Int(), unit), nil
	}
	js, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, err
	}
	return append(b, js...), nil
}

// appendMap writes a map, its entries as GoTypeOf's type holds them
// (Key, Value), as an object in the entries' order, a key twice as often
// as the map has it; a key whose JSON is not a string is that JSON as a
// string.
func appendMap(b []byte, v reflect.Value, entries []arrow.Field) ([]byte, error) {
	b = append(b, '{')
	for i := range v.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		e := v.Index(i)
		key, err := appendJSON(nil, e.Field(0), entries[0].Type)
		if err != nil {
			return nil, err
		}
		k := string(key)
		if s, err := strconv.Unquote(k); err == nil && len(k) > 0 && k[0] == '"' {
			k = s
		}
		key, _ = json.Marshal(k) // as encoding/json escapes it
		b = append(b, key...)
		b = append(b, ':')
		if b, err = appendJSON(b, e.Field(1), entries[1].Type); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

const secondsPerDay = arrowtype.SecondsPerDay

// perSecond is how many of unit make a second.
func perSecond(unit arrow.TimeUnit) int64 { return arrowtype.PerSecond(unit) }

// appendInstant writes x, a count of unit since the epoch, as RFC 3339 text
// in loc, with an offset's seconds when it has some (local mean times) and
// the year signed when outside 0–9999, as ISO 8601's expanded years. The
// calendar is computed here: time.Time holds not every int64 of seconds.
func appendInstant(b []byte, x int64, unit arrow.TimeUnit, loc *time.Location) []byte {
	per := perSecond(unit)
	sec, frac := floorDiv(x, per), x-floorDiv(x, per)*per
	nsec := frac * (1e9 / per)
	// The offset at that instant; past what time.Time holds, at its edge.
	const edge = 1 << 62
	_, offset := time.Unix(min(max(sec, -edge), edge), 0).In(loc).Zone()
	local := sec
	if off := int64(offset); (off > 0 && local > math.MaxInt64-off) || (off < 0 && local < math.MinInt64-off) {
		local, offset = sec, 0 // no calendar second past int64: print it in UTC
	} else {
		local += off
	}
	days, secs := floorDiv(local, secondsPerDay), local-floorDiv(local, secondsPerDay)*secondsPerDay
	year, month, day := civil(days)
	b = append(b, '"')
	switch {
	case year < 0:
		b = append(b, '-')
		b = appendPadded(b, -year, 4)
	case year > 9999:
		b = append(b, '+')
		b = strconv.AppendInt(b, year, 10)
	default:
		b = appendPadded(b, year, 4)
	}
	b = append(b, '-')
	b = appendPadded(b, int64(month), 2)
	b = append(b, '-')
	b = appendPadded(b, int64(day), 2)
	b = append(b, 'T')
	b = appendPadded(b, secs/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, secs/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, secs%60, 2)
	if nsec > 0 {
		digits := strconv.AppendInt(nil, nsec+1e9, 10)[1:] // nine digits, leading zeros kept
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		b = append(b, '.')
		b = append(b, digits...)
	}
	if offset == 0 {
		b = append(b, 'Z')
	} else {
		sign := byte('+')
		if offset < 0 {
			sign, offset = '-', -offset
		}
		b = append(b, sign)
		b = appendPadded(b, int64(offset/3600), 2)
		b = append(b, ':')
		b = appendPadded(b, int64(offset/60%60), 2)
		if offset%60 != 0 {
			b = append(b, ':')
			b = appendPadded(b, int64(offset%60), 2)
		}
	}
	return append(b, '"')
}

// appendNanoseconds writes x of unit as a number of nanoseconds, or as x
// and unit in a string when that does not fit an int64.
func appendNanoseconds(b []byte, x int64, unit arrow.TimeUnit) []byte {
	scale := 1e9 / perSecond(unit)
	if x > math.MaxInt64/scale || x < math.MinInt64/scale {
		b = append(b, '"')
		b = strconv.AppendInt(b, x, 10)
		b = append(b, unit.String()...)
		return append(b, '"')
	}
	return strconv.AppendInt(b, x*scale, 10)
}

// civil is the proleptic Gregorian date of a day count since 1970-01-01
// (Howard Hinnant's civil_from_days), for any int64 day count a second
// count reaches.
func civil(days int64) (year int64, month, day int) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// appendPadded writes n ≥ 0 with at least width digits.
func appendPadded(b []byte, n int64, width int) []byte {
	digits := strconv.AppendInt(nil, n, 10)
	for range width - len(digits) {
		b = append(b, '0')
	}
	return append(b, digits...)
}
