package mapper

import (
	"math"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/zone"
	"github.com/arrowmap/arrowmap/views"
)

// timeDecoder decodes timestamps (in the column's time zone), dates (UTC
// midnight) and times of day (on the epoch's day in UTC) into time.Time.
type timeDecoder struct{ loc *time.Location }

func (*timeDecoder) inPlace() {}

func (d *timeDecoder) decode(v views.View, dst strided, _ *call) {
	switch n := v.Node().(type) {
	case *views.Primitive[int64]:
		decodeTimes(v, n, d.loc, dst)
	case *views.Primitive[int32]:
		decodeTimes(v, n, d.loc, dst)
	}
}

// decodeTimes decodes n's values in v's window, a loop for each length of
// tick (a day, a second and its parts) so that each converts inline.
func decodeTimes[T int32 | int64](v views.View, n *views.Primitive[T], loc *time.Location, dst strided) {
	w := v.Window()
	values, nulls := n.Values()[w.Offset:w.End()], v.Nulls()
	switch tick, _ := arrowtype.TickOf(n.DataType()); tick.Unit { // compileTime took only such types
	case arrow.Second:
		widen(values, nulls, dst, func(x T) time.Time { return time.Unix(int64(x)*tick.Seconds, 0).In(loc) })
	case arrow.Millisecond:
		widen(values, nulls, dst, func(x T) time.Time { return time.UnixMilli(int64(x)).In(loc) })
	case arrow.Microsecond:
		widen(values, nulls, dst, func(x T) time.Time { return time.UnixMicro(int64(x)).In(loc) })
	case arrow.Nanosecond:
		widen(values, nulls, dst, func(x T) time.Time { return time.Unix(0, int64(x)).In(loc) })
	}
}

// timeOfDayPreparer checks, when the record is viewed, that every time32
// or time64 value is a time of day, in [0, 24h) as the Arrow format says:
// a value past it has no time of day to decode to, and encoding refuses it
// too. It is nil for other types.
func timeOfDayPreparer(cd *codec, r *arrowtype.Row) preparer {
	if r.Temporal != arrowtype.TimeOfDay {
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
	day := arrowtype.PerDay(unit)
	w, nulls := v.Window(), v.Nulls()
	for i, x := range values[w.Offset:w.End()] {
		if uint64(x) >= uint64(day) && nulls.IsValid(i) { // negative too, as unsigned
			return p.cd.rowError(ErrInvalidData, c, i, "%d%s is not a time of day (0 to 24h)", x, unit)
		}
	}
	return nil
}

func (p timesOfDay) check32(v views.View, values []int32, unit arrow.TimeUnit, c *call) error {
	day := arrowtype.PerDay(unit)
	w, nulls := v.Window(), v.Nulls()
	for i, x := range values[w.Offset:w.End()] {
		if uint64(int64(x)) >= uint64(day) && nulls.IsValid(i) {
			return p.cd.rowError(ErrInvalidData, c, i, "%d%s is not a time of day (0 to 24h)", x, unit)
		}
	}
	return nil
}

// secondsPerDay is the table's, for the encoder's dates.
const secondsPerDay = arrowtype.SecondsPerDay

// locationOf is the time zone a timestamp type's values decode in: the
// column's zone as [tags.ParseZone] reads it, UTC when it has none (Arrow's
// "no zone" means instants shown in UTC); UTC for dates too.
func locationOf(dt arrow.DataType) (*time.Location, error) {
	tz, ok := arrowtype.Zone(dt)
	if !ok {
		return time.UTC, nil
	}
	return zone.OfTimestamp(tz)
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

// timeUnitOf is dt's unit, nanoseconds for a type without one.
func timeUnitOf(dt arrow.DataType) arrow.TimeUnit {
	if u, ok := arrowtype.Unit(dt); ok {
		return u
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

func (c *compiler) compileTime(l *level) (*codec, *views.Type, error) {
	accept := timeAccept
	if l.strictEncoding {
		accept = timestampAccept
	}
	if !l.takes(accept) {
		return l.mismatch("a time.Time reads timestamp, date32, date64, time32 or time64")
	}
	loc, err := locationOf(l.value)
	if err != nil {
		return nil, nil, newError(ErrTypeMismatch, l.at.path, l.at.column, -1, "%v", err)
	}
	l.cd.dec = &timeDecoder{loc: loc}
	l.cd.prep = timeOfDayPreparer(l.cd, l.row)
	if l.row.MillisecondDate() {
		l.cd.prep = wholeDays{l.cd}
	}
	return c.done(l)
}

func (c *compiler) compileDuration(l *level) (*codec, *views.Type, error) {
	accept := durationAccept
	if l.strictEncoding {
		accept = durationOnly
	}
	if !l.takes(accept) {
		return l.mismatch("a time.Duration reads duration, time32 or time64")
	}
	l.cd.dec = durationDecoder{}
	if p := timeOfDayPreparer(l.cd, l.row); p != nil {
		l.cd.prep = p
	} else if overDuration(l.row, l.value) {
		l.cd.prep = durationPreparer{cd: l.cd}
	}
	return c.done(l)
}

// overDuration reports whether a value of dt, of row r, may count more
// than the time.Duration GoTypeOf gives it holds (2⁶³ ns, 292 years): a
// duration in a coarser unit than the nanosecond. A time of day is less
// than a day.
func overDuration(r *arrowtype.Row, dt arrow.DataType) bool {
	unit, _ := arrowtype.Unit(dt)
	return r.GoType == durationType && !r.Times() && unit != arrow.Nanosecond
}

// The sets of types time.Time and time.Duration read, from the table: a
// time.Time reads instants (timestamps and dates) and times of day; a
// time.Duration the types GoTypeOf gives it, durations and times of day.
// Under Strict, with no tag pinning the type, each reads only the type it
// encodes to.
var (
	timeAccept      = acceptRows((*arrowtype.Row).Times)
	durationAccept  = acceptRows(func(r *arrowtype.Row) bool { return r.GoType == durationType })
	timestampAccept = views.AcceptOf(timestampRow.ID)
	durationOnly    = views.AcceptOf(durationRow.ID)
)
