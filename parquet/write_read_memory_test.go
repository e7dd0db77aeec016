package parquet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/internal/testsupport/heappeak"
	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// flat is bench's Flat: eight columns of the common kinds, one nullable.
type flat struct {
	ID    int64     `arrow:"id"`
	Qty   int32     `arrow:"qty"`
	Price float64   `arrow:"price"`
	OK    bool      `arrow:"ok"`
	Name  string    `arrow:"name"`
	Note  *string   `arrow:"note"`
	At    time.Time `arrow:"at"`
	Score float32   `arrow:"score"`
}

var notes = func() []string {
	n := make([]string, 17)
	for i := range n {
		n[i] = strings.Repeat("n", i)
	}
	return n
}()

// flatRows fills rows with the flat rows from first on, as bench's
// flatRecord makes them.
func flatRows(rows []flat, first int) {
	for k := range rows {
		i := first + k
		r := flat{ID: int64(i), Qty: int32(i % 1000), Price: float64(i) * 0.25, OK: i%2 == 0,
			Name: fmt.Sprintf("customer-%06d", i), At: time.UnixMicro(1_700_000_000_000_000 + int64(i)*1_000_003).UTC(), Score: float32(i%100) / 4}
		if i%3 != 0 {
			r.Note = &notes[i%17]
		}
		rows[k] = r
	}
}

// memoryBound is what writing or reading flat rows may hold at once, set by
// the row-group size, not the row count: a row group of flat rows is about
// 60 bytes a row as Arrow data. Writing holds its encoded pages, page
// buffers and a batch of rows; reading its column chunks, compressed and
// not, and a record of DefaultBatchRows; and GOGC=100 lets the heap double
// before collecting. Measured on 2 cores, for row groups of 128k rows:
// 27 MiB writing 1M rows and 35 MiB writing 10M, 15 and 17 MiB reading
// them (54–56 and 64 MiB before the direct writer capped its pages by the
// memory they hold and reading went through a buffered stream).
func memoryBound(groupRows int64) int64 { return 8*60*groupRows + 16<<20 }

func memoryCases(t *testing.T) []int {
	racetest.Skip(t, "the race detector's allocations make heap bounds meaningless")
	if testing.Short() {
		return []int{1_000_000}
	}
	return []int{1_000_000, 10_000_000}
}

func TestWritingFlatRowsHoldsOneRowGroupWhateverTheRowCount(t *testing.T) {
	const groupRows = 128 << 10
	for _, n := range memoryCases(t) {
		t.Run(fmt.Sprintf("%d rows", n), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "flat.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			defer f.Close()
			rows := make([]flat, 10_000)
			start := time.Now()
			h := heappeak.Start()
			w, err := amparquet.NewWriter[flat](f, amparquet.WriteConfig{RowGroupRows: groupRows, Compression: amparquet.Snappy})
			require.NoError(t, err)
			for i := 0; i < n; i += len(rows) {
				flatRows(rows, i)
				require.NoError(t, errOf(w.Write(rows)))
			}
			require.NoError(t, w.Close())
			peak := h.Stop()
			info, err := f.Stat()
			require.NoError(t, err)
			t.Logf("%d rows in %v: %d MiB file, peak heap %.1f MiB (bound %.1f MiB)", n, time.Since(start).Round(time.Millisecond),
				info.Size()>>20, float64(peak)/(1<<20), float64(memoryBound(groupRows))/(1<<20))
			require.Less(t, peak, memoryBound(groupRows))
		})
	}
}

func TestReadingFlatRowsInPagesHoldsOneRowGroupWhateverTheRowCount(t *testing.T) {
	const groupRows = 128 << 10
	for _, n := range memoryCases(t) {
		t.Run(fmt.Sprintf("%d rows", n), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "flat.parquet")
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := amparquet.NewWriter[flat](f, amparquet.WriteConfig{RowGroupRows: groupRows, Compression: amparquet.Snappy})
			require.NoError(t, err)
			rows := make([]flat, 10_000)
			for i := 0; i < n; i += len(rows) {
				flatRows(rows, i)
				require.NoError(t, errOf(w.Write(rows)))
			}
			require.NoError(t, w.Close())
			require.NoError(t, f.Close())

			start := time.Now()
			h := heappeak.Start()
			r, err := amparquet.Open[flat](path, amparquet.ReadConfig{})
			require.NoError(t, err)
			want := make([]flat, 4096)
			seen := 0
			for page, err := range r.Pages(4096) {
				require.NoError(t, err)
				flatRows(want[:len(page)], seen)
				if seen%(1<<20) < 4096 { // check a page in every 256
					require.Equal(t, want[:len(page)], page)
				} else {
					require.Equal(t, int64(seen), page[0].ID)
				}
				seen += len(page)
			}
			r.Release()
			peak := h.Stop()
			require.Equal(t, n, seen)
			t.Logf("%d rows in %v: peak heap %.1f MiB (bound %.1f MiB)", n, time.Since(start).Round(time.Millisecond),
				float64(peak)/(1<<20), float64(memoryBound(groupRows))/(1<<20))
			require.Less(t, peak, memoryBound(groupRows))
		})
	}
}
