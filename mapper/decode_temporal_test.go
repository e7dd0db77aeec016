package mapper_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeTime(t *testing.T) {
	units := []struct {
		unit arrow.TimeUnit
		raw  []int64
		at   func(int64) time.Time
	}{
		{arrow.Second, []int64{1700000000, 0, -1, 0, 253402300799}, func(x int64) time.Time { return time.Unix(x, 0) }},
		{arrow.Millisecond, []int64{1700000000123, 0, -1, 0, 86400000}, time.UnixMilli},
		{arrow.Microsecond, []int64{1700000000123456, 0, -1, 0, 86400000000}, time.UnixMicro},
		{arrow.Nanosecond, []int64{1700000000123456789, 0, -1, 0, math.MaxInt64}, func(x int64) time.Time { return time.Unix(0, x) }},
	}
	zones := []struct {
		tz, zone string
		offset   int
	}{
		{"Asia/Tokyo", "Asia/Tokyo", 9 * 3600},
		{"", "UTC", 0},
		{"+05:30", "+05:30", 19800},
		{"-03:00", "-03:00", -3 * 3600},
	}
	var cases []fxCase
	for _, u := range units {
		for _, z := range zones {
			dt := &arrow.TimestampType{Unit: u.unit, TimeZone: z.tz}
			cases = append(cases, fxCase{fmt.Sprintf("%s decodes into time.Time in %s", dt, z.zone), fxTimesCase(dt, u.raw, u.at, z.zone, z.offset)})
		}
	}
	cases = append(cases,
		fxCase{"date32 decodes into time.Time at UTC midnight", fxTimesCase(arrow.FixedWidthTypes.Date32, []int64{19000, 0, -1, 0, 2932896},
			func(x int64) time.Time { return time.Date(1970, 1, 1+int(x), 0, 0, 0, 0, time.UTC) }, "UTC", 0)},
		fxCase{"date64 decodes into time.Time at UTC midnight", fxTimesCase(arrow.FixedWidthTypes.Date64, []int64{19000 * 86400000, 0, -86400000, 0, 86400000},
			func(x int64) time.Time { return time.UnixMilli(x) }, "UTC", 0)},
		fxCase{"an unknown time zone in the schema is an error at New", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxTimeRow](fxSchema("v", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Mars/Olympus"}, "p", arrow.FixedWidthTypes.Date32))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
			require.Contains(t, err.Error(), "Mars/Olympus")
		}},
		fxCase{"a zone kept by its IANA name has its daylight saving time", func(t *testing.T, mem memory.Allocator) {
			dt := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Europe/Paris"}
			// 2024-01-15 and 2024-07-15, noon UTC.
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[1705320000, null, 1721044800, 0]`)}, fxCol{"p", fxJSON(t, mem, dt, `[1705320000, null, 1721044800, 0]`)})
			defer rec.Release()
			got := fxDecodeAll[fxTimeRow](t, rec)
			require.Equal(t, "2024-01-15T13:00:00+01:00", got[0].V.Format(time.RFC3339))
			require.Equal(t, "2024-07-15T14:00:00+02:00", got[2].V.Format(time.RFC3339))
		}},
	)
	fxRun(t, cases)
}

type fxDurationRow struct {
	V time.Duration  `arrow:"v,nullable"`
	P *time.Duration `arrow:"p"`
}

func TestDecodeDuration(t *testing.T) {
	durationsCase := func(dt arrow.DataType, unit time.Duration, raw ...int64) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			js := fxJSONList(raw, 1)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			want := make([]fxDurationRow, len(raw))
			for i, x := range raw {
				if i != 1 {
					want[i] = fxDurationRow{V: time.Duration(x) * unit, P: fxPtr(time.Duration(x) * unit)}
				}
			}
			require.Equal(t, want, fxDecodeAll[fxDurationRow](t, rec))
		}
	}
	overflowCase := func(dt arrow.DataType, raw string, row int) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, raw)}, fxCol{"p", fxJSON(t, mem, dt, `[1, 2, 3, 4, 5]`)})
			defer rec.Release()
			m, err := mapper.New[fxDurationRow](rec.Schema())
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row)
			_, err = m.Decode(rec)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row)
			sliced := rec.NewSlice(1, rec.NumRows())
			defer sliced.Release()
			_, err = m.View(sliced)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", row-1)
		}
	}
	fxRun(t, []fxCase{
		{"duration[s] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_s, time.Second, 1, 0, -2, 86399, 9223372036)},
		{"duration[ms] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_ms, time.Millisecond, 1, 0, -2, 86399999, 9223372036854)},
		{"duration[us] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_us, time.Microsecond, 1, 0, -2, 86399999999, -9223372036854775)},
		{"duration[ns] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Duration_ns, time.Nanosecond, 1, 0, -2, math.MaxInt64, math.MinInt64)},
		{"time32[s] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time32s, time.Second, 1, 0, 2, 86399)},
		{"time32[ms] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time32ms, time.Millisecond, 1, 0, 2, 86399999)},
		{"time64[us] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time64us, time.Microsecond, 1, 0, 2, 86399999999)},
		{"time64[ns] decodes into time.Duration", durationsCase(arrow.FixedWidthTypes.Time64ns, time.Nanosecond, 1, 0, 2, 86399999999999)},
		{"10^11 seconds overflows a time.Duration at View, naming its row", overflowCase(arrow.FixedWidthTypes.Duration_s, `[1, 2, 100000000000, 3, 4]`, 2)},
		{"-10^11 seconds overflows a time.Duration at View, naming its row", overflowCase(arrow.FixedWidthTypes.Duration_s, `[1, 2, 3, -100000000000, 4]`, 3)},
		{"one millisecond past the largest time.Duration overflows", overflowCase(arrow.FixedWidthTypes.Duration_ms, `[1, 9223372036854, 3, 4, 9223372036855]`, 4)},
	})
}

type fxTimeRow struct {
	V time.Time  `arrow:"v,nullable"`
	P *time.Time `arrow:"p"`
}

// fxTimesCase decodes raw values (row 1 null) of a temporal column dt into
// time.Time, checking each instant against want and its zone.
func fxTimesCase(dt arrow.DataType, raw []int64, want func(int64) time.Time, zone string, offset int) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		js := fxJSONList(raw, 1)
		rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)}, fxCol{"p", fxJSON(t, mem, dt, js)})
		defer rec.Release()
		got := fxDecodeAll[fxTimeRow](t, rec)
		for i, r := range got {
			if i == 1 {
				require.Equal(t, fxTimeRow{}, r, "row 1 is null")
				continue
			}
			require.True(t, want(raw[i]).Equal(r.V), "row %d: %v, want %v", i, r.V, want(raw[i]))
			require.Equal(t, zone, r.V.Location().String(), "row %d", i)
			name, off := r.V.Zone()
			require.Equal(t, offset, off, "row %d", i)
			if zone != "UTC" && zone != "Asia/Tokyo" {
				require.Equal(t, zone, name, "row %d", i)
			}
			require.NotNil(t, r.P)
			require.Equal(t, r.V, *r.P)
		}
	}
}

func TestDecodeStillRefusesADate64BetweenDays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b := array.NewDate64Builder(mem)
	defer b.Release()
	b.AppendValues([]arrow.Date64{0, dayMs, dayMs + 1}, nil)
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "day", Type: arrow.FixedWidthTypes.Date64}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 3)
	defer rec.Release()
	_, err := mapper.Decode[struct {
		Day time.Time `arrow:"day"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 2, me.Row)
}

type timeOfDayRow struct {
	T time.Time      `arrow:"t,nullable"`
	D *time.Duration `arrow:"d"`
}

type timeOfDayTagged struct {
	T32 time.Time `arrow:"t32,time32,unit=ms"`
	T64 time.Time `arrow:"t64,time64,unit=us"`
}

// TestTimesOfDay: time32 and time64 decode into time.Time as a time of day
// on 1970-01-01 in UTC, as arreflect reads them and as the encoder writes a
// time.Time tagged time32 or time64; a value the type cannot hold (outside
// 0 to 24h) is refused both ways.
func TestTimesOfDay(t *testing.T) {
	units := []struct {
		dt   arrow.DataType
		per  time.Duration
		last int64 // the last time of day in the unit
	}{
		{arrow.FixedWidthTypes.Time32s, time.Second, 86399},
		{arrow.FixedWidthTypes.Time32ms, time.Millisecond, 86399999},
		{arrow.FixedWidthTypes.Time64us, time.Microsecond, 86399999999},
		{arrow.FixedWidthTypes.Time64ns, time.Nanosecond, 86399999999999},
	}
	var cases []fxCase
	for _, u := range units {
		raw := []int64{1, 0, 0, 45296, u.last}
		cases = append(cases,
			fxCase{u.dt.String() + " decodes into time.Time, a time of day on the epoch's day in UTC", func(t *testing.T, mem memory.Allocator) {
				js := fxJSONList(raw, 1)
				rec := fxRecord(t, fxCol{"t", fxJSON(t, mem, u.dt, js)}, fxCol{"d", fxJSON(t, mem, u.dt, js)})
				defer rec.Release()
				for i, r := range fxDecodeAll[timeOfDayRow](t, rec) {
					if i == 1 {
						require.Equal(t, timeOfDayRow{}, r, "row 1 is null")
						continue
					}
					want := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(raw[i]) * u.per)
					require.True(t, want.Equal(r.T), "row %d: %v, want %v", i, r.T, want)
					require.Equal(t, time.UTC, r.T.Location())
					require.Equal(t, time.Duration(raw[i])*u.per, *r.D)
				}
			}},
			fxCase{u.dt.String() + " of 24h or more, or negative, is ErrInvalidData at View for time.Time and time.Duration", func(t *testing.T, mem memory.Allocator) {
				rec := fxRecord(t,
					fxCol{"t", fxJSON(t, mem, u.dt, fxJSONList([]int64{0, 1, u.last + 1, 3, 4}))},
					fxCol{"d", fxJSON(t, mem, u.dt, fxJSONList([]int64{0, 1, 2, -1, 4}))})
				defer rec.Release()
				m, err := mapper.New[timeOfDayRow](rec.Schema())
				require.NoError(t, err)
				_, err = m.View(rec)
				fxRequireError(t, err, mapper.ErrInvalidData, "T", "t", 2)
				sliced := rec.NewSlice(3, 5)
				defer sliced.Release()
				_, err = m.View(sliced)
				fxRequireError(t, err, mapper.ErrInvalidData, "D", "d", 0)
				fine := rec.NewSlice(0, 2)
				defer fine.Release()
				_, err = m.Decode(fine)
				require.NoError(t, err, "the values outside the window do not count")
			}})
	}
	cases = append(cases, fxCase{"a time.Time tagged time32 or time64 round-trips its time of day", func(t *testing.T, mem memory.Allocator) {
		at := time.Date(1970, 1, 1, 12, 34, 56, 789_123_000, time.UTC)
		rec, err := mapper.Encode([]timeOfDayTagged{{at, at}}, mapper.Allocator(mem))
		require.NoError(t, err)
		defer rec.Release()
		require.Equal(t, arrow.TIME32, rec.Column(0).DataType().ID())
		require.Equal(t, arrow.TIME64, rec.Column(1).DataType().ID())
		rows, err := mapper.Decode[timeOfDayTagged](rec)
		require.NoError(t, err)
		require.True(t, at.Truncate(time.Millisecond).Equal(rows[0].T32), "%v", rows[0].T32)
		require.True(t, at.Truncate(time.Microsecond).Equal(rows[0].T64), "%v", rows[0].T64)
	}})
	fxRun(t, cases)
}

type rawTemporalRow struct {
	Dur  int64  `arrow:"dur"`
	Date int32  `arrow:"date"`
	Day  *int64 `arrow:"day"`
	At   int64  `arrow:"at"`
}

type rawPinnedRow struct {
	Dur int64 `arrow:"dur,duration,unit=s"`
}

// TestTemporalColumnsReadAsTheirStorageIntegers: every valid temporal value
// is readable, as its raw integer, even one no Go time type holds.
func TestTemporalColumnsReadAsTheirStorageIntegers(t *testing.T) {
	fxRun(t, []fxCase{
		{"duration, date32, date64 and timestamp columns decode into signed integers wide enough", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t,
				fxCol{"dur", fxJSON(t, mem, arrow.FixedWidthTypes.Duration_s, `[-9223372036854775808, 5]`)},
				fxCol{"date", fxJSON(t, mem, arrow.FixedWidthTypes.Date32, `[19000, -1]`)},
				fxCol{"day", fxJSON(t, mem, arrow.FixedWidthTypes.Date32, `[null, 7]`)},
				fxCol{"at", fxJSON(t, mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Asia/Tokyo"}, `[1700000000000000, 0]`)})
			defer rec.Release()
			rows := decodeOK[rawTemporalRow](t, rec)
			require.Equal(t, []rawTemporalRow{{-1 << 63, 19000, nil, 1700000000000000}, {5, -1, fxPtr(int64(7)), 0}}, rows)
			// The same column into time.Duration is refused: it cannot hold -2^63 s.
			_, err := mapper.Decode[struct {
				Dur time.Duration `arrow:"dur"`
			}](rec)
			fxRequireError(t, err, mapper.ErrOverflow, "Dur", "dur", 0)
		}},
		{"a narrower integer does not read a temporal column, nor does Strict without a pin", func(t *testing.T, mem memory.Allocator) {
			schema := fxSchema("dur", arrow.FixedWidthTypes.Duration_s)
			_, err := mapper.New[struct {
				Dur int32 `arrow:"dur"`
			}](schema)
			fxRequireError(t, err, mapper.ErrTypeMismatch, "Dur", "dur", -1)
			_, err = mapper.New[struct {
				Dur uint64 `arrow:"dur"`
			}](schema)
			fxRequireError(t, err, mapper.ErrTypeMismatch, "Dur", "dur", -1)
			_, err = mapper.New[struct {
				Dur int64 `arrow:"dur"`
			}](schema, mapper.Strict())
			fxRequireError(t, err, mapper.ErrTypeMismatch, "Dur", "dur", -1)
			_, err = mapper.New[rawPinnedRow](schema, mapper.Strict())
			require.NoError(t, err, "a pin names the exact type, which Strict then takes")
		}},
	})
}

type precisionRow struct {
	D decimal.Decimal128  `arrow:"d"`
	S *string             `arrow:"s"`
	W *decimal.Decimal256 `arrow:"w"`
}

// The zone of a timestamp column is read by tags.ParseZone, the parser of
// the `tz=` option: these tests go through the mapper to show both ends use it.

// fxTimestamps is a column of dt holding raw, null at row 1. It is built
// value by value: array.FromJSON asks arrow-go's TimestampType.GetZone for
// the zone, which reads only ±HH:MM offsets.
func fxTimestamps(mem memory.Allocator, dt *arrow.TimestampType, raw []int64) arrow.Array {
	b := array.NewTimestampBuilder(mem, dt)
	defer b.Release()
	for i, x := range raw {
		if i == 1 {
			b.AppendNull()
			continue
		}
		b.Append(arrow.Timestamp(x))
	}
	return b.NewArray()
}

// fxZoneCase decodes raw counts of unit in a column of zone tz into
// time.Time and checks each row's instant against the count, and its zone's
// name and offset.
func fxZoneCase(tz string, unit arrow.TimeUnit, raw []int64, instant func(int64) time.Time, name string, offset int) func(*testing.T, memory.Allocator) {
	return func(t *testing.T, mem memory.Allocator) {
		dt := &arrow.TimestampType{Unit: unit, TimeZone: tz}
		rec := fxRecord(t, fxCol{"v", fxTimestamps(mem, dt, raw)}, fxCol{"p", fxTimestamps(mem, dt, raw)})
		defer rec.Release()
		got := fxDecodeAll[fxTimeRow](t, rec)
		for i, r := range got {
			if i == 1 {
				require.Equal(t, fxTimeRow{}, r, "row 1 is null")
				continue
			}
			require.True(t, instant(raw[i]).Equal(r.V), "row %d: %v, want %v", i, r.V, instant(raw[i]))
			require.Equal(t, instant(raw[i]).UnixNano(), r.V.UnixNano(), "row %d", i)
			gotName, gotOffset := r.V.Zone()
			require.Equal(t, name, gotName, "row %d", i)
			require.Equal(t, offset, gotOffset, "row %d", i)
			require.NotNil(t, r.P)
			require.Equal(t, r.V, *r.P)
		}
	}
}

func TestTimestampZones(t *testing.T) {
	// Row 1 is null; -1 is just before the epoch.
	millis := []int64{1700000000123, 0, -1, 0, 86400000}
	seconds := []int64{0, 0, 1705320000, -86400, 253402300799}
	unix := func(x int64) time.Time { return time.Unix(x, 0) }
	cases := []fxCase{
		{"a timestamp in zone -0800 decodes at eight hours west, named as written",
			fxZoneCase("-0800", arrow.Millisecond, millis, time.UnixMilli, "-0800", -8*3600)},
		{"a timestamp in seconds in zone -0800 decodes at eight hours west",
			fxZoneCase("-0800", arrow.Second, seconds, unix, "-0800", -8*3600)},
		{"a timestamp in zone +0530 decodes at five and a half hours east",
			fxZoneCase("+0530", arrow.Millisecond, millis, time.UnixMilli, "+0530", 5*3600+30*60)},
		{"a timestamp in zone +09 decodes at nine hours east",
			fxZoneCase("+09", arrow.Millisecond, millis, time.UnixMilli, "+09", 9*3600)},
		{"a timestamp in zone Z decodes in UTC",
			fxZoneCase("Z", arrow.Millisecond, millis, time.UnixMilli, "UTC", 0)},
		{"a timestamp in zone utc decodes in UTC",
			fxZoneCase("utc", arrow.Millisecond, millis, time.UnixMilli, "UTC", 0)},
		{"the wall clock of a -0800 timestamp is eight hours behind UTC", func(t *testing.T, mem memory.Allocator) {
			dt := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "-0800"}
			rec := fxRecord(t, fxCol{"v", fxTimestamps(mem, dt, seconds)}, fxCol{"p", fxTimestamps(mem, dt, seconds)})
			defer rec.Release()
			got := fxDecodeAll[fxTimeRow](t, rec)
			require.Equal(t, "1969-12-31T16:00:00-08:00", got[0].V.Format(time.RFC3339))
			require.Equal(t, "2024-01-15T04:00:00-08:00", got[2].V.Format(time.RFC3339))
			require.Equal(t, "1969-12-30T16:00:00-08:00", got[3].V.Format(time.RFC3339))
		}},
	}
	for _, zone := range []string{"+-5:00", "+5:00", "+05:0", "+24:00", "+05:60", "Local", "Mars/Olympus"} {
		cases = append(cases, fxCase{fmt.Sprintf("a schema zone %q is a type mismatch at New naming the column", zone), func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxTimeRow](fxSchema("v", &arrow.TimestampType{Unit: arrow.Second, TimeZone: zone}, "p", arrow.FixedWidthTypes.Date32))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
			require.Contains(t, err.Error(), fmt.Sprintf("%q", zone))
		}})
	}
	fxRun(t, cases)
}

