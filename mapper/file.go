package mapper

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// FileRecords adapts an IPC file reader to an array.RecordReader that
// reads its record batches in order, so that NewReader reads IPC files as
// it reads streams. It does not take ownership of f: close f after
// releasing the adapter.
func FileRecords(f *ipc.FileReader) array.RecordReader {
	return &fileRecords{f: f, refs: 1}
}

type fileRecords struct {
	f    *ipc.FileReader
	refs int64
	next int
	rec  arrow.RecordBatch
	err  error
}

func (r *fileRecords) Retain() { atomic.AddInt64(&r.refs, 1) }

func (r *fileRecords) Release() {
	if atomic.AddInt64(&r.refs, -1) == 0 && r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *fileRecords) Schema() *arrow.Schema { return r.f.Schema() }

func (r *fileRecords) Next() bool {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	if r.err != nil || r.next >= r.f.NumRecords() {
		return false
	}
	// RecordBatchAt hands the record over, so that it outlives the next one
	// for whoever retained it; RecordBatch keeps it and releases it itself.
	rec, err := r.f.RecordBatchAt(r.next)
	if err != nil {
		r.err = err
		return false
	}
	r.next++
	r.rec = rec
	return true
}

func (r *fileRecords) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, for the older name in array.RecordReader.
func (r *fileRecords) Record() arrow.RecordBatch { return r.rec }

func (r *fileRecords) Err() error { return r.err }
