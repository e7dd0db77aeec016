package adbc

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/batches"
	"github.com/arrowmap/arrowmap/mapper"
)

// Table names an ingest target and says what to do with it: ADBC's
// ingest options. A field a driver does not take (a catalog, say) is the
// driver's error at its option, naming it.
type Table struct {
	// Catalog and Schema, when empty, set no option: the driver's
	// defaults.
	Catalog, Schema, Name string
	// Temporary asks the driver for a temporary table.
	Temporary bool
	// Mode is whether the table must exist, must not, or is replaced.
	Mode IngestMode
}

// IngestMode says what an ingest does with its table, whether it exists
// or not: ADBC's ingest mode option. The same modes are flightsql's and
// duckdb's.
type IngestMode int

const (
	// Append appends the rows to the table, which must exist.
	Append IngestMode = iota
	// Create creates the table, which must not exist, with the rows
	// (mapper.SchemaOf[T] is its schema).
	Create
	// CreateAppend creates the table if it does not exist, and appends
	// the rows to it.
	CreateAppend
	// Replace drops the table if it exists, and creates it anew with the
	// rows.
	Replace
)

// String is the mode's name.
func (m IngestMode) String() string {
	switch m {
	case Append:
		return "Append"
	case Create:
		return "Create"
	case CreateAppend:
		return "CreateAppend"
	case Replace:
		return "Replace"
	}
	return fmt.Sprintf("IngestMode(%d)", int(m))
}

// option is m as ADBC's ingest mode option's value.
func (m IngestMode) option() (string, error) {
	switch m {
	case Append:
		return adbc.OptionValueIngestModeAppend, nil
	case Create:
		return adbc.OptionValueIngestModeCreate, nil
	case CreateAppend:
		return adbc.OptionValueIngestModeCreateAppend, nil
	case Replace:
		return adbc.OptionValueIngestModeReplace, nil
	}
	return "", fmt.Errorf("no ingest mode %v", m)
}

// IngestBatchRows is the most rows Ingest and IngestSeq put in one record:
// an input longer than that is encoded a record at a time, as the driver
// reads them, so that its Arrow form is never in memory all at once.
const IngestBatchRows = 16 << 10

// ingestBatchRows is IngestBatchRows, which tests make small.
var ingestBatchRows = IngestBatchRows

// Ingest writes rows into table in bulk, through the statement's ingest
// options, and returns the rows written as the driver reports them (-1
// when it does not know). The rows are encoded with mapper.Encode
// (SchemaOf[T] is the table's schema when it is created): up to
// IngestBatchRows as one bound record, more as a bound stream of records
// of that many rows.
//
// A value that does not fit its column is mapper's *Error naming the
// field and the row (counted from the start of rows). With a stream, such
// a value past the first record stops the stream where it is: the records
// before it were sent, and whether the table keeps them is the driver's
// (a driver without transactions may). A driver without bulk ingest (ADBC's
// Flight SQL driver, as of v1.9.0) fails at the target option, with an
// adbc.Error of StatusNotImplemented; ExecWith with an INSERT is the way
// there.
//
// Ingest takes the options of mapper.Encode.
func Ingest[T any](ctx context.Context, cnxn adbc.Connection, table Table, rows []T, opts ...WriteOption) (int64, error) {
	const entry = "adbc.Ingest"
	if len(rows) > ingestBatchRows {
		return ingestStream(ctx, entry, cnxn, table, batches.Cut(batches.One(rows), ingestBatchRows), opts)
	}
	rec, err := mapper.Encode(rows, opts...)
	if err != nil {
		return 0, err
	}
	// The driver holds its own reference while bound; ours goes once the
	// statement is closed, whatever the driver did with it.
	defer rec.Release()
	stmt, err := ingestStatement(entry, cnxn, table)
	if err != nil {
		return 0, err
	}
	if err := stmt.Bind(ctx, rec); err != nil {
		_ = stmt.Close()
		return 0, ingestError(entry, table.Name, "Bind", err)
	}
	return ingestUpdate(ctx, entry, table.Name, stmt, nil)
}

