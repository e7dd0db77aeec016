package mapper_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	amipc "github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// readerRow is the row type of the Reader tests: a primitive, a string, a
// nullable string and a nullable list.
type readerRow struct {
	ID   int64   `arrow:"id"`
	Name string  `arrow:"name"`
	Note *string `arrow:"note"`
	Vals []int64 `arrow:"vals"`
}

// readerSchema lets "name" hold nulls in Arrow, so that a batch can carry a
// null that readerRow.Name refuses.
var readerSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
}, nil)

// readerRecord is n rows of readerSchema with ids from first: a null note
// every third row, a null list every fourth, empty strings and lists too.
// The row with id nullName, if any, has a null name.
func readerRecord(mem memory.Allocator, first, n, nullName int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, readerSchema)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	names := b.Field(1).(*array.StringBuilder)
	notes := b.Field(2).(*array.StringBuilder)
	vals := b.Field(3).(*array.ListBuilder)
	val := vals.ValueBuilder().(*array.Int64Builder)
	for id := first; id < first+n; id++ {
		ids.Append(int64(id))
		if id == nullName {
			names.AppendNull()
		} else {
			names.Append(fmt.Sprintf("name-%d", id))
		}
		if id%3 == 0 {
			notes.AppendNull()
		} else {
			notes.Append(strings.Repeat("n", id%5))
		}
		if id%4 == 1 {
			vals.AppendNull()
			continue
		}
		vals.Append(true)
		for k := range id % 4 {
			val.Append(int64(id*10 + k))
		}
	}
	return b.NewRecordBatch()
}

// readerBatches is consecutive batches of the given sizes; the row with id
// nullName, if any, has a null name.
func readerBatches(mem memory.Allocator, nullName int, sizes ...int) []arrow.RecordBatch {
	recs := make([]arrow.RecordBatch, len(sizes))
	first := 0
	for k, n := range sizes {
		recs[k] = readerRecord(mem, first, n, nullName)
		first += n
	}
	return recs
}

