package arrowtype

import (
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// SecondsPerDay is the seconds of a day: a date32 counts days, and a time
// of day is less than one.
const SecondsPerDay = 24 * 60 * 60

// PerDay is the count of unit in a day: a time32 or time64 of unit is less.
func PerDay(unit arrow.TimeUnit) int64 {
	return SecondsPerDay * PerSecond(unit)
}

// InstantOf is the time.Time of a count of unit since the epoch, in the
// local zone as time.Unix gives it.
func InstantOf(unit arrow.TimeUnit) func(int64) time.Time {
	switch unit {
	case arrow.Second:
		return func(x int64) time.Time { return time.Unix(x, 0) }
	case arrow.Millisecond:
		return time.UnixMilli
	case arrow.Microsecond:
		return time.UnixMicro
	default:
		return func(x int64) time.Time { return time.Unix(0, x) }
	}
}

// SinceEpoch is x, a value of a date, timestamp or time type of r in unit
// (unit is ignored for dates), as a count of the returned unit: a date32's
// days in seconds, a date64's milliseconds, the others in their own unit.
func (r *Row) SinceEpoch(x int64, unit arrow.TimeUnit) (int64, arrow.TimeUnit) {
	if r.Temporal == Date {
		if r.Bytes == 4 {
			return x * SecondsPerDay, arrow.Second
		}
		return x, arrow.Millisecond
	}
	return x, unit
}

// PerSecond is how many of unit make a second.
func PerSecond(unit arrow.TimeUnit) int64 { return int64(time.Second / unit.Multiplier()) }

// Instant reports whether r's values are instants counted from the epoch:
// a date's (its midnight in UTC) or a timestamp's.
func (r *Row) Instant() bool { return r.Temporal == Date || r.Temporal == Timestamp }

// Times reports whether a time.Time holds r's values: an instant's, or a
// time of day's (on the epoch's day).
func (r *Row) Times() bool { return r.Instant() || r.Temporal == TimeOfDay }

// A Tick is what one count of a temporal type a time.Time holds is: a
// Unit, and in Unit Second, Seconds of them (a date32's day is 86,400).
type Tick struct {
	Unit    arrow.TimeUnit
	Seconds int64
}

// Nanoseconds is the length of t in nanoseconds: a day's fits an int64.
func (t Tick) Nanoseconds() int64 { return max(t.Seconds, 1) * int64(t.Unit.Multiplier()) }

// String is t as an error names it: "ms", "s", "86400 s".
func (t Tick) String() string {
	if t.Seconds > 1 {
		return strconv.FormatInt(t.Seconds, 10) + " s"
	}
	return t.Unit.String()
}

// TickOf is the tick of dt, a type whose row [Row.Times]: a date32's day,
// a date64's millisecond, a time of day's or a timestamp's unit. It is
// false for other types.
func TickOf(dt arrow.DataType) (Tick, bool) {
	r := OfType(dt)
	switch {
	case r == nil || !r.Times():
		return Tick{}, false
	case r.MillisecondDate():
		return Tick{Unit: arrow.Millisecond}, true
	case r.Temporal == Date:
		return Tick{Unit: arrow.Second, Seconds: SecondsPerDay}, true
	}
	unit, _ := Unit(dt)
	if unit == arrow.Second {
		return Tick{Unit: arrow.Second, Seconds: 1}, true
	}
	return Tick{Unit: unit}, true
}

// TimeOf is the time.Time of a value of dt, a type whose row [Row.Times],
// as time.Unix gives it, in the local zone (the caller puts it in the
// column's, or UTC): a date or a timestamp, the instant that many ticks
// after the epoch; a time of day, that long after the epoch's midnight.
// It is false for other types.
func TimeOf(dt arrow.DataType) (func(int64) time.Time, bool) {
	tick, ok := TickOf(dt)
	if !ok {
		return nil, false
	}
	if tick.Unit == arrow.Second {
		return func(x int64) time.Time { return time.Unix(x*tick.Seconds, 0) }, true
	}
	return InstantOf(tick.Unit), true
}
