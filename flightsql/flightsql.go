// Package flightsql runs Flight SQL queries into rows of Go struct types,
// and ingests rows of them into tables: SQL text or a prepared statement
// whose parameters are a []P encoded with mapper.Encode, each result read
// from every endpoint where it lives (package flight). It imports
// arrow-go's flightsql client, and nothing of Parquet or ADBC.
//
//	client, err := flightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(creds))
//	…
//	c := amflightsql.Conn{Client: client}
//	r, err := amflightsql.QueryWith[Summary](ctx, c,
//		"SELECT region, SUM(amount) AS total FROM orders WHERE amount > ? GROUP BY region",
//		[]MinAmount{{Amount: 10}})
//	if err != nil { … }
//	defer r.Release() // ends the streams and closes the prepared statement
//	summaries, err := r.ReadAll()
//
// Its entry points, by verb: Query and QueryWith (rows of T, with
// parameters from a []P), Ingest, IngestSeq and IngestPages (rows into a
// Table: a slice, a sequence of rows, a sequence of pages). The queries end with ...ReadOption, the ingests with
// ...WriteOption: mapper options, checked at the call (mapper.Allocator
// for the records read).
//
// Its name is arrow-go's flightsql package's too; import one of them under
// another name, as above.
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package flightsql

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is what the queries of this package take after their
// positional arguments: a mapper.ReadOption (mapper.NewReader's options,
// and mapper.Allocator for the records read and the parameters encoded).
// WriteOption is what an ingest takes: a mapper.WriteOption. The package
// has no config of its own. An option of the other direction does not
// compile; one of the right direction that an entry point does not take
// is refused at the call, an ErrOption *mapper.Error naming the entry
// point and the option.
type ReadOption = mapper.ReadOption

// WriteOption is what an ingest takes: see ReadOption.
type WriteOption = mapper.WriteOption

// queryCall is what the options given to a query say.
type queryCall struct {
	alloc  mapper.AllocatorOption // the last given, and whether one was
	hasMem bool
	ratio  *mapper.MaxExpansionOption
	decode []mapper.ReadOption  // all but Allocator
	encode []mapper.WriteOption // SnakeCase and As, which act on the parameters too
}

// parseQuery sorts the options of a query.
func parseQuery(opts []ReadOption) queryCall {
	var c queryCall
	for _, o := range opts {
		switch o := o.(type) {
		case nil:
		case mapper.AllocatorOption:
			c.alloc, c.hasMem = o, true
		default:
			if r, ok := o.(mapper.MaxExpansionOption); ok {
				c.ratio = &r
			}
			c.decode = append(c.decode, o)
			if w, ok := o.(mapper.WriteOption); ok {
				c.encode = append(c.encode, w)
			}
		}
	}
	return c
}

// mem is the allocator of the call: mapper.Allocator's, else c's.
func (q queryCall) mem(c Conn) memory.Allocator {
	if q.hasMem && q.alloc.Allocator() != nil {
		return q.alloc.Allocator()
	}
	return c.alloc()
}

// Conn is a Flight SQL client and how the endpoints of its results are
// read: Source.Client defaults to Client.Client.
type Conn struct {
	Client *flightsql.Client
	Source amflight.Source
}

// source is c.Source with its client defaulted to the server the queries
// go to.
func (c Conn) source() amflight.Source {
	src := c.Source
	if src.Client == nil {
		src.Client = c.Client.Client
	}
	return src
}

// alloc is the allocator of what this package encodes for c's client (the
// parameters of a statement, the batches of an ingest) and of the records
// it reads, unless mapper.Allocator is given.
func (c Conn) alloc() memory.Allocator {
	if c.Client.Alloc != nil {
		return c.Client.Alloc
	}
	return memory.DefaultAllocator
}

var errNoClient = errors.New("arrowmap/flightsql: Conn has no Client")

