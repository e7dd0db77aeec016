package duckdb

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/mapper"
)

// Query runs query on db and reads its result as rows of T: T is checked
// against the result's schema before any row is read (a mismatch is
// mapper's *Error naming the field and the column). The Reader holds one
// connection until it is released; its rows stream from DuckDB one chunk
// (2,048 rows) at a time. ctx governs the query and the reading of its
// rows: cancelled, the reader stops at the next chunk with ctx's error,
// every row before it delivered.
//
// Query takes a QueryConfig (how DuckDB exports the result) and the
// options of mapper.NewReader. DuckDB allocates the records, so
// mapper.Allocator is refused. A query with parameters is QueryWith's.
//
//	r, err := duckdb.Query[Order](ctx, db, "SELECT * FROM orders")
//	if err != nil { … }
//	defer r.Release()
//	orders, err := r.ReadAll()
func Query[T any, D DB](ctx context.Context, db D, query string, opts ...ReadOption) (*mapper.Reader[T], error) {
	const entry = "duckdb.Query"
	cfg, mopts, err := parseQuery(entry, opts, notAllocator)
	if err != nil {
		return nil, err
	}
	recs, err := queryRecords(ctx, entry, db, query, nil, cfg)
	if err != nil {
		return nil, err
	}
	defer recs.Release() // the Reader holds its own reference
	return mapper.NewReader[T](recs, mopts...)
}

// QueryWith runs query once for each element of params, its parameters
// ($1, ?) bound positionally from P's columns (mapper.SchemaOf[P]: P's
// fields in mapper's order and naming), and reads the results of every
// execution, one after the other in the order of params, as rows of T,
// as Query reads one. Each execution's result must have the first's
// schema, or the Reader stops there with an ErrTypeMismatch error: a
// parameter whose type the query leaves open (SELECT ?) takes its value's,
// DuckDB's NULL for a nil pointer, where a cast (?::BIGINT) fixes it.
//
// A field's values are bound as database/sql binds them with DuckDB's
// driver: every integer as an int64 (a uint64 past the largest int64 is
// refused, ErrOverflow), every float as a float64, strings, []byte, bool,
// time.Time (a timestamp or a date; a timestamp's nanoseconds, which
// DuckDB's driver would truncate to microseconds, are refused as Ingest
// refuses them, ErrOverflow), and NULL for a nil pointer. A field of any
// other kind (a list, a struct, a decimal, a duration…) is refused before
// anything runs, an ErrUnsupported *mapper.Error naming its column, rather
// than converted. P must have as many columns as the statement takes
// parameters (ErrTypeMismatch): DuckDB would drop the columns past them.
//
// An empty params runs nothing: the Reader is empty, and its schema is
// T's own (mapper.SchemaOf[T]), since DuckDB describes a result only by
// running the query.
//
// QueryWith takes Query's options; SnakeCase and As name and convert P's
// columns too.
//
//	r, err := duckdb.QueryWith[Order](ctx, db, "SELECT * FROM orders WHERE customer = ?", []struct{ Customer string }{{"ann"}, {"bob"}})
func QueryWith[T, P any, D DB](ctx context.Context, db D, query string, params []P, opts ...ReadOption) (*mapper.Reader[T], error) {
	const entry = "duckdb.QueryWith"
	cfg, mopts, err := parseQuery(entry, opts, notAllocator)
	if err != nil {
		return nil, err
	}
	args, err := bindings(params, encodeOptions(mopts))
	if err != nil {
		return nil, fmt.Errorf("arrowmap/duckdb: %s: the parameters of %s: %w", entry, quoteSQL(query), err)
	}
	if len(args) == 0 {
		return mapper.EmptyReader[T](mopts...)
	}
	recs, err := queryRecords(ctx, entry, db, query, args, cfg)
	if err != nil {
		return nil, err
	}
	defer recs.Release()
	return mapper.NewReader[T](recs, mopts...)
}

