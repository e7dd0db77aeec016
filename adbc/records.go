package adbc

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// statementRecords is the record reader of a statement's result, which
// owns the statement: its last Release releases the driver's reader, then
// closes the statement, then releases the parameters that were bound to
// it, in the order ADBC wants them let go.
type statementRecords struct {
	array.RecordReader
	entry, query string
	stmt         adbc.Statement
	params       arrow.RecordBatch // nil when none were bound
	refs         atomic.Int64
}

func newStatementRecords(entry, query string, rr array.RecordReader, stmt adbc.Statement, params arrow.RecordBatch) *statementRecords {
	r := &statementRecords{RecordReader: rr, entry: entry, query: query, stmt: stmt, params: params}
	r.refs.Store(1)
	return r
}

func (r *statementRecords) Retain() { r.refs.Add(1) }

func (r *statementRecords) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	r.RecordReader.Release()
	// Release has no error to return: a statement that fails to close has
	// nothing left for the caller to act on.
	_ = r.stmt.Close()
	if r.params != nil {
		r.params.Release()
	}
}

// Err wraps the driver's error with the query it came from. The end of
// the records stays io.EOF itself (or nil), as mapper.SourceError wants it.
func (r *statementRecords) Err() error {
	err := r.RecordReader.Err()
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("arrowmap/adbc: %s %q: reading the result: %w", r.entry, shorten(r.query), err)
}