// rowsBefore is the rows a Reader must yield of readerBatches(mem,
// nullName, sizes...) before the error of the null name: every row of the
// stream before it, those of the record it is in included.
func rowsBefore(t *testing.T, mem memory.Allocator, nullName int, sizes ...int) []readerRow {
	t.Helper()
	clean := readerBatches(mem, -1, sizes...)
	defer releaseAll(clean)
	return decodeEach(t, clean)[:nullName]
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

// decodeEach is what the Reader must yield: each record decoded whole by a
// Mapper, concatenated.
func decodeEach(t *testing.T, recs []arrow.RecordBatch, opts ...mapper.ReadOption) []readerRow {
	t.Helper()
	m, err := mapper.New[readerRow](readerSchema, opts...)
	require.NoError(t, err)
	want := []readerRow{}
	for _, rec := range recs {
		rows, err := m.Decode(rec)
		require.NoError(t, err)
		want = append(want, rows...)
	}
	return want
}

// writeStream writes recs, of schema, as an IPC stream, with arrow-go's own
// writer.
func writeStream(t *testing.T, mem memory.Allocator, schema *arrow.Schema, recs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// writeFile writes recs as an IPC file in a temporary directory, and
// reports the offset where each record's message starts.
func writeFile(t *testing.T, mem memory.Allocator, recs []arrow.RecordBatch) (string, []int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rows.arrow")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	cw := &countingWriter{w: f}
	w, err := ipc.NewFileWriter(cw, ipc.WithSchema(readerSchema), ipc.WithAllocator(mem))
	require.NoError(t, err)
	starts := make([]int64, len(recs))
	for k, rec := range recs {
		starts[k] = cw.n
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path, starts
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// openRecords reads recs back through arrow-go's IPC readers: "stream"
// through ipc.NewReader, "file" through ipc.NewFileReader and FileRecords.
// The returned function releases what was opened.
func openRecords(t *testing.T, mem memory.Allocator, format string, recs []arrow.RecordBatch) (array.RecordReader, func()) {
	t.Helper()
	switch format {
	case "stream":
		rr, err := ipc.NewReader(bytes.NewReader(writeStream(t, mem, readerSchema, recs)), ipc.WithAllocator(mem))
		require.NoError(t, err)
		return rr, rr.Release
	case "file":
		path, _ := writeFile(t, mem, recs)
		return openFile(t, mem, path)
	}
	t.Fatalf("unknown format %q", format)
	return nil, nil
}

func openFile(t *testing.T, mem memory.Allocator, path string) (array.RecordReader, func()) {
	t.Helper()
	rr, err := amipc.OpenRecords(path, mapper.Allocator(mem))
	require.NoError(t, err)
	return rr, rr.Release
}

// readAll reads r to the end with Read and a dst of size rows, copying the
// rows out, and reports the n of each Read that returned rows.
func readAll[T any](t *testing.T, r *mapper.Reader[T], size int) ([]T, []int, error) {
	t.Helper()
	dst := make([]T, size)
	got := []T{}
	var ns []int
	for {
		n, err := r.Read(dst)
		require.LessOrEqual(t, n, size)
		if n > 0 {
			got = append(got, dst[:n]...)
			ns = append(ns, n)
		}
		if err != nil {
			return got, ns, err
		}
		require.Positive(t, n, "a Read with room returns rows or an error")
	}
}

// pagesAll reads r to the end through Pages(size), copying the rows out,
// and reports the length of each page.
func pagesAll[T any](t *testing.T, r *mapper.Reader[T], size int) ([]T, []int, error) {
	t.Helper()
	got := []T{}
	var ns []int
	for page, err := range r.Pages(size) {
		if err != nil {
			return got, ns, err
		}
		require.NotEmpty(t, page)
		got = append(got, page...)
		ns = append(ns, len(page))
	}
	return got, ns, io.EOF
}

var readModes = []struct {
	name string
	read func(t *testing.T, r *mapper.Reader[readerRow], size int) ([]readerRow, []int, error)
}{
	{"Read", readAll[readerRow]},
	{"Pages", pagesAll[readerRow]},
}

// requireExactPages checks that every page but the last has size rows.
func requireExactPages(t *testing.T, ns []int, size, total int) {
	t.Helper()
	sum := 0
	for k, n := range ns {
		if k < len(ns)-1 {
			require.Equal(t, size, n, "page %d of %v is short", k, ns)
		} else {
			require.Positive(t, n)
			require.LessOrEqual(t, n, size)
		}
		sum += n
	}
	require.Equal(t, total, sum)
}

func TestReaderPagesAreExactAcrossBatches(t *testing.T) {
	inputs := []struct {
		name  string
		sizes []int
	}{
		{"a stream of no batch yields no row", nil},
		{"a stream of one empty batch yields no row", []int{0}},
		{"a stream of one batch yields its rows", []int{9}},
		{"a stream of uneven batches with empty ones yields every row once", []int{0, 5, 0, 13, 1, 4100, 0}},
	}
	for _, format := range []string{"stream", "file"} {
		for _, in := range inputs {
			for _, size := range []int{1, 7, 4096, 10_000} {
				for _, mode := range readModes {
					name := fmt.Sprintf("%s read from an IPC %s with %s in pages of %d", in.name, format, mode.name, size)
					t.Run(name, func(t *testing.T) {
						mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
						defer mem.AssertSize(t, 0)
						recs := readerBatches(mem, -1, in.sizes...)
						want := decodeEach(t, recs)
						rr, done := openRecords(t, mem, format, recs)
						releaseAll(recs)
						defer done()
						r, err := mapper.NewReader[readerRow](rr)
						require.NoError(t, err)
						defer r.Release()

						got, ns, err := mode.read(t, r, size)
						require.ErrorIs(t, err, io.EOF)
						require.Equal(t, want, got)
						requireExactPages(t, ns, size, len(want))
					})
				}
			}
		}
	}
}

func TestReaderReadIsLikeIOReader(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := readerBatches(mem, -1, 3, 0, 4)
	want := decodeEach(t, recs)
	rr, done := openRecords(t, mem, "stream", recs)
	releaseAll(recs)
	defer done()
	r, err := mapper.NewReader[readerRow](rr)
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Schema().Equal(readerSchema))

	n, err := r.Read(nil)
	require.NoError(t, err, "a nil dst reads nothing and is no error")
	require.Zero(t, n)
	n, err = r.Read([]readerRow{})
	require.NoError(t, err, "an empty dst reads nothing and is no error")
	require.Zero(t, n)

	dst := make([]readerRow, 2)
	n, err = r.Read(dst)
	require.NoError(t, err)
	require.Equal(t, want[:2], dst[:n])
	n, err = r.Read(dst[:0])
	require.NoError(t, err, "an empty dst mid-stream consumes no row")
	require.Zero(t, n)

	dst = make([]readerRow, 10)
	n, err = r.Read(dst)
	require.NoError(t, err, "the rows come first, io.EOF with the next Read")
	require.Equal(t, want[2:], dst[:n])
	for range 3 {
		n, err = r.Read(dst)
		require.Zero(t, n)
		require.ErrorIs(t, err, io.EOF, "every Read after the end is io.EOF")
	}
}

func TestReaderPagesRejectsASizeBelowOne(t *testing.T) {
	for _, size := range []int{0, -1} {
		t.Run(fmt.Sprintf("pages of %d rows are an error", size), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			recs := readerBatches(mem, -1, 3)
			rr, err := array.NewRecordReader(readerSchema, recs)
			require.NoError(t, err)
			releaseAll(recs)
			defer rr.Release()
			r, err := mapper.NewReader[readerRow](rr)
			require.NoError(t, err)
			defer r.Release()
			pages := 0
			for page, err := range r.Pages(size) {
				require.Error(t, err)
				require.Nil(t, page)
				pages++
			}
			require.Equal(t, 1, pages)
		})
	}
}

// fakeRecords is an array.RecordReader over records of any schemas (which
// array.NewRecordReader refuses to mix) that ends with err. It owns one
// reference to each record until it moves past it, as arrow-go's readers do.
type fakeRecords struct {
	refs   atomic.Int64
	schema *arrow.Schema
	recs   []arrow.RecordBatch // not read yet
	cur    arrow.RecordBatch
	err    error
	nexts  int
}

func newFakeRecords(schema *arrow.Schema, recs []arrow.RecordBatch, err error) *fakeRecords {
	f := &fakeRecords{schema: schema, recs: recs, err: err}
	f.refs.Store(1)
	return f
}

func (f *fakeRecords) Retain() { f.refs.Add(1) }

func (f *fakeRecords) Release() {
	if f.refs.Add(-1) > 0 {
		return
	}
	if f.cur != nil {
		releaseOwn(f.cur)
		f.cur = nil
	}
	for _, rec := range f.recs {
		releaseOwn(rec)
	}
	f.recs = nil
}

func (f *fakeRecords) Schema() *arrow.Schema { return f.schema }

func (f *fakeRecords) Next() bool {
	f.nexts++
	if f.cur != nil {
		releaseOwn(f.cur)
		f.cur = nil
	}
	if len(f.recs) == 0 {
		return false
	}
	f.cur, f.recs = f.recs[0], f.recs[1:]
	return true
}

func (f *fakeRecords) RecordBatch() arrow.RecordBatch { return f.cur }
func (f *fakeRecords) Record() arrow.RecordBatch      { return f.cur }

func (f *fakeRecords) Err() error {
	if f.cur == nil && len(f.recs) == 0 {
		return f.err
	}
	return nil
}

// countedRecord counts the references taken on a record by its users; the
// source's own reference is released around it (releaseOwn).
type countedRecord struct {
	arrow.RecordBatch
	held, most atomic.Int64
}

func (c *countedRecord) Retain() {
	h := c.held.Add(1)
	if h > c.most.Load() {
		c.most.Store(h)
	}
	c.RecordBatch.Retain()
}

func (c *countedRecord) Release() {
	c.held.Add(-1)
	c.RecordBatch.Release()
}

func releaseOwn(rec arrow.RecordBatch) {
	if c, ok := rec.(*countedRecord); ok {
		rec = c.RecordBatch
	}
	rec.Release()
}

var errSource = errors.New("the source broke")

func TestReaderErrorsMidStreamComeAfterEveryRowBefore(t *testing.T) {
	otherSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	otherRecord := func(mem memory.Allocator) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, otherSchema)
		defer b.Release()
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{100, 101}, nil)
		b.Field(1).(*array.StringBuilder).AppendValues([]string{"x", "y"}, nil)
		return b.NewRecordBatch()
	}
	cases := []struct {
		name string
		// open is the source, and the rows it delivers before failing.
		open    func(t *testing.T, mem memory.Allocator) (array.RecordReader, func(), []readerRow)
		wantErr error
		// wantRow is the stream row of the *mapper.Error, or nil; wantRecord
		// the index of its record in the stream, empty records counted.
		wantRow    *int
		wantRecord int
	}{
		{
			name: "a null in a non-nullable field of an IPC stream is ErrNull",
			open: func(t *testing.T, mem memory.Allocator) (array.RecordReader, func(), []readerRow) {
				recs := readerBatches(mem, 11, 5, 0, 3, 7, 4)
				want := rowsBefore(t, mem, 11, 5, 0, 3, 7, 4)
				rr, done := openRecords(t, mem, "stream", recs)
				releaseAll(recs)
				return rr, done, want
			},
			wantErr:    mapper.ErrNull,
			wantRow:    new(11),
			wantRecord: 3,
		},
		{
			name: "a null in a non-nullable field of an IPC file is ErrNull",
			open: func(t *testing.T, mem memory.Allocator) (array.RecordReader, func(), []readerRow) {
				recs := readerBatches(mem, 8, 5, 3, 7, 4)
				want := rowsBefore(t, mem, 8, 5, 3, 7, 4)
				rr, done := openRecords(t, mem, "file", recs)
				releaseAll(recs)
				return rr, done, want
			},
			wantErr:    mapper.ErrNull,
			wantRow:    new(8),
			wantRecord: 2,
		},
		{
			name: "a schema that changes mid-stream is ErrTypeMismatch",
			open: func(t *testing.T, mem memory.Allocator) (array.RecordReader, func(), []readerRow) {
				recs := readerBatches(mem, -1, 5, 4)
				want := decodeEach(t, recs)
				rr := newFakeRecords(readerSchema, append(recs, otherRecord(mem), readerRecord(mem, 9, 2, -1)), nil)
				return rr, rr.Release, want
			},
			wantErr: mapper.ErrTypeMismatch,
		},
		{
			name: "the source's own error is wrapped",
			open: func(t *testing.T, mem memory.Allocator) (array.RecordReader, func(), []readerRow) {
				recs := readerBatches(mem, -1, 5, 0, 6)
				want := decodeEach(t, recs)
				rr := newFakeRecords(readerSchema, recs, errSource)
				return rr, rr.Release, want
			},
			wantErr: errSource,
		},
	}
	for _, c := range cases {
		for _, size := range []int{1, 4, 100} {
			for _, mode := range readModes {
				t.Run(fmt.Sprintf("%s, read with %s in pages of %d", c.name, mode.name, size), func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					rr, done, want := c.open(t, mem)
					defer done()
					r, err := mapper.NewReader[readerRow](rr)
					require.NoError(t, err)
					defer r.Release()

					got, ns, err := mode.read(t, r, size)
					require.ErrorIs(t, err, c.wantErr)
					require.NotErrorIs(t, err, io.EOF)
					require.Equal(t, want, got, "every row before the bad batch, once")
					requireExactPages(t, ns, size, len(want))
					if c.wantRow != nil {
						var me *mapper.Error
						require.ErrorAs(t, err, &me)
						require.Equal(t, *c.wantRow, me.Row, "the row counts from the start of the stream")
						require.Equal(t, c.wantRecord, me.Record)
						require.Equal(t, "name", me.Column)
						require.Contains(t, me.Error(), fmt.Sprintf("row %d (record %d)", *c.wantRow, c.wantRecord))
					}

					n, again := r.Read(make([]readerRow, size))
					require.Zero(t, n, "no row after the error")
					require.ErrorIs(t, again, c.wantErr, "the error stays")
				})
			}
		}
	}
}

