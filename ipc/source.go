package ipc

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
)

// records is the array.RecordReader the readers of this package read: an
// arrow-go reader whose panics on malformed input are errors, and whose
// last Release also closes what was opened for it (the file, the arrow-go
// file reader), so that a mapper.Reader built on it owns the file.
type records struct {
	rr    array.RecordReader
	name  string // the file or stream, for errors
	refs  atomic.Int64
	close func()
	err   error // a panic of rr, as an error
	// rows counts the rows of a file from its footer and record headers,
	// for RowsHint; nil for a stream, whose rows are not known ahead.
	rows func() int64
	hint *int64 // what rows counted, once
	size int64  // the file's bytes, for RowsHintBytes
}

var _ mapper.BackedRowsHinter = (*records)(nil)

// RowsHint is the rows of an IPC file, counted once from the record
// batches its footer lists and the length in each one's message header,
// so that ReadAll (and ReadFile) sizes its result once; -1 for a stream,
// or when the headers do not hold (reading the records then says why).
// The footer lists record blocks, not rows: counting reads every
// record's header, never its body.
func (r *records) RowsHint() int64 {
	if r.rows == nil {
		return -1
	}
	if r.hint == nil {
		n := r.rows()
		r.hint = &n
	}
	return *r.hint
}

// RowsHintBytes is the size of the IPC file whose rows RowsHint counts,
// which its records are read from, so that ReadAll trusts the count at
// once (mapper.BackedRowsHinter); -1 for a stream.
func (r *records) RowsHintBytes() int64 {
	if r.rows == nil {
		return -1
	}
	return r.size
}

func newRecords(rr array.RecordReader, name string, close func()) *records {
	r := &records{rr: rr, name: name, close: close}
	r.refs.Store(1)
	return r
}

func (r *records) Retain() { r.refs.Add(1) }

func (r *records) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	if r.close != nil {
		r.close()
		r.close = nil
	}
}

func (r *records) Schema() *arrow.Schema { return r.rr.Schema() }

func (r *records) Next() bool {
	if r.err != nil {
		return false
	}
	var ok bool
	if err := guard(func() error { ok = r.rr.Next(); return nil }); err != nil {
		r.err = fmt.Errorf("arrowmap/ipc: %s: %w", r.name, err)
		return false
	}
	return ok
}

func (r *records) RecordBatch() arrow.RecordBatch {
	if r.err != nil {
		return nil
	}
	return r.rr.RecordBatch()
}

// Record is RecordBatch, for the older name in array.RecordReader.
func (r *records) Record() arrow.RecordBatch { return r.RecordBatch() }

// Err is the error that ended the records, naming the file or stream; the
// end of them is io.EOF itself, or nil, as the arrow-go reader says.
func (r *records) Err() error {
	if r.err != nil {
		return r.err
	}
	err := r.rr.Err()
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("arrowmap/ipc: %s: %w", r.name, limitError(err))
}

// limitError is err as a *mapper.Error when it is a claim past the limit
// of mapper.MaxExpansion (an error wrapping mapper.ErrTooLarge), so that
// errors.As finds it as it finds every other limit of the readers; any
// other err as it is.
func limitError(err error) error {
	var e *mapper.Error
	if errors.Is(err, mapper.ErrTooLarge) && !errors.As(err, &e) {
		return &mapper.Error{Row: -1, Err: err}
	}
	return err
}

// guard runs f, which calls arrow-go's IPC readers or writers, and turns a
// panic of theirs into an error: they index the flatbuffers of a message
// as they find them, and corrupt input can send them out of range.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed IPC data: %s", oneLine(fmt.Sprint(p)))
		}
	}()
	return f()
}

// oneLine keeps a message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
