package tags_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

func TestParseZoneAccepts(t *testing.T) {
	summer := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	winter := time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		zone     string
		at       time.Time
		location string // loc.String()
		abbrev   string // the zone's name at the instant
		offset   int    // seconds east of UTC at the instant
	}{
		{"Z is UTC", "Z", summer, "UTC", "UTC", 0},
		{"UTC is UTC", "UTC", summer, "UTC", "UTC", 0},
		{"utc in lower case is UTC, as arrow-go reads it", "utc", summer, "UTC", "UTC", 0},
		{"Utc in mixed case is UTC", "Utc", summer, "UTC", "UTC", 0},
		{"a positive ±HH:MM offset is a fixed zone named as written", "+05:30", summer, "+05:30", "+05:30", 5*3600 + 30*60},
		{"a negative ±HH:MM offset is a fixed zone named as written", "-08:00", summer, "-08:00", "-08:00", -8 * 3600},
		{"a negative ±HHMM offset, as Arrow writers emit it, is a fixed zone", "-0800", summer, "-0800", "-0800", -8 * 3600},
		{"a positive ±HHMM offset keeps its minutes", "+0545", summer, "+0545", "+0545", 5*3600 + 45*60},
		{"a ±HH offset is whole hours", "+09", summer, "+09", "+09", 9 * 3600},
		{"a negative ±HH offset is whole hours west", "-03", summer, "-03", "-03", -3 * 3600},
		{"a zero offset is a fixed zone of its own name", "+00:00", summer, "+00:00", "+00:00", 0},
		{"minus zero is a zero offset", "-00:00", summer, "-00:00", "-00:00", 0},
		{"23:59 is the largest offset east", "+23:59", summer, "+23:59", "+23:59", 23*3600 + 59*60},
		{"23:59 is the largest offset west", "-2359", summer, "-2359", "-2359", -(23*3600 + 59*60)},
		{"an IANA name loads that zone", "Asia/Tokyo", summer, "Asia/Tokyo", "JST", 9 * 3600},
		{"an IANA zone keeps its summer time", "America/New_York", summer, "America/New_York", "EDT", -4 * 3600},
		{"an IANA zone keeps its winter time", "America/New_York", winter, "America/New_York", "EST", -5 * 3600},
		{"an Etc zone is read by its IANA meaning, not as an offset", "Etc/GMT+5", summer, "Etc/GMT+5", "-05", -5 * 3600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := tags.ParseZone(tt.zone)
			require.NoError(t, err)
			assert.Equal(t, tt.location, loc.String())
			abbrev, offset := tt.at.In(loc).Zone()
			assert.Equal(t, tt.abbrev, abbrev)
			assert.Equal(t, tt.offset, offset)
		})
	}
}

func TestParseZoneRejects(t *testing.T) {
	notOffset := func(zone string) string {
		return fmt.Sprintf("time zone %q is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)", zone)
	}
	unknown := func(zone string) string {
		return fmt.Sprintf(`unknown time zone %q: not UTC, Z or an offset (±HH:MM, ±HHMM, ±HH), and not an IANA zone this host can load (embed the database with import _ "time/tzdata", or set ZONEINFO)`, zone)
	}
	tests := []struct {
		name string
		zone string
		want string
	}{
		{"the empty string names no zone", "", `empty time zone (want UTC, Z, an offset ±HH:MM, ±HHMM or ±HH, or an IANA name such as "Asia/Tokyo")`},
		{"Local is not portable", "Local", `time zone "Local" is not portable; name the zone`},
		{"two signs are not an offset, though strconv.Atoi reads -5", "+-5:00", notOffset("+-5:00")},
		{"a one-digit hour is not an offset", "+5:00", notOffset("+5:00")},
		{"a one-digit minute is not an offset", "+05:0", notOffset("+05:0")},
		{"a signed one-digit hour is not an offset", "-5", notOffset("-5")},
		{"24 hours is past the largest offset", "+24:00", notOffset("+24:00")},
		{"24 hours without a colon is past the largest offset", "-2400", notOffset("-2400")},
		{"99 hours is past the largest offset", "+99", notOffset("+99")},
		{"60 minutes is past the largest offset", "+05:60", notOffset("+05:60")},
		{"60 minutes without a colon is past the largest offset", "+0560", notOffset("+0560")},
		{"an offset with seconds is not read", "+05:30:00", notOffset("+05:30:00")},
		{"an offset with another separator is not read", "+05-30", notOffset("+05-30")},
		{"an offset with a letter is not read", "+1a:00", notOffset("+1a:00")},
		{"a trailing space is not read", "+05:30 ", notOffset("+05:30 ")},
		{"a sign alone is not an offset", "+", notOffset("+")},
		{"an offset without a sign is not read", "05:30", unknown("05:30")},
		{"UTC with an offset is not read", "UTC+05:30", unknown("UTC+05:30")},
		{"an IANA-looking name the database lacks", "Mars/Olympus", unknown("Mars/Olympus")},
		{"a path out of the zone database", "../../etc/passwd", unknown("../../etc/passwd")},
		{"garbage", "not a zone", unknown("not a zone")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := tags.ParseZone(tt.zone)
			assert.Nil(t, loc)
			require.EqualError(t, err, tt.want)
			// A failure is not cached as a success.
			_, again := tags.ParseZone(tt.zone)
			require.EqualError(t, again, tt.want)
		})
	}
}

func TestParseZoneCachesWhatItLoads(t *testing.T) {
	for _, zone := range []string{"Europe/Paris", "-0800", "+05:30"} {
		first, err := tags.ParseZone(zone)
		require.NoError(t, err)
		second, err := tags.ParseZone(zone)
		require.NoError(t, err)
		assert.Same(t, first, second, "%s is loaded once", zone)
	}
}

func TestTagZonesAreParseZones(t *testing.T) {
	tests := []struct {
		name string
		tz   string
		want string // "" when the tag parses
	}{
		{"tz takes an offset without a colon", "-0800", ""},
		{"tz takes whole hours", "+09", ""},
		{"tz takes Z", "Z", ""},
		{"tz rejects two signs", "+-5:00", `time zone "+-5:00" is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)`},
		{"tz rejects a zone the host cannot load", "Mars/Olympus", `unknown time zone "Mars/Olympus": not UTC, Z or an offset (±HH:MM, ±HHMM, ±HH), and not an IANA zone this host can load (embed the database with import _ "time/tzdata", or set ZONEINFO)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tag, err := tags.Parse(",timestamp,tz=" + tt.tz)
			if tt.want != "" {
				require.ErrorIs(t, err, tags.ErrTag)
				require.EqualError(t, err, `arrowmap/tags: invalid tag option "tz=`+tt.tz+`": `+tt.want)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.tz, tag.TZ, "the zone is kept as written")
			got, err := tag.Location()
			require.NoError(t, err)
			want, err := tags.ParseZone(tt.tz)
			require.NoError(t, err)
			assert.Same(t, want, got)
		})
	}
}