func TestReaderChecksTheSchemaBeforeAnyRow(t *testing.T) {
	type wrong struct {
		ID   string `arrow:"id"`
		Name string `arrow:"name"`
	}
	type missing struct {
		ID    int64  `arrow:"id"`
		Other string `arrow:"other"`
	}
	cases := []struct {
		name    string
		newR    func(rr array.RecordReader) error
		wantErr error
	}{
		{"a field of the wrong type is ErrTypeMismatch", func(rr array.RecordReader) error {
			_, err := mapper.NewReader[wrong](rr)
			return err
		}, mapper.ErrTypeMismatch},
		{"a field without a column is ErrMissingColumn", func(rr array.RecordReader) error {
			_, err := mapper.NewReader[missing](rr)
			return err
		}, mapper.ErrMissingColumn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 3), nil)
			defer rr.Release()
			require.ErrorIs(t, c.newR(rr), c.wantErr)
			require.Zero(t, rr.nexts, "no record is read")
			require.EqualValues(t, 1, rr.refs.Load(), "a failed NewReader keeps no reference")
		})
	}
	t.Run("a nil record reader is an error", func(t *testing.T) {
		_, err := mapper.NewReader[readerRow](nil)
		require.Error(t, err)
	})
}

func TestReaderLeavesNoMemoryAllocated(t *testing.T) {
	cases := []struct {
		name string
		// nullName is the id of a row with a null name, or -1.
		nullName int
		// read reads some or all of r; the Reader is released after it.
		read func(t *testing.T, r *mapper.Reader[readerRow])
	}{
		{"a full read", -1, func(t *testing.T, r *mapper.Reader[readerRow]) {
			_, _, err := readAll(t, r, 5)
			require.ErrorIs(t, err, io.EOF)
		}},
		{"a full read through Pages", -1, func(t *testing.T, r *mapper.Reader[readerRow]) {
			_, _, err := pagesAll(t, r, 5)
			require.ErrorIs(t, err, io.EOF)
		}},
		{"a Release after one page", -1, func(t *testing.T, r *mapper.Reader[readerRow]) {
			n, err := r.Read(make([]readerRow, 5))
			require.NoError(t, err)
			require.Equal(t, 5, n)
		}},
		{"a Release after breaking out of Pages", -1, func(t *testing.T, r *mapper.Reader[readerRow]) {
			for page, err := range r.Pages(5) {
				require.NoError(t, err)
				require.Len(t, page, 5)
				break
			}
		}},
		{"a Release before any Read", -1, func(t *testing.T, r *mapper.Reader[readerRow]) {}},
		{"an error mid-stream", 20, func(t *testing.T, r *mapper.Reader[readerRow]) {
			_, _, err := readAll(t, r, 5)
			require.ErrorIs(t, err, mapper.ErrNull)
		}},
	}
	for _, format := range []string{"stream", "file"} {
		for _, c := range cases {
			for _, zeroCopy := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s of an IPC %s (zero copy %t) leaves zero bytes", c.name, format, zeroCopy), func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					recs := readerBatches(mem, c.nullName, 7, 0, 9, 12, 3)
					rr, done := openRecords(t, mem, format, recs)
					releaseAll(recs)
					var opts []mapper.ReadOption
					if zeroCopy {
						opts = append(opts, mapper.ZeroCopy())
					}
					r, err := mapper.NewReader[readerRow](rr, opts...)
					require.NoError(t, err)
					c.read(t, r)
					r.Release()
					r.Release() // twice is harmless
					n, err := r.Read(make([]readerRow, 3))
					require.Zero(t, n)
					require.ErrorIs(t, err, mapper.ErrClosed, "a Read after Release is ErrClosed")
					done()
				})
			}
		}
	}
}

func TestReaderReleasesEachRecordOnceConsumed(t *testing.T) {
	cases := []struct {
		name     string
		zeroCopy bool
		// held[k] is, after the k-th Read, how many references the Reader
		// holds on each record.
		held [][3]int64
	}{
		{"a record is released by the Read that consumes it", false, [][3]int64{
			{0, 0, 0}, // rows 0-2: record 0 whole
			{0, 1, 0}, // rows 3-5: record 1 in part
			{0, 0, 1}, // rows 6-8: the rest of record 1, record 2 in part
			{0, 0, 0}, // rows 9-11: the rest of record 2
			{0, 0, 0}, // io.EOF
		}},
		{"with ZeroCopy a record is released by the Read after the one that consumes it", true, [][3]int64{
			{1, 0, 0},
			{0, 1, 0},
			{0, 1, 1},
			{0, 0, 1},
			{0, 0, 0},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var opts []mapper.ReadOption
			if c.zeroCopy {
				opts = append(opts, mapper.ZeroCopy())
			}
			plain := readerBatches(mem, -1, 3, 5, 4)
			want := decodeEach(t, plain)
			counted := make([]*countedRecord, len(plain))
			recs := make([]arrow.RecordBatch, len(plain))
			for k, rec := range plain {
				counted[k] = &countedRecord{RecordBatch: rec}
				recs[k] = counted[k]
			}
			rr := newFakeRecords(readerSchema, recs, nil)
			defer rr.Release()
			r, err := mapper.NewReader[readerRow](rr, opts...)
			require.NoError(t, err)

			dst := make([]readerRow, 3)
			for k, held := range c.held {
				n, err := r.Read(dst)
				if k < 4 {
					require.NoError(t, err)
					require.Equal(t, want[3*k:3*k+3], dst[:n], "rows of Read %d", k)
				} else {
					require.ErrorIs(t, err, io.EOF)
				}
				for j, rec := range counted {
					require.Equal(t, held[j], rec.held.Load(), "references on record %d after Read %d", j, k)
				}
			}
			r.Release()
			for j, rec := range counted {
				require.Zero(t, rec.held.Load(), "references on record %d after Release", j)
				require.LessOrEqual(t, rec.most.Load(), int64(1), "record %d retained more than once", j)
			}
		})
	}
}

// poisonAllocator overwrites memory as it is freed, so that a row that
// still aliases a released record reads garbage instead of passing by luck.
type poisonAllocator struct{ memory.Allocator }

func (p poisonAllocator) Free(b []byte) {
	for i := range b {
		b[i] = 0xDD
	}
	p.Allocator.Free(b)
}

// valueRange is the address range of the string values of rec's "name".
func valueRange(rec arrow.RecordBatch) [2]uintptr {
	vb := rec.Column(1).(*array.String).ValueBytes()
	start := uintptr(unsafe.Pointer(unsafe.SliceData(vb)))
	return [2]uintptr{start, start + uintptr(len(vb))}
}

// aliases reports whether s points into one of ranges.
func aliases(s string, ranges [][2]uintptr) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	for _, r := range ranges {
		if p >= r[0] && p < r[1] {
			return true
		}
	}
	return false
}