// IngestSeq is Ingest of the rows of a sequence, read as the driver
// reads the stream, IngestBatchRows at a time: the rows of another
// engine's result go straight into a table, for example,
//
//	n, err := adbc.IngestSeq(ctx, cnxn, adbc.Table{Name: "orders"}, r.All())
//
// An error of the sequence stops the stream where it is (as a value that
// does not fit its column does: see Ingest) and is returned, wrapped.
// Breaking out of the sequence early is IngestSeq's to do, once the driver
// has finished with the stream.
func IngestSeq[T any](ctx context.Context, cnxn adbc.Connection, table Table, rows iter.Seq2[T, error], opts ...WriteOption) (int64, error) {
	const entry = "adbc.IngestSeq"
	if rows == nil {
		return 0, fmt.Errorf("arrowmap/adbc: %s into %q: nil sequence", entry, table.Name)
	}
	return ingestStream(ctx, entry, cnxn, table, batches.Gather(rows, ingestBatchRows), opts)
}

// IngestPages is IngestSeq of the pages of rows that pages yields, in
// order, such as the pages of a mapper.Reader: each page is encoded as the
// driver reads the stream, a record of at most IngestBatchRows rows at a
// time. An error of the sequence stops the stream as IngestSeq's does.
func IngestPages[T any](ctx context.Context, cnxn adbc.Connection, table Table, pages iter.Seq2[[]T, error], opts ...WriteOption) (int64, error) {
	const entry = "adbc.IngestPages"
	if pages == nil {
		return 0, fmt.Errorf("arrowmap/adbc: %s into %q: nil sequence", entry, table.Name)
	}
	return ingestStream(ctx, entry, cnxn, table, batches.Cut(pages, ingestBatchRows), opts)
}

// sequenceError is the error a sequence of rows yielded.
type sequenceError struct{ err error }

func (e *sequenceError) Error() string { return "the sequence of rows: " + e.err.Error() }
func (e *sequenceError) Unwrap() error { return e.err }

// ingestStream ingests the rows of chunks, none of them empty, as a bound
// stream of records.
func ingestStream[T any](ctx context.Context, entry string, cnxn adbc.Connection, table Table, chunks iter.Seq2[[]T, error], opts []mapper.WriteOption) (int64, error) {
	next, stop := iter.Pull2(chunks)
	recs, err := newRowBatches(func() ([]T, error) {
		rows, err, ok := next()
		if !ok {
			return nil, nil
		}
		if err != nil {
			return nil, &sequenceError{err}
		}
		return rows, nil
	}, stop, opts)
	if err != nil {
		stop()
		return 0, err
	}
	// Whatever the driver retains, the rows are let go once it is done:
	// finish releases the Builder and stops the sequence, and our
	// reference goes after the statement is closed.
	defer recs.Release()
	defer recs.finish()
	stmt, err := ingestStatement(entry, cnxn, table)
	if err != nil {
		return 0, err
	}
	if err := stmt.BindStream(ctx, recs); err != nil {
		_ = stmt.Close()
		return 0, ingestError(entry, table.Name, "BindStream", err)
	}
	return ingestUpdate(ctx, entry, table.Name, stmt, recs.Err)
}

// ingestStatement opens a statement that ingests into table, with an
// option for each of its fields that is set.
func ingestStatement(entry string, cnxn adbc.Connection, table Table) (adbc.Statement, error) {
	if table.Name == "" {
		return nil, fmt.Errorf("arrowmap/adbc: %s: the Table has no Name", entry)
	}
	mode, err := table.Mode.option()
	if err != nil {
		return nil, fmt.Errorf("arrowmap/adbc: %s into %q: %w", entry, table.Name, err)
	}
	stmt, err := newStatement(entry, cnxn)
	if err != nil {
		return nil, err
	}
	options := []ingestOption{
		{"Name", adbc.OptionKeyIngestTargetTable, table.Name},
		{"Mode", adbc.OptionKeyIngestMode, mode},
	}
	if table.Catalog != "" {
		options = append(options, ingestOption{"Catalog", adbc.OptionValueIngestTargetCatalog, table.Catalog})
	}
	if table.Schema != "" {
		options = append(options, ingestOption{"Schema", adbc.OptionValueIngestTargetDBSchema, table.Schema})
	}
	if table.Temporary {
		options = append(options, ingestOption{"Temporary", adbc.OptionValueIngestTemporary, adbc.OptionValueEnabled})
	}
	for _, o := range options {
		if err := stmt.SetOption(o.key, o.value); err != nil {
			_ = stmt.Close()
			return nil, ingestError(entry, table.Name, fmt.Sprintf("Table.%s: SetOption %s %s", o.field, o.key, o.value), err)
		}
	}
	return stmt, nil
}

