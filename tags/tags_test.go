package tags_test

import (
	"errors"
	"reflect"
	"testing"
	"time"
	_ "time/tzdata" // "Asia/Tokyo" resolves wherever the tests run

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want tags.Tag
	}{
		// The encoding/json edge cases.
		{"an empty tag derives the name", "", tags.Tag{}},
		{"a dash alone skips the field", "-", tags.Tag{Skip: true}},
		{"a dash with a comma names a column dash", "-,", tags.Tag{Name: "-"}},
		{"a dash with options names a column dash", "-,nullable", tags.Tag{Name: "-", Nullable: true}},
		{"a leading comma keeps the derived name", ",nullable", tags.Tag{Nullable: true}},
		{"a trailing comma is ignored", "name,", tags.Tag{Name: "name"}},
		{"a name alone is the column name", "user_id", tags.Tag{Name: "user_id"}},

		// Whitespace and empty options.
		{"whitespace around the name is trimmed", "  name  ", tags.Tag{Name: "name"}},
		{"whitespace around options is trimmed", "name , nullable ,  dict ", tags.Tag{Name: "name", Nullable: true, Dict: true}},
		{"whitespace around = is trimmed", "t,timestamp, unit = ms ,tz = UTC", tags.Tag{Name: "t", Temporal: tags.Timestamp, Unit: tags.Millisecond, TZ: "UTC"}},
		{"whitespace inside decimal is trimmed", ",decimal( 10 , 2 )", tags.Tag{Decimal: &tags.Decimal{Precision: 10, Scale: 2}}},
		{"empty options are ignored", "name,,nullable,,", tags.Tag{Name: "name", Nullable: true}},
		{"a dash padded with spaces still skips", " - ", tags.Tag{Skip: true}},

		// Every flag alone.
		{"nullable marks the level nullable", ",nullable", tags.Tag{Nullable: true}},
		{"inline flattens", ",inline", tags.Tag{Inline: true}},
		{"view asks for the view variant", ",view", tags.Tag{View: true}},
		{"large asks for the large variant", ",large", tags.Tag{Large: true}},
		{"view and large together ask for large_list_view", ",view,large", tags.Tag{View: true, Large: true}},
		{"dict dictionary-encodes", ",dict", tags.Tag{Dict: true}},
		{"ree run-end encodes", ",ree", tags.Tag{REE: true}},
		{"dict goes with large", ",dict,large", tags.Tag{Dict: true, Large: true}},
		{"dict goes with a pin", ",dict,large_utf8", tags.Tag{Dict: true, Encoding: tags.LargeUtf8}},
		{"ree goes with a pin", ",ree,utf8", tags.Tag{REE: true, Encoding: tags.Utf8}},

		// Every encoding pin alone.
		{"list pins list", ",list", tags.Tag{Encoding: tags.List}},
		{"large_list pins large_list", ",large_list", tags.Tag{Encoding: tags.LargeList}},
		{"list_view pins list_view", ",list_view", tags.Tag{Encoding: tags.ListView}},
		{"listview is an alias of list_view", ",listview", tags.Tag{Encoding: tags.ListView}},
		{"large_list_view pins large_list_view", ",large_list_view", tags.Tag{Encoding: tags.LargeListView}},
		{"fixed_size_list pins fixed_size_list", ",fixed_size_list", tags.Tag{Encoding: tags.FixedSizeList}},
		{"utf8 pins utf8", ",utf8", tags.Tag{Encoding: tags.Utf8}},
		{"large_utf8 pins large_utf8", ",large_utf8", tags.Tag{Encoding: tags.LargeUtf8}},
		{"utf8_view pins utf8_view", ",utf8_view", tags.Tag{Encoding: tags.Utf8View}},
		{"binary pins binary", ",binary", tags.Tag{Encoding: tags.Binary}},
		{"large_binary pins large_binary", ",large_binary", tags.Tag{Encoding: tags.LargeBinary}},
		{"binary_view pins binary_view", ",binary_view", tags.Tag{Encoding: tags.BinaryView}},
		{"fixed_size_binary pins fixed_size_binary", ",fixed_size_binary", tags.Tag{Encoding: tags.FixedSizeBinary}},
		{"map pins map", ",map", tags.Tag{Encoding: tags.Map}},
		{"keys_sorted pins a map's sorted keys", ",map,keys_sorted", tags.Tag{Encoding: tags.Map, KeysSorted: true}},

		// Every temporal type alone, and with each unit it takes.
		{"timestamp pins timestamp", ",timestamp", tags.Tag{Temporal: tags.Timestamp}},
		{"date32 pins date32", ",date32", tags.Tag{Temporal: tags.Date32}},
		{"date64 pins date64", ",date64", tags.Tag{Temporal: tags.Date64}},
		{"time32 pins time32", ",time32", tags.Tag{Temporal: tags.Time32}},
		{"time64 pins time64", ",time64", tags.Tag{Temporal: tags.Time64}},
		{"duration pins duration", ",duration", tags.Tag{Temporal: tags.Duration}},
		{"unit=s gives seconds", ",timestamp,unit=s", tags.Tag{Temporal: tags.Timestamp, Unit: tags.Second}},
		{"unit=ms gives milliseconds", ",timestamp,unit=ms", tags.Tag{Temporal: tags.Timestamp, Unit: tags.Millisecond}},
		{"unit=us gives microseconds", ",timestamp,unit=us", tags.Tag{Temporal: tags.Timestamp, Unit: tags.Microsecond}},
		{"unit=ns gives nanoseconds", ",timestamp,unit=ns", tags.Tag{Temporal: tags.Timestamp, Unit: tags.Nanosecond}},
		{"unit may come before its temporal type", ",unit=us,duration", tags.Tag{Temporal: tags.Duration, Unit: tags.Microsecond}},
		// The mapper, which sees the Go type, reads unit= alone: a time.Time's timestamp, a time.Duration's duration.
		{"unit may come alone", ",unit=us", tags.Tag{Unit: tags.Microsecond}},
		{"tz goes with a unit alone", ",unit=ms,tz=Asia/Tokyo", tags.Tag{Unit: tags.Millisecond, TZ: "Asia/Tokyo"}},
		{"time32 takes seconds", ",time32,unit=s", tags.Tag{Temporal: tags.Time32, Unit: tags.Second}},
		{"time32 takes milliseconds", ",time32,unit=ms", tags.Tag{Temporal: tags.Time32, Unit: tags.Millisecond}},
		{"time64 takes microseconds", ",time64,unit=us", tags.Tag{Temporal: tags.Time64, Unit: tags.Microsecond}},
		{"time64 takes nanoseconds", ",time64,unit=ns", tags.Tag{Temporal: tags.Time64, Unit: tags.Nanosecond}},
		{"tz takes an IANA zone", ",timestamp,tz=Asia/Tokyo", tags.Tag{Temporal: tags.Timestamp, TZ: "Asia/Tokyo"}},
		{"tz takes UTC", ",timestamp,tz=UTC", tags.Tag{Temporal: tags.Timestamp, TZ: "UTC"}},
		{"tz takes a positive offset", ",timestamp,tz=+05:30", tags.Tag{Temporal: tags.Timestamp, TZ: "+05:30"}},
		{"tz takes a negative offset", ",timestamp,tz=-08:00", tags.Tag{Temporal: tags.Timestamp, TZ: "-08:00"}},
		{"tz takes an offset without a colon", ",timestamp,tz=+0530", tags.Tag{Temporal: tags.Timestamp, TZ: "+0530"}},

		// Decimals.
		{"decimal(p,s) gives precision and scale", ",decimal(10,2)", tags.Tag{Decimal: &tags.Decimal{Precision: 10, Scale: 2}}},
		{"decimal takes the largest precision", ",decimal(76,76)", tags.Tag{Decimal: &tags.Decimal{Precision: 76, Scale: 76}}},
		{"decimal takes the smallest precision", ",decimal(1,0)", tags.Tag{Decimal: &tags.Decimal{Precision: 1}}},
		{"precision and scale give a decimal", ",precision=18,scale=4", tags.Tag{Decimal: &tags.Decimal{Precision: 18, Scale: 4}}},
		{"precision alone gives scale zero", ",precision=9", tags.Tag{Decimal: &tags.Decimal{Precision: 9}}},
		{"scale may come before precision", ",scale=3,precision=9", tags.Tag{Decimal: &tags.Decimal{Precision: 9, Scale: 3}}},
		{"decimal goes with nullable", "price,nullable,decimal(12,3)", tags.Tag{Name: "price", Nullable: true, Decimal: &tags.Decimal{Precision: 12, Scale: 3}}},

		// Weak typing of flags.
		{"flag=true sets the flag", ",nullable=true", tags.Tag{Nullable: true}},
		{"flag=false clears the flag", ",nullable=false", tags.Tag{}},
		{"flag=1 sets the flag", ",dict=1", tags.Tag{Dict: true}},
		{"a pin set to false is no pin", ",list=false,large_list", tags.Tag{Encoding: tags.LargeList}},
		{"view=false does not conflict with a pin", ",utf8,view=false", tags.Tag{Encoding: tags.Utf8}},
		{"dict=false does not conflict with ree", ",dict=false,ree", tags.Tag{REE: true}},
		{"a temporal type set to false is none", ",date32=false,timestamp,tz=UTC", tags.Tag{Temporal: tags.Timestamp, TZ: "UTC"}},

		// Everything at once.
		{"options combine", "ts,nullable,timestamp,unit=us,tz=Europe/Paris,dict", tags.Tag{
			Name: "ts", Nullable: true, Temporal: tags.Timestamp, Unit: tags.Microsecond, TZ: "Europe/Paris", Dict: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name   string
		tag    string
		option string // the option the error must name
		detail string // the exact detail after the option
	}{
		// Syntax.
		{"an unknown option", "name,frobnicate", "frobnicate", "unknown option"},
		{"an option in the wrong case", ",Nullable", "Nullable", "unknown option"},
		{"the first of several unknown options", ",nullable,zzz,aaa", "zzz", "unknown option"},
		{"an unknown key=value option", ",color=red", "color=red", "unknown option"},
		{"decimal without parentheses", ",decimal", "decimal", "unknown option"},
		{"an option with an empty key", ",=ms", "=ms", "missing option name before ="},
		{"unit with an empty value", ",timestamp,unit=", "unit=", "missing value after unit="},
		{"a flag with an empty value", ",nullable=", "nullable=", "missing value after nullable="},
		{"unit without a value", ",timestamp,unit", "unit", "needs a value, as in key=value"},
		{"tz without a value", ",timestamp,tz", "tz", "needs a value, as in key=value"},
		{"precision without a value", ",precision", "precision", "needs a value, as in key=value"},
		{"a flag that is neither true nor false", ",nullable=maybe", "nullable=maybe", `"maybe" is not true or false`},
		{"a repeated flag", ",nullable,dict,nullable", "nullable", `repeats "nullable"`},
		{"a flag repeated with a value", ",nullable,nullable=false", "nullable=false", `repeats "nullable"`},
		{"a repeated unit", ",timestamp,unit=ms,unit=ms", "unit=ms", `repeats "unit=ms"`},
		{"a repeated decimal", ",decimal(5,2),decimal(6,2)", "decimal(6,2)", `repeats "decimal(5,2)"`},

		// Unit and tz values.
		{"an unknown unit", ",timestamp,unit=weeks", "unit=weeks", `unknown unit "weeks" (want s, ms, us or ns)`},
		{"a unit in upper case", ",timestamp,unit=MS", "unit=MS", `unknown unit "MS" (want s, ms, us or ns)`},
		{"an unknown time zone", ",timestamp,tz=Mars/Olympus", "tz=Mars/Olympus",
			`unknown time zone "Mars/Olympus": not UTC, Z or an offset (±HH:MM, ±HHMM, ±HH), and not an IANA zone this host can load (embed the database with import _ "time/tzdata", or set ZONEINFO)`},
		{"an offset with a one-digit hour", ",timestamp,tz=+5:30", "tz=+5:30",
			`time zone "+5:30" is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)`},
		{"an offset past 23 hours", ",timestamp,tz=+24:00", "tz=+24:00",
			`time zone "+24:00" is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)`},
		{"an offset past 59 minutes", ",timestamp,tz=-01:60", "tz=-01:60",
			`time zone "-01:60" is not an offset ±HH:MM, ±HHMM or ±HH (two-digit hours 00 to 23, minutes 00 to 59)`},
		{"the machine's local zone", ",timestamp,tz=Local", "tz=Local", `time zone "Local" is not portable; name the zone`},

		// Encodings.
		{"two list pins", ",list,large_list", "large_list", `conflicts with "list"`},
		{"two string pins", ",utf8,binary", "binary", `conflicts with "utf8"`},
		{"list_view and its alias", ",list_view,listview", "listview", `conflicts with "list_view"`},
		{"a pin with view", ",utf8,view", "view", `conflicts with "utf8"`},
		{"view before a pin", ",view,list", "list", `conflicts with "view"`},
		{"a pin with large", ",large,binary_view", "binary_view", `conflicts with "large"`},
		{"dict with ree", ",dict,ree", "ree", `conflicts with "dict"`},
		{"view with dict", ",view,dict", "dict", `conflicts with "view"`},
		{"ree with view", ",ree,view", "view", `conflicts with "ree"`},

		// Temporal types.
		{"two temporal types", ",timestamp,date32", "date32", `conflicts with "timestamp"`},
		{"time32 with time64", ",time64,time32", "time32", `conflicts with "time64"`},
		{"a unit on date32", ",date32,unit=s", "unit=s", "date32 takes no unit"},
		{"a unit on date64", ",unit=ms,date64", "unit=ms", "date64 takes no unit"},
		{"time32 in microseconds", ",time32,unit=us", "unit=us", "time32 takes unit s or ms"},
		{"time32 in nanoseconds", ",time32,unit=ns", "unit=ns", "time32 takes unit s or ms"},
		{"time64 in seconds", ",time64,unit=s", "unit=s", "time64 takes unit us or ns"},
		{"time64 in milliseconds", ",time64,unit=ms", "unit=ms", "time64 takes unit us or ns"},
		{"tz without a temporal type", ",tz=UTC", "tz=UTC", "tz needs timestamp (or unit= alone, on a time.Time)"},
		{"tz on duration", ",duration,tz=UTC", "tz=UTC", "tz needs timestamp (or unit= alone, on a time.Time)"},
		{"tz with a unit and duration", ",unit=ms,duration,tz=UTC", "tz=UTC", "tz needs timestamp (or unit= alone, on a time.Time)"},

		// Decimals.
		{"a scale greater than the precision", ",decimal(5,10)", "decimal(5,10)", "scale 10 exceeds precision 5"},
		{"a precision of zero", ",decimal(0,0)", "decimal(0,0)", "precision 0 is outside 1 to 76"},
		{"a precision past decimal256", ",decimal(77,2)", "decimal(77,2)", "precision 77 is outside 1 to 76"},
		{"a negative precision", ",precision=-3", "precision=-3", "precision -3 is outside 1 to 76"},
		{"a negative scale", ",decimal(10,-1)", "decimal(10,-1)", "scale -1 is negative"},
		{"a negative scale given alone", ",precision=10,scale=-2", "scale=-2", "scale -2 is negative"},
		{"a scale over precision given alone", ",precision=3,scale=4", "scale=4", "scale 4 exceeds precision 3"},
		{"decimal with one part", ",decimal(10)", "decimal(10)", "want decimal(precision,scale) with two integers"},
		{"decimal with no parts", ",decimal()", "decimal()", "want decimal(precision,scale) with two integers"},
		{"decimal with an empty scale", ",decimal(10,)", "decimal(10,)", "want decimal(precision,scale) with two integers"},
		{"decimal with three parts", ",decimal(10,2,1)", "decimal(10,2,1)", "want decimal(precision,scale) with two integers"},
		{"decimal without its closing parenthesis", ",decimal(10,2", "decimal(10,2", "want decimal(precision,scale) with two integers"},
		{"decimal with text after it", ",decimal(10,2)x", "decimal(10,2)x", "want decimal(precision,scale) with two integers"},
		{"decimal with a word for precision", ",decimal(ten,2)", "decimal(ten,2)", `"ten" is not an integer`},
		{"decimal with a fraction for scale", ",decimal(10,2.5)", "decimal(10,2.5)", `"2.5" is not an integer`},
		{"a precision past int32", ",precision=99999999999", "precision=99999999999", `"99999999999" is out of range`},
		{"a scale without a precision", ",scale=2", "scale=2", "scale needs precision"},
		{"keys_sorted without map", ",keys_sorted", "keys_sorted", "keys_sorted needs map"},
		{"keys_sorted on a list", ",list,keys_sorted", "keys_sorted", "keys_sorted needs map"},
		{"decimal with precision=", ",decimal(10,2),precision=12", "precision=12", `conflicts with "decimal(10,2)"`},
		{"scale= with decimal", ",scale=2,decimal(10,2)", "decimal(10,2)", `conflicts with "scale=2"`},
		{"a temporal type with a decimal", ",decimal(10,2),timestamp", "timestamp", `conflicts with "decimal(10,2)"`},
		{"a decimal with a temporal type", ",date32,precision=5", "precision=5", `conflicts with "date32"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse("col" + tt.tag)
			require.Error(t, err)
			assert.Equal(t, tags.Tag{}, got)
			assert.ErrorIs(t, err, tags.ErrTag)
			var tagErr *tags.Error
			require.ErrorAs(t, err, &tagErr)
			assert.Equal(t, "", tagErr.Key)
			assert.Equal(t, tt.option, tagErr.Option)
			assert.Equal(t, tt.detail, tagErr.Err.Error())
			assert.Contains(t, err.Error(), `"`+tt.option+`"`)
		})
	}
}

func TestParseOptions(t *testing.T) {
	tests := []struct {
		name string
		opts string
		want tags.Tag
	}{
		{"an empty list gives no options", "", tags.Tag{}},
		{"options need no leading comma", "nullable", tags.Tag{Nullable: true}},
		{"a leading comma is tolerated", ",nullable", tags.Tag{Nullable: true}},
		{"several options combine", "nullable, large_utf8, dict", tags.Tag{Nullable: true, Encoding: tags.LargeUtf8, Dict: true}},
		{"a decimal needs no name first", "decimal(10,2)", tags.Tag{Decimal: &tags.Decimal{Precision: 10, Scale: 2}}},
		{"inline is allowed", "inline", tags.Tag{Inline: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.ParseOptions(tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseOptionsTakesNoName(t *testing.T) {
	_, err := tags.ParseOptions("values,nullable")
	require.ErrorIs(t, err, tags.ErrTag)
	assert.EqualError(t, err, `arrowmap/tags: invalid tag option "values": unknown option`)

	_, err = tags.ParseOptions("-")
	require.ErrorIs(t, err, tags.ErrTag)
	assert.EqualError(t, err, `arrowmap/tags: invalid tag option "-": unknown option`)
}

// TestArreflectCompatibility parses the tags arrow-go's arreflect documents and
// tests, which must keep their meaning.
func TestArreflectCompatibility(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want tags.Tag
	}{
		{"a plain name", "name", tags.Tag{Name: "name"}},
		{"a skipped field", "-", tags.Tag{Skip: true}},
		{"dict", "enc,dict", tags.Tag{Name: "enc", Dict: true}},
		{"ree", "runs,ree", tags.Tag{Name: "runs", REE: true}},
		{"view", "s,view", tags.Tag{Name: "s", View: true}},
		{"large", "s,large", tags.Tag{Name: "s", Large: true}},
		{"view with large", "l,view,large", tags.Tag{Name: "l", View: true, Large: true}},
		{"dict with large", "s,dict,large", tags.Tag{Name: "s", Dict: true, Large: true}},
		{"decimal(p,s)", "price,decimal(18,2)", tags.Tag{Name: "price", Decimal: &tags.Decimal{Precision: 18, Scale: 2}}},
		{"decimal(p,s) with a derived name", ",decimal(38,10)", tags.Tag{Decimal: &tags.Decimal{Precision: 38, Scale: 10}}},
		{"date32", "d,date32", tags.Tag{Name: "d", Temporal: tags.Date32}},
		{"date64", "d,date64", tags.Tag{Name: "d", Temporal: tags.Date64}},
		{"time32", "t32,time32", tags.Tag{Name: "t32", Temporal: tags.Time32}},
		{"time64", "t64,time64", tags.Tag{Name: "t64", Temporal: tags.Time64}},
		{"timestamp", "ts,timestamp", tags.Tag{Name: "ts", Temporal: tags.Timestamp}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEncodingStringIsItsTagSpelling(t *testing.T) {
	want := []string{
		"default", "list", "large_list", "list_view", "large_list_view", "fixed_size_list",
		"utf8", "large_utf8", "utf8_view", "binary", "large_binary", "binary_view",
		"fixed_size_binary", "map",
	}
	for e := tags.EncodingDefault; e <= tags.Map; e++ {
		assert.Equal(t, want[e], e.String())
		if e == tags.EncodingDefault {
			continue
		}
		got, err := tags.Parse("," + e.String())
		require.NoError(t, err, e.String())
		assert.Equal(t, e, got.Encoding, e.String())
	}
	assert.Equal(t, "Encoding(14)", (tags.Map + 1).String())
}

func TestTemporalStringIsItsTagSpelling(t *testing.T) {
	want := []string{"default", "timestamp", "date32", "date64", "time32", "time64", "duration"}
	for tt := tags.TemporalDefault; tt <= tags.Duration; tt++ {
		assert.Equal(t, want[tt], tt.String())
		if tt == tags.TemporalDefault {
			continue
		}
		got, err := tags.Parse("," + tt.String())
		require.NoError(t, err, tt.String())
		assert.Equal(t, tt, got.Temporal, tt.String())
	}
	assert.Equal(t, "Temporal(7)", (tags.Duration + 1).String())
}

func TestUnit(t *testing.T) {
	tests := []struct {
		name     string
		unit     tags.Unit
		spelling string
		timeUnit arrow.TimeUnit
	}{
		{"the default unit has no spelling and the zero TimeUnit", tags.UnitDefault, "default", arrow.Second},
		{"seconds are s", tags.Second, "s", arrow.Second},
		{"milliseconds are ms", tags.Millisecond, "ms", arrow.Millisecond},
		{"microseconds are us", tags.Microsecond, "us", arrow.Microsecond},
		{"nanoseconds are ns", tags.Nanosecond, "ns", arrow.Nanosecond},
		{"an unknown unit prints its number", tags.Nanosecond + 1, "Unit(5)", arrow.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.spelling, tt.unit.String())
			assert.Equal(t, tt.timeUnit, tt.unit.TimeUnit())
		})
	}
}

func TestLocation(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	instant := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)

	tests := []struct {
		name       string
		tz         string
		zoneName   string // the zone's name at instant
		zoneOffset int    // seconds east of UTC at instant
		want       *time.Location
	}{
		{"no tz is UTC", "", "UTC", 0, time.UTC},
		{"UTC is UTC", "UTC", "UTC", 0, time.UTC},
		{"an IANA name loads that zone", "Asia/Tokyo", "JST", 9 * 3600, tokyo},
		{"a positive offset is a fixed zone named as written", "+05:30", "+05:30", 5*3600 + 30*60, nil},
		{"a negative offset is a fixed zone named as written", "-08:00", "-08:00", -8 * 3600, nil},
		{"a zero offset is a fixed zone", "+00:00", "+00:00", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := tags.Tag{Temporal: tags.Timestamp, TZ: tt.tz}.Location()
			require.NoError(t, err)
			if tt.want != nil {
				assert.Equal(t, tt.want.String(), loc.String())
			} else {
				assert.Equal(t, tt.tz, loc.String())
			}
			name, offset := instant.In(loc).Zone()
			assert.Equal(t, tt.zoneName, name)
			assert.Equal(t, tt.zoneOffset, offset)
		})
	}
}

func TestLocationOfAnUnparsedZoneFails(t *testing.T) {
	loc, err := tags.Tag{TZ: "Mars/Olympus"}.Location()
	assert.Nil(t, loc)
	require.ErrorIs(t, err, tags.ErrTag)
	assert.EqualError(t, err, `arrowmap/tags: invalid tag option "tz=Mars/Olympus": unknown time zone "Mars/Olympus": not UTC, Z or an offset (±HH:MM, ±HHMM, ±HH), and not an IANA zone this host can load (embed the database with import _ "time/tzdata", or set ZONEINFO)`)
}

func TestOf(t *testing.T) {
	type row struct {
		Plain   int
		Named   int                  `arrow:"named"`
		Skipped int                  `arrow:"-"`
		Empty   int                  `arrow:""`
		Scores  []float64            `arrow:"scores,large_list" arrow-elem:"nullable"`
		Labels  map[string]*string   `arrow:"labels,nullable" arrow-key:"dict" arrow-value:",nullable,utf8_view"`
		All     map[string][]float64 `arrow:"all,map" arrow-elem:"decimal(10,2)" arrow-key:"large_utf8" arrow-value:"list_view"`
		Elem    []string             `arrow-elem:"nullable"`
		NoOpts  []string             `arrow-elem:""`
		JSON    string               `json:"j" arrow:"a"`
	}
	tests := []struct {
		field string
		want  tags.Tag
	}{
		{"Plain", tags.Tag{}},
		{"Named", tags.Tag{Name: "named"}},
		{"Skipped", tags.Tag{Skip: true}},
		{"Empty", tags.Tag{}},
		{"Scores", tags.Tag{Name: "scores", Encoding: tags.LargeList, Elem: &tags.Tag{Nullable: true}}},
		{"Labels", tags.Tag{
			Name: "labels", Nullable: true,
			Key:   &tags.Tag{Dict: true},
			Value: &tags.Tag{Nullable: true, Encoding: tags.Utf8View},
		}},
		{"All", tags.Tag{
			Name: "all", Encoding: tags.Map,
			Elem:  &tags.Tag{Decimal: &tags.Decimal{Precision: 10, Scale: 2}},
			Key:   &tags.Tag{Encoding: tags.LargeUtf8},
			Value: &tags.Tag{Encoding: tags.ListView},
		}},
		{"Elem", tags.Tag{Elem: &tags.Tag{Nullable: true}}},
		{"NoOpts", tags.Tag{Elem: &tags.Tag{}}},
		{"JSON", tags.Tag{Name: "a"}},
	}
	typ := reflect.TypeFor[row]()
	for _, tt := range tests {
		t.Run("field "+tt.field+" reads its tags", func(t *testing.T) {
			f, ok := typ.FieldByName(tt.field)
			require.True(t, ok)
			got, err := tags.Of(f)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestOfNamesTheStructTag(t *testing.T) {
	type row struct {
		Arrow []int `arrow:"a,frobnicate"`
		Elem  []int `arrow:"e" arrow-elem:"unit=weeks"`
		Key   []int `arrow-key:"dict,ree"`
		Value []int `arrow-value:"decimal(5,10)"`
	}
	tests := []struct {
		field string
		key   string
		want  string
	}{
		{"Arrow", "arrow", `arrowmap/tags: invalid arrow tag option "frobnicate": unknown option`},
		{"Elem", "arrow-elem", `arrowmap/tags: invalid arrow-elem tag option "unit=weeks": unknown unit "weeks" (want s, ms, us or ns)`},
		{"Key", "arrow-key", `arrowmap/tags: invalid arrow-key tag option "ree": conflicts with "dict"`},
		{"Value", "arrow-value", `arrowmap/tags: invalid arrow-value tag option "decimal(5,10)": scale 10 exceeds precision 5`},
	}
	typ := reflect.TypeFor[row]()
	for _, tt := range tests {
		t.Run("a bad "+tt.key+" tag is named in the error", func(t *testing.T) {
			f, ok := typ.FieldByName(tt.field)
			require.True(t, ok)
			got, err := tags.Of(f)
			assert.Equal(t, tags.Tag{}, got)
			require.ErrorIs(t, err, tags.ErrTag)
			var tagErr *tags.Error
			require.ErrorAs(t, err, &tagErr)
			assert.Equal(t, tt.key, tagErr.Key)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestError(t *testing.T) {
	detail := errors.New("detail")
	tests := []struct {
		name string
		err  *tags.Error
		want string
	}{
		{"an error names the key and the option", &tags.Error{Key: "arrow", Option: "x", Err: detail}, `arrowmap/tags: invalid arrow tag option "x": detail`},
		{"an error without a key names the option", &tags.Error{Option: "x", Err: detail}, `arrowmap/tags: invalid tag option "x": detail`},
		{"an error without an option gives the detail", &tags.Error{Key: "arrow-elem", Err: detail}, `arrowmap/tags: invalid arrow-elem tag: detail`},
		{"an empty error still reads", &tags.Error{}, `arrowmap/tags: invalid tag`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.err, tt.want)
			assert.ErrorIs(t, tt.err, tags.ErrTag)
			assert.Equal(t, tt.err.Err, tt.err.Unwrap())
		})
	}
	assert.ErrorIs(t, &tags.Error{Err: detail}, detail, "an error unwraps to its detail")
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"-",
		"-,",
		"name,nullable",
		",nullable=false",
		"s,view,large",
		"enc,dict,large_utf8",
		"l,list_view,listview",
		"ts,timestamp,unit=us,tz=Asia/Tokyo",
		"ts,timestamp,tz=+05:30",
		"t,time32,unit=ns",
		"price,decimal(18,2)",
		"p,precision=10,scale=12",
		"x,decimal(10,2,frobnicate",
		" a , = , b= ,(,),unit",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		first, err := tags.Parse(tag)
		if err != nil {
			require.ErrorIs(t, err, tags.ErrTag)
			var tagErr *tags.Error
			require.ErrorAs(t, err, &tagErr)
			return
		}
		second, err := tags.Parse(tag)
		require.NoError(t, err)
		require.Equal(t, first, second)
		if first.Skip {
			require.Equal(t, tags.Tag{Skip: true}, first)
		}
		_, err = first.Location()
		require.NoError(t, err, "a parsed tz must load")
	})
}
