package mapper

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Reader decodes the records of an array.RecordReader into rows of T, page
// by page: each record is validated once when it is reached, then cut into
// pages without validating again. Pages are exact-size across record
// boundaries; only the last is short.
//
// Any array.RecordReader works: ipc.NewReader (IPC streams), FileRecords
// (IPC files), pqarrow's GetRecordReader (Parquet), flight.NewRecordReader
// (Arrow Flight).
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
}

// NewReader checks rr's schema against T (as New does) before any row is
// read. The Reader retains rr until Release.
func NewReader[T any](rr array.RecordReader, opts ...Option) (*Reader[T], error) {
	if rr == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record reader")
	}
	m, err := newMapper[T]("NewReader", rr.Schema(), opts)
	if err != nil {
		return nil, err
	}
	rr.Retain()
	return &Reader[T]{rr: rr, m: m}, nil
}

// Schema is the schema of the records read.
func (r *Reader[T]) Schema() *arrow.Schema { return r.m.Schema() }

// Read decodes up to len(dst) rows into dst, like io.Reader: it returns the
// number of rows n and, once every row has been read, io.EOF itself. Rows
// before a failing record are all returned first; the next Read returns the
// error (an *Error, or the source's error wrapped). Compare with == io.EOF:
// a source error can wrap io.EOF, when a stream is cut short.
//
// With ZeroCopy, the strings and []byte of the rows are valid until the
// next Read or Release.
func (r *Reader[T]) Read(dst []T) (int, error) {
	r.releaseHeld()
	n := 0
	for n < len(dst) {
		if r.batch.Len() == 0 && !r.next() {
			break
		}
		k := min(len(dst)-n, r.batch.Len())
		page := dst[n : n+k]
		clear(page) // a page is small: clearing it in one go costs nothing to spread
		r.batch.Slice(0, k).decode(unsafe.Pointer(unsafe.SliceData(page)), nil)
		r.batch = r.batch.Slice(k, r.batch.Len())
		n += k
		if r.batch.Len() == 0 {
			r.releaseCurrent() // consumed: let it go now, not at the next Read
		}
	}
	if n == 0 && len(dst) > 0 {
		return 0, r.err
	}
	return n, nil
}

// next moves to the next record with rows, releasing the one consumed. It
// reports false, with r.err set, at the end or on an error.
func (r *Reader[T]) next() bool {
	for {
		r.releaseCurrent()
		if r.err != nil || r.closed {
			if r.err == nil {
				r.err = errClosed
			}
			return false
		}
		if !r.rr.Next() {
			r.err = io.EOF
			if err := r.rr.Err(); !endOfRecords(err) {
				r.err = fmt.Errorf("arrowmap: reading records: %w", err)
			}
			return false
		}
		rec := r.rr.RecordBatch()
		if !rec.Schema().Equal(r.m.Schema()) {
			r.err = newError(ErrTypeMismatch, "", "", -1, "the stream's schema changed from %s to %s", r.m.Schema(), rec.Schema())
			return false
		}
		batch, err := r.m.View(rec)
		if err != nil {
			r.err = err
			return false
		}
		if batch.Len() == 0 {
			continue
		}
		rec.Retain()
		r.rec, r.batch = rec, batch
		return true
	}
}

var errClosed = errors.New("arrowmap: read after Release")

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
// last. The page is one buffer reused between iterations: copy rows out of
// it to keep them past the next iteration. An error ends the sequence,
// after the rows before it.
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

// Release releases the records held and the record reader. Reading after
// Release returns an error.
func (r *Reader[T]) Release() {
	if r.closed {
		return
	}
	r.closed = true
	r.releaseCurrent()
	r.releaseHeld()
	r.rr.Release()
}

// endOfRecords reports whether err, a record reader's Err after Next
// returned false, means its records simply ended: no error, or io.EOF
// itself. An error that wraps io.EOF is a source that ran out of bytes
// where it should not have: arrow-go's ipc reader reports one when a stream
// ends before the dictionaries its schema declares.
func endOfRecords(err error) bool { return err == nil || err == io.EOF }
