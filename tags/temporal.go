package tags

import (
	"fmt"
	tz "github.com/arrowmap/arrowmap/internal/zone"
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

// String returns the tag spelling of t ("date32"), "default" for
// TemporalDefault, which has none.
func (t Temporal) String() string {
	if t == TemporalDefault {
		return "default"
	}
	if name, ok := memberName(temporals, t); ok {
		return name
	}
	return "Temporal(" + strconv.Itoa(int(t)) + ")"
}

// ID is the Arrow type t pins (date32 for Date32), and false for
// TemporalDefault.
func (t Temporal) ID() (arrow.Type, bool) { return pinnedID(temporals, t) }

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

// String returns the tag spelling of u ("ms"), arrow.TimeUnit's, and
// "default" for UnitDefault, which has none.
func (u Unit) String() string {
	switch {
	case u == UnitDefault:
		return "default"
	case u <= Nanosecond:
		return u.TimeUnit().String()
	}
	return "Unit(" + strconv.Itoa(int(u)) + ")"
}

// TimeUnit returns the arrow.TimeUnit for u. UnitDefault has none: the
// default depends on the temporal type, so callers resolve it first;
// TimeUnit returns arrow.Second, the zero arrow.TimeUnit, for it.
func (u Unit) TimeUnit() arrow.TimeUnit {
	if u == UnitDefault || u > Nanosecond {
		return arrow.Second
	}
	return arrow.TimeUnitValues[u-Second]
}

// parseUnit reads the value of `unit=`.
func parseUnit(s string) (Unit, error) {
	names := make([]string, 0, len(arrow.TimeUnitValues))
	for u := Second; u <= Nanosecond; u++ {
		if s == u.String() {
			return u, nil
		}
		names = append(names, u.String())
	}
	return UnitDefault, fmt.Errorf("unknown unit %q (want %s)", s, orList(names))
}

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
// such as "+5:00" or "+-5:00". It is the one zone parser of the module: the
// mapper and typed timestamp columns read a column's zone with it too.
func ParseZone(name string) (*time.Location, error) { return tz.Parse(name) }
