package parquet_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// peakAllocator is a CheckedAllocator that keeps the most bytes it had
// out at once: what a reader holds, page buffers, column readers' buffers
// and records included, counted exactly rather than sampled.
type peakAllocator struct {
	*memory.CheckedAllocator
	mu   sync.Mutex
	peak int
}

func newPeakAllocator() *peakAllocator {
	return &peakAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
}

func (a *peakAllocator) note() {
	a.mu.Lock()
	a.peak = max(a.peak, a.CurrentAlloc())
	a.mu.Unlock()
}

func (a *peakAllocator) Allocate(n int) []byte {
	b := a.CheckedAllocator.Allocate(n)
	a.note()
	return b
}

func (a *peakAllocator) Reallocate(n int, b []byte) []byte {
	b = a.CheckedAllocator.Reallocate(n, b)
	a.note()
	return b
}

// TestReadingInPagesAtTheDefaultBatchRowsReadsRecordsOfThePage shows the
// size of the records read through the record index of an error: the
// null at row 150,000 is in the record of that row's page, whatever
// DefaultBatchRows is, when no ReadConfig.BatchRows is given; a
// BatchRows given is the size of every record (as
// TestAReaderErrorNamesTheRowOfTheFileAndItsRecord shows), and ReadAll
// reads records of DefaultBatchRows.
func TestReadingInPagesAtTheDefaultBatchRowsReadsRecordsOfThePage(t *testing.T) {
	path := writeRowsWithANullName(t)

	pages := func(size int, cfg amparquet.ReadConfig) func() error {
		return func() error {
			r, err := amparquet.Open[nameRow](path, cfg)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.Pages(size) {
				if err != nil {
					return err
				}
			}
			return nil
		}
	}
	for _, c := range []struct {
		name   string
		record int
		read   func() error
	}{
		// A record runs on across the end of a row group, as a page does.
		{"Pages of 7,000 read records of 7,000 rows", nullAt / 7000, pages(7000, amparquet.ReadConfig{})},
		{"Pages of 10,000 read records of 10,000 rows", nullAt / 10_000, pages(10_000, amparquet.ReadConfig{})},
		{"Pages of 100 read records of 1,024 rows, no fewer", nullAt / 1024, pages(100, amparquet.ReadConfig{})},
		{"Pages of a million read records of DefaultBatchRows", nullAt / amparquet.DefaultBatchRows, pages(1_000_000, amparquet.ReadConfig{})},
		{"Pages of 7,000 in records of 30,000 given read records of 30,000", nullAt / 30_000, pages(7000, amparquet.ReadConfig{BatchRows: 30_000})},
		{"ReadFile reads records of DefaultBatchRows", nullAt / amparquet.DefaultBatchRows, func() error { _, err := amparquet.ReadFile[nameRow](path); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.read()
			require.ErrorIs(t, err, mapper.ErrNull)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, nullAt, me.Row, "the row of the file, whatever the records")
			assert.Equal(t, c.record, me.Record)
		})
	}
}

// TestReadingInPagesHoldsARecordOfThePageNotOfDefaultBatchRows counts, in
// the allocator, the most bytes a reader has out at once while reading a
// file of one row group in pages of 1,024 rows: with records of the page
// it is what records of DefaultBatchRows (given as BatchRows) hold less
// such a record, about 60 bytes a row of flat rows (40 counted here), and
// every byte is given back. The rest, about 1 MiB a column, is arrow-go's
// page buffers: one page of each column, compressed and not.
func TestReadingInPagesHoldsARecordOfThePageNotOfDefaultBatchRows(t *testing.T) {
	rows := make([]flat, 200_000)
	flatRows(rows, 0)
	path := filepath.Join(t.TempDir(), "flat.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: int64(len(rows))}))

	peak := func(cfg amparquet.ReadConfig) int {
		mem := newPeakAllocator()
		defer mem.AssertSize(t, 0)
		r, err := amparquet.Open[flat](path, cfg, mapper.Allocator(mem))
		require.NoError(t, err)
		seen := 0
		for page, err := range r.Pages(1024) {
			require.NoError(t, err)
			require.Equal(t, rows[seen:seen+len(page)], page)
			seen += len(page)
		}
		r.Release()
		require.Equal(t, len(rows), seen)
		return mem.peak
	}
	sized := peak(amparquet.ReadConfig{})
	whole := peak(amparquet.ReadConfig{BatchRows: amparquet.DefaultBatchRows})
	t.Logf("most bytes out at once: %.2f MiB in records of the page, %.2f MiB in records of %d rows",
		float64(sized)/(1<<20), float64(whole)/(1<<20), amparquet.DefaultBatchRows)
	assert.Less(t, sized, whole-40*amparquet.DefaultBatchRows, "records of the page hold less than records of DefaultBatchRows by one such record")
}
