package arrowtype

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// The decoder's reads of the table: what a temporal value counts, and the
// predicates the decoder builds the sets of types a Go type reads from.

// SecondsPerDay is the seconds of a day: a date32 counts days, and a time
// of day is less than one.
const SecondsPerDay = 24 * 60 * 60

// PerDay is the count of unit in a day: a time32 or time64 of unit is less.
func PerDay(unit arrow.TimeUnit) int64 {
	return SecondsPerDay * int64(time.Second/unit.Multiplier())
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

// MillisecondDate reports whether r is a date that counts milliseconds
// (date64), not days (date32).
func (r *Row) MillisecondDate() bool { return r.Temporal == Date && r.Value == Int64 }

// Counts reports whether r's values count time in units, days or
// milliseconds (a date, a time of day, a timestamp, a duration): its
// storage is an integer of r.Bytes.
func (r *Row) Counts() bool { return r.Temporal != NotTemporal && r.Temporal != Interval }

// Variant reports whether r is a layout that is not its family's plain
// one: large, a view of bytes, or fixed-size binary. A list view is the
// plain one of the list views.
func (r *Row) Variant() bool {
	return r.Large || r.Layout == View || r.Layout == FixedBinary
}

// Viewed reports whether r is a view layout: of strings, bytes or lists.
func (r *Row) Viewed() bool { return r.Layout == View || r.Layout == ListView }

// PlainLayout reports whether r is the plain layout of its family, the
// one a Go type is written as when no tag pins another: utf8, binary,
// list.
func (r *Row) PlainLayout() bool {
	return (r.Layout == Binary || r.Layout == List) && !r.Large && !r.Map
}
