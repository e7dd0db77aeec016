package parquet_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// expandingFile is a Parquet file that arrow-go's writer wrote of rows
// rows of one string column, every row the same entry of size bytes of a
// dictionary page: a few more than size bytes on disk, rows × size bytes
// once arrow-go writes the values out. It stores no Arrow schema, so the
// column reads as utf8, not as a dictionary.
func expandingFile(t *testing.T, rows, size int) []byte {
	t.Helper()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: dt}}, nil)
	entry := strings.Repeat("y", size)
	b := array.NewDictionaryBuilder(memory.DefaultAllocator, dt).(*array.BinaryDictionaryBuilder)
	defer b.Release()
	require.NoError(t, b.AppendString(entry))
	first := b.NewArray().(*array.Dictionary)
	defer first.Release()
	indices := make([]int32, rows) // all 0: the entry
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	defer ib.Release()
	ib.AppendValues(indices, nil)
	idx := ib.NewArray()
	defer idx.Release()
	col := array.NewDictionaryArray(dt, idx, first.Dictionary())
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(rows))
	defer rec.Release()

	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(int64(2*size)))
	w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.Less(t, buf.Len(), 2*size, "the file holds the entry once")
	return buf.Bytes()
}

// A record whose values arrow-go would write out past the reader's budget
// (64 MiB plus mapper.MaxExpansion's ratio times the bytes of the column
// chunks read, and twice the largest page) is ErrTooLarge, before it is
// allocated: a file of 1 MiB could otherwise ask for 64 GiB, a fault of the
// Go runtime that no recover stops. Fewer rows a record, or a higher
// ratio, read it.
func TestARecordThatWouldExpandPastTheBudgetIsErrTooLarge(t *testing.T) {
	const rows, size = 16384, 16 << 10 // 256 MiB written out from 16 KiB
	data := expandingFile(t, rows, size)
	type row struct {
		S string `arrow:"s"`
	}
	at := bytes.NewReader(data)

	r, err := amparquet.OpenReaderAt[row](at, int64(len(data)))
	require.NoError(t, err)
	_, err = r.ReadAll()
	r.Release()
	require.ErrorIs(t, err, mapper.ErrTooLarge)
	assert.ErrorContains(t, err, "the record from row 0 would allocate more than")
	assert.ErrorContains(t, err, "raise mapper.MaxExpansion, or read fewer rows a record (ReadConfig.BatchRows)")

	records, err := amparquet.OpenRecordsReaderAt(at, int64(len(data)))
	require.NoError(t, err)
	assert.False(t, records.Next())
	require.ErrorIs(t, records.Err(), mapper.ErrTooLarge)
	records.Release()

	entry := strings.Repeat("y", size)
	t.Run("fewer rows a record", func(t *testing.T) {
		r, err := amparquet.OpenReaderAt[row](at, int64(len(data)), amparquet.ReadConfig{BatchRows: 1024})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Len(t, got, rows)
		for i, g := range got {
			if g.S != entry {
				t.Fatalf("row %d: %d bytes, not the entry", i, len(g.S))
			}
		}
	})
	t.Run("a higher ratio", func(t *testing.T) {
		racetest.Skip(t, "decodes a record of 256 MiB")
		records, err := amparquet.OpenRecordsReaderAt(at, int64(len(data)), mapper.MaxExpansion(math.MaxInt))
		require.NoError(t, err)
		defer records.Release()
		require.True(t, records.Next(), "%v", records.Err())
		col := records.RecordBatch().Column(0).(*array.String)
		require.Equal(t, rows, col.Len())
		for i := range col.Len() {
			if col.Value(i) != entry {
				t.Fatalf("row %d: %d bytes, not the entry", i, len(col.Value(i)))
			}
		}
		assert.False(t, records.Next())
		require.NoError(t, records.Err())
	})
}

// The budget bounds what decoding one record allocates, not the file: a
// file that expands to four times the budget reads, record by record, in
// records that each stay inside it.
func TestTheBudgetBoundsOneRecordNotTheFile(t *testing.T) {
	const rows, size = 4096, 64 << 10 // 256 MiB in all, 16 MiB a record of 256 rows
	data := expandingFile(t, rows, size)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	records, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)),
		amparquet.ReadConfig{BatchRows: 256}, mapper.Allocator(mem))
	require.NoError(t, err)
	defer records.Release()
	n := 0
	for records.Next() {
		col := records.RecordBatch().Column(0).(*array.String)
		for i := range col.Len() {
			require.Len(t, col.Value(i), size)
		}
		n += col.Len()
	}
	require.NoError(t, records.Err())
	assert.Equal(t, rows, n)
}