// QueryColumns runs query as Query does and reads its result as structs
// of typed columns (mapper.NewColumnsReader), record by record, without
// decoding rows. Its options are a QueryConfig and those of
// mapper.NewColumnsReader.
func QueryColumns[C any, D DB](ctx context.Context, db D, query string, opts ...ReadOption) (*mapper.ColumnsReader[C], error) {
	const entry = "duckdb.QueryColumns"
	cfg, mopts, err := parseQuery(entry, opts, columnsOption)
	if err != nil {
		return nil, err
	}
	recs, err := queryRecords(ctx, entry, db, query, nil, cfg)
	if err != nil {
		return nil, err
	}
	defer recs.Release()
	return mapper.NewColumnsReader[C](recs, mopts...)
}

// QueryRecords runs query as Query does and returns its result as DuckDB
// exports it, the records themselves; releasing the reader returns its
// connection. Its one option is a QueryConfig.
func QueryRecords[D DB](ctx context.Context, db D, query string, opts ...ReadOption) (array.RecordReader, error) {
	const entry = "duckdb.QueryRecords"
	cfg, _, err := parseQuery(entry, opts, noMapperOption)
	if err != nil {
		return nil, err
	}
	return queryRecords(ctx, entry, db, query, nil, cfg)
}

// queryRecords runs query on a connection of db, exported as cfg says,
// once for each element of args, its parameters (once without any when
// args is nil). The reader owns the connection. Every query's first step,
// it is where a build without DuckDB's Arrow interface stops.
func queryRecords[D DB](ctx context.Context, entry string, db D, query string, args [][]any, cfg QueryConfig) (*records, error) {
	if err := needsArrow(entry); err != nil {
		return nil, err
	}
	s, err := open(ctx, entry, db)
	if err != nil {
		return nil, err
	}
	var first []any
	if len(args) > 0 {
		// DuckDB binds the parameters a statement names and ignores the
		// rest: a column of P past them would be dropped without a word.
		n, err := s.parameters(ctx, query)
		if err != nil {
			s.close()
			return nil, queryError(entry, query, err)
		}
		if n >= 0 && n != len(args[0]) {
			s.close()
			return nil, fmt.Errorf("arrowmap/duckdb: %s: %s takes %d parameters, and P has %d columns: %w",
				entry, quoteSQL(query), n, len(args[0]), mapper.ErrTypeMismatch)
		}
		first, args = args[0], args[1:]
	}
	rr, err := s.run(ctx, query, first, cfg)
	if err != nil {
		s.close()
		return nil, queryError(entry, query, err)
	}
	r := &records{
		ctx: ctx, entry: entry, query: query, cfg: cfg, rest: args,
		rr: rr, s: s, plain: rr.Schema(), schema: schemaWithExtensions(rr.Schema()),
	}
	r.executed = 1
	r.refs.Store(1)
	return r, nil
}

// run runs query once on the session's connection with params, exported
// as cfg says.
func (s *session) run(ctx context.Context, query string, params []any, cfg QueryConfig) (array.RecordReader, error) {
	restore, err := s.export(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("the export settings: %w", err)
	}
	rr, err := s.arrow.QueryContext(ctx, query, params...)
	// The result keeps the settings it was made with: they go back now.
	if rerr := restore(); rerr != nil && err == nil {
		rr.Release()
		err = fmt.Errorf("the export settings put back: %w", rerr)
	}
	if err != nil {
		return nil, err
	}
	return rr, nil
}

func queryError(entry, query string, err error) error {
	return fmt.Errorf("arrowmap/duckdb: %s %s: %w", entry, quoteSQL(query), err)
}

// quoteSQL is query as errors name it: on one line, its first 200 bytes.
func quoteSQL(query string) string {
	q := strings.Join(strings.Fields(query), " ")
	if len(q) > 200 {
		q = q[:200] + "…"
	}
	return fmt.Sprintf("%q", q)
}

