package parquet_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// A result sized once from the footer has exactly the rows' capacity; one
// grown by doubling (or append) has more for any count that is not a
// power of two.
func TestReadFileAndReadAllSizeTheirResultOnceFromTheFooter(t *testing.T) {
	const n = 100_003 // two records of DefaultBatchRows: grown, the result would end at 131,072
	path := writeOrders(t, n, 30_000)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tests := []struct {
		name string
		read func(t *testing.T) []order
		want int // the rows read
	}{
		{"ReadFile", func(t *testing.T) []order {
			rows, err := amparquet.ReadFile[order](path)
			require.NoError(t, err)
			return rows
		}, n},
		{"Open then ReadAll", func(t *testing.T) []order {
			r, err := amparquet.Open[order](path)
			return readAllOf(t, r, err)
		}, n},
		{"OpenReaderAt then ReadAll", func(t *testing.T) []order {
			r, err := amparquet.OpenReaderAt[order](bytes.NewReader(data), int64(len(data)))
			return readAllOf(t, r, err)
		}, n},
		{"ReadFile of the row groups RowGroups and KeepRowGroup keep, in small records", func(t *testing.T) []order {
			rows, err := amparquet.ReadFile[order](path, amparquet.ReadConfig{BatchRows: 10_000, RowGroups: []int{3, 0, 1}, KeepRowGroup: func(g amparquet.RowGroup) bool { return g.Index != 1 }})
			require.NoError(t, err)
			return rows
		}, 30_000 + 10_003},
		// 100 records: the footer's count is past 64 times the first
		// record's rows, which alone would trust it only so far.
		{"ReadFile in records of a hundredth of the rows", func(t *testing.T) []order {
			rows, err := amparquet.ReadFile[order](path, amparquet.ReadConfig{BatchRows: 1_000})
			require.NoError(t, err)
			return rows
		}, n},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := tt.read(t)
			require.Len(t, rows, tt.want)
			require.Equal(t, len(rows), cap(rows), "the result was grown, not sized from the footer")
		})
	}
}

func TestTheRecordReadersOfParquetHintTheRowsOfTheRowGroupsKept(t *testing.T) {
	path := writeOrders(t, 1000, 300) // row groups of 300, 300, 300, 100
	tests := []struct {
		name string
		cfg  amparquet.ReadConfig
		want int64
	}{
		{"every row group", amparquet.ReadConfig{}, 1000},
		{"the row groups given", amparquet.ReadConfig{RowGroups: []int{3, 1}}, 400},
		{"none", amparquet.ReadConfig{RowGroups: []int{}}, 0},
		{"the row groups KeepRowGroup keeps", amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool { return g.Index%2 == 1 }}, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rr, err := amparquet.OpenRecords(path, tt.cfg)
			require.NoError(t, err)
			defer rr.Release()
			h, ok := rr.(mapper.RowsHinter)
			require.True(t, ok, "the records are a mapper.RowsHinter")
			require.Equal(t, tt.want, h.RowsHint())
		})
	}
}

func TestTheRecordReadersOfParquetBackTheirHintWithTheColumnChunksRead(t *testing.T) {
	path := writeOrders(t, 1000, 300) // row groups of 300, 300, 300, 100
	info, err := os.Stat(path)
	require.NoError(t, err)
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	// chunks is the compressed bytes of the column chunks of groups.
	chunks := func(groups ...int) int64 {
		var n int64
		for _, g := range groups {
			rg := pf.MetaData().RowGroup(g)
			for c := range rg.NumColumns() {
				col, err := rg.ColumnChunk(c)
				require.NoError(t, err)
				n += col.TotalCompressedSize()
			}
		}
		return n
	}
	tests := []struct {
		name string
		cfg  amparquet.ReadConfig
		want int64
	}{
		{"every row group", amparquet.ReadConfig{}, chunks(0, 1, 2, 3)},
		{"the row groups given", amparquet.ReadConfig{RowGroups: []int{3, 1}}, chunks(3, 1)},
		{"none", amparquet.ReadConfig{RowGroups: []int{}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rr, err := amparquet.OpenRecords(path, tt.cfg)
			require.NoError(t, err)
			defer rr.Release()
			h, ok := rr.(mapper.BackedRowsHinter)
			require.True(t, ok, "the records are a mapper.BackedRowsHinter")
			require.Equal(t, tt.want, h.RowsHintBytes())
			require.Less(t, h.RowsHintBytes(), info.Size(), "the chunks lie inside the file, its footer besides")
		})
	}
}
