package mapper

import (
	"fmt"
	"iter"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ColumnsReader binds the columns of each record of an array.RecordReader
// to a struct C, as Columns does: one C per record (Next and Columns), or
// per page of a record (Pages), each record validated once.
//
// The C that Columns returns aliases the current record, which the
// ColumnsReader holds until the next call to Next or Release: do not keep
// it, nor anything read from it without copying, past that.
//
// A ColumnsReader is not safe for concurrent use.
type ColumnsReader[C any] struct {
	rr   array.RecordReader
	plan *columnsPlan
	rec  arrow.RecordBatch // the current record, retained
	cols C
	err  error
	done bool
	// The arrow.Array fields of the page last yielded, sliced from rec's.
	pageArrays []arrow.Array
}

// NewColumnsReader checks rr's schema against C (as Columns does) before
// any record is read. The ColumnsReader retains rr until Release.
func NewColumnsReader[C any](rr array.RecordReader, opts ...Option) (*ColumnsReader[C], error) {
	if rr == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record reader")
	}
	p, err := cachedColumnsPlan(reflect.TypeFor[C](), rr.Schema(), newOptions(opts))
	if err != nil {
		return nil, err
	}
	rr.Retain()
	return &ColumnsReader[C]{rr: rr, plan: p}, nil
}

// Next moves to the next record and binds its columns. It reports false at
// the end of the records or on an error: see Err.
func (r *ColumnsReader[C]) Next() bool {
	r.releaseCurrent()
	if r.done {
		return false
	}
	if !r.rr.Next() {
		r.done = true
		if err := r.rr.Err(); !endOfRecords(err) {
			r.err = fmt.Errorf("arrowmap: reading records: %w", err)
		}
		return false
	}
	rec := r.rr.RecordBatch()
	if err := r.plan.bind(rec, reflect.ValueOf(&r.cols).Elem()); err != nil {
		r.err, r.done = err, true
		var zero C
		r.cols = zero
		return false
	}
	rec.Retain()
	r.rec = rec
	return true
}

// Columns is the columns of the current record, valid until the next call
// to Next or Release.
func (r *ColumnsReader[C]) Columns() C { return r.cols }

// Pages yields the columns of the records in pages of at most size rows,
// each page a window of one record: a record is validated once, when it is
// reached, then cut into pages with the columns' Slice, which does not
// validate again. A page is zero-copy, so it never spans two records: every
// page is full but the last of each record, and a record without rows
// yields none. An arrow.Array field of a page is a slice of the record's
// array, released with the page.
//
// A page is valid until the next iteration: do not keep it, nor anything
// read from it without copying, past that. An error ends the sequence,
// after the pages before it.
func (r *ColumnsReader[C]) Pages(size int) iter.Seq2[C, error] {
	return func(yield func(C, error) bool) {
		var zero C
		if size <= 0 {
			yield(zero, fmt.Errorf("arrowmap: page size %d is not positive", size))
			return
		}
		var page C
		fields := r.plan.pageFields(reflect.ValueOf(&page).Elem(), reflect.ValueOf(&r.cols).Elem())
		for r.Next() {
			rows := int(r.rec.NumRows())
			if rows <= size {
				if rows > 0 && !yield(r.cols, nil) {
					return
				}
				continue
			}
			for i := 0; i < rows; i += size {
				r.releasePage()
				r.pageArrays = cutPage(fields, i, min(i+size, rows), r.pageArrays)
				if !yield(page, nil) {
					return
				}
			}
		}
		if r.err != nil {
			yield(zero, r.err)
		}
	}
}

// Err is the error that ended Next, nil at the end of the records.
func (r *ColumnsReader[C]) Err() error { return r.err }

// Release releases the current record and the record reader. Next reports
// false afterwards.
func (r *ColumnsReader[C]) Release() {
	if r.rr == nil {
		return
	}
	r.releaseCurrent()
	r.done = true
	r.rr.Release()
	r.rr = nil
}

func (r *ColumnsReader[C]) releaseCurrent() {
	r.releasePage()
	var zero C
	r.cols = zero
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
