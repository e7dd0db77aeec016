package flightsql

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/arrowmap/arrowmap/mapper"
)

// closeTimeout bounds the ClosePreparedStatement action sent when a result
// is released or a QueryWith fails: neither has a context of its own, and
// a Release must not hang on a server that does not answer.
const closeTimeout = 10 * time.Second

// preparedStatement is a statement closed once, when the last of its
// references is released or when its result has been read to the end.
type preparedStatement struct {
	stmt *flightsql.PreparedStatement
	// ctx carries the values of the caller's context (its metadata,
	// tracing) without its cancellation: the statement is closed after
	// QueryWith has returned, or because its context was cancelled.
	ctx    context.Context
	refs   atomic.Int64
	closed atomic.Bool
}

func newPreparedStatement(ctx context.Context, stmt *flightsql.PreparedStatement) *preparedStatement {
	p := &preparedStatement{stmt: stmt, ctx: context.WithoutCancel(ctx)}
	p.refs.Store(1)
	return p
}

// close closes the statement on the server, the first time only.
func (p *preparedStatement) close() error {
	if p.closed.Swap(true) {
		return nil
	}
	ctx, cancel := context.WithTimeout(p.ctx, closeTimeout)
	defer cancel()
	if err := p.stmt.Close(ctx); err != nil {
		return fmt.Errorf("arrowmap/flightsql: closing the prepared statement: %w", err)
	}
	return nil
}

func (p *preparedStatement) release() {
	if p.refs.Add(-1) == 0 {
		_ = p.close() // released early or on a failure: nobody to report it to
	}
}

// records is rr, whose end closes the statement: it holds a reference to
// it, which its Release lets go.
func (p *preparedStatement) records(rr array.RecordReader) *preparedRecords {
	p.refs.Add(1)
	r := &preparedRecords{RecordReader: rr, stmt: p}
	r.refs.Store(1)
	return r
}

// preparedRecords is the result of a prepared statement. Its end closes the
// statement, and a failure to close it is its error: the result was read,
// but the server may still hold the statement. Its last Release ends the
// streams first, then lets go of the statement.
type preparedRecords struct {
	array.RecordReader
	stmt     *preparedStatement
	refs     atomic.Int64
	closeErr error
}

func (r *preparedRecords) Next() bool {
	if r.RecordReader.Next() {
		return true
	}
	r.closeErr = r.stmt.close()
	return false
}

func (r *preparedRecords) Err() error {
	err := r.RecordReader.Err()
	switch {
	case r.closeErr == nil:
		return err
	case err == nil || err == io.EOF:
		return r.closeErr
	default:
		// Reading failed first: that is the error; the statement is closed
		// as well as it could be.
		return err
	}
}

// RowsHint hands on the hint of the records (the FlightInfo's
// TotalRecords), which embedding alone would hide from mapper.Reader.
func (r *preparedRecords) RowsHint() int64 {
	if h, ok := r.RecordReader.(mapper.RowsHinter); ok {
		return h.RowsHint()
	}
	return -1
}

func (r *preparedRecords) Retain() { r.refs.Add(1) }

func (r *preparedRecords) Release() {
	if r.refs.Add(-1) == 0 {
		r.RecordReader.Release()
		r.stmt.release()
	}
}
