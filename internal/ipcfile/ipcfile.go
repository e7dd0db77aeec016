// Package ipcfile adapts arrow-go's IPC file reader to an
// array.RecordReader: package ipc reads files through it, and mapper's
// deprecated FileRecords forwards to it. It imports nothing of
// arrowmap's.
package ipcfile

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Records reads the record batches of f in order. It does not take
// ownership of f: close f after releasing the adapter. A panic of f on a
// malformed record is an error of Next, never the caller's panic.
func Records(f *ipc.FileReader) array.RecordReader { return CheckedRecords(f, nil) }

// CheckedRecords is Records, with check, when not nil, asked before
// record i is read: its error is the error of Next, and the record is
// not read.
func CheckedRecords(f *ipc.FileReader, check func(i int) error) array.RecordReader {
	r := &records{f: f, check: check}
	r.refs.Store(1)
	return r
}

type records struct {
	f     *ipc.FileReader
	check func(i int) error
	refs  atomic.Int64
	next  int
	rec   arrow.RecordBatch
	err   error
}

func (r *records) Retain() { r.refs.Add(1) }

func (r *records) Release() {
	if r.refs.Add(-1) == 0 && r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *records) Schema() *arrow.Schema { return r.f.Schema() }

func (r *records) Next() bool {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	if r.err != nil || r.next >= r.f.NumRecords() {
		return false
	}
	if r.check != nil {
		if err := r.check(r.next); err != nil {
			r.err = err
			return false
		}
	}
	// RecordBatchAt hands the record over, so that it outlives the next one
	// for whoever retained it; RecordBatch keeps it and releases it itself.
	rec, err := r.recordAt(r.next)
	if err != nil {
		r.err = err
		return false
	}
	r.next++
	r.rec = rec
	return true
}

// recordAt is f's record i, a panic of arrow-go's (which indexes the
// flatbuffers of a message as it finds them) turned into an error.
func (r *records) recordAt(i int) (rec arrow.RecordBatch, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("malformed IPC data: %s", strings.Join(strings.Fields(fmt.Sprint(p)), " "))
		}
	}()
	return r.f.RecordBatchAt(i)
}

func (r *records) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, for the older name in array.RecordReader.
func (r *records) Record() arrow.RecordBatch { return r.rec }

func (r *records) Err() error { return r.err }
