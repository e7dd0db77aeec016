package mapper_test

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

type (
	date64Time struct {
		ID  int64     `arrow:"id"`
		Day time.Time `arrow:"day,date64"`
	}
	date64Days struct {
		Days []*time.Time `arrow:"days" arrow-elem:"date64"`
	}
	date64Millis struct {
		Ms int64 `arrow:"ms,date64"`
	}
)

const dayMs = 86_400_000

func TestEncodeRefusesADate64ThatIsNotAWholeDay(t *testing.T) {
	midnight := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	paris := time.FixedZone("+01:00", 3600)
	cases := []struct {
		name         string
		encode       func(mem memory.Allocator) error
		path, column string
		row          int
	}{
		{"noon", func(mem memory.Allocator) error {
			return encodeErr([]date64Time{{1, midnight}, {2, midnight.Add(12 * time.Hour)}}, mem)
		}, "Day", "day", 1},
		{"a nanosecond past midnight", func(mem memory.Allocator) error {
			return encodeErr([]date64Time{{1, midnight.Add(time.Nanosecond)}}, mem)
		}, "Day", "day", 0},
		{"midnight in another zone, not in UTC", func(mem memory.Allocator) error {
			return encodeErr([]date64Time{{1, midnight}, {2, midnight}, {3, time.Date(2026, 3, 1, 0, 0, 0, 0, paris)}}, mem)
		}, "Day", "day", 2},
		{"noon before 1970", func(mem memory.Allocator) error {
			return encodeErr([]date64Time{{1, time.Date(1969, 12, 31, 12, 0, 0, 0, time.UTC)}}, mem)
		}, "Day", "day", 0},
		{"a list element", func(mem memory.Allocator) error {
			noon := midnight.Add(12 * time.Hour)
			return encodeErr([]date64Days{{[]*time.Time{&midnight, nil}}, {nil}, {[]*time.Time{&noon}}}, mem)
		}, "Days[]", "days.item", 2},
		{"an int64 that is not a multiple of a day in ms", func(mem memory.Allocator) error {
			return encodeErr([]date64Millis{{0}, {-dayMs}, {3*dayMs + 1}}, mem)
		}, "Ms", "ms", 2},
		{"a negative int64 between days", func(mem memory.Allocator) error {
			return encodeErr([]date64Millis{{-dayMs / 2}}, mem)
		}, "Ms", "ms", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			err := c.encode(mem)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, c.path, me.Path)
			assert.Equal(t, c.column, me.Column)
			assert.Equal(t, c.row, me.Row)
		})
	}
}