func TestReaderZeroCopy(t *testing.T) {
	t.Run("with ZeroCopy strings alias the record and stay valid until the next Read", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(poisonAllocator{memory.NewGoAllocator()})
		defer mem.AssertSize(t, 0)
		recs := readerBatches(mem, -1, 5, 6, 2)
		want := decodeEach(t, recs)
		ranges := make([][2]uintptr, len(recs))
		for k, rec := range recs {
			ranges[k] = valueRange(rec)
		}
		rr := newFakeRecords(readerSchema, recs, nil) // the only owner
		r, err := mapper.NewReader[readerRow](rr, mapper.ZeroCopy())
		require.NoError(t, err)
		rr.Release()

		// Each page spans a record boundary, so the record it starts in is
		// consumed and released by its source during the Read.
		for k := 0; k < len(want); k += 4 {
			dst := make([]readerRow, 4)
			n, err := r.Read(dst)
			require.NoError(t, err)
			require.Equal(t, want[k:k+n], dst[:n], "rows %d to %d", k, k+n)
			for _, row := range dst[:n] {
				require.True(t, aliases(row.Name, ranges), "%q is not in a record", row.Name)
			}
		}
		_, err = r.Read(make([]readerRow, 4))
		require.ErrorIs(t, err, io.EOF)
		r.Release()
	})
	t.Run("without ZeroCopy strings are copies valid after Release", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(poisonAllocator{memory.NewGoAllocator()})
		defer mem.AssertSize(t, 0)
		recs := readerBatches(mem, -1, 5, 6, 2)
		want := decodeEach(t, recs)
		ranges := make([][2]uintptr, len(recs))
		for k, rec := range recs {
			ranges[k] = valueRange(rec)
		}
		rr := newFakeRecords(readerSchema, recs, nil)
		r, err := mapper.NewReader[readerRow](rr)
		require.NoError(t, err)
		rr.Release()
		got, _, err := readAll(t, r, 4)
		require.ErrorIs(t, err, io.EOF)
		r.Release()
		mem.AssertSize(t, 0) // every record is freed, and poisoned
		require.Equal(t, want, got)
		for _, row := range got {
			require.False(t, aliases(row.Name, ranges), "%q aliases a record", row.Name)
		}
	})
}

// readerPrims is a row of primitives only, whose decoding needs no memory of
// its own.
type readerPrims struct {
	ID    int64   `arrow:"id"`
	Price float64 `arrow:"price"`
	Qty   int32   `arrow:"qty"`
	OK    bool    `arrow:"ok"`
}

func readerPrimsRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Reserve(n)
	ids := b.Field(0).(*array.Int64Builder)
	prices := b.Field(1).(*array.Float64Builder)
	qtys := b.Field(2).(*array.Int32Builder)
	oks := b.Field(3).(*array.BooleanBuilder)
	for i := range n {
		ids.Append(int64(i))
		prices.Append(float64(i) / 4)
		qtys.Append(int32(i % 1000))
		oks.Append(i%3 == 0)
	}
	return b.NewRecordBatch()
}

func TestReaderPagesOfPrimitivesAllocateNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows, page = 1 << 20, 4096
	rec := readerPrimsRecord(mem, rows)
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	rec.Release()
	defer rr.Release()
	r, err := mapper.NewReader[readerPrims](rr)
	require.NoError(t, err)
	defer r.Release()

	dst := make([]readerPrims, page)
	n, err := r.Read(dst) // views the record
	require.NoError(t, err)
	require.Equal(t, page, n)
	read := page
	allocs := testing.AllocsPerRun(100, func() {
		n, err := r.Read(dst)
		if err != nil || n != page || dst[n-1].ID != int64(read+n-1) {
			panic(fmt.Sprintf("Read: %d rows, %v, last id %d", n, err, dst[n-1].ID))
		}
		read += n
	})
	require.Zero(t, allocs, "allocations per page of %d rows", page)
}

// TestReaderTellsAnEndFromAStreamCutShort: a source whose Err is io.EOF
// itself has ended; one whose Err wraps io.EOF ran out of bytes where it
// should not have (arrow-go's ipc reader, when a stream ends before the
// dictionaries its schema declares), and every way of reading a Reader or
// a ColumnsReader reports it as io.ErrUnexpectedEOF, not io.EOF, after
// every row.
func TestReaderTellsAnEndFromAStreamCutShort(t *testing.T) {
	cutShort := fmt.Errorf("arrow/ipc: could not read continuation indicator: %w", io.EOF)
	reads := []struct {
		name string
		// read reads everything, and reports the rows and the error that
		// ended reading (nil at a clean end).
		read func(t *testing.T, rr array.RecordReader) (int, error)
	}{
		{"Reader.Read", func(t *testing.T, rr array.RecordReader) (int, error) {
			r := newTestReader(t, rr)
			got, _, err := readAll(t, r, 2)
			if err == io.EOF {
				err = nil
			}
			require.Equal(t, err, r.Err(), "Err is the error that ended reading")
			return len(got), err
		}},
		{"Reader.Pages", func(t *testing.T, rr array.RecordReader) (int, error) {
			got, _, err := pagesAll(t, newTestReader(t, rr), 2)
			if err == io.EOF {
				err = nil
			}
			return len(got), err
		}},
		{"Reader.All", func(t *testing.T, rr array.RecordReader) (int, error) {
			got, err := allRows(t, newTestReader(t, rr))
			return len(got), err
		}},
		{"Reader.ReadAll", func(t *testing.T, rr array.RecordReader) (int, error) {
			got, err := newTestReader(t, rr).ReadAll()
			return len(got), err
		}},
		{"ColumnsReader.Next", func(t *testing.T, rr array.RecordReader) (int, error) {
			cr := newTestColumnsReader(t, rr)
			n := 0
			for cr.Next() {
				n += cr.Columns().ID.Len()
			}
			return n, cr.Err()
		}},
		{"ColumnsReader.All", func(t *testing.T, rr array.RecordReader) (int, error) {
			return columnsRows(newTestColumnsReader(t, rr).All())
		}},
		{"ColumnsReader.Windows", func(t *testing.T, rr array.RecordReader) (int, error) {
			return columnsRows(newTestColumnsReader(t, rr).Windows(2))
		}},
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"io.EOF itself is the end", io.EOF},
		{"no error is the end", nil},
		{"an error wrapping io.EOF is not", cutShort},
	} {
		for _, read := range reads {
			t.Run(tc.name+", read by "+read.name, func(t *testing.T) {
				mem := checkedAllocator(t)
				rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 3, 2), tc.err)
				defer rr.Release()
				n, err := read.read(t, rr)
				require.Equal(t, 5, n, "every row comes first")
				if tc.err == nil || tc.err == io.EOF {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, io.ErrUnexpectedEOF)
				require.NotErrorIs(t, err, io.EOF)
				require.ErrorContains(t, err, cutShort.Error())
			})
		}
	}
}

// idColumns is the struct of columns the ColumnsReader tests bind.
type idColumns struct {
	ID   views.PrimitiveColumn[int64] `arrow:"id"`
	Name arrow.Array                  `arrow:"name"`
}

func newTestReader(t *testing.T, rr array.RecordReader) *mapper.Reader[readerRow] {
	t.Helper()
	r, err := mapper.NewReader[readerRow](rr)
	require.NoError(t, err)
	t.Cleanup(r.Release)
	return r
}

func newTestColumnsReader(t *testing.T, rr array.RecordReader) *mapper.ColumnsReader[idColumns] {
	t.Helper()
	r, err := mapper.NewColumnsReader[idColumns](rr)
	require.NoError(t, err)
	t.Cleanup(r.Release)
	return r
}

// allRows reads r to the end with All, requiring that an error comes once
// and last.
func allRows[T any](t *testing.T, r *mapper.Reader[T]) ([]T, error) {
	t.Helper()
	var rows []T
	var last error
	for row, err := range r.All() {
		require.NoError(t, last, "nothing after the error")
		if err != nil {
			var zero T
			require.Equal(t, zero, row, "the error comes with the zero row")
			last = err
			continue
		}
		rows = append(rows, row)
	}
	return rows, last
}

// columnsRows counts the rows of the columns a ColumnsReader sequence
// yields, requiring that an error comes once and last.
func columnsRows(seq iter.Seq2[idColumns, error]) (int, error) {
	n := 0
	var last error
	for cols, err := range seq {
		if last != nil {
			return n, fmt.Errorf("a yield after the error %w: %v", last, err)
		}
		if err != nil {
			last = err
			continue
		}
		n += cols.ID.Len()
	}
	return n, last
}

