package mapper

import (
	"fmt"
	"io"
	"iter"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/internal/expansion"
)

// Reader decodes the records of an array.RecordReader into rows of T, page
// by page: each record is validated once when it is reached, then cut into
// pages without validating again. Pages are exact-size across record
// boundaries; only the last is short.
//
// Any array.RecordReader works: ipc.NewReader (IPC streams), arrowmap's ipc.OpenRecordsReaderAt
// (IPC files), pqarrow's GetRecordReader (Parquet), flight.NewRecordReader
// (Arrow Flight).
//
// Rows come row by row (All), into the caller's slice (Read, like
// io.Reader), in exact-size pages of one reused buffer (Pages), or all at
// once (ReadAll). The end of the rows is io.EOF itself, never an error
// that wraps it (see expansion.SourceEnd), so either idiom is safe:
//
//	for row, err := range r.All() { … }   // err: the error that ended reading
//	n, err := r.Read(buf); if err == io.EOF { … } // or errors.Is(err, io.EOF)
//
// An error comes after every row before it, in every way of reading:
// when a record has a fault about a row (see Mapper.View), its rows before
// that row are read first, then the error. A fault about the record as a
// whole (a buffer too short for it, say) comes before any row of it. An
// *Error of a record counts its Row from the first row of the stream, the
// rows of every record before included, and its Record is the index of
// the record in the stream (from 0, records without rows counted).
//
// After Release, every read reports ErrClosed.
//
// A Reader is not safe for concurrent use.
type Reader[T any] struct {
	rr     array.RecordReader
	m      *Mapper[T]
	rec    arrow.RecordBatch // the record being read, retained
	batch  Batch[T]          // its rows not yet read
	held   []arrow.RecordBatch
	err    error // the error after the rows read so far; io.EOF at the end
	closed bool
	// failed is the error of the current record, whose batch is the rows
	// before the row it is about: it becomes err once they are read.
	failed error
	// Where the stream is, for its errors: the records reached and the rows
	// of those before the current one.
	records int
	rows    int64
}

// NewReader checks rr's schema against T (as New does) before any row is
// read. The Reader retains rr until Release.
func NewReader[T any](rr array.RecordReader, opts ...ReadOption) (*Reader[T], error) {
	if rr == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record reader")
	}
	m, err := newMapper[T]("NewReader", readerOptions, rr.Schema(), opts)
	if err != nil {
		return nil, err
	}
	rr.Retain()
	return &Reader[T]{rr: rr, m: m}, nil
}

// EmptyReader is a Reader of no rows whose schema is T's own (SchemaOf[T],
// with the options that are WriteOptions too: SnakeCase, As): what a query
// run no time reads, e.g. a QueryWith of no parameters.
func EmptyReader[T any](opts ...ReadOption) (*Reader[T], error) {
	if _, err := optionsFor("EmptyReader", readerOptions, opts); err != nil {
		return nil, err
	}
	var encode []WriteOption
	for _, o := range opts {
		if w, ok := o.(WriteOption); ok {
			encode = append(encode, w)
		}
	}
	schema, err := SchemaOf[T](encode...)
	if err != nil {
		return nil, err
	}
	empty, err := array.NewRecordReader(schema, nil)
	if err != nil {
		return nil, err
	}
	defer empty.Release() // the Reader retains its own reference
	return NewReader[T](empty, opts...)
}

// Schema is the schema of the records read.
func (r *Reader[T]) Schema() *arrow.Schema { return r.m.Schema() }

// Err is the error that ended reading: nil while rows remain and after a
// clean end, else an *Error, the source's error wrapped, or ErrClosed when
// Release came before the end.
func (r *Reader[T]) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// Read decodes up to len(dst) rows into dst, like io.Reader: it returns the
// number of rows n and, once every row has been read, io.EOF itself. Unlike
// an io.Reader, which returns what there is, Read fills dst across records:
// it waits for the next record while dst has room and the source has not
// ended. To take the rows of a live stream as each record comes (a
// Writer's Flush), range over All, or Read into a dst no longer than a
// record. Rows
// before an error are all returned first; the next Read returns the error
// (an *Error, or the source's error wrapped). A source cut short is an
// io.ErrUnexpectedEOF error, not io.EOF, so the end can be tested with
// err == io.EOF or errors.Is(err, io.EOF) alike:
//
//	for {
//		n, err := r.Read(buf)
//		use(buf[:n])
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err
//		}
//	}
//
// With ZeroCopy, the strings and []byte of the rows are valid until the
// next Read or Release.
func (r *Reader[T]) Read(dst []T) (int, error) {
	if r.closed {
		return 0, r.usedAfterRelease()
	}
	r.releaseHeld()
	n := 0
	for n < len(dst) {
		if r.batch.Len() == 0 {
			if s, ok := r.rr.(RecordSizer); ok {
				s.SizeNextRecord(len(dst) - n)
			}
			if !r.next() {
				break
			}
		}
		k := min(len(dst)-n, r.batch.Len())
		r.decodeRows(dst[n : n+k])
		r.consume(k)
		n += k
	}
	if n == 0 && len(dst) > 0 {
		return 0, r.err
	}
	return n, nil
}