func TestDate64OfWholeDaysRoundTrips(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	days := []time.Time{
		time.Unix(0, 0).UTC(),
		time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 1, 1, 0, 0, 0, time.FixedZone("+01:00", 3600)), // UTC midnight, in another zone
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	rows := make([]date64Time, len(days))
	for i, d := range days {
		rows[i] = date64Time{int64(i), d}
	}
	rec, err := encodeOf(t, mem, rows)
	require.NoError(t, err)
	defer rec.Release()
	col := rec.Column(1).(*array.Date64)
	for i, d := range days {
		assert.Equal(t, d.UnixMilli(), int64(col.Value(i)), "arrow-go reads row %d as the instant", i)
		assert.Zero(t, int64(col.Value(i))%dayMs)
	}
	got, err := mapper.Decode[date64Time](rec)
	require.NoError(t, err)
	for i, d := range days {
		assert.True(t, d.Equal(got[i].Day), "row %d: %v, then %v", i, d, got[i].Day)
	}

	ms := []date64Millis{{0}, {-dayMs}, {20_000 * dayMs}}
	msRec, err := encodeOf(t, mem, ms)
	require.NoError(t, err)
	defer msRec.Release()
	assert.Equal(t, arrow.FixedWidthTypes.Date64, msRec.Schema().Field(0).Type)
	back, err := mapper.Decode[date64Millis](msRec)
	require.NoError(t, err)
	assert.Equal(t, ms, back)
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

type encTimes struct {
	NS   time.Time
	MS   time.Time     `arrow:"ms,timestamp,unit=ms"`
	Day  time.Time     `arrow:"day,date32"`
	Clk  time.Time     `arrow:"clk,time32,unit=s"`
	Dur  time.Duration `arrow:"dur,duration,unit=ms"`
	Clk2 time.Duration `arrow:"clk2,time64,unit=us"`
}

func TestEncodeTimesFloorToTheUnit(t *testing.T) {
	before := time.Unix(0, -1).In(time.FixedZone("+01:00", 3600)) // 1970-01-01 00:59:59.999999999 there
	rec, err := mapper.Encode([]encTimes{{NS: before, MS: before, Day: before, Clk: before, Dur: -1500 * time.Microsecond, Clk2: 90*time.Minute + 1}})
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, arrow.Timestamp(-1), rec.Column(0).(*array.Timestamp).Value(0))
	assert.Equal(t, arrow.Timestamp(-1), rec.Column(1).(*array.Timestamp).Value(0), "floored, as UnixMilli")
	assert.Equal(t, arrow.Date32(-1), rec.Column(2).(*array.Date32).Value(0), "the day in UTC")
	assert.Equal(t, arrow.Time32(86399), rec.Column(3).(*array.Time32).Value(0), "the time of day in UTC")
	assert.Equal(t, arrow.Duration(-1), rec.Column(4).(*array.Duration).Value(0), "truncated, as Milliseconds")
	assert.Equal(t, arrow.Time64(90*60*1e6), rec.Column(5).(*array.Time64).Value(0))

	edge := time.Unix(0, -1<<63) // the first instant timestamp[ns] holds
	rec2, err := mapper.Encode([]encTimes{{NS: edge, MS: edge}})
	require.NoError(t, err)
	assert.Equal(t, arrow.Timestamp(-1<<63), rec2.Column(0).(*array.Timestamp).Value(0))
	rec2.Release()
	_, err = mapper.Encode([]encTimes{{NS: edge.Add(-1)}})
	assert.ErrorIs(t, err, mapper.ErrOverflow)
	_, err = mapper.Encode([]encTimes{{NS: time.Unix(0, 1<<63-1).Add(1)}})
	assert.ErrorIs(t, err, mapper.ErrOverflow)
}

// A unit's and the day's first and last counts encode, and the instant
// before or after them is ErrOverflow naming the type.
func TestEncodeTimesAtTheEdgesOfTheirType(t *testing.T) {
	type at struct {
		MS  time.Time `arrow:"ms,timestamp,unit=ms"`
		Day time.Time `arrow:"day,date32"`
	}
	const day = 86400
	first := at{MS: time.UnixMilli(math.MinInt64), Day: time.Unix(math.MinInt32*day, 0)}
	last := at{MS: time.UnixMilli(math.MaxInt64).Add(999 * time.Microsecond), Day: time.Unix(math.MaxInt32*day+day-1, 999_999_999)}
	rec, err := mapper.Encode([]at{first, last})
	require.NoError(t, err)
	defer rec.Release()
	ms, days := rec.Column(0).(*array.Timestamp), rec.Column(1).(*array.Date32)
	assert.Equal(t, []arrow.Timestamp{math.MinInt64, math.MaxInt64}, ms.Values())
	assert.Equal(t, []arrow.Date32{math.MinInt32, math.MaxInt32}, days.Values())

	for _, c := range []struct {
		row  at
		want string
	}{
		{at{MS: first.MS.Add(-time.Nanosecond), Day: first.Day}, "timestamp[ms, tz=UTC]"},
		{at{MS: last.MS.Add(time.Microsecond), Day: first.Day}, "timestamp[ms, tz=UTC]"},
		{at{MS: first.MS, Day: first.Day.Add(-time.Nanosecond)}, "date32"},
		{at{MS: first.MS, Day: last.Day.Add(time.Nanosecond)}, "date32"},
	} {
		_, err := mapper.Encode([]at{c.row})
		require.ErrorIs(t, err, mapper.ErrOverflow, c.want)
		assert.Contains(t, err.Error(), "does not fit "+c.want)
	}
}