func TestReaderAllYieldsEveryRowThenTheError(t *testing.T) {
	type bigRow struct { // 64 KiB a row: All decodes a chunk of 16
		ID   int64       `arrow:"id"`
		Name string      `arrow:"name"`
		Note *string     `arrow:"note"`
		Vals []int64     `arrow:"vals"`
		Pad  [8192]int64 `arrow:"-"`
	}
	cases := []struct {
		name     string
		sizes    []int
		nullName int // the id of a row with a null name, or -1
		wantErr  error
	}{
		{"records smaller and larger than a chunk, and empty ones", []int{3, 0, 2000, 17, 0, 1}, -1, nil},
		{"no record", nil, -1, nil},
		{"a null in a non-nullable field ends the rows with ErrNull", []int{5, 1030, 7, 4}, 1038, mapper.ErrNull},
	}
	for _, c := range cases {
		for _, zeroCopy := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s (zero copy %t)", c.name, zeroCopy), func(t *testing.T) {
				mem := checkedAllocator(t)
				recs := readerBatches(mem, c.nullName, c.sizes...)
				var want []readerRow
				if c.wantErr != nil {
					want = rowsBefore(t, mem, c.nullName, c.sizes...)
				} else {
					want = decodeEach(t, recs)
				}
				rr, done := openRecords(t, mem, "stream", recs)
				releaseAll(recs)
				defer done()
				var opts []mapper.ReadOption
				if zeroCopy {
					opts = append(opts, mapper.ZeroCopy())
				}

				r, err := mapper.NewReader[readerRow](rr, opts...)
				require.NoError(t, err)
				got := []readerRow{}
				var last error
				for row, err := range r.All() {
					require.NoError(t, last, "nothing after the error")
					if err != nil {
						last = err
						continue
					}
					row.Name = strings.Clone(row.Name) // zero copy: valid until the next iteration
					if row.Note != nil {
						row.Note = new(strings.Clone(*row.Note))
					}
					got = append(got, row)
				}
				require.Equal(t, want, got)
				if c.wantErr == nil {
					require.NoError(t, last)
					require.NoError(t, r.Err())
				} else {
					require.ErrorIs(t, last, c.wantErr)
					require.NotErrorIs(t, last, io.EOF)
					require.Equal(t, last, r.Err())
				}
				for row, err := range r.All() {
					require.Equal(t, readerRow{}, row, "a second All yields no row")
					require.Equal(t, r.Err(), err, "a second All yields only the error that ended reading")
				}
				r.Release()
			})
		}
	}
	t.Run("a row of 64 KiB is decoded 16 at a time, every one yielded", func(t *testing.T) {
		mem := checkedAllocator(t)
		recs := readerBatches(mem, -1, 40)
		want := decodeEach(t, recs)
		rr := newFakeRecords(readerSchema, recs, nil)
		defer rr.Release()
		r, err := mapper.NewReader[bigRow](rr)
		require.NoError(t, err)
		defer r.Release()
		var got []readerRow
		for row, err := range r.All() {
			require.NoError(t, err)
			got = append(got, readerRow{ID: row.ID, Name: row.Name, Note: row.Note, Vals: row.Vals})
		}
		require.Equal(t, want, got)
	})
}

func TestReaderAllLosesNoRowWhenTheLoopBreaks(t *testing.T) {
	for _, breakAt := range []int{0, 2, 4, 5, 700, 1029} {
		t.Run(fmt.Sprintf("breaking after row %d, Read and All go on at the next row", breakAt), func(t *testing.T) {
			mem := checkedAllocator(t)
			recs := readerBatches(mem, -1, 5, 1100, 3)
			want := decodeEach(t, recs)
			rr := newFakeRecords(readerSchema, recs, nil)
			defer rr.Release()
			r := newTestReader(t, rr)

			var got []readerRow
			for row, err := range r.All() {
				require.NoError(t, err)
				got = append(got, row)
				if len(got) == breakAt+1 {
					break
				}
			}
			dst := make([]readerRow, 3)
			n, err := r.Read(dst)
			require.NoError(t, err)
			got = append(got, dst[:n]...)
			rest, err := allRows(t, r)
			require.NoError(t, err)
			require.Equal(t, want, append(got, rest...))
		})
	}
}

func TestReaderReadAllReturnsTheRestOfTheRows(t *testing.T) {
	cases := []struct {
		name string
		// source is the records, and the rows ReadAll returns after the
		// first 4 have been read.
		source  func(t *testing.T, mem memory.Allocator) (array.RecordReader, []readerRow)
		wantErr error
	}{
		{"every row to a clean end", func(t *testing.T, mem memory.Allocator) (array.RecordReader, []readerRow) {
			recs := readerBatches(mem, -1, 6, 0, 9)
			return newFakeRecords(readerSchema, recs, nil), decodeEach(t, recs)
		}, nil},
		{"every row before a null where none is allowed, those of its record too, and ErrNull", func(t *testing.T, mem memory.Allocator) (array.RecordReader, []readerRow) {
			recs := readerBatches(mem, 16, 6, 9, 3)
			return newFakeRecords(readerSchema, recs, nil), rowsBefore(t, mem, 16, 6, 9, 3)
		}, mapper.ErrNull},
		{"the rows before the source's error, and the error", func(t *testing.T, mem memory.Allocator) (array.RecordReader, []readerRow) {
			recs := readerBatches(mem, -1, 6, 9)
			return newFakeRecords(readerSchema, recs, errSource), decodeEach(t, recs)
		}, errSource},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedAllocator(t)
			rr, want := c.source(t, mem)
			defer rr.Release()
			r := newTestReader(t, rr)
			n, err := r.Read(make([]readerRow, 4))
			require.NoError(t, err)
			require.Equal(t, 4, n)

			rows, err := r.ReadAll()
			require.Equal(t, want[4:], rows)
			if c.wantErr == nil {
				require.NoError(t, err, "a clean end is no error, as with io.ReadAll")
			} else {
				require.ErrorIs(t, err, c.wantErr)
				require.NotErrorIs(t, err, io.EOF)
			}
			rows, again := r.ReadAll()
			require.Empty(t, rows)
			require.Equal(t, err, again, "a second ReadAll says the same")
		})
	}
}

