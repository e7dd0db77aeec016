package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