type intervalRow struct {
	M  arrow.MonthInterval                   `arrow:"m"`
	D  *arrow.DayTimeInterval                `arrow:"d"`
	N  arrow.MonthDayNanoInterval            `arrow:"n,nullable"`
	L  []arrow.MonthDayNanoInterval          `arrow:"l"`
	K  map[arrow.DayTimeInterval]string      `arrow:"k"`
	NN *arrow.MonthDayNanoInterval           `arrow:"nn"`
	_  struct{}                              `arrow:"-"`
	X  map[string]arrow.MonthDayNanoInterval `arrow:"x"`
}

type intervalColumns struct {
	N views.PrimitiveColumn[arrow.MonthDayNanoInterval] `arrow:"n,nullable"`
	M views.PrimitiveColumn[arrow.MonthInterval]        `arrow:"m"`
}

func intervalRows() []intervalRow {
	mdn := func(m, d int32, ns int64) arrow.MonthDayNanoInterval {
		return arrow.MonthDayNanoInterval{Months: m, Days: d, Nanoseconds: ns}
	}
	dt := func(d, ms int32) arrow.DayTimeInterval { return arrow.DayTimeInterval{Days: d, Milliseconds: ms} }
	return []intervalRow{
		{M: 14, D: &arrow.DayTimeInterval{Days: 1, Milliseconds: 500}, N: mdn(1, 2, 3), L: []arrow.MonthDayNanoInterval{mdn(0, 0, -1), mdn(-5, 3, 1<<40)},
			K: map[arrow.DayTimeInterval]string{dt(2, 0): "b", dt(1, 9): "a"}, NN: &arrow.MonthDayNanoInterval{Months: 7}, X: map[string]arrow.MonthDayNanoInterval{"q": mdn(1, 1, 1)}},
		{M: -3},
		{M: 0, D: &arrow.DayTimeInterval{Days: -2, Milliseconds: -1}, L: []arrow.MonthDayNanoInterval{}},
		{M: 1 << 30, N: mdn(-1, -1, -1), L: []arrow.MonthDayNanoInterval{mdn(12, 31, 86_400_000_000_000)}},
		{M: 5, N: mdn(2, 0, 0)},
	}
}

func TestIntervals(t *testing.T) {
	fxRun(t, []fxCase{
		{"intervals encode to their Arrow types and decode back, nulls, lists and map keys included", func(t *testing.T, mem memory.Allocator) {
			rows := intervalRows()
			rec, err := mapper.Encode(rows, mapper.Allocator(mem))
			require.NoError(t, err)
			defer rec.Release()
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.MonthInterval, rec.Column(0).DataType()))
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.DayTimeInterval, rec.Column(1).DataType()))
			require.True(t, arrow.TypeEqual(arrow.FixedWidthTypes.MonthDayNanoInterval, rec.Column(2).DataType()))
			// Checked against arrow-go's own accessors.
			require.Equal(t, arrow.MonthInterval(14), rec.Column(0).(*array.MonthInterval).Value(0))
			require.True(t, rec.Column(1).IsNull(1))
			require.Equal(t, arrow.DayTimeInterval{Days: -2, Milliseconds: -1}, rec.Column(1).(*array.DayTimeInterval).Value(2))
			require.Equal(t, rows[3].N, rec.Column(2).(*array.MonthDayNanoInterval).Value(3))
			require.True(t, rec.Column(5).IsNull(1), "a nil interval pointer is null")
			require.Equal(t, rows, fxDecodeAll[intervalRow](t, rec))
			cols, err := mapper.Columns[intervalColumns](rec)
			require.NoError(t, err)
			require.Equal(t, rows[3].N, cols.N.Value(3))
			require.False(t, cols.N.IsNull(1), "a zero value is written as a value")
			require.Equal(t, arrow.MonthInterval(1<<30), cols.M.Value(3))
		}},
		{"an interval reads its own interval type only", func(t *testing.T, mem memory.Allocator) {
			for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.DayTimeInterval, arrow.FixedWidthTypes.MonthDayNanoInterval, arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Duration_s} {
				_, err := mapper.New[struct {
					M arrow.MonthInterval `arrow:"m"`
				}](fxSchema("m", dt))
				fxRequireError(t, err, mapper.ErrTypeMismatch, "M", "m", -1)
			}
			_, err := mapper.New[struct {
				M int32 `arrow:"m"`
			}](fxSchema("m", arrow.FixedWidthTypes.MonthInterval))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "M", "m", -1)
		}},
	})
}

