package ipc

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
)

// checkedFileBatches reads the record batches of arrow-go's file reader f
// in order, with check, when not nil, asked before record i is read: its
// error is the error of Next, and the record is not read. It does not take
// ownership of f: close f after releasing it. A panic of f on a malformed
// record is an error of Next, never the caller's panic.
func checkedFileBatches(f *arrowipc.FileReader, check func(i int) error) array.RecordReader {
	r := &fileBatches{f: f, check: check}
	r.refs.Store(1)
	return r
}

// fileBatches is checkedFileBatches's reader.
type fileBatches struct {
	f     *arrowipc.FileReader
	check func(i int) error
	refs  atomic.Int64
	next  int
	rec   arrow.RecordBatch
	err   error
}

func (r *fileBatches) Retain() { r.refs.Add(1) }

func (r *fileBatches) Release() {
	if r.refs.Add(-1) == 0 && r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *fileBatches) Schema() *arrow.Schema { return r.f.Schema() }

func (r *fileBatches) Next() bool {
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
func (r *fileBatches) recordAt(i int) (rec arrow.RecordBatch, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("malformed IPC data: %s", strings.Join(strings.Fields(fmt.Sprint(p)), " "))
		}
	}()
	return r.f.RecordBatchAt(i)
}

func (r *fileBatches) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, for the older name in array.RecordReader.
func (r *fileBatches) Record() arrow.RecordBatch { return r.rec }

func (r *fileBatches) Err() error { return r.err }
