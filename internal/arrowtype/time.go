package arrowtype

import (
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