// BenchmarkEncodeTimes encodes a column of time.Time or time.Duration to
// each type it writes, at two sizes.
func BenchmarkEncodeTimes(b *testing.B) {
	type (
		ns struct{ T time.Time }
		ms struct {
			T time.Time `arrow:"t,timestamp,unit=ms"`
		}
		day struct {
			T time.Time `arrow:"t,date32"`
		}
		clock struct {
			T time.Time `arrow:"t,time32,unit=ms"`
		}
		dur struct {
			T time.Duration `arrow:"t,duration,unit=us"`
		}
		tod struct {
			T time.Duration `arrow:"t,time64,unit=us"`
		}
	)
	start := time.Date(2024, 3, 1, 12, 0, 0, 123_456_789, time.UTC)
	for _, n := range []int{1_000, 1_000_000} {
		at := make([]time.Time, n)
		for i := range at {
			at[i] = start.Add(time.Duration(i) * 79 * time.Second)
		}
		benchEncodeTimes(b, "timestamp[ns]", n, at, func(t time.Time) ns { return ns{t} })
		benchEncodeTimes(b, "timestamp[ms]", n, at, func(t time.Time) ms { return ms{t} })
		benchEncodeTimes(b, "date32", n, at, func(t time.Time) day { return day{t} })
		benchEncodeTimes(b, "time32[ms]", n, at, func(t time.Time) clock { return clock{t} })
		benchEncodeTimes(b, "duration[us]", n, at, func(t time.Time) dur { return dur{t.Sub(start)} })
		benchEncodeTimes(b, "time64[us]", n, at, func(t time.Time) tod { return tod{t.Sub(start) % (24 * time.Hour)} })
	}
}

func benchEncodeTimes[T any](b *testing.B, name string, n int, at []time.Time, row func(time.Time) T) {
	rows := make([]T, n)
	for i, t := range at {
		rows[i] = row(t)
	}
	b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rec, err := mapper.Encode(rows)
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	})
}