func TestReadersReportErrClosedAfterRelease(t *testing.T) {
	// Each use reads r after Release, and reports what it got.
	readerUses := []struct {
		name string
		use  func(r *mapper.Reader[readerRow]) error
	}{
		{"Read", func(r *mapper.Reader[readerRow]) error {
			n, err := r.Read(make([]readerRow, 2))
			if n != 0 {
				return fmt.Errorf("%d rows after Release", n)
			}
			return err
		}},
		{"Read of nothing", func(r *mapper.Reader[readerRow]) error {
			_, err := r.Read(nil)
			return err
		}},
		{"ReadAll", func(r *mapper.Reader[readerRow]) error {
			rows, err := r.ReadAll()
			if len(rows) != 0 {
				return fmt.Errorf("%d rows after Release", len(rows))
			}
			return err
		}},
		{"All", func(r *mapper.Reader[readerRow]) error {
			var errs []error
			for _, err := range r.All() {
				errs = append(errs, err)
			}
			return errors.Join(append(errs, onlyOne(len(errs)))...)
		}},
		{"Pages", func(r *mapper.Reader[readerRow]) error {
			var errs []error
			for _, err := range r.Pages(2) {
				errs = append(errs, err)
			}
			return errors.Join(append(errs, onlyOne(len(errs)))...)
		}},
	}
	columnsUses := []struct {
		name string
		use  func(r *mapper.ColumnsReader[idColumns]) error
	}{
		{"Next", func(r *mapper.ColumnsReader[idColumns]) error {
			if r.Next() {
				return errors.New("Next reports true after Release")
			}
			return r.Err()
		}},
		{"All", func(r *mapper.ColumnsReader[idColumns]) error {
			_, err := columnsRows(r.All())
			return err
		}},
		{"Windows", func(r *mapper.ColumnsReader[idColumns]) error {
			_, err := columnsRows(r.Windows(2))
			return err
		}},
	}
	// Each state is how far r is read before Release.
	states := []struct {
		name string
		// rows is how many rows are read first, -1 for all of them.
		rows int
		// errAfter is what Err reports right after Release: nil when
		// reading had ended cleanly.
		errAfter error
	}{
		{"before any read", 0, mapper.ErrClosed},
		{"mid-stream", 4, mapper.ErrClosed},
		{"after a clean end", -1, nil},
	}
	for _, st := range states {
		for _, u := range readerUses {
			t.Run(fmt.Sprintf("Reader.%s after a Release %s is ErrClosed", u.name, st.name), func(t *testing.T) {
				mem := checkedAllocator(t)
				rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 3, 5), nil)
				defer rr.Release()
				r, err := mapper.NewReader[readerRow](rr)
				require.NoError(t, err)
				if st.rows < 0 {
					_, err = r.ReadAll()
				} else if st.rows > 0 {
					_, err = r.Read(make([]readerRow, st.rows))
				}
				require.NoError(t, err)
				r.Release()
				if st.errAfter == nil {
					require.NoError(t, r.Err(), "Release after a clean end leaves Err nil")
				} else {
					require.ErrorIs(t, r.Err(), st.errAfter)
				}
				err = u.use(r)
				require.ErrorIs(t, err, mapper.ErrClosed)
				require.NotErrorIs(t, err, io.EOF)
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				require.ErrorIs(t, r.Err(), mapper.ErrClosed, "Err says so too after the use")
				require.ErrorIs(t, u.use(r), mapper.ErrClosed, "and again")
			})
		}
		for _, u := range columnsUses {
			t.Run(fmt.Sprintf("ColumnsReader.%s after a Release %s is ErrClosed", u.name, st.name), func(t *testing.T) {
				mem := checkedAllocator(t)
				rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 3, 5), nil)
				defer rr.Release()
				r, err := mapper.NewColumnsReader[idColumns](rr)
				require.NoError(t, err)
				switch {
				case st.rows < 0:
					for r.Next() {
					}
				case st.rows > 0:
					require.True(t, r.Next())
				}
				require.NoError(t, r.Err())
				r.Release()
				if st.errAfter == nil {
					require.NoError(t, r.Err(), "Release after a clean end leaves Err nil")
				} else {
					require.ErrorIs(t, r.Err(), st.errAfter)
				}
				err = u.use(r)
				require.ErrorIs(t, err, mapper.ErrClosed)
				require.NotErrorIs(t, err, io.EOF)
				require.ErrorIs(t, r.Err(), mapper.ErrClosed, "Err says so too after the use")
				require.ErrorIs(t, u.use(r), mapper.ErrClosed, "and again")
			})
		}
	}
	t.Run("Release keeps the error that ended reading", func(t *testing.T) {
		mem := checkedAllocator(t)
		rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 3), errSource)
		defer rr.Release()
		r, err := mapper.NewReader[readerRow](rr)
		require.NoError(t, err)
		_, err = r.ReadAll()
		require.ErrorIs(t, err, errSource)
		r.Release()
		require.ErrorIs(t, r.Err(), errSource)
		rr = newFakeRecords(readerSchema, nil, errSource)
		defer rr.Release()
		cr, err := mapper.NewColumnsReader[idColumns](rr)
		require.NoError(t, err)
		require.False(t, cr.Next())
		cr.Release()
		require.ErrorIs(t, cr.Err(), errSource)
	})
	t.Run("Release inside a loop ends it with ErrClosed", func(t *testing.T) {
		mem := checkedAllocator(t)
		for _, zeroCopy := range []bool{false, true} {
			rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 30), nil)
			var opts []mapper.ReadOption
			if zeroCopy {
				opts = append(opts, mapper.ZeroCopy())
			}
			r, err := mapper.NewReader[readerRow](rr, opts...)
			require.NoError(t, err)
			rows, errs := 0, []error{}
			for _, err := range r.All() {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				rows++
				r.Release()
			}
			require.Equal(t, 1, rows, "no row after Release (zero copy %t)", zeroCopy)
			require.Len(t, errs, 1)
			require.ErrorIs(t, errs[0], mapper.ErrClosed)
			rr.Release()
		}
		rr := newFakeRecords(readerSchema, readerBatches(mem, -1, 30, 30), nil)
		cr, err := mapper.NewColumnsReader[idColumns](rr)
		require.NoError(t, err)
		windows := 0
		for _, err := range cr.Windows(4) {
			if err != nil {
				require.ErrorIs(t, err, mapper.ErrClosed)
				continue
			}
			windows++
			cr.Release()
		}
		require.Equal(t, 1, windows)
		rr.Release()
	})
}

// checkedAllocator is a CheckedAllocator that must hold nothing once the
// test and its cleanups (the readers newTestReader registers) are done.
func checkedAllocator(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func TestReaderErrorsCountRowsFromTheStartOfTheStream(t *testing.T) {
	// Three records of 1,000 rows; row 2,345 of the stream, row 345 of the
	// third record, has a null name. Pages of 300 and 7 rows start
	// mid-record, so the failing record is reached inside a page.
	const nullAt = 2345
	modes := []struct {
		name string
		read func(r *mapper.Reader[readerRow]) (int, error) // the rows before the error, and the error
	}{
		{"Read into 300 rows", func(r *mapper.Reader[readerRow]) (int, error) {
			got, _, err := readAll(t, r, 300)
			return len(got), err
		}},
		{"Pages of 300", func(r *mapper.Reader[readerRow]) (int, error) {
			got, _, err := pagesAll(t, r, 300)
			return len(got), err
		}},
		{"Pages of 7", func(r *mapper.Reader[readerRow]) (int, error) {
			got, _, err := pagesAll(t, r, 7)
			return len(got), err
		}},
		{"All", func(r *mapper.Reader[readerRow]) (int, error) {
			n := 0
			for _, err := range r.All() {
				if err != nil {
					return n, err
				}
				n++
			}
			return n, nil
		}},
		{"ReadAll", func(r *mapper.Reader[readerRow]) (int, error) {
			rows, err := r.ReadAll()
			return len(rows), err
		}},
	}
	for _, format := range []string{"stream", "file"} {
		for _, mode := range modes {
			t.Run(fmt.Sprintf("an IPC %s read with %s", format, mode.name), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				recs := readerBatches(mem, nullAt, 1000, 1000, 1000)
				rr, done := openRecords(t, mem, format, recs)
				releaseAll(recs)
				defer done()
				r, err := mapper.NewReader[readerRow](rr)
				require.NoError(t, err)
				defer r.Release()

				n, err := mode.read(r)
				require.ErrorIs(t, err, mapper.ErrNull)
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.Equal(t, nullAt, me.Row, "the row of the stream, not of the record")
				assert.Equal(t, 2, me.Record)
				assert.Equal(t, "Name", me.Path)
				assert.Equal(t, "name", me.Column)
				assert.Contains(t, me.Error(), "row 2345 (record 2)")
				assert.Equal(t, nullAt, n, "every row before the error, those of its record too")
			})
		}
	}
}

