// Package zone parses the time zones of Arrow timestamp types and of the
// tz= tag option. It is internal: tags.ParseZone is its public face.
package zone

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// errLocalZone rejects "Local": the machine's zone would make the written
// Arrow type depend on where the program runs.
var errLocalZone = errors.New(`time zone "Local" is not portable; name the zone`)

// zones caches Parse's successes by name: a mapper resolves a column's
// zone at every New, and time.LoadLocation reads the zone database each time.
// Only successes are kept, so hostile names cannot grow it past the zones
// that exist.
var zones sync.Map // name → *time.Location

// Parse is tags.ParseZone, which documents it: the one time-zone parser
// of the module, here so that tags and views share it without importing
// each other.
func Parse(name string) (*time.Location, error) {
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

// OfTimestamp is the zone a timestamp column's values are read in: its
// TimeZone, or UTC when it has none (a naive timestamp).
func OfTimestamp(tz string) (*time.Location, error) {
	if tz == "" {
		return time.UTC, nil
	}
	return Parse(tz)
}

// utcNames are the names of UTC: the IANA database's Etc/UTC and its
// links, and the offsets that are it.
var utcNames = map[string]bool{
	"UTC": true, "Etc/UTC": true, "Etc/UCT": true, "Etc/Universal": true, "Etc/Zulu": true,
	"UCT": true, "Universal": true, "Zulu": true, "Z": true, "+00:00": true, "-00:00": true,
}

// Same reports whether a and b name one zone: the same name, or two names
// of UTC (a tag's tz=UTC and DuckDB's Etc/UTC, say).
func Same(a, b string) bool {
	return a == b || (utcNames[a] && utcNames[b])
}
