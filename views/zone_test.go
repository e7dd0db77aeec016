package views_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/require"
)

// TestTimestampColumnsReadZonesAsTheMapperDoes: a typed timestamp column
// reads its zone with the module's one parser, so it takes the offsets
// Arrow writers emit (-0800) and refuses what the mapper refuses (+-5:00).
func TestTimestampColumnsReadZonesAsTheMapperDoes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	column := func(zone string) (views.TimestampColumn, error) {
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Second, TimeZone: zone})
		defer b.Release()
		b.Append(3600)
		arr := b.NewArray()
		defer arr.Release()
		v, err := views.New(arr, views.TimestampColumn{}.ViewType(arr.DataType()))
		require.NoError(t, err)
		return views.TimestampsOf(v)
	}
	for zone, offset := range map[string]int{"-0800": -8 * 3600, "+05:30": 5*3600 + 1800, "+09": 9 * 3600, "": 0, "Z": 0} {
		c, err := column(zone)
		require.NoError(t, err, zone)
		got := c.Value(0)
		require.True(t, got.Equal(time.Unix(3600, 0)), "%s: %v", zone, got)
		_, off := got.Zone()
		require.Equal(t, offset, off, zone)
	}
	for _, zone := range []string{"+-5:00", "+5:00", "Local", "Mars/Olympus"} {
		_, err := column(zone)
		require.ErrorIs(t, err, views.ErrTypeMismatch, zone)
	}
}
