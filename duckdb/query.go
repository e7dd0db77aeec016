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

// Query runs query on db with its arguments and reads its result as rows
// of T: T is checked against the result's schema before any row is read
// (a mismatch is mapper's *Error naming the field and the column). The
// Reader holds one connection until it is released; its rows stream from
// DuckDB one chunk (2,048 rows) at a time. ctx governs the query and the
// reading of its rows: cancelled, the reader stops at the next chunk with
// ctx's error, every row before it delivered.
//
// args are the query's parameters ($1, ?) and, among them, Query's
// options: a QueryConfig (how DuckDB exports the result) and the options
// of mapper.NewReader. DuckDB allocates the records, so mapper.Allocator
// is refused.
//
//	r, err := duckdb.Query[Order](ctx, db, "SELECT * FROM orders WHERE total > ?", 100)
//	if err != nil { … }
//	defer r.Release()
//	orders, err := r.ReadAll()
func Query[T any, D DB](ctx context.Context, db D, query string, args ...any) (*mapper.Reader[T], error) {
	const entry = "duckdb.Query"
	cfg, opts, params, err := splitArgs(entry, notAllocator, args)
	if err != nil {
		return nil, err
	}
	recs, err := queryRecords(ctx, entry, db, query, params, cfg)
	if err != nil {
		return nil, err
	}
	defer recs.Release() // the Reader holds its own reference
	return mapper.NewReader[T](recs, opts...)
}

// QueryColumns runs query as Query does and reads its result as structs
// of typed columns (mapper.NewColumnsReader), record by record, without
// decoding rows. Its options are a QueryConfig and those of
// mapper.NewColumnsReader.
func QueryColumns[C any, D DB](ctx context.Context, db D, query string, args ...any) (*mapper.ColumnsReader[C], error) {
	const entry = "duckdb.QueryColumns"
	cfg, opts, params, err := splitArgs(entry, columnsOption, args)
	if err != nil {
		return nil, err
	}
	recs, err := queryRecords(ctx, entry, db, query, params, cfg)
	if err != nil {
		return nil, err
	}
	defer recs.Release()
	return mapper.NewColumnsReader[C](recs, opts...)
}

// QueryRecords runs query as Query does and returns its result as DuckDB
// exports it, the records themselves; releasing the reader returns its
// connection. Its one option is a QueryConfig.
func QueryRecords[D DB](ctx context.Context, db D, query string, args ...any) (array.RecordReader, error) {
	const entry = "duckdb.QueryRecords"
	cfg, _, params, err := splitArgs(entry, noMapperOption, args)
	if err != nil {
		return nil, err
	}
	return queryRecords(ctx, entry, db, query, params, cfg)
}

// splitArgs divides the arguments of a query between its parameters and
// the entry point's options: a QueryConfig and the mapper options takes
// reports true for. An argument that is a WriteOption is refused: it can
// be no parameter DuckDB binds. Every query's first step, it is where a
// build without DuckDB's Arrow interface stops.
func splitArgs(entry string, takes func(mapper.ReadOption) bool, args []any) (QueryConfig, []mapper.ReadOption, []any, error) {
	if err := needsArrow(entry); err != nil {
		return QueryConfig{}, nil, nil, err
	}
	var opts []ReadOption
	params := make([]any, 0, len(args))
	for _, a := range args {
		switch o := a.(type) {
		case ReadOption:
			opts = append(opts, o)
		case WriteOption:
			return QueryConfig{}, nil, nil, mapper.OptionError(entry, o)
		default:
			params = append(params, a)
		}
	}
	cfg, mopts, err := parseQuery(entry, opts, takes)
	return cfg, mopts, params, err
}

// queryRecords runs query on a connection of db, exported as cfg says.
// The reader owns the connection.
func queryRecords[D DB](ctx context.Context, entry string, db D, query string, params []any, cfg QueryConfig) (*records, error) {
	s, err := open(ctx, entry, db)
	if err != nil {
		return nil, err
	}
	restore, err := s.export(ctx, cfg)
	if err != nil {
		s.close()
		return nil, fmt.Errorf("arrowmap/duckdb: %s: the export settings: %w", entry, err)
	}
	rr, err := s.arrow.QueryContext(ctx, query, params...)
	// The result keeps the settings it was made with: they go back now.
	if rerr := restore(); rerr != nil && err == nil {
		rr.Release()
		err = fmt.Errorf("the export settings put back: %w", rerr)
	}
	if err != nil {
		s.close()
		return nil, queryError(entry, query, err)
	}
	r := &records{entry: entry, query: query, rr: rr, s: s, schema: schemaWithExtensions(rr.Schema())}
	r.refs.Store(1)
	return r, nil
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
// long as decoding it). Its records have their extension types back
// (extensions.go); its errors name the query.
type records struct {
	entry, query string
	rr           array.RecordReader
	s            *session
	refs         atomic.Int64
	// schema is rr's with its extensions, nil where it names none.
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
	return r.rr.Schema()
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
	}
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
	r.rr.Release()
	if err := r.rr.Err(); err != nil && r.err == nil {
		r.err = queryError(r.entry, r.query, err)
	}
	r.s.close()
}
