package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet/internal/pagewriter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// failingEncoder is a file whose encoding of its nth record fails, the
// others encoded by the file it wraps.
type failingEncoder struct {
	pagewriter.FileWriter
	n, seen int
}

var errEncoding = errors.New("the encoder failed")

func (f *failingEncoder) WriteBuffered(rec arrow.RecordBatch) error {
	f.seen++
	if f.seen == f.n {
		return errEncoding
	}
	return f.FileWriter.WriteBuffered(rec)
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
			w.out.fw = &failingEncoder{FileWriter: w.out.fw, n: failAt}
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

// panicky is a type the caller converts to text with mapper.As, its
// conversion panicking for a row that says so.
type panicky struct{ Boom bool }

type panickyRow struct {
	ID int64
	P  panicky
}

// A panic of the caller's code in the middle of a Write (a conversion of
// As), while a batch is being encoded, leaves a Writer that Close closes:
// the batch in flight is waited for, then the footer written.
func TestCloseAfterAPanicInWriteWaitsForTheBatchInFlight(t *testing.T) {
	rows := make([]panickyRow, 3*writeBatchRows)
	for i := range rows {
		rows[i].ID = int64(i)
	}
	rows[writeBatchRows+10].P.Boom = true // in the second batch, while the first is encoded
	asText := mapper.As(nil, func(p panicky) (string, error) {
		if p.Boom {
			panic("a conversion of the caller's panics")
		}
		return "fine", nil
	})
	var out bytes.Buffer
	w, err := NewWriter[panickyRow](&out, asText)
	require.NoError(t, err)
	require.Panics(t, func() { w.Write(rows) })
	require.NoError(t, w.Close())
	r, err := OpenReaderAt[panickyRow](bytes.NewReader(out.Bytes()), int64(out.Len()), mapper.As(func(string) (panicky, error) { return panicky{}, nil }, nil))
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	require.Len(t, got, writeBatchRows, "the batch encoded before the panic")
}
