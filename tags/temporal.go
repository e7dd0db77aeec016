package tags

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Temporal is the Arrow temporal type a field is pinned to.
type Temporal uint8

// The temporal types, each named after its tag spelling.
const (
	TemporalDefault Temporal = iota // none given: the mapper's default for the Go type
	Timestamp                       // `timestamp`
	Date32                          // `date32`
	Date64                          // `date64`
	Time32                          // `time32`
	Time64                          // `time64`
	Duration                        // `duration`
)

var temporalNames = [...]string{
	TemporalDefault: "default",
	Timestamp:       "timestamp",
	Date32:          "date32",
	Date64:          "date64",
	Time32:          "time32",
	Time64:          "time64",
	Duration:        "duration",
}

// String returns the tag spelling of t ("date32"), "default" for
// TemporalDefault, which has none.
func (t Temporal) String() string {
	if int(t) < len(temporalNames) {
		return temporalNames[t]
	}
	return "Temporal(" + strconv.Itoa(int(t)) + ")"
}

// Unit is the time unit given by `unit=s|ms|us|ns`.
type Unit uint8

// The time units.
const (
	UnitDefault Unit = iota // none given: the default of the temporal type
	Second                  // `unit=s`
	Millisecond             // `unit=ms`
	Microsecond             // `unit=us`
	Nanosecond              // `unit=ns`
)

var unitNames = [...]string{
	UnitDefault: "default",
	Second:      "s",
	Millisecond: "ms",
	Microsecond: "us",
	Nanosecond:  "ns",
}

// String returns the tag spelling of u ("ms"), "default" for UnitDefault,
// which has none.
func (u Unit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return "Unit(" + strconv.Itoa(int(u)) + ")"
}

// TimeUnit returns the arrow.TimeUnit for u. UnitDefault has none: the
// default depends on the temporal type, so callers resolve it first;
// TimeUnit returns arrow.Second, the zero arrow.TimeUnit, for it.
func (u Unit) TimeUnit() arrow.TimeUnit {
	switch u {
	case Millisecond:
		return arrow.Millisecond
	case Microsecond:
		return arrow.Microsecond
	case Nanosecond:
		return arrow.Nanosecond
	default:
		return arrow.Second
	}
}

// parseUnit reads the value of `unit=`.
func parseUnit(s string) (Unit, error) {
	for u := Second; u <= Nanosecond; u++ {
		if s == u.String() {
			return u, nil
		}
	}
	return UnitDefault, fmt.Errorf("unknown unit %q (want s, ms, us or ns)", s)
}

// errLocalZone rejects "Local": the machine's zone would make the written
// Arrow type depend on where the program runs.
var errLocalZone = errors.New(`time zone "Local" is not portable; name the zone`)

// loadZone resolves the value of `tz=`: a fixed offset "±HH:MM" becomes a
// time.FixedZone named as written, anything else must be an IANA zone name.
func loadZone(tz string) (*time.Location, error) {
	if offset, ok := parseOffset(tz); ok {
		return time.FixedZone(tz, offset), nil
	}
	if tz == "Local" {
		return nil, errLocalZone
	}
	loc, err := time.LoadLocation(tz)
	if err != nil || tz == "" {
		return nil, fmt.Errorf(`unknown time zone %q (want an IANA name such as "Asia/Tokyo" or an offset such as "+05:30")`, tz)
	}
	return loc, nil
}

// parseOffset reads a fixed offset "+HH:MM" or "-HH:MM" into seconds east of
// UTC.
func parseOffset(s string) (seconds int, ok bool) {
	if len(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' {
		return 0, false
	}
	hh, ok1 := twoDigits(s[1:3])
	mm, ok2 := twoDigits(s[4:6])
	if !ok1 || !ok2 || hh > 23 || mm > 59 {
		return 0, false
	}
	seconds = (hh*60 + mm) * 60
	if s[0] == '-' {
		seconds = -seconds
	}
	return seconds, true
}

func twoDigits(s string) (int, bool) {
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}
