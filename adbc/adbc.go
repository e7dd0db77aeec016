// Package adbc runs ADBC queries into rows of Go struct types and ingests
// rows of them in bulk, through any ADBC driver (Flight SQL, Snowflake,
// BigQuery, DuckDB, PostgreSQL): a statement's ExecuteQuery reader decoded
// into T, parameters bound from a []P encoded with mapper.Encode, and bulk
// ingest through Bind and the ingest target option. It imports
// github.com/apache/arrow-adbc/go/adbc only.
//
// The one call most users need:
//
//	r, err := adbc.Query[Order](ctx, cnxn, "SELECT id, total FROM orders")
//	if err != nil { … }
//	defer r.Release() // also closes the statement
//	orders, err := r.ReadAll()
//
// Its entry points, by verb: Query and QueryWith (rows of T, with
// parameters from a []P), Exec and ExecWith (a statement's affected rows),
// Ingest, IngestSeq and IngestPages (rows into a Table: a slice, a
// sequence of rows, a sequence of pages). Each
// ends with ...ReadOption or ...WriteOption: mapper options, checked at
// the call.
//
// Errors from the driver come back wrapped with the entry point and the
// ADBC call that failed; errors.As finds the driver's adbc.Error in them.
// A result that does not fit T is the *mapper.Error of mapper.NewReader,
// naming the field and the column, before any row is read.
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package adbc

