package mapper

import (
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/zone"
	"math"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/views"
)

// timeDecoder decodes timestamps (in the column's time zone) and dates
// (UTC midnight) into time.Time.
type timeDecoder struct{ loc *time.Location }

func (*timeDecoder) inPlace() {}

func (d *timeDecoder) decode(v views.View, dst strided, _ *call) {
	w := v.Window()
	nulls := v.Nulls()
	put := func(i int, t time.Time) { *(*time.Time)(dst.at(i)) = t }
	switch n := v.Node().(type) {
	case *views.Primitive[int64]:
		values := n.Values()[w.Offset:w.End()]
		switch dt := n.DataType().(type) {
		case *arrow.Time64Type: // a time of day, on the epoch's day in UTC
			scale := int64(dt.Unit.Multiplier())
			for i, x := range values {
				if nulls.IsValid(i) {
					put(i, time.Unix(0, x*scale).UTC())
				}
			}
		case *arrow.TimestampType:
			toTime := unixOf(dt.Unit)
			for i, x := range values {
				if nulls.IsValid(i) {
					put(i, toTime(x).In(d.loc))
				}
			}
		case *arrow.Date64Type:
			for i, x := range values {
				if nulls.IsValid(i) {
					put(i, time.UnixMilli(x).UTC())
				}
			}
		}
	case *views.Primitive[int32]:
		values := n.Values()[w.Offset:w.End()]
		if dt, ok := n.DataType().(*arrow.Time32Type); ok { // a time of day, on the epoch's day in UTC
			scale := int64(dt.Unit.Multiplier())
			for i, x := range values {
				if nulls.IsValid(i) {
					put(i, time.Unix(0, int64(x)*scale).UTC())
				}
			}
			return
		}
		for i, x := range values { // date32: days since the epoch
			if nulls.IsValid(i) {
				put(i, time.Unix(int64(x)*secondsPerDay, 0).UTC())
			}
		}
	}
}

// timeOfDayPreparer checks, when the record is viewed, that every time32
// or time64 value is a time of day, in [0, 24h) as the Arrow format says:
// a value past it has no time of day to decode to, and encoding refuses it
// too. It is nil for other types.
func timeOfDayPreparer(cd *codec, id arrow.Type) preparer {
	if id != arrow.TIME32 && id != arrow.TIME64 {
		return nil
	}
	return timesOfDay{cd}
}

type timesOfDay struct{ cd *codec }

func (p timesOfDay) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	switch n := v.Node().(type) {
	case *views.Primitive[int64]:
		return nil, p.check(v, n.Values(), timeUnitOf(n.DataType()), c)
	case *views.Primitive[int32]:
		return nil, p.check32(v, n.Values(), timeUnitOf(n.DataType()), c)
	}
	return nil, nil
}

// wholeDays checks, before a date64 column decodes into time.Time, that
// each value is a whole number of days, as the Arrow format says: a value
// between days is no date, and a time.Time of it would encode to another
// value. Its int64 storage reads any value.
type wholeDays struct{ cd *codec }

func (p wholeDays) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	n, ok := v.Node().(*views.Primitive[int64])
	if !ok {
		return nil, nil
	}
	w, nulls := v.Window(), v.Nulls()
	for i, x := range n.Values()[w.Offset:w.End()] {
		if x%arrowcheck.MsPerDay != 0 && nulls.IsValid(i) {
			return nil, p.cd.rowError(ErrInvalidData, c, i, "date64 %d ms is not a whole number of days", x)
		}
	}
	return nil, nil
}

func (p timesOfDay) check(v views.View, values []int64, unit arrow.TimeUnit, c *call) error {
	day := secondsPerDay * int64(time.Second/unit.Multiplier())
	w, nulls := v.Window(), v.Nulls()
	for i, x := range values[w.Offset:w.End()] {
		if uint64(x) >= uint64(day) && nulls.IsValid(i) { // negative too, as unsigned
			return p.cd.rowError(ErrInvalidData, c, i, "%d%s is not a time of day (0 to 24h)", x, unit)
		}
	}
	return nil
}

func (p timesOfDay) check32(v views.View, values []int32, unit arrow.TimeUnit, c *call) error {
	day := secondsPerDay * int64(time.Second/unit.Multiplier())
	w, nulls := v.Window(), v.Nulls()
	for i, x := range values[w.Offset:w.End()] {
		if uint64(int64(x)) >= uint64(day) && nulls.IsValid(i) {
			return p.cd.rowError(ErrInvalidData, c, i, "%d%s is not a time of day (0 to 24h)", x, unit)
		}
	}
	return nil
}

const secondsPerDay = 24 * 60 * 60

// unixOf is the time.Time of a count of unit since the epoch.
func unixOf(unit arrow.TimeUnit) func(int64) time.Time {
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

// locationOf is the time zone a timestamp type's values decode in: the
// column's zone as [tags.ParseZone] reads it, UTC when it has none (Arrow's
// "no zone" means instants shown in UTC); UTC for dates too.
func locationOf(dt arrow.DataType) (*time.Location, error) {
	ts, ok := dt.(*arrow.TimestampType)
	if !ok {
		return time.UTC, nil
	}
	return zone.OfTimestamp(ts.TimeZone)
}

// durationDecoder decodes durations, and time32/time64 times of day, into
// time.Duration.
type durationDecoder struct{}

func (durationDecoder) inPlace() {}

func (durationDecoder) decode(v views.View, dst strided, _ *call) {
	w := v.Window()
	nulls := v.Nulls()
	switch n := v.Node().(type) {
	case *views.Primitive[int64]: // duration or time64
		scale := int64(timeUnitOf(n.DataType()).Multiplier())
		for i, x := range n.Values()[w.Offset:w.End()] {
			if nulls.IsValid(i) {
				*(*time.Duration)(dst.at(i)) = time.Duration(x * scale)
			}
		}
	case *views.Primitive[int32]: // time32
		scale := int64(timeUnitOf(n.DataType()).Multiplier())
		for i, x := range n.Values()[w.Offset:w.End()] {
			if nulls.IsValid(i) {
				*(*time.Duration)(dst.at(i)) = time.Duration(int64(x) * scale)
			}
		}
	}
}

func timeUnitOf(dt arrow.DataType) arrow.TimeUnit {
	if u, ok := dt.(interface{ TimeUnit() arrow.TimeUnit }); ok {
		return u.TimeUnit()
	}
	return arrow.Nanosecond
}

// durationPreparer checks, when the record is viewed, that every duration
// in a unit coarser than nanoseconds fits a time.Duration.
type durationPreparer struct{ cd *codec }

func (p durationPreparer) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	n, ok := v.Node().(*views.Primitive[int64])
	if !ok {
		return nil, nil
	}
	scale := int64(timeUnitOf(n.DataType()).Multiplier())
	limit := math.MaxInt64 / scale
	nulls := v.Nulls()
	w := v.Window()
	for i, x := range n.Values()[w.Offset:w.End()] {
		if (x > limit || x < -limit) && nulls.IsValid(i) {
			return nil, p.cd.rowError(ErrOverflow, c, i, "%d %s does not fit a time.Duration", x, timeUnitOf(n.DataType()))
		}
	}
	return nil, nil
}