// records is DuckDB's reader of a result, which owns the connection it
// runs on: the last Release releases the result and returns the
// connection. A goroutine of its own reads DuckDB's next record while the
// caller decodes this one (DuckDB's export is a cgo call per chunk, as
// long as decoding it), and runs the query's next execution, if any, when
// one result ends. Its records have their extension types back
// (extensions.go); its errors name the query.
type records struct {
	ctx          context.Context // of the executions after the first
	entry, query string
	cfg          QueryConfig
	rest         [][]any // the parameters of the executions still to run
	executed     int     // the executions run, the current one included

	rr    array.RecordReader // the current execution's, the fetching goroutine's
	s     *session
	refs  atomic.Int64
	plain *arrow.Schema // the first execution's, as DuckDB exports it
	// schema is plain with its extensions, nil where it names none.
	schema *arrow.Schema

	once  sync.Once // starts the reading ahead, at the first Next
	ahead chan fetched
	done  chan struct{}
	wg    sync.WaitGroup

	rec arrow.RecordBatch // the current record, ours to release
	err error
}

type fetched struct {
	rec arrow.RecordBatch
	err error
}

func (r *records) Schema() *arrow.Schema {
	if r.schema != nil {
		return r.schema
	}
	return r.plain
}

func (r *records) Next() bool {
	r.releaseRecord()
	if r.err != nil {
		return false
	}
	r.once.Do(r.start)
	got, ok := <-r.ahead
	if !ok {
		return false
	}
	if got.err != nil {
		r.err = got.err
		return false
	}
	r.rec = got.rec
	return true
}

// start starts reading DuckDB's records, one ahead of the caller.
func (r *records) start() {
	r.ahead = make(chan fetched, 1)
	r.done = make(chan struct{})
	r.wg.Add(1)
	go r.fetch()
}

func (r *records) fetch() {
	defer r.wg.Done()
	defer close(r.ahead)
	send := func(f fetched) bool {
		select {
		case r.ahead <- f:
			return true
		case <-r.done:
			if f.rec != nil {
				f.rec.Release()
			}
			return false
		}
	}
	for {
		for r.rr.Next() {
			rec := r.rr.RecordBatch()
			if r.schema == nil {
				rec.Retain()
			} else {
				var err error
				if rec, err = retype(rec, r.schema); err != nil {
					send(fetched{err: queryError(r.entry, r.query, err)})
					return
				}
			}
			if !send(fetched{rec: rec}) {
				return
			}
		}
		if err := r.rr.Err(); err != nil {
			send(fetched{err: queryError(r.entry, r.query, err)})
			return
		}
		if len(r.rest) == 0 {
			return
		}
		if err := r.next(); err != nil {
			send(fetched{err: err})
			return
		}
	}
}

// next runs the query's next execution, once the current one's result is
// released: DuckDB runs one query at a time on a connection.
func (r *records) next() error {
	params := r.rest[0]
	r.rest = r.rest[1:]
	r.rr.Release()
	rr, err := r.s.run(r.ctx, r.query, params, r.cfg)
	if err != nil {
		r.rr = nil
		return fmt.Errorf("arrowmap/duckdb: %s %s, the parameters of row %d: %w", r.entry, quoteSQL(r.query), r.executed, err)
	}
	r.rr = rr
	r.executed++
	if !rr.Schema().Equal(r.plain) {
		return fmt.Errorf("arrowmap/duckdb: %s %s: the result of the parameters of row %d is %s, not the first's %s: %w",
			r.entry, quoteSQL(r.query), r.executed-1, rr.Schema(), r.plain, mapper.ErrTypeMismatch)
	}
	return nil
}

func (r *records) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch, which arrow-go's array.RecordReader still
// requires by its older name.
func (r *records) Record() arrow.RecordBatch { return r.rec }

func (r *records) releaseRecord() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}

func (r *records) Err() error { return r.err }

func (r *records) Retain() { r.refs.Add(1) }

// Release, the last, stops the reading ahead and releases what it read,
// then DuckDB's result, and returns the connection.
func (r *records) Release() {
	if r.refs.Add(-1) != 0 {
		return
	}
	r.releaseRecord()
	if r.ahead != nil {
		close(r.done)
		for got := range r.ahead {
			if got.rec != nil {
				got.rec.Release()
			}
		}
		r.wg.Wait()
	}
	if r.rr != nil {
		r.rr.Release()
		if err := r.rr.Err(); err != nil && r.err == nil {
			r.err = queryError(r.entry, r.query, err)
		}
	}
	r.s.close()
}
