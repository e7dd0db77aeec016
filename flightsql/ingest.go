package flightsql

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/arrowmap/arrowmap/internal/batches"
	"github.com/arrowmap/arrowmap/mapper"
)

// Table names an ingest target and says what to do with it.
type Table struct {
	// Catalog and Schema, when empty, are left unset: the server's
	// defaults.
	Catalog, Schema, Name string
	// Temporary asks the server for a temporary table.
	Temporary bool
	// Mode is whether the table must exist, must not, or is replaced:
	// the protocol's table definition options (its UNSPECIFIED, which each
	// server reads as it likes, is never sent).
	Mode IngestMode
	// Transaction, when set, ingests within it.
	Transaction []byte
	// Options are the protocol's free-form ingest options.
	Options map[string]string
}

// IngestMode says what an ingest does with its table, whether it exists
// or not. The same modes are adbc's and duckdb's.
type IngestMode int

const (
	// Append appends the rows to the table, which must exist.
	Append IngestMode = iota
	// Create creates the table, which must not exist, with the rows.
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

// definition is m as the protocol's table definition options.
func (m IngestMode) definition() (*flightsql.TableDefinitionOptions, error) {
	const (
		create = flightsql.TableDefinitionOptionsTableNotExistOptionCreate
		fail   = flightsql.TableDefinitionOptionsTableNotExistOptionFail
	)
	switch m {
	case Append:
		return &flightsql.TableDefinitionOptions{IfNotExist: fail, IfExists: flightsql.TableDefinitionOptionsTableExistsOptionAppend}, nil
	case Create:
		return &flightsql.TableDefinitionOptions{IfNotExist: create, IfExists: flightsql.TableDefinitionOptionsTableExistsOptionFail}, nil
	case CreateAppend:
		return &flightsql.TableDefinitionOptions{IfNotExist: create, IfExists: flightsql.TableDefinitionOptionsTableExistsOptionAppend}, nil
	case Replace:
		return &flightsql.TableDefinitionOptions{IfNotExist: create, IfExists: flightsql.TableDefinitionOptionsTableExistsOptionReplace}, nil
	}
	return nil, fmt.Errorf("no ingest mode %v", m)
}

// command is t as the protocol's ingest command; an empty Schema or
// Catalog is left unset, for the server's default.
func (t Table) command() (*flightsql.ExecuteIngestOpts, error) {
	def, err := t.Mode.definition()
	if err != nil {
		return nil, err
	}
	cmd := &flightsql.ExecuteIngestOpts{
		TableDefinitionOptions: def,
		Table:                  t.Name,
		Temporary:              t.Temporary,
		TransactionId:          t.Transaction,
		Options:                t.Options,
	}
	if t.Schema != "" {
		cmd.Schema = &t.Schema
	}
	if t.Catalog != "" {
		cmd.Catalog = &t.Catalog
	}
	return cmd, nil
}

// IngestBatchRows is the most rows an ingest encodes into one record
// batch: the Arrow memory of an ingest is that of one batch at a time,
// whatever the number of rows.
const IngestBatchRows = 64 << 10

// Ingest writes rows into table with ExecuteIngest and returns the number
// of rows the server says it wrote.
//
// The rows are encoded as mapper.Encode does, IngestBatchRows at a time,
// with the allocator of c.Client unless an Allocator option says
// otherwise; the options are those of mapper.NewBuilder. A row that does
// not fit its column is an *mapper.Error whose Row is its index in rows.
// When it is in the first batch, nothing is sent; past it, the stream is
// cancelled, so that the server sees an ingest that failed, not one that
// ended early (a server that does not ingest in a transaction may keep the
// batches it had received).
//
// No rows is one batch of no rows: the server learns the schema, and may
// create the table.
//
// An error of the server is returned wrapped with the table's name, with
// its gRPC status (status.Code works on it), along with the count of rows
// the server reports it wrote anyway.
func Ingest[T any](ctx context.Context, c Conn, table Table, rows []T, opts ...WriteOption) (int64, error) {
	return ingest("flightsql.Ingest", ctx, c, table, batches.One(rows), opts)
}

// IngestSeq is Ingest of the rows of a sequence, gathered IngestBatchRows
// at a time: the rows of another engine's result go straight into a table.
// An error of the sequence ends the ingest, as a row that does not fit
// does: it is returned wrapped, and the stream is cancelled.
func IngestSeq[T any](ctx context.Context, c Conn, table Table, rows iter.Seq2[T, error], opts ...WriteOption) (int64, error) {
	if rows == nil {
		return 0, fmt.Errorf("arrowmap/flightsql: flightsql.IngestSeq into %q: nil sequence", table.Name)
	}
	return ingest("flightsql.IngestSeq", ctx, c, table, batches.Gather(rows, IngestBatchRows), opts)
}

// IngestPages is Ingest of the pages of rows that pages yields, in order:
// for rows that are not in memory all at once, such as the pages of a
// mapper.Reader. Each page is encoded before the next is asked for, so a
// page may be a buffer that the sequence reuses. Small pages are gathered
// into batches of up to IngestBatchRows rows, large ones cut into them.
//
// An error that pages yields ends the ingest, as a row that does not fit
// does: it is returned wrapped, and the stream is cancelled. A row's
// *mapper.Error counts rows from the first page's first.
func IngestPages[T any](ctx context.Context, c Conn, table Table, pages iter.Seq2[[]T, error], opts ...WriteOption) (int64, error) {
	if pages == nil {
		return 0, fmt.Errorf("arrowmap/flightsql: flightsql.IngestPages into %q: nil sequence", table.Name)
	}
	return ingest("flightsql.IngestPages", ctx, c, table, pages, opts)
}

func ingest[T any](entry string, ctx context.Context, c Conn, table Table, pages iter.Seq2[[]T, error], opts []WriteOption) (int64, error) {
	if c.Client == nil {
		return 0, errNoClient
	}
	if table.Name == "" {
		return 0, fmt.Errorf("arrowmap/flightsql: %s: the Table has no Name", entry)
	}
	cmd, err := table.command()
	if err != nil {
		return 0, fmt.Errorf("arrowmap/flightsql: %s into %q: %w", entry, table.Name, err)
	}
	// c's allocator first, which mapper.Allocator, when given, replaces.
	b, err := mapper.NewBuilder[T](append([]WriteOption{mapper.Allocator(c.alloc())}, opts...)...)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next, stop := iter.Pull2(pages)
	defer stop()
	rr := &ingestRecords[T]{b: b, next: next, cancel: cancel}
	rr.refs.Store(1)
	defer rr.Release()

	// The first batch is encoded before the stream opens, so that a row of
	// it that does not fit, or a first page that fails, sends nothing.
	rr.first()
	if rr.err != nil {
		return 0, fmt.Errorf("arrowmap/flightsql: %s into %q: %w", entry, table.Name, rr.err)
	}
	n, err := c.Client.ExecuteIngest(ctx, rr, cmd)
	if rr.err != nil {
		err = rr.err
	}
	if err != nil {
		return n, fmt.Errorf("arrowmap/flightsql: %s into %q: %w", entry, table.Name, err)
	}
	return n, nil
}

// ingestRecords is an array.RecordReader of the pages of an ingest, encoded
// a batch of up to IngestBatchRows rows at a time.
type ingestRecords[T any] struct {
	b      *mapper.Builder[T]
	next   func() ([]T, error, bool)
	cancel context.CancelFunc // ends the stream when encoding fails
	refs   atomic.Int64

	schema  *arrow.Schema
	pending arrow.RecordBatch // the first batch, built before the stream
	rec     arrow.RecordBatch // the batch Next returned
	page    []T               // the rows of the current page not yet encoded
	rows    int               // rows encoded so far, to number a failing one
	done    bool
	err     error
}

// first builds the first batch, and takes the schema from it.
func (r *ingestRecords[T]) first() {
	rec := r.build()
	if r.err != nil {
		return
	}
	// Even of no rows, it is sent: arrow-go's client writes the schema with
	// the first batch, and a stream without one fails on the server.
	r.schema, r.pending = rec.Schema(), rec
}

// build encodes the next batch: nil at the end or on a failure, which is
// r.err. The first call returns a batch even of no rows.
func (r *ingestRecords[T]) build() arrow.RecordBatch {
	if r.err != nil || (r.done && r.schema != nil) {
		return nil
	}
	built := 0
	for built < IngestBatchRows {
		if len(r.page) == 0 {
			if r.done {
				break
			}
			page, err, ok := r.next()
			if !ok {
				r.done = true
				break
			}
			if err != nil {
				r.fail(fmt.Errorf("the sequence failed after %d rows: %w", r.rows, err))
				return nil
			}
			r.page = page
			continue
		}
		k := min(len(r.page), IngestBatchRows-built)
		if err := r.b.Append(r.page[:k]...); err != nil {
			// The Builder numbers rows from the first of its batch.
			r.fail(rowOf(err, r.rows-built))
			return nil
		}
		r.page = r.page[k:]
		built += k
		r.rows += k
	}
	if built == 0 && r.schema != nil {
		return nil
	}
	return r.b.NewRecordBatch()
}

// fail ends the ingest with err, and cancels its stream at once: a
// stream that ended cleanly would be a complete ingest to the server, so
// it must never end so after a failure, whatever the client does with the
// reader's error.
func (r *ingestRecords[T]) fail(err error) {
	r.err = err
	r.cancel()
}

// failure is the error of an ingest that failed on our side.
// rowOf is err, a Builder's error about a row of its batch, about that row
// counted from the first row of the ingest: first rows come before the
// batch.
func rowOf(err error, first int) error {
	var e *mapper.Error
	if !errors.As(err, &e) || e.Row < 0 {
		return err
	}
	moved := *e
	moved.Row += first
	return &moved
}

func (r *ingestRecords[T]) Schema() *arrow.Schema { return r.schema }

func (r *ingestRecords[T]) Next() bool {
	r.releaseRecord()
	if r.pending != nil {
		r.rec, r.pending = r.pending, nil
		return true
	}
	r.rec = r.build()
	return r.rec != nil
}

func (r *ingestRecords[T]) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, which arrow-go's array.RecordReader still
// requires by its older name.
func (r *ingestRecords[T]) Record() arrow.RecordBatch { return r.rec }

func (r *ingestRecords[T]) Err() error { return r.err }

func (r *ingestRecords[T]) releaseRecord() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *ingestRecords[T]) Retain() { r.refs.Add(1) }

func (r *ingestRecords[T]) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseRecord()
		if r.pending != nil {
			r.pending.Release()
			r.pending = nil
		}
		r.b.Release()
	}
}
