package mapper_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

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

func TestTagZoneWithoutColonEncodes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)

	schema, err := mapper.SchemaOf[fxPacificRow]()
	require.NoError(t, err)
	require.Equal(t, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "-0800"}, schema.Field(0).Type)

	rows := []fxPacificRow{
		{time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)},
		{time.Date(1969, 12, 31, 23, 59, 59, 999e6, time.FixedZone("", 3600))},
	}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	require.Equal(t, "-0800", rec.Schema().Field(0).Type.(*arrow.TimestampType).TimeZone)
	col := rec.Column(0).(*array.Timestamp)
	for i, r := range rows {
		require.Equal(t, r.At.UnixMilli(), int64(col.Value(i)), "row %d is the instant", i)
	}

	got, err := mapper.Decode[fxPacificRow](rec)
	require.NoError(t, err)
	require.Len(t, got, len(rows))
	for i, r := range got {
		require.True(t, rows[i].At.Equal(r.At), "row %d: %v, want %v", i, r.At, rows[i].At)
		name, offset := r.At.Zone()
		require.Equal(t, "-0800", name, "row %d", i)
		require.Equal(t, -8*3600, offset, "row %d", i)
	}
}