// ingestOption is an ADBC option of an ingest, and the Table's field it
// comes from, which its error names.
type ingestOption struct{ field, key, value string }

// ingestUpdate executes stmt and closes it. An error of the bound stream,
// streamErr's (encoding a value, the sequence's), is the error, rather
// than what the driver made of the stream's early end.
func ingestUpdate(ctx context.Context, entry, table string, stmt adbc.Statement, streamErr func() error) (int64, error) {
	n, err := stmt.ExecuteUpdate(ctx)
	if streamErr != nil {
		if serr := streamErr(); serr != nil {
			_ = stmt.Close()
			var se *sequenceError
			if errors.As(serr, &se) {
				return 0, fmt.Errorf("arrowmap/adbc: %s into %q: %w", entry, table, serr)
			}
			return 0, serr
		}
	}
	if err != nil {
		_ = stmt.Close()
		return 0, ingestError(entry, table, "ExecuteUpdate", err)
	}
	if err := stmt.Close(); err != nil {
		return n, ingestError(entry, table, "Close", err)
	}
	return n, nil
}

func ingestError(entry, table, step string, err error) error {
	return fmt.Errorf("arrowmap/adbc: %s into %q: %s: %w", entry, table, step, err)
}

// rowBatches is an array.RecordReader of rows encoded a chunk at a time,
// when the driver asks for the next record, with one Builder.
type rowBatches[T any] struct {
	refs   atomic.Int64
	schema *arrow.Schema
	b      *mapper.Builder[T]
	chunks func() ([]T, error)
	stop   func()
	rec    arrow.RecordBatch
	rows   int   // rows encoded before the current chunk
	err    error // why the stream ended early
	done   bool
}

func newRowBatches[T any](chunks func() ([]T, error), stop func(), opts []mapper.WriteOption) (*rowBatches[T], error) {
	schema, err := mapper.SchemaOf[T](schemaOptions(opts)...)
	if err != nil {
		return nil, err
	}
	b, err := mapper.NewBuilder[T](opts...)
	if err != nil {
		return nil, err
	}
	r := &rowBatches[T]{schema: schema, b: b, chunks: chunks, stop: stop}
	r.refs.Store(1)
	return r, nil
}

func (r *rowBatches[T]) Schema() *arrow.Schema { return r.schema }

func (r *rowBatches[T]) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, which arrow-go's array.RecordReader still
// requires by its older name.
func (r *rowBatches[T]) Record() arrow.RecordBatch { return r.rec }

func (r *rowBatches[T]) Err() error { return r.err }

func (r *rowBatches[T]) Next() bool {
	r.releaseRecord()
	if r.done {
		return false
	}
	rows, err := r.chunks()
	if err == nil && len(rows) == 0 && r.rows == 0 {
		// No rows at all is one record of none, as Ingest binds for an
		// empty slice: a driver that learns the schema from the stream's
		// first record (arrow-go's ExecuteIngest sends nothing without
		// one) still creates the table.
		r.rec = r.b.NewRecordBatch()
		r.finish()
		return true
	}
	if err == nil && len(rows) > 0 {
		err = r.b.Append(rows...)
	}
	if err != nil || len(rows) == 0 {
		r.err = mapper.InStream(err, 0, int64(r.rows)) // the rows of the stream, not of its chunk
		r.finish()
		return false
	}
	r.rows += len(rows)
	r.rec = r.b.NewRecordBatch()
	return true
}

func (r *rowBatches[T]) releaseRecord() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

// finish ends the stream: no more records, the Builder released, the
// sequence stopped. It does not release the current record, which the
// driver may still be reading.
func (r *rowBatches[T]) finish() {
	if r.done {
		return
	}
	r.done = true
	r.b.Release()
	if r.stop != nil {
		r.stop()
	}
}

func (r *rowBatches[T]) Retain() { r.refs.Add(1) }

func (r *rowBatches[T]) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseRecord()
		r.finish()
	}
}
