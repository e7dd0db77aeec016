package mapper_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type hintRow struct {
	ID   int64   `arrow:"id"`
	Name string  `arrow:"name"`
	Note *string `arrow:"note"`
}

// hintedRecords is a record reader that claims rows rows in all.
type hintedRecords struct {
	array.RecordReader
	rows int64
}

func (h hintedRecords) RowsHint() int64 { return h.rows }

// hintRecords encodes rows [0, n) in records of the given sizes, and the
// rows they hold.
func hintRecords(t *testing.T, mem memory.Allocator, sizes ...int) ([]arrow.RecordBatch, []hintRow) {
	t.Helper()
	var recs []arrow.RecordBatch
	var all []hintRow
	for _, n := range sizes {
		rows := make([]hintRow, n)
		for i := range rows {
			id := len(all) + i
			rows[i] = hintRow{ID: int64(id), Name: fmt.Sprint("row-", id)}
			if id%3 == 0 {
				note := fmt.Sprint("note-", id)
				rows[i].Note = &note
			}
		}
		rec, err := mapper.Encode(rows, mapper.Allocator(mem))
		require.NoError(t, err)
		recs = append(recs, rec)
		all = append(all, rows...)
	}
	return recs, all
}

func TestReaderReadAllTakesARowsHintOnlyAsAHint(t *testing.T) {
	sizes := []int{1000, 3000, 2500} // 6500 rows: no doubling of 1000 lands on it
	const total = 6500
	const perReceived = 64 // the most ReadAll trusts a hint past the rows in hand
	cases := []struct {
		name string
		hint int64
		// maxCap bounds the capacity of the result; exact wants it equal
		// to the rows.
		maxCap int
		exact  bool
	}{
		{name: "an exact hint sizes the result once", hint: total, exact: true},
		{name: "an unknown hint (-1) grows the result as append does", hint: -1, maxCap: 2 * total},
		{name: "a hint of 0 grows the result as append does", hint: 0, maxCap: 2 * total},
		{name: "a hint too small still reads every row", hint: 1200, maxCap: 2 * total},
		{name: "a hint far too large is trusted only as far as the first record backs it", hint: 10_000_000, maxCap: perReceived * 1000},
		{name: "a hint of the largest int64 does not overflow", hint: math.MaxInt64, maxCap: perReceived * 1000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			recs, want := hintRecords(t, mem, sizes...)
			schema := recs[0].Schema()
			rr, err := array.NewRecordReader(schema, recs)
			require.NoError(t, err)
			for _, rec := range recs {
				rec.Release() // the record reader holds them
			}
			r, err := mapper.NewReader[hintRow](hintedRecords{RecordReader: rr, rows: tc.hint})
			rr.Release() // the Reader holds it
			require.NoError(t, err)
			defer r.Release()

			rows, err := r.ReadAll()
			require.NoError(t, err)
			require.Equal(t, want, rows, "every row, exactly once, whatever the hint")
			if tc.exact {
				assert.Equal(t, total, cap(rows), "one allocation of the hinted rows")
			} else {
				assert.LessOrEqual(t, cap(rows), tc.maxCap)
			}
		})
	}
}

func TestReaderReadAllAfterReadReadsTheRestWithinTheHint(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs, want := hintRecords(t, mem, 1000, 3000)
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	for _, rec := range recs {
		rec.Release()
	}
	r, err := mapper.NewReader[hintRow](hintedRecords{RecordReader: rr, rows: 4000})
	rr.Release()
	require.NoError(t, err)
	defer r.Release()

	head := make([]hintRow, 700)
	n, err := r.Read(head)
	require.NoError(t, err)
	require.Equal(t, 700, n)
	rest, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, want[700:], rest, "the rows after those Read, the rest of the first record first")
	assert.LessOrEqual(t, cap(rest), 4000, "the hint bounds the result even counted from the start")
}