import (
	"context"
	"fmt"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// Query runs query on cnxn and reads its result as rows of T: T is checked
// against the result's schema before any row is read. The statement lives
// as long as the Reader: releasing the Reader closes it (on an error, it is
// closed before Query returns). ctx governs the query and the reading of
// its rows, which a driver may stream after Query returns.
//
// Query takes the options of mapper.NewReader; the driver allocates the
// records, so Allocator is refused.
func Query[T any](ctx context.Context, cnxn adbc.Connection, query string, opts ...ReadOption) (*mapper.Reader[T], error) {
	const entry = "adbc.Query"
	if err := refuse(entry, opts, isAllocator); err != nil {
		return nil, err
	}
	stmt, err := newStatement(entry, cnxn)
	if err != nil {
		return nil, err
	}
	if err := stmt.SetSqlQuery(query); err != nil {
		_ = stmt.Close()
		return nil, adbcError(entry, query, "SetSqlQuery", err)
	}
	return read[T](ctx, entry, query, stmt, nil, opts)
}

// QueryWith prepares query, binds params (one row of parameters per
// element, in the order of P's columns) and reads the result as rows of
// T, as Query does. How a driver runs a query over several rows of
// parameters is the driver's: Flight SQL servers commonly run it once per
// row and concatenate the results. An empty params runs nothing, as in
// flightsql and duckdb: the Reader is empty, its schema T's own
// (mapper.SchemaOf[T]).
//
// When the driver reports the statement's parameter schema, P's schema
// (mapper.SchemaOf) must match it, parameter by parameter in position,
// before anything is bound: a mismatch is an ErrParameters *mapper.Error
// naming the parameter. A driver that does not know the parameter schema
// (ADBC's StatusNotImplemented) gets params as they are.
//
// The options are those of decoding T and of encoding P: each goes where
// it acts (Strict, ZeroCopy… to T; Allocator to P; SnakeCase and As to
// both).
func QueryWith[T, P any](ctx context.Context, cnxn adbc.Connection, query string, params []P, opts ...ReadOption) (*mapper.Reader[T], error) {
	const entry = "adbc.QueryWith"
	decodeOpts, encodeOpts := splitQuery(opts)
	rec, err := mapper.Encode(params, encodeOpts...)
	if err != nil {
		return nil, err
	}
	if rec.NumRows() == 0 {
		rec.Release()
		if err := checkConnection(entry, cnxn); err != nil {
			return nil, err
		}
		return mapper.EmptyReader[T](decodeOpts...)
	}
	stmt, err := prepare(ctx, entry, query, cnxn, rec)
	if err != nil {
		rec.Release()
		return nil, err
	}
	return read[T](ctx, entry, query, stmt, rec, decodeOpts)
}

// Exec runs query, a statement without a result (DDL, INSERT, UPDATE…),
// and returns the number of rows it affected as the driver reports it: -1
// when the driver does not know.
func Exec(ctx context.Context, cnxn adbc.Connection, query string) (int64, error) {
	const entry = "adbc.Exec"
	stmt, err := newStatement(entry, cnxn)
	if err != nil {
		return 0, err
	}
	if err := stmt.SetSqlQuery(query); err != nil {
		_ = stmt.Close()
		return 0, adbcError(entry, query, "SetSqlQuery", err)
	}
	return update(ctx, entry, query, stmt)
}

// ExecWith prepares query, binds params as QueryWith does, and runs it as
// an update, returning the number of rows affected as the driver reports
// it (-1 when it does not know). An INSERT with one row of parameters per
// element of params is the bulk insert of drivers that have no ingest. An
// empty params runs nothing and affects no row.
//
// ExecWith takes the options of mapper.Encode.
func ExecWith[P any](ctx context.Context, cnxn adbc.Connection, query string, params []P, opts ...WriteOption) (int64, error) {
	const entry = "adbc.ExecWith"
	if err := refuse(entry, opts, isSchemaMetadata); err != nil { // parameters have no schema of their own to write
		return 0, err
	}
	rec, err := mapper.Encode(params, opts...)
	if err != nil {
		return 0, err
	}
	// The driver holds its own reference while bound; ours goes once the
	// statement is closed, whatever the driver did with it.
	defer rec.Release()
	if rec.NumRows() == 0 {
		return 0, checkConnection(entry, cnxn) // no execution, as QueryWith
	}
	stmt, err := prepare(ctx, entry, query, cnxn, rec)
	if err != nil {
		return 0, err
	}
	return update(ctx, entry, query, stmt)
}

// checkConnection refuses a nil cnxn, before an entry point's work, even
// the work that needs no statement (an empty params).
func checkConnection(entry string, cnxn adbc.Connection) error {
	if cnxn == nil {
		return fmt.Errorf("arrowmap/adbc: %s: nil connection", entry)
	}
	return nil
}

// newStatement opens a statement on cnxn.
func newStatement(entry string, cnxn adbc.Connection) (adbc.Statement, error) {
	if err := checkConnection(entry, cnxn); err != nil {
		return nil, err
	}
	stmt, err := cnxn.NewStatement()
	if err != nil {
		return nil, adbcError(entry, "", "NewStatement", err)
	}
	if stmt == nil {
		return nil, fmt.Errorf("arrowmap/adbc: %s: the driver's NewStatement returned no statement", entry)
	}
	return stmt, nil
}

// prepare opens a statement on cnxn, prepares query and binds params to
// it, after checking them against the parameter schema when the driver has
// one. On an error the statement is closed.
func prepare(ctx context.Context, entry, query string, cnxn adbc.Connection, params arrow.RecordBatch) (adbc.Statement, error) {
	stmt, err := newStatement(entry, cnxn)
	if err != nil {
		return nil, err
	}
	err = stmt.SetSqlQuery(query)
	if err != nil {
		err = adbcError(entry, query, "SetSqlQuery", err)
	} else if err = stmt.Prepare(ctx); err != nil {
		err = adbcError(entry, query, "Prepare", err)
	} else if err = checkParameters(entry, query, stmt, params.Schema()); err == nil {
		if err = stmt.Bind(ctx, params); err != nil {
			err = adbcError(entry, query, "Bind", err)
		}
	}
	if err != nil {
		_ = stmt.Close()
		return nil, err
	}
	return stmt, nil
}

// read executes stmt and reads its result as rows of T. The Reader owns
// stmt, and params (the record bound to it, if any): both go when it is
// released, or now on an error.
func read[T any](ctx context.Context, entry, query string, stmt adbc.Statement, params arrow.RecordBatch, opts []mapper.ReadOption) (*mapper.Reader[T], error) {
	rr, _, err := stmt.ExecuteQuery(ctx)
	if err == nil && rr == nil {
		err = fmt.Errorf("the driver returned no record reader")
	}
	if err != nil {
		_ = stmt.Close()
		if params != nil {
			params.Release()
		}
		return nil, adbcError(entry, query, "ExecuteQuery", err)
	}
	recs := newStatementRecords(entry, query, rr, stmt, params)
	defer recs.Release() // the Reader retains its own reference
	return mapper.NewReader[T](recs, opts...)
}

// update executes stmt as an update and closes it.
func update(ctx context.Context, entry, query string, stmt adbc.Statement) (int64, error) {
	n, err := stmt.ExecuteUpdate(ctx)
	if err != nil {
		_ = stmt.Close()
		return 0, adbcError(entry, query, "ExecuteUpdate", err)
	}
	if err := stmt.Close(); err != nil {
		return n, adbcError(entry, query, "Close", err)
	}
	return n, nil
}

// adbcError wraps err, from the ADBC call step, with the entry point and
// the query (shortened), keeping errors.As to the driver's adbc.Error.
func adbcError(entry, query, step string, err error) error {
	if query == "" {
		return fmt.Errorf("arrowmap/adbc: %s: %s: %w", entry, step, err)
	}
	return fmt.Errorf("arrowmap/adbc: %s %q: %s: %w", entry, shorten(query), step, err)
}

// shorten cuts a query to what an error message can carry.
func shorten(query string) string {
	const max = 80
	if r := []rune(query); len(r) > max {
		return string(r[:max]) + "…"
	}
	return query
}
