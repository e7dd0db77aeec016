// Package duckdb runs DuckDB queries into rows of Go struct types and
// writes rows of them into DuckDB tables, through DuckDB's Arrow interface
// (github.com/duckdb/duckdb-go/v2, whose Arrow interface is compiled only
// with the build tag duckdb_arrow: build and test with -tags duckdb_arrow;
// without it the package builds, and each entry point returns
// ErrNeedsBuildTag). It is a module of its own, so that users of the rest
// of arrowmap never download DuckDB or need cgo. It is tested with the
// DuckDB release the duckdb-go it requires links (1.5); in a program that
// links another (a build taking a newer duckdb-go), each entry point
// returns ErrUntestedDuckDB: DuckDB 2.0 hides the rows of a large ingest
// from its scans.
//
//	db, err := sql.Open("duckdb", "")
//	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders", Mode: duckdb.Create}, orders)
//	r, err := duckdb.QueryWith[Summary](ctx, db, "SELECT region, count(*) AS orders FROM orders WHERE total > ? GROUP BY region", []Min{{9.0}})
//	if err != nil { … }
//	defer r.Release() // returns the connection
//	summaries, err := r.ReadAll()
//
// Its entry points, by verb: Query (rows of T, a *mapper.Reader), QueryWith
// (rows of T, the query run once for each element of a []P of
// parameters), QueryColumns (typed columns, a *mapper.ColumnsReader), QueryRecords
// (DuckDB's records themselves); Ingest, IngestSeq and IngestPages (rows
// into a Table, from a slice, a sequence of rows, or pages). Each runs on
// a DB: a *sql.DB of duckdb-go's driver, of whose pool it takes one
// connection, or a *sql.Conn. The queries end with ...ReadOption, the
// ingests with ...WriteOption: an option of the other direction does not
// compile.
//
// A query's result is checked against T before any row is read, a
// mismatch being mapper's *Error naming the field and the column. Its rows
// stream from DuckDB one chunk (2,048 rows) at a time, the next read by a
// goroutine while this one is decoded; a cancelled ctx stops the reader at
// the next chunk.
//
// # Export settings
//
// Query exports losslessly by default: it sets DuckDB's
// arrow_lossless_conversion for its own connection while the result is
// made, and puts it back (QueryConfig says what each setting changes).
// HUGEINT and UHUGEINT then read into HugeInt and UHugeInt, TIMETZ into
// TimeTZ with its offset, UUID into a [16]byte, JSON into a string, []byte
// or json.RawMessage. QueryConfig.Lossy is DuckDB's own export, in which a
// UHUGEINT past 2¹²⁷ arrives negative; StringViews and ListViews export
// utf8_view and list_view.
//
// DuckDB sums integers into a HUGEINT and counts into a BIGINT: cast a sum
// (sum(x)::BIGINT) for an int64 field, or read it into a HugeInt.
//
// # Ingest
//
// Ingest encodes the rows with mapper's rules, a batch at a time, and
// writes them all through one INSERT … BY NAME SELECT * from an Arrow view
// of a stream of the batches, the next encoded by a goroutine while DuckDB
// writes this one (duckdb-go's views ignore the projection DuckDB pushes
// into them — duckdb/duckdb-go issue 24 — so the view is read by that one
// statement and dropped at once; users never see it). An error of any
// batch fails DuckDB's read of the stream, so that the INSERT writes
// nothing. Rows none, it runs no INSERT. Table.Mode Create, CreateAppend
// and Replace create the table from mapper.SchemaOf[T] (a CREATE TABLE of
// the columns DuckDB's DESCRIBE of a view of no rows gives, which inserts
// nothing; Replace drops the old table first, in the ingest's
// transaction), each column of the DuckDB type of its Arrow type
// (docs/engines.md, DuckDB's table). What DuckDB's Arrow import refuses (float16, decimal256) or
// misreads (a day_time_interval's milliseconds, read as microseconds) is
// converted losslessly before the view, and what it would truncate
// (nanoseconds past whole microseconds in a TIMESTAMPTZ or an INTERVAL)
// refused, naming the row. A dense union, which the view cannot carry,
// goes through DuckDB's Appender, as every column does with
// IngestConfig.Appender; a decimal of more than 38 digits, which DuckDB
// has no type for, is refused before any row, naming the column, and so
// is a time64[ns] on the Appender, which writes no TIME_NS (the view
// carries it).
//
// # Transactions
//
// An ingest on a connection in autocommit runs in a transaction of its
// own. It counts the table's rows before and after (DuckDB 1.5.6 loses
// sight of the rows of a large INSERT that follows one of no rows in a
// transaction: they do not show until a CHECKPOINT), and commits only
// when the table shows every row written; at any error it rolls back, and
// the table is as it was.
//
// On a connection in a transaction of the caller's (a *sql.Conn after
// BEGIN) the ingest is part of it, and the caller's COMMIT or ROLLBACK
// decides. DuckDB has no SAVEPOINT, and aborts a transaction at the error
// of a statement that writes, after which its COMMIT ends the transaction
// as a ROLLBACK and returns nil: the caller's own changes would be lost
// without a word. So an ingest failing there
//
//   - before DuckDB saw a row of it (an option, T, the table's columns, a
//     table to create that exists, a value refused in the first batch, an
//     error of the sequence before its first batch), or through the
//     Appender before DuckDB took a row from it, leaves the transaction
//     as it was, and drops a table it created;
//   - after (a value refused in a later batch, an error of the caller's
//     sequence, a cancelled ctx, a constraint DuckDB enforces, rows that
//     DuckDB does not show), where DuckDB aborted the transaction or holds
//     rows of the ingest, or Replace dropped the old table, rolls the
//     whole transaction back, and its error wraps ErrTransactionRolledBack
//     and says why: the caller's changes in it are gone, and the
//     connection is in no transaction, so that the caller's COMMIT fails
//     ("no transaction is active") rather than return nil.
//
// A statement the caller runs after that error, before its COMMIT, runs
// in autocommit.
//
// # Types
//
// HugeInt, UHugeInt and TimeTZ are DuckDB's types as its lossless export
// holds them, each a mapper.Extension (arrow.opaque over fixed-size
// binary): a table created from a type with such a field has a HUGEINT,
// UHUGEINT or TIMETZ column.
//
// A time.Time field is a timestamp. Untagged it is timestamp[ns, tz=UTC],
// a TIMESTAMPTZ, which holds microseconds: a value with nanoseconds is
// refused, naming its row. Tagged unit=us it is timestamp[us, tz=UTC], a
// TIMESTAMPTZ too, each value truncated to the microsecond as
// Time.Truncate does (the tag is the caller's word that the nanoseconds
// may go). Tagged naive,unit=us it is timestamp[us], a TIMESTAMP (unit=s,
// ms, ns: TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS), each exact in its
// unit.
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package duckdb