// ReadAll decodes the rest of the rows. At the end it returns them and a
// nil error, as io.ReadAll does; on an error, every row before it and the
// error. Each record is decoded straight into the result;
// when the record reader is a RowsHinter (a Flight reader is), the result
// is sized from its hint once, not grown as it goes.
//
// A record's row count is not trusted beyond the bytes that back it: the
// rows ReadAll holds, each of the size of T, may take at most 64 MiB plus
// 64 times the bytes of the records it has read (their buffers, as
// arrow-go holds them; MaxExpansion changes the 64). A record that would
// take more — a run-end-encoded or null column claiming trillions of rows
// in a few bytes — is an ErrTooLarge *Error naming the record, its rows
// and the limit, before anything is allocated for it, and ends reading.
// Reading in pages (Read, Pages, All) holds a page, whatever a record
// claims.
//
// With ZeroCopy, the strings and []byte of the rows are valid until the
// next Read or Release: every record read stays retained until then.
func (r *Reader[T]) ReadAll() ([]T, error) {
	if r.closed {
		return nil, r.usedAfterRelease()
	}
	r.releaseHeld()
	hint, backing := r.hints()
	var rows []T
	var received int64 // the bytes of the records read, which bound the rows held
	if backedWhole[T](hint, backing) {
		// Made before any record, as a caller sizing a slice for Read
		// would: the collector then paces itself by the result from the
		// start, instead of collecting a small heap several times first.
		rows = make([]T, 0, hint)
	}
	for r.batch.Len() > 0 || r.next() {
		n := r.batch.Len()
		received += recordBytes(r.rec)
		room := heldRows[T](received, r.m.run.ratio)
		if int64(n) > room-int64(len(rows)) {
			r.err = r.tooLarge(n, len(rows), received, room)
			r.releaseCurrent()
			return rows, r.err
		}
		if cap(rows)-len(rows) < n {
			rows = growRows(rows, n, min(hint, room), backing)
		}
		// The tail past len(rows) is fresh memory, zero: decoded as it is.
		tail := rows[len(rows) : len(rows)+n]
		r.batch.decode(unsafe.Pointer(unsafe.SliceData(tail)), nil)
		rows = rows[:len(rows)+n]
		r.consume(n)
	}
	if len(rows) == 0 {
		rows = nil // as without a hint: no result made for no rows
	}
	return rows, r.Err()
}

// heldRows is the most rows of T ReadAll holds for the received bytes of
// the records it has read, with ratio bytes per byte (MaxExpansion's).
func heldRows[T any](received, ratio int64) int64 {
	return expansion.Limit(received, ratio) / int64(max(1, unsafe.Sizeof(*new(T))))
}

// tooLarge is ReadAll's error for the current record, of n rows not yet
// read, which would make it hold more than room rows after the held ones.
func (r *Reader[T]) tooLarge(n, held int, received, room int64) error {
	var zero T
	ratio := r.m.run.ratio
	if ratio <= 0 {
		ratio = expansion.DefaultRatio
	}
	e := newError(ErrTooLarge, "", "", -1,
		"%d rows of %T (%d bytes each) after %d held, for the %d bytes of the records read: ReadAll holds at most %d (64 MiB and %d bytes a byte read); read in pages, or raise the limit with MaxExpansion",
		n, zero, max(1, unsafe.Sizeof(zero)), held, received, room, ratio)
	e.Row = int(r.rows) - n
	e.Record = r.records - 1
	return e
}

// recordBytes is the bytes of the buffers of rec's columns, their
// children and dictionaries included; a buffer shared by two arrays
// counts twice.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, col := range rec.Columns() {
		n += dataBytes(col.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	// Dictionary is a nil *array.Data, not a nil interface, without one.
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += dataBytes(dict)
	}
	return n
}

// hints is what the record reader says of the rows ReadAll has yet to
// read: the rows of its RowsHint after those consumed already (by Read, or
// All), and the bytes backing them; -1 for what it does not say.
func (r *Reader[T]) hints() (hint, backing int64) {
	hint, backing = -1, -1
	if h, ok := r.rr.(RowsHinter); ok {
		if hint = h.RowsHint(); hint >= 0 {
			consumed := r.rows - int64(r.batch.Len())
			hint = max(0, hint-consumed)
		}
	}
	if b, ok := r.rr.(BackedRowsHinter); ok {
		backing = b.RowsHintBytes()
	}
	return hint, backing
}

