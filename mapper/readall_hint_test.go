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

// backedRecords is a record reader that claims rows rows in all, read
// from bytes bytes (mapper.BackedRowsHinter).
type backedRecords struct {
	hintedRecords
	bytes int64
}

func (b backedRecords) RowsHintBytes() int64 { return b.bytes }

// readAllHinted is ReadAll of records of the given sizes from rr, whose
// hint wrap sets; every row must come back.
func readAllHinted(t *testing.T, wrap func(array.RecordReader) array.RecordReader, sizes ...int) []hintRow {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	recs, want := hintRecords(t, mem, sizes...)
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	for _, rec := range recs {
		rec.Release()
	}
	r, err := mapper.NewReader[hintRow](wrap(rr))
	rr.Release()
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, want, rows, "every row, exactly once, whatever the hint")
	return rows
}

func TestReaderReadAllTrustsAHintBackedByItsBytesAtOnce(t *testing.T) {
	const rowBytes = 32                   // unsafe.Sizeof(hintRow{})
	const perByte = 16                    // the most bytes of result ReadAll makes at once per byte backing the hint
	sizes := []int{100, 4000, 4000, 1900} // 10,000 rows: 100 times the first record
	const total = 10_000
	cases := []struct {
		name  string
		hint  int64
		bytes int64
		// wantCap is the capacity of the result; maxCap, when wantCap is
		// 0, bounds it.
		wantCap, maxCap int
	}{
		{name: "a hint its bytes back sizes the result once, past 64 times the first record", hint: total, bytes: total * rowBytes / perByte, wantCap: total},
		{name: "a hint far too large is trusted as far as its bytes back it", hint: 10_000_000, bytes: total * rowBytes, maxCap: total * perByte},
		{name: "a hint of the largest int64 backed by a few bytes is trusted as far as the rows received back it", hint: math.MaxInt64, bytes: 10, maxCap: 64 * total},
		{name: "unknown bytes (-1) trust the hint as far as the rows received back it", hint: math.MaxInt64, bytes: -1, maxCap: 64 * total},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows := readAllHinted(t, func(rr array.RecordReader) array.RecordReader {
				return backedRecords{hintedRecords{RecordReader: rr, rows: tc.hint}, tc.bytes}
			}, sizes...)
			if tc.wantCap > 0 {
				assert.Equal(t, tc.wantCap, cap(rows))
			} else {
				assert.LessOrEqual(t, cap(rows), tc.maxCap)
			}
		})
	}
}

func TestReaderReadAllGrowsToTheHintNotPastIt(t *testing.T) {
	// The hint of 6,600 is trusted for 64 times the first record's 100
	// rows; when the second record fills that, the result grows to the
	// hint, now backed, not to twice its 6,400 rows.
	rows := readAllHinted(t, func(rr array.RecordReader) array.RecordReader {
		return hintedRecords{RecordReader: rr, rows: 6600}
	}, 100, 6300, 200)
	assert.Equal(t, 6600, cap(rows))
}

func TestReaderReadAllAfterReadSizesTheRestFromTheHintLessTheRowsRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs, want := hintRecords(t, mem, 1000, 3000)
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	for _, rec := range recs {
		rec.Release()
	}
	r, err := mapper.NewReader[hintRow](backedRecords{hintedRecords{RecordReader: rr, rows: 4000}, 1 << 20})
	rr.Release()
	require.NoError(t, err)
	defer r.Release()

	n, err := r.Read(make([]hintRow, 700))
	require.NoError(t, err)
	require.Equal(t, 700, n)
	rest, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, want[700:], rest)
	assert.Equal(t, 3300, cap(rest), "the 4,000 rows hinted less the 700 read")
}

func TestReaderReadAllOfNoRowsIsNilWhateverTheHint(t *testing.T) {
	for _, tc := range []struct {
		name        string
		hint, bytes int64
	}{
		{"a backed hint of rows that never come", 1000, 1 << 20},
		{"no hint", -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String}, {Name: "note", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
			rr, err := array.NewRecordReader(schema, nil)
			require.NoError(t, err)
			r, err := mapper.NewReader[hintRow](backedRecords{hintedRecords{RecordReader: rr, rows: tc.hint}, tc.bytes})
			rr.Release()
			require.NoError(t, err)
			defer r.Release()
			rows, err := r.ReadAll()
			require.NoError(t, err)
			assert.Nil(t, rows, "no result held for no rows")
		})
	}
}
