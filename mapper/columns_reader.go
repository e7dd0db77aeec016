package mapper

import (
	"fmt"
	"iter"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/internal/expansion"
)

// ColumnsReader binds the columns of each record of an array.RecordReader
// to a struct C, as Columns does: one C per record (All, or Next and
// Columns), or per window of at most n rows of a record (Windows), each
// record validated once.
//
// The C it yields aliases the current record, which the ColumnsReader
// holds until the next iteration, the next call to Next, or Release: do not
// keep it, nor anything read from it without copying, past that.
//
// The end of the records is no error: an iterator yields none, Next
// reports false and Err is nil. A source cut short is an error that is
// io.ErrUnexpectedEOF, never one that wraps io.EOF (see expansion.SourceEnd):
//
//	for cols, err := range r.All() {
//		if err != nil {
//			return err
//		}
//		use(cols)
//	}
//
// An error comes after every row before it, as a Reader's: when a record
// has a fault about a row (see Mapper.View), the columns of its rows
// before that row come first (one C in All, windows in Windows), then the
// error. An *Error of a record counts its Row from the first row of the
// stream, and its Record is the index of the record in the stream, as a
// Reader's.
//
// After Release, every read reports ErrClosed: the iterators yield it,
// Next reports false and Err returns it.
//
// A ColumnsReader is not safe for concurrent use.
type ColumnsReader[C any] struct {
	rr     array.RecordReader // nil after Release
	plan   *columnsPlan
	schema *arrow.Schema     // rr's, which plan binds
	rec    arrow.RecordBatch // the current record, retained
	cols   C
	err    error
	done   bool
	// recRows is the rows of the current record that cols binds: all of
	// them, or those before the row failed is about.
	recRows int
	// failed is the error of the current record, whose rows before the row
	// it is about cols binds: it becomes err at the next record.
	failed error
	// cut holds the arrow.Array fields of cols cut to those rows.
	cut []arrow.Array
	// The arrow.Array fields of the window last yielded, sliced from rec's.
	pageArrays []arrow.Array
	// Where the stream is, for its errors: the records reached and the rows
	// of those before the current one.
	records int
	rows    int64
}

// NewColumnsReader checks rr's schema against C (as Columns does) before
// any record is read. The ColumnsReader retains rr until Release.
func NewColumnsReader[C any](rr array.RecordReader, opts ...ReadOption) (*ColumnsReader[C], error) {
	if rr == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record reader")
	}
	o, err := optionsFor("NewColumnsReader", columnsOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedColumnsPlan(reflect.TypeFor[C](), rr.Schema(), o)
	if err != nil {
		return nil, err
	}
	rr.Retain()
	return &ColumnsReader[C]{rr: rr, plan: p, schema: rr.Schema()}, nil
}

// Schema is the schema of the records read.
func (r *ColumnsReader[C]) Schema() *arrow.Schema { return r.schema }

// Next moves to the next record and binds its columns. It reports false at
// the end of the records, on an error, or after Release: see Err.
func (r *ColumnsReader[C]) Next() bool {
	r.releaseCurrent()
	if r.rr == nil {
		r.err, r.done = closedError(), true
		return false
	}
	if r.failed != nil { // the rows before it were read
		r.err, r.failed, r.done = r.failed, nil, true
	}
	if r.done {
		return false
	}
	if !r.rr.Next() {
		r.done = true
		if err := expansion.SourceEnd(r.rr.Err()); err != nil {
			r.err = fmt.Errorf("arrowmap: reading records: %w", err)
		}
		return false
	}
	rec := r.rr.RecordBatch()
	record, first := r.records, r.rows
	r.records++
	rows, err := r.bind(rec)
	if err != nil && rows == 0 {
		r.err, r.done = InStream(err, record, first), true
		var zero C
		r.cols = zero
		return false
	}
	if err != nil {
		r.failed = InStream(err, record, first)
	}
	r.rows += rec.NumRows()
	r.recRows = rows
	rec.Retain()
	r.rec = rec
	return true
}

