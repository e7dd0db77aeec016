package duckdb

import (
	"iter"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// stream is the array.RecordReader of the view an insert reads: records
// made by a goroutine of its own one ahead of DuckDB's read, so that
// encoding the next batch goes on beside DuckDB's writing of this one.
// DuckDB calls Next from its own threads, one call at a time.
type stream struct {
	schema *arrow.Schema
	refs   atomic.Int64
	next   chan streamed
	done   chan struct{}
	wg     sync.WaitGroup

	rec arrow.RecordBatch // the current record, Next's to release
	err error             // the error that ended the records, if one did
	// first is the record peek took, Next's first.
	first arrow.RecordBatch
	// stopped is set once stop has been called: a Next after it ends.
	stopped atomic.Bool
	once    sync.Once
}

type streamed struct {
	rec arrow.RecordBatch
	err error
}

// startStream starts making the records of recs, under schema.
func startStream(schema *arrow.Schema, recs iter.Seq2[arrow.RecordBatch, error]) *stream {
	s := &stream{schema: schema, next: make(chan streamed), done: make(chan struct{})}
	s.refs.Store(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(s.next)
		for rec, err := range recs {
			select {
			case s.next <- streamed{rec, err}:
			case <-s.done:
				if rec != nil {
					rec.Release()
				}
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *stream) Schema() *arrow.Schema { return s.schema }

// peek waits for the first record, which Next then gives first, and
// reports whether there is one: false where the records are none, or
// their first is an error (stop returns it).
func (s *stream) peek() bool {
	got, ok := <-s.next
	if !ok {
		return false
	}
	if got.err != nil {
		s.err = got.err
		return false
	}
	s.first = got.rec
	return true
}

func (s *stream) Next() bool {
	s.release()
	if s.err != nil || s.stopped.Load() {
		return false
	}
	if s.first != nil {
		s.rec, s.first = s.first, nil
		return true
	}
	got, ok := <-s.next
	if !ok {
		return false
	}
	if got.err != nil {
		s.err = got.err
		return false
	}
	s.rec = got.rec
	return true
}

func (s *stream) RecordBatch() arrow.RecordBatch { return s.rec }

// Record is RecordBatch, which arrow-go's array.RecordReader still
// requires by its older name.
func (s *stream) Record() arrow.RecordBatch { return s.rec }

func (s *stream) Err() error { return s.err }

func (s *stream) Retain() { s.refs.Add(1) }

func (s *stream) Release() {
	if s.refs.Add(-1) == 0 {
		s.release()
	}
}

func (s *stream) release() {
	if s.rec != nil {
		s.rec.Release()
		s.rec = nil
	}
}

// stop ends the making of records, releases those made and not read, and
// returns the error that ended them, if one did. DuckDB has let the view
// go by then (withView drops it and releases the stream first).
func (s *stream) stop() error {
	s.once.Do(func() {
		s.stopped.Store(true)
		close(s.done)
		for got := range s.next {
			if got.rec != nil {
				got.rec.Release()
			}
			if got.err != nil && s.err == nil {
				s.err = got.err
			}
		}
		s.wg.Wait()
		s.release()
		if s.first != nil {
			s.first.Release()
			s.first = nil
		}
	})
	return s.err
}
