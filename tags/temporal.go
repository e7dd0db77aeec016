package tags

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
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

// zones caches ParseZone's successes by name: a mapper resolves a column's
// zone at every New, and time.LoadLocation reads the zone database each time.
// Only successes are kept, so hostile names cannot grow it past the zones
// that exist.
var zones sync.Map // name → *time.Location

// ParseZone resolves a time zone as Arrow timestamp types and the `tz=` tag
// option write it. "UTC" (in any case, as arrow-go reads it) and "Z" are
// time.UTC. A fixed offset ±HH:MM, ±HHMM or ±HH, two digits each with hours
// up to 23 and minutes up to 59, is a time.FixedZone named exactly as
// written, so it is written back unchanged. Anything else is an IANA zone
// loaded with time.LoadLocation, which needs the host's zone database or an
// embedded one (import _ "time/tzdata").
//
// ParseZone rejects "" (a caller with a default zone applies it first),
// "Local" (the machine's zone is not portable) and offsets of other shapes,
// such as "+5:00" or "+-5:00".
func ParseZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := parseZone(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}

func parseZone(name string) (*time.Location, error) {
	switch {
	case name == "":
		return nil, errors.New(`empty time zone (want UTC, Z, an offset ±HH:MM, ±HHMM or ±HH, or an IANA name such as "Asia/Tokyo")`)
	case name == "Z" || strings.EqualFold(name, "UTC"):
		return time.UTC, nil
	case name == "Local":
		return nil, errLocalZone
	case name[0] == '+' || name[0] == '-':
		// No IANA name starts with a sign, so this is an offset or nothing.
		offset, ok := parseOffset(name)
		if !ok {
			return nil, fmt.Errorf("time zone %q is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)", name)
		}
		return time.FixedZone(name, offset), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf(`unknown time zone %q: not UTC, Z or an offset (±HH:MM, ±HHMM, ±HH), and not an IANA zone this host can load (embed the database with import _ "time/tzdata", or set ZONEINFO)`, name)
	}
	return loc, nil
}

// parseOffset reads a fixed offset "±HH:MM", "±HHMM" or "±HH" into seconds
// east of UTC. These are the forms Arrow C++ and arrow-go read in a
// timestamp's zone (arrow-go also reads seconds, which no writer emits);
// every position is checked to be a digit, as strconv.Atoi would take "-5".
func parseOffset(s string) (seconds int, ok bool) {
	var hours, minutes string
	switch {
	case len(s) == 3: // ±HH
		hours = s[1:3]
	case len(s) == 5: // ±HHMM
		hours, minutes = s[1:3], s[3:5]
	case len(s) == 6 && s[3] == ':': // ±HH:MM
		hours, minutes = s[1:3], s[4:6]
	default:
		return 0, false
	}
	hh, okh := twoDigits(hours)
	mm, okm := twoDigits(minutes)
	if (s[0] != '+' && s[0] != '-') || !okh || !okm || hh > 23 || mm > 59 {
		return 0, false
	}
	seconds = (hh*60 + mm) * 60
	if s[0] == '-' {
		seconds = -seconds
	}
	return seconds, true
}

// twoDigits reads two decimal digits; "" is 0, for an offset without
// minutes.
func twoDigits(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}