// TestAReaderGivesTheRowsOfARecordBeforeItsError is the user's case: a
// null at row 4 of a 5-row record, read into a field that cannot hold it,
// came before rows 0 to 3 in every way of reading, and with records of
// 64k rows lost up to 64k good rows. Every row before the null comes
// first, then the error, naming the row of the stream.
func TestAReaderGivesTheRowsOfARecordBeforeItsError(t *testing.T) {
	reads := []struct {
		name string
		read func(t *testing.T, r *mapper.Reader[readerRow]) ([]readerRow, error)
	}{
		{"All", allRows[readerRow]},
		{"Pages(2)", func(t *testing.T, r *mapper.Reader[readerRow]) ([]readerRow, error) {
			got, _, err := pagesAll(t, r, 2)
			return got, err
		}},
		{"Read into 3 rows", func(t *testing.T, r *mapper.Reader[readerRow]) ([]readerRow, error) {
			got, _, err := readAll(t, r, 3)
			return got, err
		}},
		{"ReadAll", func(t *testing.T, r *mapper.Reader[readerRow]) ([]readerRow, error) {
			return r.ReadAll()
		}},
	}
	sources := []struct {
		name   string
		sizes  []int
		nullAt int // the null's row in the stream
		record int
		big    bool // read in the ways that take the rows in large steps only
	}{
		{"a null at row 4 of a 5-row record", []int{5}, 4, 0, false},
		{"a null at row 4 of the second record", []int{3, 0, 5}, 7, 2, false},
		{"a null at the last row of a 65,536-row record", []int{10, 1 << 16}, 10 + 1<<16 - 1, 1, true},
	}
	for _, src := range sources {
		for _, rd := range reads {
			for _, zeroCopy := range []bool{false, true} {
				if src.big && (zeroCopy || rd.name == "Pages(2)" || rd.name == "Read into 3 rows") {
					continue // the test's own checks of each row would take seconds
				}
				t.Run(fmt.Sprintf("%s, read with %s, zero copy %t", src.name, rd.name, zeroCopy), func(t *testing.T) {
					mem := checkedAllocator(t)
					recs := readerBatches(mem, src.nullAt, src.sizes...)
					want := rowsBefore(t, mem, src.nullAt, src.sizes...)
					rr, done := openRecords(t, mem, "stream", recs)
					releaseAll(recs)
					defer done()
					var opts []mapper.ReadOption
					if zeroCopy {
						opts = append(opts, mapper.ZeroCopy())
					}
					r, err := mapper.NewReader[readerRow](rr, opts...)
					require.NoError(t, err)
					defer r.Release()

					got, err := rd.read(t, r)
					require.ErrorIs(t, err, mapper.ErrNull)
					if zeroCopy && rd.name == "All" {
						// All's strings are valid until the next row: compare ids only.
						require.Len(t, got, len(want))
					} else {
						require.Equal(t, want, got, "every row before the null, those of its record too")
					}
					var me *mapper.Error
					require.ErrorAs(t, err, &me)
					assert.Equal(t, src.nullAt, me.Row, "the row of the stream")
					assert.Equal(t, src.record, me.Record)
					assert.Equal(t, "Name", me.Path)
					assert.Equal(t, err, r.Err(), "Err says what ended reading")
					n, again := r.Read(make([]readerRow, 4))
					assert.Zero(t, n, "no row after the error")
					assert.Equal(t, err, again)
				})
			}
		}
	}
}

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

// runRow is a row of 4 KiB, its padding no column's: ReadAll's 64 MiB of
// rows are 16,384 of them, so that the tests meet the limit's edges
// decoding few rows.
type runRow struct {
	V   int64      `arrow:"v"`
	Pad [4088]byte `arrow:"-"`
}

// runRecord is a record of one run-end-encoded int64 column "v" of one
// run of n rows of 7: 16 bytes of buffers, whatever n.
func runRecord(n int64) arrow.RecordBatch {
	ends := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{n}))}, nil, 0, 0))
	defer ends.Release()
	values := array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{7}))}, nil, 0, 0))
	defer values.Release()
	col := array.NewRunEndEncodedArray(ends, values, int(n), 0)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: col.DataType()}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, n)
}

// readAllOf reads recs with ReadAll, with opts.
func readAllOf[T any](t *testing.T, recs []arrow.RecordBatch, opts ...mapper.ReadOption) ([]T, error) {
	t.Helper()
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewReader[T](rr, opts...)
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.Equal(t, err, r.Err(), "the error that ended reading")
	return rows, err
}

func release(recs []arrow.RecordBatch) {
	for _, rec := range recs {
		rec.Release()
	}
}

// runLimit is the runRow rows ReadAll holds for records of 16 bytes each,
// k of them, with ratio bytes a byte: 64 MiB + ratio × 16k bytes.
func runLimit(k, ratio int64) int64 { return (64<<20 + ratio*16*k) / 4096 }

func TestReadAllHoldsRowsUpToItsLimitAndRefusesARowMore(t *testing.T) {
	tests := []struct {
		name  string
		rows  int64
		opts  []mapper.ReadOption
		error bool
	}{
		{"a record of the limit's rows is read", runLimit(1, 64), nil, false},
		{"a row more is refused", runLimit(1, 64) + 1, nil, true},
		{"MaxExpansion raises the limit", runLimit(1, 1<<16), []mapper.ReadOption{mapper.MaxExpansion(1 << 16)}, false},
		{"MaxExpansion refuses a row past its limit", runLimit(1, 1<<16) + 1, []mapper.ReadOption{mapper.MaxExpansion(1 << 16)}, true},
		{"MaxExpansion of 0 is the default", runLimit(1, 64) + 1, []mapper.ReadOption{mapper.MaxExpansion(0)}, true},
		{"MaxExpansion of math.MaxInt lifts the limit", runLimit(1, 64) + 1, []mapper.ReadOption{mapper.MaxExpansion(math.MaxInt)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := []arrow.RecordBatch{runRecord(tt.rows)}
			defer release(recs)
			rows, err := readAllOf[runRow](t, recs, tt.opts...)
			if !tt.error {
				require.NoError(t, err)
				require.Len(t, rows, int(tt.rows))
				assert.Equal(t, int64(7), rows[len(rows)-1].V)
				return
			}
			require.ErrorIs(t, err, mapper.ErrTooLarge)
			assert.Empty(t, rows)
			var e *mapper.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, 0, e.Row)
			assert.Equal(t, 0, e.Record)
			assert.Contains(t, err.Error(), fmt.Sprintf("%d rows of mapper_test.runRow (4096 bytes each)", tt.rows))
		})
	}
}

func TestReadAllCountsTheBytesOfEveryRecordReadAndNamesTheRecordPastTheLimit(t *testing.T) {
	// Records of 2,048 rows and 16 bytes each: the eighth is within
	// 64 MiB + 64 × 128 bytes of rows, the ninth past 64 MiB + 64 × 144.
	var recs []arrow.RecordBatch
	for range 12 {
		recs = append(recs, runRecord(2048))
	}
	defer release(recs)
	rows, err := readAllOf[runRow](t, recs)
	require.ErrorIs(t, err, mapper.ErrTooLarge)
	var e *mapper.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 8, e.Record)
	assert.Equal(t, 8*2048, e.Row)
	assert.Len(t, rows, 8*2048, "the rows of the records before")
	assert.Contains(t, err.Error(), "after 16384 held, for the 144 bytes of the records read")

	// Reading them in pages holds a page, whatever they claim.
	rr, err := array.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	r, err := mapper.NewReader[runRow](rr)
	require.NoError(t, err)
	defer r.Release()
	n := 0
	for page, err := range r.Pages(1000) {
		require.NoError(t, err)
		n += len(page)
	}
	assert.Equal(t, 12*2048, n)
}

func TestReadAllHoldsTheRowsOfNullColumnsUpToItsFloorOrAllWithMaxExpansionOfMaxInt(t *testing.T) {
	type nullRow struct {
		V   mapper.Null `arrow:"v"`
		Pad [4096]byte  `arrow:"-"` // 16,384 rows of it are 64 MiB
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.Null, Nullable: true}}, nil)
	record := func(n int) []arrow.RecordBatch {
		null := array.NewNull(n)
		defer null.Release()
		return []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{null}, int64(n))}
	}
	floor := record(16384)
	defer release(floor)
	rows, err := readAllOf[nullRow](t, floor)
	require.NoError(t, err)
	assert.Len(t, rows, 16384)

	past := record(16384 + 1)
	defer release(past)
	_, err = readAllOf[nullRow](t, past, mapper.MaxExpansion(1<<40))
	require.ErrorIs(t, err, mapper.ErrTooLarge, "no ratio raises what no bytes back")
	rows, err = readAllOf[nullRow](t, past, mapper.MaxExpansion(math.MaxInt))
	require.NoError(t, err)
	assert.Len(t, rows, 16384+1)
}

func TestReadAllRefusesTrillionsOfRowsInAFewBytesBeforeAllocatingThem(t *testing.T) {
	type nullRow struct {
		V mapper.Null `arrow:"v"`
	}
	null := array.NewNull(1 << 40)
	defer null.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.Null, Nullable: true}}, nil)
	nulls := array.NewRecordBatch(schema, []arrow.Array{null}, 1<<40)
	defer nulls.Release()
	_, err := readAllOf[nullRow](t, []arrow.RecordBatch{nulls})
	require.ErrorIs(t, err, mapper.ErrTooLarge, "a null column")

	run := runRecord(1 << 40)
	defer run.Release()
	_, err = readAllOf[runRow](t, []arrow.RecordBatch{run})
	require.ErrorIs(t, err, mapper.ErrTooLarge, "a run-end-encoded column")
}

