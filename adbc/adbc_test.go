package adbc

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type unitRow struct {
	ID   int64
	Name *string
	At   time.Time
}

func unitRows(n int) []unitRow {
	rows := make([]unitRow, n)
	for i := range rows {
		rows[i] = unitRow{ID: int64(i), At: time.Unix(int64(i), 0).UTC()}
		if i%2 == 0 {
			name := strings.Repeat("x", i)
			rows[i].Name = &name
		}
	}
	return rows
}

func TestSchemaOptionsLeaveTheAllocatorOut(t *testing.T) {
	assert.Len(t, schemaOptions([]mapper.WriteOption{mapper.SnakeCase(), mapper.Allocator(nil), nil}), 1)
}

// sliceChunks is the chunks of rows, n at a time, as Ingest cuts them.
func sliceChunks[T any](rows []T, n int) func() ([]T, error) {
	return func() ([]T, error) {
		chunk := rows[:min(len(rows), n)]
		rows = rows[len(chunk):]
		return chunk, nil
	}
}

func TestRowBatchesCutsRowsIntoRecordsOfTheBatchSize(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := unitRows(7)
	r, err := newRowBatches(sliceChunks(rows, 3), nil, []mapper.WriteOption{mapper.Allocator(mem)})
	require.NoError(t, err)
	var _ array.RecordReader = r
	want, err := mapper.SchemaOf[unitRow]()
	require.NoError(t, err)
	assert.True(t, want.Equal(r.Schema()))

	r.Retain() // a driver's reference, released after ours
	var got []unitRow
	var sizes []int64
	for r.Next() {
		rec := r.RecordBatch()
		assert.True(t, want.Equal(rec.Schema()))
		sizes = append(sizes, rec.NumRows())
		decoded, err := mapper.Decode[unitRow](rec)
		require.NoError(t, err)
		got = append(got, decoded...)
	}
	require.NoError(t, r.Err())
	assert.Equal(t, rows, got)
	assert.Equal(t, []int64{3, 3, 1}, sizes)
	assert.False(t, r.Next(), "the end stays the end")
	r.Release()
	r.Release()
}

func TestRowBatchesOfNoRowsIsOneRecordOfNone(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := newRowBatches(sliceChunks([]unitRow{}, 3), nil, []mapper.WriteOption{mapper.Allocator(mem)})
	require.NoError(t, err)
	require.True(t, r.Next(), "a driver that learns the schema from the first record sees one")
	assert.Zero(t, r.RecordBatch().NumRows())
	assert.True(t, r.Schema().Equal(r.RecordBatch().Schema()))
	assert.False(t, r.Next())
	require.NoError(t, r.Err())
	r.Release()
}

func TestRowBatchesReportsABadValueAtItsRowInTheInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := unitRows(10)
	rows[7].At = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC) // past timestamp[ns]
	stopped := 0
	r, err := newRowBatches(sliceChunks(rows, 3), func() { stopped++ }, []mapper.WriteOption{mapper.Allocator(mem)})
	require.NoError(t, err)
	defer r.Release()
	n := 0
	for r.Next() {
		n++
	}
	assert.Equal(t, 2, n, "the records before the bad value's")
	var me *mapper.Error
	require.ErrorAs(t, r.Err(), &me)
	assert.ErrorIs(t, r.Err(), mapper.ErrOverflow)
	assert.Equal(t, 7, me.Row)
	assert.Equal(t, "At", me.Path)
	r.finish()
	assert.Equal(t, 1, stopped, "stopped once, however often finished")
}

func TestRowBatchesEndsAtAnErrorOfTheRows(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	chunks := func() ([]unitRow, error) {
		calls++
		if calls == 2 {
			return nil, &sequenceError{boom}
		}
		return unitRows(2), nil
	}
	r, err := newRowBatches(chunks, nil, nil)
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Next())
	require.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), boom)
	assert.False(t, r.Next())
	assert.Equal(t, 2, calls, "no chunk asked for after the error")
}

// closeCounter is a statement that only counts its Close calls: the one
// method statementRecords calls.
type closeCounter struct {
	adbc.Statement
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

// failingRecords is a record reader whose source failed with err.
type failingRecords struct {
	array.RecordReader
	err error
}

func (f failingRecords) Err() error { return f.err }

func TestStatementRecordsClosesTheStatementAtTheLastRelease(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	params, err := mapper.Encode(unitRows(2), mapper.Allocator(mem))
	require.NoError(t, err)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	inner, err := array.NewRecordReader(schema, nil)
	require.NoError(t, err)
	stmt := &closeCounter{}
	r := newStatementRecords("adbc.QueryWith", "SELECT ?", inner, stmt, params)
	r.Retain()
	r.Release()
	assert.Zero(t, stmt.closed, "a reference is left")
	assert.Positive(t, mem.CurrentAlloc(), "the parameters are held")
	r.Release()
	assert.Equal(t, 1, stmt.closed)
}

func TestStatementRecordsWrapsTheSourceErrorButNotItsEnd(t *testing.T) {
	sourceErr := adbc.Error{Code: adbc.StatusIO, Msg: "stream broke"}
	for _, tc := range []struct {
		name string
		err  error
		want func(t *testing.T, err error)
	}{
		{"a clean end is nil", nil, func(t *testing.T, err error) { assert.NoError(t, err) }},
		{"io.EOF stays io.EOF itself", io.EOF, func(t *testing.T, err error) { assert.Same(t, io.EOF, err) }},
		{"an ADBC error is wrapped with the query, errors.As still finding it", sourceErr, func(t *testing.T, err error) {
			var ae adbc.Error
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, sourceErr, ae)
			assert.ErrorContains(t, err, `adbc.Query "SELECT 1": reading the result: I/O: stream broke`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &statementRecords{RecordReader: failingRecords{err: tc.err}, entry: "adbc.Query", query: "SELECT 1"}
			tc.want(t, r.Err())
		})
	}
}

func TestShortenCutsLongQueriesAtARune(t *testing.T) {
	assert.Equal(t, "SELECT 1", shorten("SELECT 1"))
	long := strings.Repeat("é", 100)
	assert.Equal(t, strings.Repeat("é", 80)+"…", shorten(long))
}

// TestTheQueriesTakeMaxExpansion: ReadAll bounds the rows of the driver's
// records by it.
func TestTheQueriesTakeMaxExpansion(t *testing.T) {
	_, err := Query[struct{}](t.Context(), nil, "SELECT 1", mapper.MaxExpansion(128))
	require.ErrorContains(t, err, "nil connection", "taken, and on to the connection")
	_, err = QueryWith[struct{}, struct{}](t.Context(), nil, "SELECT ?", nil, mapper.MaxExpansion(128))
	require.ErrorContains(t, err, "nil connection", "taken, and on to the connection")
}