// bind binds the columns of rec to r.cols and reports the rows bound: all
// of them; or, after a fault about a row, those before that row, with the
// fault; or none, with a fault about the record.
func (r *ColumnsReader[C]) bind(rec arrow.RecordBatch) (int, error) {
	dst := reflect.ValueOf(&r.cols).Elem()
	_, err, aboutRow := r.plan.bindRows(rec, r.schema, dst, -1)
	switch {
	case err == nil:
		return int(rec.NumRows()), nil
	case !aboutRow:
		return 0, err
	}
	k, err := firstFault(int(rec.NumRows()), err, func(k int) (error, bool) {
		held, err, aboutRow := r.plan.bindRows(rec, r.schema, reflect.New(dst.Type()).Elem(), k)
		releaseArrays(held)
		return err, aboutRow
	})
	if k <= 0 {
		return 0, err
	}
	cut, again, _ := r.plan.bindRows(rec, r.schema, dst, k)
	if again != nil { // the prefix validated a moment ago
		return 0, again
	}
	r.cut = cut
	return k, err
}

// Columns is the columns of the current record, valid until the next call
// to Next or Release.
func (r *ColumnsReader[C]) Columns() C { return r.cols }

// All yields the columns of each record, one C per record, records without
// rows included. An error ends the sequence: it is yielded once, last,
// after the records before it, with the zero C; a clean end yields no
// error. A C is valid until the next iteration.
func (r *ColumnsReader[C]) All() iter.Seq2[C, error] {
	return func(yield func(C, error) bool) {
		for r.Next() {
			if !yield(r.cols, nil) {
				return
			}
		}
		if r.err != nil {
			var zero C
			yield(zero, r.err)
		}
	}
}

// Windows yields the columns of the records in windows of at most size
// rows, each a window of one record: a record is validated once, when it
// is reached, then cut into windows with the columns' Slice, which does
// not validate again. A window is zero-copy, so it never spans two
// records: every window is full but the last of each record, and a record
// without rows yields none. An arrow.Array field of a window is a slice of
// the record's array, released with the window. (Reader.Pages, which
// copies rows, cuts exact-size pages across records instead.)
//
// A window is valid until the next iteration: do not keep it, nor anything
// read from it without copying, past that. An error ends the sequence,
// yielded once after the windows before it; a clean end yields no error.
func (r *ColumnsReader[C]) Windows(size int) iter.Seq2[C, error] {
	return func(yield func(C, error) bool) {
		var zero C
		if size <= 0 {
			yield(zero, fmt.Errorf("arrowmap: page size %d is not positive", size))
			return
		}
		var page C
		fields := r.plan.pageFields(reflect.ValueOf(&page).Elem(), reflect.ValueOf(&r.cols).Elem())
		for r.Next() {
			rows := r.recRows
			if rows <= size {
				if rows > 0 && !yield(r.cols, nil) {
					return
				}
				continue
			}
			for i := 0; i < rows; i += size {
				r.releasePage()
				var err error
				if r.pageArrays, err = cutPage(fields, i, min(i+size, rows), r.pageArrays); err != nil {
					r.err, r.failed, r.done = InStream(err, r.records-1, r.rows-r.rec.NumRows()), nil, true
					yield(zero, r.err)
					return
				}
				if !yield(page, nil) {
					return
				}
				if r.rr == nil { // Released in the loop.
					break
				}
			}
		}
		if r.err != nil {
			yield(zero, r.err)
		}
	}
}

// Err is the error that ended reading: nil while records remain and after
// a clean end, else an *Error, the source's error wrapped, or ErrClosed
// when Release came before the end or a call came after it.
func (r *ColumnsReader[C]) Err() error { return r.err }

// Release releases the current record and the record reader. Every read
// after it (Next, All, Windows) reports ErrClosed. Err reports how reading
// had ended — nil after a clean end, the error — or ErrClosed when Release
// came first, and ErrClosed after a read after Release.
func (r *ColumnsReader[C]) Release() {
	if r.rr == nil {
		return
	}
	r.releaseCurrent()
	if !r.done {
		r.err, r.done = closedError(), true
	}
	r.rr.Release()
	r.rr = nil
}

func (r *ColumnsReader[C]) releaseCurrent() {
	r.releasePage()
	var zero C
	r.cols = zero
	releaseArrays(r.cut)
	r.cut = nil
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *ColumnsReader[C]) releasePage() {
	for i, arr := range r.pageArrays {
		arr.Release()
		r.pageArrays[i] = nil
	}
	r.pageArrays = r.pageArrays[:0]
}
