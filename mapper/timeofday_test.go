package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

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

// TestDecimalsPastTheirPrecisionAreRefusedBothWays: a decimal(5,2) holds
// -999.99 to 999.99; a value with more digits is not of the type, so
// decoding refuses it (ErrInvalidData, naming the row) as encoding does
// (ErrOverflow), into every Go type a decimal decodes to.
func TestDecimalsPastTheirPrecisionAreRefusedBothWays(t *testing.T) {
	dt := &arrow.Decimal128Type{Precision: 5, Scale: 2}
	fxRun(t, []fxCase{
		{"values at the edge of the precision decode; one past it is ErrInvalidData", func(t *testing.T, mem memory.Allocator) {
			build := func(unscaled ...int64) arrow.Array {
				b := array.NewDecimal128Builder(mem, dt)
				defer b.Release()
				for _, x := range unscaled {
					b.Append(decimal128.FromI64(x))
				}
				return b.NewArray()
			}
			ok := fxRecord(t, fxCol{"d", build(99999, -99999)}, fxCol{"s", build(99999, -99999)}, fxCol{"w", build(1, 2)})
			defer ok.Release()
			rows := decodeOK[precisionRow](t, ok)
			require.Equal(t, "999.99", *rows[0].S)
			require.Equal(t, "-999.99", *rows[1].S)
			for col := range 3 {
				cols := []fxCol{{"d", build(1, 2, 3)}, {"s", build(1, 2, 3)}, {"w", build(1, 2, 3)}}
				cols[col].arr.Release()
				cols[col].arr = build(1, 2, -100000)
				bad := fxRecord(t, cols...)
				_, err := mapper.Decode[precisionRow](bad)
				fxRequireError(t, err, mapper.ErrInvalidData, []string{"D", "S", "W"}[col], []string{"d", "s", "w"}[col], 2)
				require.ErrorContains(t, err, "-1000.00 has more digits than decimal(5, 2) holds")
				window := bad.NewSlice(0, 2)
				_, err = mapper.Decode[precisionRow](window)
				require.NoError(t, err, "a value outside the window does not count")
				window.Release()
				bad.Release()
			}
		}},
		{"encoding refuses the same value", func(t *testing.T, mem memory.Allocator) {
			type tagged struct {
				D decimal.Decimal128 `arrow:"d,decimal(5,2)"`
			}
			_, err := mapper.Encode([]tagged{{decimal128.FromI64(99999)}, {decimal128.FromI64(-100000)}}, mapper.Allocator(mem))
			fxRequireError(t, err, mapper.ErrOverflow, "D", "d", 1)
		}},
	})
}
