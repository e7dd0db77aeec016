package arrowtest_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"

	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
)

// Ints holds what arrow-go's own builders of the type hold, of either
// width, nulls where asked.
func TestIntsAreWhatArrowGosBuildersOfTheTypeMake(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	d32 := array.NewDate32Builder(mem)
	defer d32.Release()
	d32.AppendValues([]arrow.Date32{-1, 0}, nil)
	d32.AppendNull()
	d32.Append(19_000)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"})
	defer ts.Release()
	ts.AppendNull()
	ts.AppendValues([]arrow.Timestamp{1_700_000_000_000, -5}, nil)
	for _, c := range []struct {
		b      array.Builder
		values []int64
		nulls  []bool
	}{
		{d32, []int64{-1, 0, 7, 19_000}, []bool{false, false, true}},
		{ts, []int64{9, 1_700_000_000_000, -5}, []bool{true}},
	} {
		want := c.b.NewArray()
		got := arrowtest.Ints(mem, want.DataType(), c.values, c.nulls...)
		assert.True(t, array.Equal(want, got), "%s: %s, arrow-go's %s", want.DataType(), got, want)
		want.Release()
		got.Release()
	}
}