// Query runs query and reads its result, every endpoint of it, as rows of
// T: the schema is checked against T before any row is read.
//
// The options are those of mapper.NewReader, and mapper.Allocator for the
// records read (without it, the allocator of c.Client, or
// memory.DefaultAllocator when it has none). An error of the server — one
// that refuses the query, or a result whose first stream fails — is
// returned wrapped with the query, and keeps its gRPC status (status.Code
// works on it).
func Query[T any](ctx context.Context, c Conn, query string, opts ...ReadOption) (*mapper.Reader[T], error) {
	call := parseQuery(opts)
	if c.Client == nil {
		return nil, errNoClient
	}
	info, err := c.Client.Execute(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: executing %s: %w", quoted(query), err)
	}
	r, err := amflight.Open[T](ctx, c.source(), info, append(call.decode, mapper.Allocator(call.mem(c)))...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: reading the result of %s: %w", quoted(query), err)
	}
	return r, nil
}

// QueryWith prepares query, binds params (one row of parameters per
// element, encoded with mapper.Encode) and reads the result as rows of T.
//
// When the server describes the statement's parameters, params must match
// them before anything is bound: as many columns as parameters, in their
// order, each of the parameter's Arrow type and, unless the server leaves
// it unnamed, of its name. A mismatch is an *mapper.Error whose Column
// names the parameter. When the server does not describe them (arrow-go's
// SQLite example server does not), params are bound as they are.
//
// params are encoded, and the results read, with the allocator of
// mapper.Allocator; without it, with the allocator of c.Client
// (memory.DefaultAllocator when it has none). Each row of params
// runs the statement once; servers return the results
// one after the other, as one result. An empty params runs nothing, as in
// adbc and duckdb: the Reader is empty, its schema T's own
// (mapper.SchemaOf[T]).
//
// The prepared statement is closed when the result has been read to its
// end (a failure to close it is then the Reader's error), when the Reader
// is released before that, or at once when QueryWith fails. Options are as
// for Query; SnakeCase and As encode the parameters too.
func QueryWith[T, P any](ctx context.Context, c Conn, query string, params []P, opts ...ReadOption) (*mapper.Reader[T], error) {
	call := parseQuery(opts)
	if c.Client == nil {
		return nil, errNoClient
	}
	mem := call.mem(c)
	rec, err := mapper.Encode(params, append(call.encode, mapper.Allocator(mem))...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: the parameters of %s: %w", quoted(query), err)
	}
	defer rec.Release() // the statement retains what it binds
	if rec.NumRows() == 0 {
		return mapper.EmptyReader[T](call.decode...)
	}

	stmt, err := c.Client.Prepare(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: preparing %s: %w", quoted(query), err)
	}
	prepared := newPreparedStatement(ctx, stmt)
	defer prepared.release() // the records below hold their own reference

	if want := stmt.ParameterSchema(); want != nil {
		if err := checkParameters(want, rec); err != nil {
			return nil, fmt.Errorf("arrowmap/flightsql: the parameters of %s: %w", quoted(query), err)
		}
	}
	stmt.SetParameters(rec)
	info, err := stmt.Execute(ctx)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: executing %s: %w", quoted(query), err)
	}
	readOpts := []ReadOption{mapper.Allocator(mem)}
	if call.ratio != nil {
		readOpts = append(readOpts, *call.ratio) // for the messages Records reads
	}
	rr, err := amflight.OpenRecords(ctx, c.source(), info, readOpts...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: reading the result of %s: %w", quoted(query), err)
	}
	records := prepared.records(rr)
	defer records.Release() // the Reader retains its own reference
	r, err := mapper.NewReader[T](records, call.decode...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/flightsql: reading the result of %s: %w", quoted(query), err)
	}
	return r, nil
}

// quoted is query as errors show it: quoted, and cut after its first 80
// bytes, so that a generated statement does not drown the error.
func quoted(query string) string {
	const show = 80
	if len(query) <= show {
		return strconv.Quote(query)
	}
	cut := show
	for cut > 0 && !utf8.RuneStart(query[cut]) {
		cut--
	}
	return strconv.Quote(query[:cut]) + "…"
}
