package pagewriter

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/stretchr/testify/require"
)

// buffer is an Output in memory.
type buffer struct{ bytes.Buffer }

func (b *buffer) Tell() int64 { return int64(b.Len()) }
func (b *buffer) Err() error  { return nil }

// A panic of a leaf's encoding, on any of the goroutines that encode a
// record's leaves, is an error naming the leaf's column, the first leaf's
// in leaf order when several fail; every leaf is visited whatever fails.
func TestAPanicEncodingALeafIsAnErrorOnEveryGoroutine(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		d, err := New(wideSchema(), &buffer{}, parquet.NewWriterProperties(), workers)
		require.NoError(t, err)
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
		require.NoError(t, d.Close())
	}
}

// wideSchema is eight int64 columns, A to H.
func wideSchema() *arrow.Schema {
	fields := make([]arrow.Field, 8)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("%c", 'A'+i), Type: arrow.PrimitiveTypes.Int64}
	}
	return arrow.NewSchema(fields, nil)
}
