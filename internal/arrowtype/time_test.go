package arrowtype_test

import (
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// TimeOf gives the time.Time arrow-go's own conversions give, for every
// type a time.Time holds, every unit and values around the epoch, a day
// and the ends of the storage; and nothing for the other types.
func TestTimeOfIsTheTimeArrowGoGives(t *testing.T) {
	values := []int64{0, 1, -1, 86_399, 86_400, -86_401, 1_700_000_000, math.MaxInt32, math.MinInt32}
	arrowGos := map[arrow.Type]func(x int64, unit arrow.TimeUnit) time.Time{
		arrow.DATE32: func(x int64, _ arrow.TimeUnit) time.Time { return arrow.Date32(x).ToTime() },
		// A date64 is a whole number of days (mapper refuses others), which
		// arrow-go's truncates to.
		arrow.DATE64:    func(days int64, _ arrow.TimeUnit) time.Time { return arrow.Date64(days * msPerDay).ToTime() },
		arrow.TIME32:    func(x int64, unit arrow.TimeUnit) time.Time { return arrow.Time32(x).ToTime(unit) },
		arrow.TIME64:    func(x int64, unit arrow.TimeUnit) time.Time { return arrow.Time64(x).ToTime(unit) },
		arrow.TIMESTAMP: func(x int64, unit arrow.TimeUnit) time.Time { return arrow.Timestamp(x).ToTime(unit) },
	}
	seen := map[arrow.Type]bool{}
	for _, r := range arrowtype.Rows() {
		units := r.Units
		if len(units) == 0 {
			units = []arrow.TimeUnit{0}
		}
		for _, unit := range units {
			dt, err := r.WithUnit(unit, "")
			if err != nil {
				dt, _ = arrowtype.Plain(r.ID)
			}
			if dt == nil {
				continue // a nested or parametric type: no time
			}
			toTime, ok := arrowtype.TimeOf(dt)
			want, times := arrowGos[r.ID]
			assert.Equal(t, times, ok, "%s", dt)
			assert.Equal(t, times, r.Times(), "%s", dt)
			if !ok || !times {
				continue
			}
			seen[r.ID] = true
			for _, x := range values {
				v := x
				if r.MillisecondDate() {
					v = x * msPerDay
				}
				got, exp := toTime(v).UTC(), want(x, unit)
				assert.True(t, exp.Equal(got), "%s of %d: %s, not arrow-go's %s", dt, x, got, exp)
			}
		}
	}
	assert.Len(t, seen, len(arrowGos), "every type a time.Time holds is in the table")
	if toTime, ok := arrowtype.TimeOf(arrow.FixedWidthTypes.Duration_ns); ok {
		t.Errorf("a duration has no time.Time: %s", toTime(1))
	}
}

const msPerDay = 86_400_000

// The instants are the dates and the timestamps: a time of day is a time
// since midnight, a duration a span.
func TestTheInstantsAreTheDatesAndTheTimestamps(t *testing.T) {
	var instants []arrow.Type
	for _, r := range arrowtype.Rows() {
		if r.Instant() {
			instants = append(instants, r.ID)
		}
	}
	assert.ElementsMatch(t, []arrow.Type{arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP}, instants)
}

// A tick's length is arrow-go's unit's, a date32's day, a date64's
// millisecond; a duration, which no time.Time holds, has none.
func TestATicksLengthIsItsTypesUnitOrDay(t *testing.T) {
	for _, c := range []struct {
		dt   arrow.DataType
		ns   int64
		name string
	}{
		{arrow.FixedWidthTypes.Date32, 86_400 * int64(time.Second), "86400 s"},
		{arrow.FixedWidthTypes.Date64, int64(time.Millisecond), "ms"},
		{arrow.FixedWidthTypes.Time32s, int64(time.Second), "s"},
		{arrow.FixedWidthTypes.Time64ns, 1, "ns"},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Asia/Tokyo"}, int64(time.Microsecond), "us"},
	} {
		tick, ok := arrowtype.TickOf(c.dt)
		if assert.True(t, ok, "%s", c.dt) {
			assert.Equal(t, c.ns, tick.Nanoseconds(), "%s", c.dt)
			assert.Equal(t, c.name, tick.String(), "%s", c.dt)
		}
	}
	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Duration_s, arrow.FixedWidthTypes.MonthInterval, arrow.PrimitiveTypes.Int64} {
		_, ok := arrowtype.TickOf(dt)
		assert.False(t, ok, "%s", dt)
	}
}