// RowsHinter is a record reader that knows about how many rows it holds in
// all, such as a Flight reader from its FlightInfo's TotalRecords: ReadAll
// then sizes its result once instead of growing it as it goes.
//
// The hint is only a hint, and a source may lie: fewer rows are no error,
// more are appended as without a hint, and ReadAll trusts it no further
// than the rows that have arrived back it (see growRows), so a hint far
// too large costs a bounded multiple of the rows received, never its size.
type RowsHinter interface {
	// RowsHint is the rows expected in all, or a negative number when
	// they are not known.
	RowsHint() int64
}

// BackedRowsHinter is a RowsHinter whose hinted rows are read from bytes it
// knows, such as a file's: the Parquet column chunks its footer lists
// (checked to lie inside the file), an IPC file. ReadAll trusts its hint at
// once as far as the result's size stays within hintedPerByte times those
// bytes, which are read anyway, so that a result of millions of rows is
// sized once; past that, as any RowsHinter's.
type BackedRowsHinter interface {
	RowsHinter
	// RowsHintBytes is the bytes the rows of RowsHint are read from, or
	// a negative number when they are not known.
	RowsHintBytes() int64
}

// RecordSizer is a record reader whose next record's size can be asked
// for, such as the Parquet readers': Read (and Pages, through it) asks,
// before it reads each record, for a record of the rows it still wants
// for the caller's slice, so that reading in pages of n rows holds a
// record of about n rows rather than of the reader's largest. ReadAll and
// All ask nothing: their records keep the reader's size. The record
// reader may give more or fewer rows than asked; an error's Record counts
// the records as they came.
type RecordSizer interface {
	// SizeNextRecord asks for the next record to hold about rows rows.
	SizeNextRecord(rows int)
}

const (
	// hintedPerReceived bounds how far ReadAll trusts a RowsHint past the
	// rows it has: up to this many times them. With records of 16k rows or
	// more, a million-row result is sized at its first record.
	hintedPerReceived = 64
	// hintedBytes bounds the memory a RowsHint alone can make ReadAll
	// allocate, whatever the rows received.
	hintedBytes = 1 << 30
	// hintedPerByte bounds the result a BackedRowsHinter's hint can make
	// ReadAll allocate at once, per byte backing it: rows of Go structs
	// take a few times the bytes of a compressed file (TPC-H's lineitem 7
	// times, orders 3.4 times), a hint that lies no more than this.
	hintedPerByte = 16
)

// growRows is rows grown to room for n more rows, fresh (zero) past its
// length: like append, doubling; or, when hint says at least those rows
// are coming, to hint rows in all as far as it is trusted (within
// hintedPerReceived times the rows in hand and hintedBytes, or within
// hintedPerByte times backing, the bytes backing it, when known), never
// past it. ReadAll's hint is at most the rows it may hold.
func growRows[T any](rows []T, n int, hint, backing int64) []T {
	need := len(rows) + n
	newCap := max(need, 2*cap(rows))
	if hint >= int64(need) {
		size := int64(max(1, int(unsafe.Sizeof(*new(T)))))
		trusted := min(int64(need)*hintedPerReceived, max(int64(need), hintedBytes/size))
		if backing > 0 {
			trusted = max(trusted, min(backing, math.MaxInt64/hintedPerByte)*hintedPerByte/size)
		}
		newCap = max(need, int(min(hint, max(int64(newCap), trusted), math.MaxInt)))
	}
	grown := make([]T, len(rows), newCap)
	copy(grown, rows)
	return grown
}

// backedWhole reports whether hint rows of T, more than none, are backed
// whole by backing bytes: within hintedPerByte times them, so that ReadAll
// makes its result before any row arrives.
func backedWhole[T any](hint, backing int64) bool {
	size := int64(max(1, int(unsafe.Sizeof(*new(T)))))
	return hint > 0 && backing > 0 && hint <= min(backing, math.MaxInt64/hintedPerByte)*hintedPerByte/size && hint <= math.MaxInt
}

// All yields the rows one by one. An error ends the sequence: it is yielded
// once, last, after every row before it, with the zero T; a clean end
// yields no error. So the loop below sees every row, then at most one
// error:
//
//	for row, err := range r.All() {
//		if err != nil {
//			return err
//		}
//		use(row)
//	}
//
// Rows are decoded a few hundred at a time, not one by one; breaking out of
// the loop loses none: the next Read or All goes on at the row after the
// last yielded. Do not call Read, ReadAll or Pages inside the loop.
//
// With ZeroCopy, the strings and []byte of a row are valid until the next
// iteration.
func (r *Reader[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if r.closed {
			yield(zero, r.usedAfterRelease())
			return
		}
		buf := make([]T, allChunk[T]())
		for {
			r.releaseHeld()
			if r.batch.Len() == 0 && !r.next() {
				break
			}
			rows := buf[:min(len(buf), r.batch.Len())]
			r.decodeRows(rows)
			for i := range rows {
				if !yield(rows[i], nil) {
					// The rows after i stay in the batch, to be read again.
					r.consume(i + 1)
					return
				}
				if r.closed { // Released in the loop: the rows left may alias freed memory.
					yield(zero, r.usedAfterRelease())
					return
				}
			}
			r.consume(len(rows))
		}
		if err := r.Err(); err != nil {
			yield(zero, err)
		}
	}
}