func TestReadAllReadsPastItsFloorEightBooleansAByteAndAnInt8DictionaryIndexAByte(t *testing.T) {
	// Past the 64 MiB of rows any record may claim, within 64 bytes of
	// rows a byte of the record: tens of millions of rows of a byte.
	racetest.Skip(t, "77 million rows take minutes under the race detector")
	type boolRow struct {
		Ok bool `arrow:"ok"`
	}
	type cityRow struct {
		City string `arrow:"city"`
	}
	const bools, cities = 72 << 20, 5 << 20
	bits := make([]byte, bools/8)
	for i := range bits {
		bits[i] = 0x55
	}
	okCol := array.NewBooleanData(array.NewData(arrow.FixedWidthTypes.Boolean, bools, []*memory.Buffer{nil, memory.NewBufferBytes(bits)}, nil, 0, 0))
	defer okCol.Release()
	indices := make([]byte, cities)
	for i := range indices {
		indices[i] = byte(i % 2)
	}
	names := array.NewStringBuilder(memory.DefaultAllocator)
	names.AppendValues([]string{"Oslo", "Lima"}, nil)
	dict := names.NewArray()
	names.Release()
	defer dict.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	idx := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, cities, []*memory.Buffer{nil, memory.NewBufferBytes(indices)}, nil, 0, 0))
	defer idx.Release()
	cityCol := array.NewDictionaryArray(dt, idx, dict)
	defer cityCol.Release()

	okRec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "ok", Type: okCol.DataType()}}, nil), []arrow.Array{okCol}, bools)
	defer okRec.Release()
	oks, err := readAllOf[boolRow](t, []arrow.RecordBatch{okRec})
	require.NoError(t, err)
	require.Len(t, oks, bools)
	assert.Equal(t, []boolRow{{true}, {false}}, oks[bools-2:]) // 0x55: the even rows true

	cityRec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "city", Type: dt}}, nil), []arrow.Array{cityCol}, cities)
	defer cityRec.Release()
	got, err := readAllOf[cityRow](t, []arrow.RecordBatch{cityRec})
	require.NoError(t, err)
	require.Len(t, got, cities)
	assert.Equal(t, []cityRow{{"Oslo"}, {"Lima"}}, got[cities-2:])
}

// sizedRecords is a record reader that notes the sizes asked of it.
type sizedRecords struct {
	array.RecordReader
	asked []int
}

func (s *sizedRecords) SizeNextRecord(rows int) { s.asked = append(s.asked, rows) }

// TestReaderAsksARecordSizerForTheRowsItStillWants shows who asks what of
// a mapper.RecordSizer: Read and Pages, before each record they reach,
// the rows still wanted for the page being filled; ReadAll and All
// nothing, their records keep the reader's size. The rows come back the
// same, whatever the record reader does with the size.
func TestReaderAsksARecordSizerForTheRowsItStillWants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		read  func(*mapper.Reader[hintRow]) ([]hintRow, error)
		asked []int
	}{
		{"Pages of 1,500 ask 1,500, then what their page lacks at each record's end", func(r *mapper.Reader[hintRow]) ([]hintRow, error) {
			var got []hintRow
			for page, err := range r.Pages(1500) {
				if err != nil {
					return nil, err
				}
				got = append(got, page...)
			}
			return got, nil
		}, []int{1500, 500, 500, 1000, 1500}},
		{"ReadAll asks nothing", func(r *mapper.Reader[hintRow]) ([]hintRow, error) { return r.ReadAll() }, nil},
		{"All asks nothing", func(r *mapper.Reader[hintRow]) ([]hintRow, error) {
			var got []hintRow
			for row, err := range r.All() {
				if err != nil {
					return nil, err
				}
				got = append(got, row)
			}
			return got, nil
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			recs, want := hintRecords(t, mem, 1000, 3000, 2500)
			rr, err := array.NewRecordReader(recs[0].Schema(), recs)
			require.NoError(t, err)
			for _, rec := range recs {
				rec.Release()
			}
			src := &sizedRecords{RecordReader: rr}
			r, err := mapper.NewReader[hintRow](src)
			require.NoError(t, err)
			rr.Release()
			got, err := tc.read(r)
			r.Release()
			require.NoError(t, err)
			assert.Equal(t, want, got)
			// Records of 1,000, 3,000 and 2,500 rows in pages of 1,500:
			// the first record is reached with an empty page (1,500), the
			// second with 1,000 rows of the page in hand (500), the third
			// with 1,000 (500), the end with 500 of the last page (1,000),
			// and once more by the Read after it (1,500).
			assert.Equal(t, tc.asked, src.asked)
		})
	}
}

func TestReadersReportTheSchemaTheyRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	type schemaReader interface {
		Schema() *arrow.Schema
		Release()
	}
	open := map[string]func(rr array.RecordReader) (schemaReader, error){
		"NewReader": func(rr array.RecordReader) (schemaReader, error) {
			return mapper.NewReader[bindingRow](rr)
		},
		"NewColumnsReader": func(rr array.RecordReader) (schemaReader, error) {
			return mapper.NewColumnsReader[bindingColumns](rr)
		},
	}
	for name, open := range open {
		t.Run(name+"s over schemas that differ in an unused column each report their own", func(t *testing.T) {
			var readers []schemaReader
			var schemas []*arrow.Schema
			for i := range 3 {
				rr := bindingReader(t, mem, fmt.Sprintf("%s-unused-%d", name, i))
				r, err := open(rr)
				require.NoError(t, err)
				readers = append(readers, r)
				schemas = append(schemas, rr.Schema())
				rr.Release()
			}
			for i, r := range readers {
				assert.Same(t, schemas[i], r.Schema(), "reader %d", i)
				r.Release()
			}
		})
	}
	t.Run("a Mapper reports the schema it was built for", func(t *testing.T) {
		var schemas []*arrow.Schema
		var mappers []*mapper.Mapper[bindingRow]
		for i := range 3 {
			s := arrow.NewSchema([]arrow.Field{
				{Name: "id", Type: arrow.PrimitiveTypes.Int64},
				{Name: fmt.Sprintf("mapper-unused-%d", i), Type: arrow.BinaryTypes.String},
			}, nil)
			m, err := mapper.New[bindingRow](s)
			require.NoError(t, err)
			schemas, mappers = append(schemas, s), append(mappers, m)
		}
		for i, m := range mappers {
			assert.Same(t, schemas[i], m.Schema(), "mapper %d", i)
		}
	})
}

type bindingRow struct {
	ID int64 `arrow:"id"`
}

type bindingColumns struct {
	ID views.PrimitiveColumn[int64] `arrow:"id"`
}

// bindingReader is a record reader of one record of id and one column no
// field reads, named unused.
func bindingReader(t *testing.T, mem memory.Allocator, unused string) array.RecordReader {
	rec := fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, "[1, 2]")},
		fxCol{unused, fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b"]`)})
	defer rec.Release()
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	require.NoError(t, err)
	return rr
}

func TestEmptyReaderReadsNoRowAndHasTsSchemaWithItsNamingOptions(t *testing.T) {
	type row struct {
		OrderID int64
		Note    *string
	}
	r, err := mapper.EmptyReader[row](mapper.SnakeCase(), mapper.Strict())
	require.NoError(t, err)
	defer r.Release()
	want, err := mapper.SchemaOf[row](mapper.SnakeCase())
	require.NoError(t, err)
	assert.True(t, want.Equal(r.Schema()), "got %s", r.Schema())
	assert.Equal(t, "order_id", r.Schema().Field(0).Name)
	got, err := r.ReadAll()
	require.NoError(t, err)
	assert.Empty(t, got)
	n, err := r.Read(make([]row, 4))
	assert.Zero(t, n)
	assert.Equal(t, io.EOF, err)

	_, err = mapper.EmptyReader[struct{ C chan int }]()
	assert.ErrorIs(t, err, mapper.ErrUnsupported, "a T no schema describes")
}