type fxPacificRow struct {
	At time.Time `arrow:"at,timestamp,unit=ms,tz=-0800"`
}

// A date64 is a whole number of days: a value between days is refused as
// ErrInvalidData into a time.Time (whose encoding would write another
// value), naming its row, and read as written into its int64 storage.
func TestDate64BetweenDaysIsInvalidData(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.FixedWidthTypes.Date64, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"d": 86400000}, {"d": null}, {"d": -86400001}, {"d": 0}]`))
	require.NoError(t, err)
	defer rec.Release()

	_, err = mapper.Decode[struct {
		D *time.Time `arrow:"d,date64"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 2, e.Row)
	assert.Equal(t, "d", e.Column)

	// The window without the bad row decodes.
	part := rec.NewSlice(0, 2)
	defer part.Release()
	rows, err := mapper.Decode[struct {
		D *time.Time `arrow:"d,date64"`
	}](part)
	require.NoError(t, err)
	assert.True(t, rows[0].D.Equal(time.Unix(86400, 0)))
	assert.Nil(t, rows[1].D)

	raw, err := mapper.Decode[struct {
		D *int64 `arrow:"d"`
	}](rec)
	require.NoError(t, err)
	assert.Equal(t, int64(-86400001), *raw[2].D)
}

func TestATagsTZOfUTCReadsAColumnInAnotherNameOfUTC(t *testing.T) {
	type stamped struct {
		At time.Time `arrow:"at,timestamp,unit=us,tz=Etc/UTC"`
	}
	at := time.Date(2024, 3, 31, 1, 2, 3, 4000, time.UTC)
	rec, err := mapper.Encode([]stamped{{At: at}})
	require.NoError(t, err)
	defer rec.Release()
	type asUTC struct {
		At time.Time `arrow:"at,timestamp,tz=UTC"`
	}
	got, err := mapper.Decode[asUTC](rec)
	require.NoError(t, err, "DuckDB's TIMESTAMPTZ is tz=Etc/UTC")
	assert.True(t, at.Equal(got[0].At))
	type asTokyo struct {
		At time.Time `arrow:"at,timestamp,tz=Asia/Tokyo"`
	}
	_, err = mapper.Decode[asTokyo](rec)
	assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
}