// allChunk is how many rows All decodes at a time: enough for the column
// loops to run long, about 64 KiB of rows so that they stay in cache.
func allChunk[T any]() int {
	size := int(unsafe.Sizeof(*new(T)))
	return max(16, min(1024, (64<<10)/max(size, 1)))
}

// decodeRows decodes the next len(rows) rows of the current record into
// rows, without consuming them.
func (r *Reader[T]) decodeRows(rows []T) {
	clear(rows) // a page is small: clearing it in one go costs nothing to spread
	r.batch.Slice(0, len(rows)).decode(unsafe.Pointer(unsafe.SliceData(rows)), nil)
}

// consume drops the next k rows of the current record, and the record once
// they were its last: it is let go now, not at the next Read.
func (r *Reader[T]) consume(k int) {
	r.batch = r.batch.Slice(min(k, r.batch.Len()), r.batch.Len())
	if r.batch.Len() == 0 {
		r.releaseCurrent()
	}
}

// next moves to the next record with rows, releasing the one consumed. It
// reports false, with r.err set, at the end or on an error.
func (r *Reader[T]) next() bool {
	for {
		r.releaseCurrent()
		if r.failed != nil { // the rows before it are read
			r.err, r.failed = r.failed, nil
		}
		if r.err != nil {
			return false
		}
		if !r.rr.Next() {
			r.err = io.EOF
			if err := expansion.SourceEnd(r.rr.Err()); err != nil {
				r.err = fmt.Errorf("arrowmap: reading records: %w", err)
			}
			return false
		}
		rec := r.rr.RecordBatch()
		record, first := r.records, r.rows
		r.records++
		if !rec.Schema().Equal(r.m.Schema()) {
			r.err = InStream(newError(ErrTypeMismatch, "", "", -1, "the stream's schema changed from %s to %s", r.m.Schema(), rec.Schema()), record, first)
			return false
		}
		batch, err := r.m.View(rec)
		if err != nil {
			// batch is the rows before the row err is about, to read first.
			r.failed = InStream(err, record, first)
		}
		r.rows += int64(batch.Len())
		if batch.Len() == 0 {
			continue
		}
		rec.Retain()
		r.rec, r.batch = rec, batch
		return true
	}
}

// releaseCurrent lets go of the record just consumed, or keeps it until the
// next Read when rows alias its memory.
func (r *Reader[T]) releaseCurrent() {
	if r.rec == nil {
		return
	}
	if r.m.run.zeroCopy {
		r.held = append(r.held, r.rec)
	} else {
		r.rec.Release()
	}
	r.rec, r.batch = nil, Batch[T]{}
}

func (r *Reader[T]) releaseHeld() {
	for i, rec := range r.held {
		rec.Release()
		r.held[i] = nil
	}
	r.held = r.held[:0]
}

// Pages yields the rows in pages of size rows, every page full but the
// last: pages are cut across record boundaries. The page is one buffer
// reused between iterations: copy rows out of it to keep them past the
// next iteration. An error ends the sequence, yielded once after the rows
// before it; a clean end yields no error:
//
//	for page, err := range r.Pages(1024) {
//		if err != nil {
//			return err
//		}
//		use(page)
//	}
func (r *Reader[T]) Pages(size int) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) {
		if size <= 0 {
			yield(nil, fmt.Errorf("arrowmap: page size %d is not positive", size))
			return
		}
		page := make([]T, size)
		for {
			n, err := r.Read(page)
			if n > 0 && !yield(page[:n], nil) {
				return
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
		}
	}
}

// Release releases the records held and the record reader. Every read
// after it (Read, ReadAll, All, Pages) reports ErrClosed. Err reports how
// reading had ended — nil after a clean end, the error — or ErrClosed when
// Release came first, and ErrClosed after a read after Release.
func (r *Reader[T]) Release() {
	if r.closed {
		return
	}
	r.closed = true
	if r.err == nil {
		r.err = closedError()
	}
	r.releaseCurrent()
	r.releaseHeld()
	r.rr.Release()
}

// usedAfterRelease is the error of a read after Release, which is also
// what Err reports from then on: the read, not the records, failed.
func (r *Reader[T]) usedAfterRelease() error {
	r.err = closedError()
	return r.err
}

func closedError() error { return &Error{Row: -1, Err: ErrClosed} }