// FuzzEncodeInstants encodes a time.Time to each temporal type, and checks
// each value, or its ErrOverflow or ErrInvalidData, against the same
// arithmetic done on the instant's nanoseconds in math/big: a timestamp
// the floor of its unit, a date32 the floor of the day, a date64 a whole
// day's milliseconds, a time of day the floor of its unit within the day.
func FuzzEncodeInstants(f *testing.F) {
	f.Add(int64(0), int64(0))
	f.Add(int64(-1), int64(999_999_999))
	f.Add(int64(math.MinInt64), int64(0))
	f.Add(int64(math.MaxInt64), int64(999_999_999))
	f.Add(int64(-9_223_372_036), int64(145_224_191)) // around timestamp[ns]'s first instant
	f.Add(int64(9_223_372_036), int64(854_775_807))
	f.Add(int64(math.MinInt64/1000), int64(0))
	f.Add(int64(math.MaxInt32)*86400, int64(1))
	f.Add(int64(math.MinInt32)*86400-1, int64(0))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		nsec = ((nsec % 1e9) + 1e9) % 1e9
		at := time.Unix(sec, nsec)
		if at.Unix() != sec || int64(at.Nanosecond()) != nsec {
			return // beyond what a time.Time holds
		}
		ns := new(big.Int).Add(new(big.Int).Mul(big.NewInt(sec), big.NewInt(1e9)), big.NewInt(nsec))
		floor := func(per int64) *big.Int { // ns floored to a count of per ns
			q, m := new(big.Int), new(big.Int)
			q.DivMod(ns, big.NewInt(per), m) // Euclidean: the floor, per > 0
			return q
		}
		clock := func(per int64) *big.Int { // the time of day in UTC, in per ns
			_, m := new(big.Int).DivMod(ns, big.NewInt(86_400e9), new(big.Int))
			return m.Div(m, big.NewInt(per))
		}
		day := floor(86_400e9)
		whole := new(big.Int).Mod(ns, big.NewInt(86_400e9)).Sign() == 0
		for _, c := range []struct {
			name string
			enc  func() (arrow.RecordBatch, error)
			want *big.Int // nil: ErrInvalidData
			bits int
		}{
			{"timestamp[s]", encodeOne[struct {
				T time.Time `arrow:"t,timestamp,unit=s"`
			}](at), floor(1e9), 64},
			{"timestamp[ms]", encodeOne[struct {
				T time.Time `arrow:"t,timestamp,unit=ms"`
			}](at), floor(1e6), 64},
			{"timestamp[us]", encodeOne[struct {
				T time.Time `arrow:"t,timestamp,unit=us,naive"`
			}](at), floor(1e3), 64},
			{"timestamp[ns]", encodeOne[struct{ T time.Time }](at), floor(1), 64},
			{"date32", encodeOne[struct {
				T time.Time `arrow:"t,date32"`
			}](at), day, 32},
			{"date64", encodeOne[struct {
				T time.Time `arrow:"t,date64"`
			}](at), map[bool]*big.Int{true: new(big.Int).Mul(day, big.NewInt(86_400_000))}[whole], 64},
			{"time32[s]", encodeOne[struct {
				T time.Time `arrow:"t,time32,unit=s"`
			}](at), clock(1e9), 32},
			{"time32[ms]", encodeOne[struct {
				T time.Time `arrow:"t,time32,unit=ms"`
			}](at), clock(1e6), 32},
			{"time64[us]", encodeOne[struct {
				T time.Time `arrow:"t,time64,unit=us"`
			}](at), clock(1e3), 64},
			{"time64[ns]", encodeOne[struct {
				T time.Time `arrow:"t,time64,unit=ns"`
			}](at), clock(1), 64},
		} {
			rec, err := c.enc()
			fits := c.want != nil && c.want.IsInt64() &&
				(c.bits == 64 || c.want.Int64() >= math.MinInt32 && c.want.Int64() <= math.MaxInt32)
			switch {
			case c.want == nil:
				require.ErrorIs(t, err, mapper.ErrInvalidData, "%s of %s", c.name, at)
			case !fits:
				require.ErrorIs(t, err, mapper.ErrOverflow, "%s of %s", c.name, at)
			default:
				require.NoError(t, err, "%s of %s", c.name, at)
				assert.Equal(t, c.want.Int64(), firstCount(rec.Column(0)), "%s of %s", c.name, at)
				rec.Release()
			}
		}
	})
}

// encodeOne encodes one row of T, a struct of one time.Time field, at.
func encodeOne[T any](at time.Time) func() (arrow.RecordBatch, error) {
	return func() (arrow.RecordBatch, error) {
		var row T
		reflect.ValueOf(&row).Elem().Field(0).Set(reflect.ValueOf(at))
		return mapper.Encode([]T{row})
	}
}

// firstCount is the count of row 0 of a date, time or timestamp array.
func firstCount(a arrow.Array) int64 {
	switch a := a.(type) {
	case *array.Timestamp:
		return int64(a.Value(0))
	case *array.Date32:
		return int64(a.Value(0))
	case *array.Date64:
		return int64(a.Value(0))
	case *array.Time32:
		return int64(a.Value(0))
	case *array.Time64:
		return int64(a.Value(0))
	}
	panic(a.DataType())
}