// BenchmarkDecodeTimes decodes a column of each type a time.Time reads, at
// two sizes.
func BenchmarkDecodeTimes(b *testing.B) {
	types := []arrow.DataType{
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Time32ms,
		arrow.FixedWidthTypes.Time64us, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
	}
	type row struct {
		T time.Time `arrow:"t"`
	}
	for _, n := range []int{1_000, 1_000_000} {
		for _, dt := range types {
			b.Run(fmt.Sprintf("%s/%d", dt, n), func(b *testing.B) {
				raw := make([]int64, n)
				for i := range raw {
					raw[i] = int64(i % 86_400)
				}
				switch dt.ID() {
				case arrow.DATE64:
					for i := range raw {
						raw[i] *= 86_400_000
					}
				case arrow.TIME64:
					for i := range raw {
						raw[i] *= 1_000_000
					}
				}
				rec := timesRecord(dt, raw)
				defer rec.Release()
				b.ReportAllocs()
				for b.Loop() {
					rows, err := mapper.Decode[row](rec)
					if err != nil || len(rows) != n {
						b.Fatal(err, len(rows))
					}
				}
			})
		}
	}
}

// timesRecord is a record of one column "t" of dt holding raw.
func timesRecord(dt arrow.DataType, raw []int64) arrow.RecordBatch {
	arr := arrowtest.Ints(memory.DefaultAllocator, dt, raw)
	defer arr.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: dt}}, nil), []arrow.Array{arr}, int64(len(raw)))
}
