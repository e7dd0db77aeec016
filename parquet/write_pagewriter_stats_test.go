package parquet_test

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// statsRow has a column of each kind of statistics: signed and unsigned
// integers, floats with NaN and both zeros, text and bytes, dates,
// timestamps and bools, each nullable and not.
type statsRow struct {
	I   int64
	PI  *int32
	U   uint32
	U64 uint64
	F   float64
	PF  *float32
	S   string
	PS  *string
	Bin []byte
	Day time.Time `arrow:",date32"`
	At  time.Time
	T   time.Duration `arrow:",time64"`
	B   bool
	PB  *bool
}

// decimalRow is a decimal column, which pqarrow writes.
type decimalRow struct {
	D  decimal.Decimal128  `arrow:",decimal(20,3)"`
	PD *decimal.Decimal128 `arrow:",decimal(20,3)"`
}

// statsRows is four row groups of four rows: ordinary values; NaNs and
// zeros of both signs; every nullable column null and every float NaN;
// extremes.
func statsRows() []statsRow {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	negZero := math.Copysign(0, -1)
	nan := math.NaN()
	return []statsRow{
		{I: 3, PI: ptr[int32](-4), U: 7, U64: 9, F: 1.5, PF: ptr[float32](2.5), S: "b", PS: ptr("y"), Bin: []byte{2}, Day: day(2001, 2, 3), At: time.Unix(5, 6).UTC(), T: time.Hour, B: true, PB: ptr(false)},
		{I: -1, U: 1, U64: 1, F: -2, S: "a", Bin: []byte{}, Day: day(1969, 12, 31), At: time.Unix(-5, 0).UTC(), T: time.Minute, B: false},
		{I: 8, PI: ptr[int32](9), U: 3, U64: 2, F: 0.25, PF: ptr[float32](-1), S: "c", PS: ptr("x"), Bin: []byte{1, 0}, Day: day(2030, 1, 1), At: time.Unix(0, 0).UTC(), T: 0, B: true, PB: ptr(true)},
		{I: 0, U: 2, U64: 3, F: 7, S: "", Bin: []byte{0xff}, Day: day(2000, 1, 1), At: time.Unix(1, 1).UTC(), T: time.Second, B: false},

		{I: 1, PI: ptr[int32](0), U: 0, F: nan, PF: ptr(float32(nan)), S: "é", PS: ptr(""), Day: day(2000, 1, 2), At: time.Unix(2, 0).UTC(), B: true},
		{I: 2, F: negZero, PF: ptr(float32(negZero)), S: "e", Day: day(2000, 1, 2), At: time.Unix(2, 0).UTC(), B: true},
		{I: 2, F: 0, PF: ptr[float32](0), S: "\x00", Day: day(2000, 1, 3), At: time.Unix(3, 0).UTC(), B: true, PB: ptr(true)},
		{I: 1, F: nan, S: "z", Day: day(2000, 1, 2), At: time.Unix(2, 0).UTC(), B: true},

		{F: nan, S: "same", Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()}, {F: nan, S: "same", Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()},
		{F: nan, S: "same", Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()}, {F: nan, S: "same", Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()},

		{I: math.MinInt64, PI: ptr[int32](math.MinInt32), U: math.MaxUint32, U64: math.MaxUint64, F: math.Inf(-1), PF: ptr(float32(math.Inf(1))), S: "\U0010ffff", PS: ptr("ÿ"), Bin: []byte{0xff, 0xfe}, Day: day(1, 1, 1), At: time.Unix(0, math.MinInt64).UTC(), T: 24*time.Hour - 1, PB: ptr(false)},
		{I: math.MaxInt64, PI: ptr[int32](math.MaxInt32), U: 1 << 31, U64: 1 << 63, F: math.Inf(1), PF: ptr(float32(negZero)), S: "\x7f", PS: ptr("\u0080"), Bin: []byte{0x80}, Day: day(9999, 12, 31), At: time.Unix(0, math.MaxInt64).UTC(), T: 1, PB: ptr(false)},
		{U: 1<<31 - 1, U64: 1<<63 - 1, F: 0, S: "ÿ", Bin: []byte{0xff}, Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()},
		{U: 5, U64: 5, F: 1e300, S: "\uffff", Day: day(2000, 1, 1), At: time.Unix(9, 0).UTC()},
	}
}

func TestTheFooterStatisticsAreWhatPqarrowWritesForTheSameColumns(t *testing.T) {
	cfg := amparquet.WriteConfig{RowGroupRows: 4}
	require.True(t, amparquet.WritesDirectly[statsRow](cfg), "the direct writer writes these columns")
	t.Run("integers, floats with NaN and both zeros, text, bytes, dates, timestamps, times and bools", func(t *testing.T) {
		sameStatisticsAsPqarrow(t, statsRows(), cfg)
	})
	t.Run("the same without dictionaries", func(t *testing.T) {
		off := false
		sameStatisticsAsPqarrow(t, statsRows(), amparquet.WriteConfig{RowGroupRows: 4, Dictionary: &off})
	})
	t.Run("decimals, which pqarrow writes", func(t *testing.T) {
		dec := func(v int64) decimal.Decimal128 { return decimal128.FromI64(v) }
		rows := []decimalRow{{D: dec(5), PD: ptr(dec(-7))}, {D: dec(-3)}, {D: dec(99_999)}, {D: dec(0), PD: ptr(dec(1))}, {D: dec(-1)}, {D: dec(1)}}
		sameStatisticsAsPqarrow(t, rows, cfg)
	})
}

// sameStatisticsAsPqarrow writes rows with cfg, reads the file back with
// pqarrow and writes what it read with pqarrow in row groups as large, and
// checks that each column chunk of both files has the same statistics: min,
// max and null count, or none.
func sameStatisticsAsPqarrow[T any](t *testing.T, rows []T, cfg amparquet.WriteConfig) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ours.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, cfg))
	rec := readWithPqarrow(t, path)
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	var ref bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithStats(true), parquet.WithMaxRowGroupLength(cfg.RowGroupRows))
	require.NoError(t, pqarrow.WriteTable(tbl, &ref, cfg.RowGroupRows, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())))

	ours, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer ours.Close()
	theirs, err := file.NewParquetReader(bytes.NewReader(ref.Bytes()))
	require.NoError(t, err)
	defer theirs.Close()
	require.Equal(t, theirs.NumRowGroups(), ours.NumRowGroups())
	require.Equal(t, theirs.MetaData().Schema.NumColumns(), ours.MetaData().Schema.NumColumns())
	for g := range theirs.NumRowGroups() {
		for c := range theirs.MetaData().Schema.NumColumns() {
			name := fmt.Sprintf("row group %d, column %s", g, theirs.MetaData().Schema.Column(c).Path())
			want := chunkStatistics(t, theirs, g, c)
			got := chunkStatistics(t, ours, g, c)
			require.Equal(t, want, got, name)
		}
	}
}

// footerStats is what a column chunk's footer says of its values.
type footerStats struct {
	Has, HasMinMax bool
	Min, Max       []byte
	Nulls          int64
}

func chunkStatistics(t *testing.T, f *file.Reader, g, c int) footerStats {
	t.Helper()
	cc, err := f.MetaData().RowGroup(g).ColumnChunk(c)
	require.NoError(t, err)
	st, err := cc.Statistics()
	require.NoError(t, err)
	if st == nil {
		return footerStats{}
	}
	out := footerStats{Has: true, HasMinMax: st.HasMinMax(), Nulls: st.NullCount()}
	if st.HasMinMax() {
		out.Min, out.Max = st.EncodeMin(), st.EncodeMax()
	}
	return out
}
