package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// failingEncoder is a file whose encoding of its nth record fails, the
// others encoded by the file it wraps.
type failingEncoder struct {
	fileWriter
	n, seen int
}

var errEncoding = errors.New("the encoder failed")

func (f *failingEncoder) WriteBuffered(rec arrow.RecordBatch) error {
	f.seen++
	if f.seen == f.n {
		return errEncoding
	}
	return f.fileWriter.WriteBuffered(rec)
}

type pipelineRow struct {
	ID   int64
	Name string
}

// A batch's columns are encoded while the Writer builds the next: when
// the encoding of one fails, the Write that started it returns the rows
// before it as taken, whatever rows were built after it (which are
// dropped), every call after it fails the same way, and the file has no
// footer.
func TestAWriteWhoseBatchInFlightFailsTookTheRowsBeforeIt(t *testing.T) {
	rows := make([]pipelineRow, 10*writeBatchRows+17)
	for i := range rows {
		rows[i] = pipelineRow{int64(i), fmt.Sprint("name ", i)}
	}
	for _, failAt := range []int{1, 2, 3, 11} {
		t.Run(fmt.Sprintf("the batch %d", failAt), func(t *testing.T) {
			var out bytes.Buffer
			w, err := NewWriter[pipelineRow](&out)
			require.NoError(t, err)
			w.out.fw = &failingEncoder{fileWriter: w.out.fw, n: failAt}
			first := 5 // a Write before, whose rows go with the first batch
			n, err := w.Write(rows[:first])
			require.NoError(t, err)
			require.Equal(t, first, n)
			n, err = w.Write(rows[first:])
			if failAt == 11 { // the last batch is written at Close
				require.NoError(t, err)
				require.Equal(t, len(rows)-first, n)
				err := w.Close()
				require.ErrorIs(t, err, errEncoding)
				require.ErrorContains(t, err, "no footer written")
				return
			}
			require.ErrorIs(t, err, errEncoding)
			want := max(0, (failAt-1)*writeBatchRows-first)
			require.Equal(t, want, n, "the rows of the Write before the batch that failed")
			require.Zero(t, w.pending, "the rows built after it dropped")
			_, again := w.Write(rows[:1])
			require.ErrorIs(t, again, errEncoding, "every Write after it")
			require.ErrorContains(t, w.Close(), "no footer written")
		})
	}
}

// A panic of a leaf's encoding, on any of the goroutines that encode a
// record's leaves, is an error naming the leaf's column, the first leaf's
// in leaf order when several fail; every leaf is visited whatever fails.
func TestAPanicEncodingALeafIsAnErrorOnEveryGoroutine(t *testing.T) {
	type wide struct{ A, B, C, D, E, F, G, H int64 }
	for _, workers := range []int{1, 2, 8} {
		w, err := NewWriter[wide](&bytes.Buffer{}, WriteConfig{Parallelism: workers})
		require.NoError(t, err)
		d := w.out.fw.(*directFile)
		require.Equal(t, min(workers, 8), d.workers)
		visited := make([]bool, len(d.leaves))
		err = d.eachLeaf(func(lw *leafWriter, sc *pageScratch) error {
			visited[lw.index] = true
			switch lw.descr.Path() {
			case "C", "F":
				panic("a bug")
			}
			return nil
		})
		require.ErrorContains(t, err, "column C: a bug", "workers %d", workers)
		if workers > 1 {
			require.Equal(t, []bool{true, true, true, true, true, true, true, true}, visited)
		}
		require.NoError(t, w.Close())
	}
}
