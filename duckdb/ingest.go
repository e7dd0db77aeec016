package duckdb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/duckdb/duckdb-go/v2"
)

// Table names the table of an ingest and says what to do with it.
type Table struct {
	// Catalog is the database the table is in (an attached one's name),
	// and Schema its schema; empty, DuckDB's defaults. Each is quoted as
	// an identifier, as Name is: a name with a dot or a quote in it is
	// one identifier. Without a Catalog, a Name is found as SQL finds it:
	// a temporary table of that name first, so Append and CreateAppend
	// write into it; Replace refuses to guess (set Temporary or a
	// Catalog).
	Catalog, Schema, Name string
	// Temporary creates the table as a temporary one (CREATE TEMPORARY
	// TABLE), in DuckDB's temp catalog: a Catalog or a Schema beside it is
	// an error, naming it.
	Temporary bool
	// Mode is whether the table must exist, must not, or is replaced.
	Mode IngestMode
}

// IngestMode says what an ingest does with its table, whether it exists
// or not. The same modes are flightsql's and adbc's.
type IngestMode int

const (
	// Append appends the rows to the table, which must exist, with T's
	// columns, by name in any order, and no other.
	Append IngestMode = iota
	// Create creates the table, which must not exist, from
	// mapper.SchemaOf[T], and writes the rows into it.
	Create
	// CreateAppend creates the table if it does not exist, as Create
	// does, and appends the rows to it.
	CreateAppend
	// Replace drops the table if it exists and creates it anew, as Create
	// does, in the transaction of the ingest: when the ingest fails, the
	// old table is kept (or, in the caller's transaction, the transaction
	// is rolled back: ErrTransactionRolledBack). A table that is not
	// Temporary, named without a Catalog, is refused where a temporary
	// table has its name, which DuckDB's DROP would take instead.
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

// qualified is t's name as SQL, each part quoted, and as the Appender
// takes it; or why t names no table.
func (t Table) qualified() (sql, catalog, schema string, err error) {
	switch {
	case t.Name == "":
		return "", "", "", errors.New("the Table has no Name")
	case t.Temporary && t.Catalog != "":
		return "", "", "", errors.New("Table.Catalog with Temporary: a temporary table is in DuckDB's temp catalog")
	case t.Temporary && t.Schema != "":
		return "", "", "", errors.New("Table.Schema with Temporary: a temporary table is in DuckDB's temp catalog's main schema")
	case t.Mode < Append || t.Mode > Replace:
		return "", "", "", fmt.Errorf("no ingest mode %v", t.Mode)
	}
	catalog, schema = t.Catalog, t.Schema
	if t.Temporary {
		catalog, schema = "temp", "main"
	}
	if catalog != "" && schema == "" {
		schema = "main" // catalog.name would be read as schema.name
	}
	var parts []string
	for _, p := range []string{catalog, schema, t.Name} {
		if p != "" {
			parts = append(parts, quoteIdent(p))
		}
	}
	return strings.Join(parts, "."), catalog, schema, nil
}

// String is t's name as the errors of an ingest give it.
func (t Table) String() string {
	var parts []string
	for _, p := range []string{t.Catalog, t.Schema, t.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

// Ingest writes rows into table and returns the number of rows written.
// The rows are encoded with mapper.Encode's rules, IngestConfig.BatchRows
// at a time, and go into the table through one INSERT … BY NAME SELECT *
// from an Arrow view of the stream of those records (or through DuckDB's
// Appender, IngestConfig.Appender). When Ingest returns nil the table
// holds every row written, as DuckDB counts them after the insert; when
// it returns an error, the table holds what it held before (the table
// Replace dropped included).
//
// The ingest is one transaction of its own, or, on a connection in a
// transaction of the caller's, part of that one, which the caller's
// COMMIT or ROLLBACK decides. There, a failure after DuckDB took rows of
// the ingest, or after Replace dropped the table, rolls back the caller's
// transaction, which DuckDB has aborted or which holds what no statement
// can take back, and its error wraps ErrTransactionRolledBack (the
// package doc's Transactions). ctx governs the whole ingest: cancelled,
// it stops at the next chunk of rows and fails with ctx's error.
//
// table.Mode says whether the table is created first (Create,
// CreateAppend, Replace), from mapper.SchemaOf[T], DuckDB choosing each
// column's type from its Arrow type (the table in the package doc), with
// NOT NULL on the columns T cannot hold a null in. A table that exists
// must have T's columns, by name in any order, and no other: a mismatch
// is an error naming the columns, before any row is written.
//
// Ingest takes an IngestConfig and the options of mapper.Encode.
func Ingest[T any, D DB](ctx context.Context, db D, table Table, rows []T, opts ...WriteOption) (int64, error) {
	const entry = "duckdb.Ingest"
	return ingest[T](ctx, entry, db, table, opts, func(n int) iter.Seq2[[]T, error] {
		return func(yield func([]T, error) bool) {
			for len(rows) > 0 {
				page := rows[:min(n, len(rows))]
				rows = rows[len(page):]
				if !yield(page, nil) {
					return
				}
			}
		}
	})
}

// IngestSeq is Ingest of the rows of a sequence, read a batch at a time:
// the rows of a query go straight into a table, for example,
//
//	n, err := duckdb.IngestSeq(ctx, db, duckdb.Table{Name: "orders"}, r.All())
//
// An error of the sequence stops the ingest, which fails as Ingest does,
// leaving the table as it was, and is returned, wrapped.
func IngestSeq[T any, D DB](ctx context.Context, db D, table Table, rows iter.Seq2[T, error], opts ...WriteOption) (int64, error) {
	const entry = "duckdb.IngestSeq"
	if rows == nil {
		return 0, fmt.Errorf("arrowmap/duckdb: %s into %q: nil sequence", entry, table)
	}
	return ingest[T](ctx, entry, db, table, opts, func(n int) iter.Seq2[[]T, error] {
		// rows is called, not ranged over: a caller's sequence that goes
		// on yielding after it was told to stop is then ignored, where a
		// range statement panics (in the goroutine that feeds DuckDB,
		// taking the program down).
		return func(yield func([]T, error) bool) {
			buf := make([]T, 0, min(n, 4096))
			done := false
			rows(func(row T, err error) bool {
				switch {
				case done:
				case err != nil:
					yield(nil, err)
					done = true
				default:
					if buf = append(buf, row); len(buf) == n {
						done = !yield(buf, nil)
						buf = buf[:0]
					}
				}
				return !done
			})
			if !done && len(buf) > 0 {
				yield(buf, nil)
			}
		}
	})
}

// IngestPages is Ingest of pages of rows, as a Reader's Pages gives them:
// each page is encoded as it comes, a record of at most
// IngestConfig.BatchRows rows at a time. An error of the sequence stops
// the ingest, which fails as Ingest does, leaving the table as it was, and
// is returned, wrapped.
func IngestPages[T any, D DB](ctx context.Context, db D, table Table, pages iter.Seq2[[]T, error], opts ...WriteOption) (int64, error) {
	const entry = "duckdb.IngestPages"
	if pages == nil {
		return 0, fmt.Errorf("arrowmap/duckdb: %s into %q: nil sequence", entry, table)
	}
	return ingest[T](ctx, entry, db, table, opts, func(n int) iter.Seq2[[]T, error] {
		// pages is called, not ranged over, as IngestSeq's rows are.
		return func(yield func([]T, error) bool) {
			done := false
			pages(func(page []T, err error) bool {
				switch {
				case done:
				case err != nil:
					yield(nil, err)
					done = true
				default:
					for len(page) > 0 && !done {
						part := page[:min(n, len(page))]
						page = page[len(part):]
						done = !yield(part, nil)
					}
				}
				return !done
			})
		}
	})
}

// ErrTransactionRolledBack is wrapped by the error of an insert that
// failed inside the caller's transaction where DuckDB had aborted that
// transaction, or held rows of the insert that no statement takes back
// (the package doc's Transactions): the insert rolled the whole
// transaction back, the caller's own changes in it too, and the
// connection is in none, so that the caller's COMMIT fails rather than
// return nil having committed nothing, or less than it was given.
var ErrTransactionRolledBack = errors.New("the transaction the connection was in is rolled back, every change of it discarded")

// sequenceError marks an error the caller's sequence yielded.
type sequenceError struct{ err error }

func (e *sequenceError) Error() string { return "the sequence of rows: " + e.err.Error() }
func (e *sequenceError) Unwrap() error { return e.err }

// ingest writes the batches of rows into table, in one transaction.
func ingest[T any, D DB](ctx context.Context, entry string, db D, table Table, options []WriteOption, batches func(n int) iter.Seq2[[]T, error]) (n int64, err error) {
	if err := needsArrow(entry); err != nil {
		return 0, err
	}
	cfg, opts, mem, err := parseIngest(entry, options)
	if err != nil {
		return 0, err
	}
	if cfg.BatchRows < 0 {
		return 0, fmt.Errorf("arrowmap/duckdb: %s: IngestConfig.BatchRows %d is negative", entry, cfg.BatchRows)
	}
	name, catalog, schemaName, err := table.qualified()
	if err != nil {
		return 0, fmt.Errorf("arrowmap/duckdb: %s into %q: %w", entry, table, err)
	}
	schema, err := mapper.SchemaOf[T](schemaOptions(opts)...)
	if err != nil {
		return 0, err
	}
	if schema.NumFields() == 0 {
		// DuckDB has no table of no columns, and its Arrow scan fails on a
		// view of none with words about itself.
		return 0, fmt.Errorf("arrowmap/duckdb: %s into %q: %w: %T has no columns", entry, table, mapper.ErrUnsupported, *new(T))
	}
	through := viewPath
	if cfg.Appender || needsAppender(schema) {
		through = appenderPath
	}
	carried, err := carriedSchema(schema, through)
	if err == nil && table.Mode != Append {
		_, err = carriedSchema(schema, createPath)
	}
	if err != nil {
		return 0, fmt.Errorf("arrowmap/duckdb: %s into %q: %w", entry, table, err)
	}
	b, err := mapper.NewBuilder[T](opts...)
	if err != nil {
		return 0, err
	}
	defer b.Release()
	s, err := open(ctx, entry, db)
	if err != nil {
		return 0, err
	}
	defer s.close()
	w := &inserter{s: s, mem: mem, entry: entry, table: table.String(), name: name,
		catalog: catalog, schemaName: schemaName, bare: table.Name, temporary: table.Temporary,
		schema: schema, carried: carried, appender: through == appenderPath}
	if err := w.checkCatalog(ctx); err != nil {
		return 0, err
	}
	if err := w.begin(ctx); err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			n, err = 0, w.undo(err)
		}
	}()
	switch table.Mode {
	case Create:
		err = w.create(ctx, false)
	case CreateAppend:
		err = w.create(ctx, true)
	case Replace:
		err = w.replace(ctx)
	}
	if err != nil {
		return 0, err
	}
	if err := w.checkColumns(ctx); err != nil {
		return 0, err
	}
	if err := w.countBefore(ctx); err != nil {
		return 0, err
	}
	encoded := encodeBatches(w, b, batches(cmp(cfg.BatchRows, DefaultBatchRows)))
	if w.appender {
		n, err = w.appendAll(ctx, encoded)
	} else {
		n, err = w.insertStream(ctx, encoded)
	}
	if err != nil {
		return 0, err
	}
	if err := w.checkCount(ctx, n); err != nil {
		return 0, err
	}
	return n, w.commit()
}

// encodeBatches yields the batches as records, as the path gives them to
// DuckDB (carry.go); an error, its row counted from the start of the
// rows, ends it.
func encodeBatches[T any](w *inserter, b *mapper.Builder[T], batches iter.Seq2[[]T, error]) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		var first int64
		for rows, err := range batches {
			if err != nil {
				yield(nil, fmt.Errorf("arrowmap/duckdb: %s into %q: %w", w.entry, w.table, &sequenceError{err}))
				return
			}
			if err := b.Append(rows...); err != nil {
				yield(nil, mapper.InStream(err, 0, first))
				return
			}
			rec := b.NewRecordBatch()
			if w.carried != nil {
				carried, err := carry(w.mem, rec, w.carried)
				rec.Release()
				if err != nil {
					var me *mapper.Error
					if !errors.As(err, &me) {
						err = w.fail("the values DuckDB's Arrow import cannot read as they are", err)
					}
					yield(nil, mapper.InStream(err, 0, first))
					return
				}
				rec = carried
			}
			first += int64(len(rows))
			if !yield(rec, nil) {
				return
			}
		}
	}
}

func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// schemaOptions is opts without what SchemaOf does not take (Allocator).
func schemaOptions(opts []mapper.WriteOption) []mapper.WriteOption {
	return slices.DeleteFunc(slices.Clone(opts), func(o mapper.WriteOption) bool {
		_, alloc := o.(mapper.AllocatorOption)
		return o == nil || alloc
	})
}

// inserter writes records into one table on one connection.
type inserter struct {
	s     *session
	mem   memory.Allocator // of the values carry converts
	entry string
	table string // as the caller gave it, for errors
	name  string // quoted, qualified
	// catalog, schemaName and bare are the parts of the name, unquoted,
	// as the Appender takes them.
	catalog, schemaName, bare string
	temporary                 bool
	schema                    *arrow.Schema
	// carried is the schema the view gives DuckDB where it is not schema
	// (carry.go), nil where it is.
	carried *arrow.Schema
	// appender is whether the rows go through DuckDB's Appender, not a
	// view.
	appender bool
	// columns is the table's names of the schema's fields, in its order,
	// and, for the Appender, tableTypes their Arrow types in the table
	// (checkColumns): the Appender, unlike BY NAME, finds a column or a
	// STRUCT's field only by the table's spelling of it.
	columns    []string
	tableTypes []arrow.DataType
	ownTx      bool // began by us: ours to end
	done       bool
	// created is whether the table is ours, created in this transaction.
	created bool
	// dropped is whether Replace dropped a table in this transaction,
	// which only its rollback brings back.
	dropped bool
	// before is the table's rows before the insert, as the transaction
	// sees them; -1 until they are counted.
	before int64
	// wrote is set once DuckDB may have taken a row of the insert.
	wrote bool
	// hidden is set where DuckDB holds rows of the insert that its
	// count does not see (checkCount).
	hidden bool
}

func (w *inserter) fail(step string, err error) error {
	return fmt.Errorf("arrowmap/duckdb: %s into %q: %s: %w", w.entry, w.table, step, err)
}

// checkCatalog refuses a Catalog other than the connection's database:
// DuckDB writes one attached database a transaction, and the Arrow view
// the rows go through is the connection's database's, so that the
// ingest would fail at its first write, having done nothing.
func (w *inserter) checkCatalog(ctx context.Context) error {
	if w.catalog == "" || w.temporary {
		return nil
	}
	var current string
	if err := w.s.conn.QueryRowContext(ctx, "SELECT current_database()").Scan(&current); err != nil {
		return w.fail("its catalog", err)
	}
	if !strings.EqualFold(current, w.catalog) {
		return w.fail("Table.Catalog", fmt.Errorf("%q is not the connection's database, %q: DuckDB writes one database a transaction, and the Arrow view of the rows is in %q (USE %s first)",
			w.catalog, current, current, quoteIdent(w.catalog)))
	}
	return nil
}

// begin starts the transaction of the insert, unless the connection is in
// one already. DuckDB aborts a transaction at a failed BEGIN, so it is
// asked first: in autocommit each statement is a transaction of its own,
// and two give two ids.
func (w *inserter) begin(ctx context.Context) error {
	w.before = -1
	var first, second int64
	if err := w.s.conn.QueryRowContext(ctx, "SELECT txid_current()").Scan(&first); err != nil {
		return w.fail("its transaction", err)
	}
	if err := w.s.conn.QueryRowContext(ctx, "SELECT txid_current()").Scan(&second); err != nil {
		return w.fail("its transaction", err)
	}
	if first == second {
		return nil // the caller's
	}
	if _, err := w.s.conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return w.fail("BEGIN", err)
	}
	w.ownTx = true
	return nil
}

func (w *inserter) commit() error {
	if !w.ownTx {
		return nil
	}
	w.done = true
	if _, err := w.s.conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		return w.fail("COMMIT", err)
	}
	return nil
}

func (w *inserter) rollback() error {
	w.done = true
	if _, err := w.s.conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		return w.fail("ROLLBACK", err)
	}
	return nil
}

// undo takes back what the failed insert did, and returns cause with what
// it could not take back. Its own transaction it rolls back. The caller's
// it leaves as it was where it can: a table the insert created is dropped,
// and a transaction DuckDB holds no row of the insert in is left alone. A
// table Replace dropped only a ROLLBACK brings back.
// Where DuckDB aborted the transaction at the error of a statement (which
// its COMMIT would then end as a ROLLBACK and return nil), or holds rows
// of the insert that no statement can take back (DuckDB has no
// SAVEPOINT), undo rolls the whole transaction back, and its error says
// so: ErrTransactionRolledBack.
func (w *inserter) undo(cause error) error {
	if w.ownTx {
		if w.done {
			return cause // COMMIT failed: DuckDB ended the transaction
		}
		return errors.Join(cause, w.rollback())
	}
	// The statements below are the caller's transaction's, whatever ctx
	// became.
	ctx := context.Background()
	var why string
	switch {
	case w.dropped:
		why = "the table it replaced was dropped in it, which only a ROLLBACK brings back"
	case w.created:
		_, err := w.s.conn.ExecContext(ctx, "DROP TABLE "+w.name)
		if err == nil {
			return cause // the table, and any row of the insert in it, gone
		}
		why = fmt.Sprintf("the table the insert created in it could not be dropped (%v)", err)
	case !w.wrote:
		_, err := w.s.conn.ExecContext(ctx, "SELECT 1")
		if err == nil {
			return cause
		}
		why = fmt.Sprintf("DuckDB had aborted it at the error (%v)", err)
	case w.hidden:
		why = "it holds rows of the insert that DuckDB's scans do not see, and a CHECKPOINT would show"
	default:
		now, err := w.count(ctx)
		switch {
		case err != nil:
			why = fmt.Sprintf("DuckDB had aborted it at the error (%v)", err)
		case now == w.before:
			return cause // no row of the insert in the table
		default:
			why = fmt.Sprintf("it held %d rows of the insert, which DuckDB cannot take back alone", now-w.before)
		}
	}
	err := fmt.Errorf("arrowmap/duckdb: %s into %q: %w: %s; the connection is now in no transaction, and a COMMIT fails",
		w.entry, w.table, ErrTransactionRolledBack, why)
	return errors.Join(cause, err, w.rollback())
}

// count is the table's rows, as the transaction sees them.
func (w *inserter) count(ctx context.Context) (int64, error) {
	var n int64
	err := w.s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+w.name).Scan(&n)
	return n, err
}

// countBefore counts the table's rows before the insert, which checkCount
// compares with them after it.
func (w *inserter) countBefore(ctx context.Context) error {
	if w.created {
		w.before = 0
		return nil
	}
	n, err := w.count(ctx)
	if err != nil {
		return w.fail("its rows before the insert", err)
	}
	w.before = n
	return nil
}

// checkCount refuses an insert of n rows after which the table, as the
// transaction sees it, does not have n rows more than before. DuckDB
// (1.5.6 at least) loses sight of the rows of an INSERT of about a row
// group or more that follows, in one transaction, an INSERT or CREATE
// TABLE AS of no rows from a source it reads in batches (a table, an
// Arrow view): that one leaves an empty row group, behind which the rows
// are merged and at which scans stop, count(*) included, until a
// CHECKPOINT rewrites the row groups. Ingest itself runs no such
// statement (create, insertStream); the caller's transaction may have.
func (w *inserter) checkCount(ctx context.Context, n int64) error {
	if n == 0 {
		return nil
	}
	after, err := w.count(ctx)
	if err != nil {
		return w.fail("its rows after the insert", err)
	}
	if after-w.before != n {
		w.hidden = true
		return w.fail("its rows after the insert", fmt.Errorf("the table shows %d rows more than before, not the %d written: DuckDB has lost sight of rows (an INSERT of no rows earlier in the transaction makes DuckDB's scans miss those of a large one)", after-w.before, n))
	}
	return nil
}

// viewSeq numbers the views of inserts, so that no two on one connection
// share a name.
var viewSeq atomic.Int64

// withView runs stmt (a statement with %s for the view) over a view of
// recs: duckdb-go's views ignore the projection DuckDB pushes into them
// (duckdb/duckdb-go issue 24), and are read by one SELECT * only.
func (w *inserter) withView(ctx context.Context, recs array.RecordReader, stmt string) (int64, error) {
	view, done, err := w.view(ctx, recs)
	if err != nil {
		return 0, err
	}
	defer done()
	res, err := w.s.conn.ExecContext(ctx, fmt.Sprintf(stmt, quoteIdent(view)))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// view registers recs as an Arrow view of a name no other view of the
// connection has; done drops the view and releases the stream.
func (w *inserter) view(ctx context.Context, recs array.RecordReader) (name string, done func(), err error) {
	name = fmt.Sprintf("arrowmap_insert_%d", viewSeq.Add(1))
	release, err := w.s.arrow.RegisterView(recs, name)
	if err != nil {
		return "", nil, fmt.Errorf("an Arrow view of the rows: %w", err)
	}
	return name, func() {
		w.s.conn.ExecContext(context.WithoutCancel(ctx), "DROP VIEW IF EXISTS "+quoteIdent(name))
		release()
	}, nil
}

// create creates the table from the schema: DuckDB's own types of the
// Arrow types (describe), with NOT NULL where the schema's field is not
// nullable, by a CREATE TABLE of its columns, which inserts nothing. A
// CREATE TABLE AS of a view of no rows is an insert of none, after which
// DuckDB loses sight of the rows of the insert that follows (checkCount
// says how); DuckDB 2.0 does so after one WITH NO DATA too.
func (w *inserter) create(ctx context.Context, ifNotExists bool) error {
	if ifNotExists && w.exists(ctx) {
		return nil
	}
	schema, err := carriedSchema(w.schema, createPath)
	if err != nil {
		return w.fail("CREATE TABLE", err)
	}
	if schema == nil {
		schema = w.schema
	}
	types, err := w.describe(ctx, schema)
	if err != nil {
		return w.fail("CREATE TABLE", err)
	}
	columns := make([]string, len(types))
	for i, f := range schema.Fields() {
		columns[i] = quoteIdent(f.Name) + " " + types[i]
		if !f.Nullable {
			columns[i] += " NOT NULL"
		}
	}
	create := "CREATE TABLE "
	if w.temporary {
		create = "CREATE TEMPORARY TABLE "
	}
	if _, err := w.s.conn.ExecContext(ctx, create+w.name+" ("+strings.Join(columns, ", ")+")"); err != nil {
		return w.fail("CREATE TABLE", err)
	}
	w.created = true
	return nil
}

// describe is the DuckDB type of each column of schema, the one DuckDB
// reads its Arrow type as: DuckDB's DESCRIBE of a view of no rows, which
// plans the view and reads none of it.
func (w *inserter) describe(ctx context.Context, schema *arrow.Schema) ([]string, error) {
	empty, err := array.NewRecordReader(schema, nil)
	if err != nil {
		return nil, err
	}
	defer empty.Release()
	view, done, err := w.view(ctx, empty)
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := w.s.conn.QueryContext(ctx, "SELECT column_type FROM (DESCRIBE SELECT * FROM "+quoteIdent(view)+")")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var types []string
	for rows.Next() {
		var typ string
		if err := rows.Scan(&typ); err != nil {
			return nil, err
		}
		types = append(types, typ)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(types) != schema.NumFields() {
		return nil, fmt.Errorf("DuckDB describes %d columns of the %d of the schema", len(types), schema.NumFields())
	}
	return types, nil
}

// exists reports whether the table exists. It decides whether the ingest
// created the table, to drop at a failure; a table DuckDB cannot find is a
// binder's error, which leaves a transaction as it was.
func (w *inserter) exists(ctx context.Context) bool {
	_, err := w.s.conn.ExecContext(ctx, "SELECT * FROM "+w.name+" LIMIT 0")
	return err == nil
}

// replace drops the table if it exists, and creates it: both in the
// transaction, whose rollback at a failure brings the old table back.
func (w *inserter) replace(ctx context.Context) error {
	if !w.temporary && w.catalog == "" && (w.schemaName == "" || strings.EqualFold(w.schemaName, "main")) {
		// A name without a Catalog is a temporary table's first (temp
		// is first in DuckDB's search path, and its schema is main):
		// DROP would take the caller's temporary table, and CREATE make
		// another in the database.
		_, err := w.s.conn.ExecContext(ctx, "SELECT * FROM temp.main."+quoteIdent(w.bare)+" LIMIT 0")
		if err == nil {
			return w.fail("DROP TABLE", errors.New("the name is a temporary table's, which Replace of a table that is not Temporary does not drop: set Temporary, or the Catalog of the table to replace"))
		}
	}
	if w.exists(ctx) {
		w.dropped = true
		if _, err := w.s.conn.ExecContext(ctx, "DROP TABLE "+w.name); err != nil {
			return w.fail("DROP TABLE", err)
		}
	}
	return w.create(ctx, false)
}

// checkColumns refuses a table whose columns are not the schema's, by
// name, as DuckDB compares them: without case.
func (w *inserter) checkColumns(ctx context.Context) error {
	rows, err := w.s.conn.QueryContext(ctx, "SELECT * FROM "+w.name+" LIMIT 0")
	if err != nil {
		return w.fail("its columns", err)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		return w.fail("its columns", err)
	}
	// DuckDB's identifiers, and so BY NAME, ignore case.
	has := func(names []string, name string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
	}
	ours := fieldNames(w.schema)
	var missing, extra []string
	for _, f := range ours {
		if !has(cols, f) {
			missing = append(missing, f)
		}
	}
	for _, c := range cols {
		if !has(ours, c) {
			extra = append(extra, c)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		w.columns = make([]string, len(ours))
		for i, f := range ours {
			w.columns[i] = cols[slices.IndexFunc(cols, func(c string) bool { return strings.EqualFold(c, f) })]
		}
		if w.appender {
			return w.readTableTypes(ctx)
		}
		return nil
	}
	var why []string
	if len(missing) > 0 {
		why = append(why, fmt.Sprintf("has no column %s", quoteAll(missing)))
	}
	if len(extra) > 0 {
		why = append(why, fmt.Sprintf("has columns %s that the rows have not", quoteAll(extra)))
	}
	return &mapper.Error{Row: -1, Err: fmt.Errorf("%w: arrowmap/duckdb: %s into %q: the table %s (the rows' columns: %s)",
		mapper.ErrMissingColumn, w.entry, w.table, strings.Join(why, " and "), quoteAll(fieldNames(w.schema)))}
}

// readTableTypes sets tableTypes from DuckDB's Arrow export of the table.
func (w *inserter) readTableTypes(ctx context.Context) error {
	rr, err := w.s.arrow.QueryContext(ctx, "SELECT * FROM "+w.name+" LIMIT 0")
	if err != nil {
		return w.fail("its columns' types", err)
	}
	defer rr.Release()
	w.tableTypes = make([]arrow.DataType, len(w.columns))
	for i, c := range w.columns {
		if k := rr.Schema().FieldIndices(c); len(k) == 1 {
			w.tableTypes[i] = rr.Schema().Field(k[0]).Type
		}
	}
	return nil
}

// insertStream writes the records into the table through one INSERT …
// BY NAME SELECT * from a view of them all, read as DuckDB pulls them,
// while the next is encoded beside it. An error of the records (a value
// that does not fit, the caller's sequence) fails DuckDB's read of the
// view, so the INSERT writes nothing, and is the error returned. No
// records, no INSERT: one of no rows would leave DuckDB an empty row
// group (checkCount); and an error of the first record comes before
// DuckDB sees any.
func (w *inserter) insertStream(ctx context.Context, recs iter.Seq2[arrow.RecordBatch, error]) (int64, error) {
	schema := w.schema
	if w.carried != nil {
		schema = w.carried
	}
	stream := startStream(schema, recs)
	if !stream.peek() {
		return 0, stream.stop()
	}
	w.wrote = true
	n, err := w.withView(ctx, stream, "INSERT INTO "+w.name+" BY NAME SELECT * FROM %s")
	if serr := stream.stop(); serr != nil {
		return 0, serr
	}
	if err != nil {
		return 0, w.fail("INSERT", err)
	}
	return n, nil
}

// quoteIdent is name as a quoted SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func fieldNames(schema *arrow.Schema) []string {
	names := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
	}
	return names
}

// needsAppender reports whether schema has a column the view cannot
// carry and the Appender can: a dense union, at any depth.
func needsAppender(schema *arrow.Schema) bool {
	_, err := carriedSchema(schema, viewPath)
	if err == nil {
		return false
	}
	_, err2 := carriedSchema(schema, appenderPath)
	return err2 == nil
}

// appendAll writes the records into the table through DuckDB's Appender,
// over the schema's columns in their order, and closes it: failed, it
// drops what the Appender holds first, which its Close would write.
// ctx is checked at each record and each chunk of rows.
func (w *inserter) appendAll(ctx context.Context, recs iter.Seq2[arrow.RecordBatch, error]) (n int64, err error) {
	var app *duckdb.Appender
	err = w.s.conn.Raw(func(dc any) error {
		var err error
		app, err = duckdb.NewAppenderWithColumns(dc.(driver.Conn), w.catalog, w.schemaName, w.bare, w.columns)
		return err
	})
	if err != nil {
		return 0, w.fail("its Appender", w.appenderRefuses(ctx, err))
	}
	defer func() {
		if err != nil {
			_ = app.Clear()
		}
		if cerr := app.Close(); cerr != nil && err == nil {
			err = w.fail("the Appender", cerr)
		}
	}()
	for rec, err := range recs {
		if err != nil {
			return 0, err
		}
		if err := ctx.Err(); err != nil {
			rec.Release()
			return 0, w.fail("the Appender", err)
		}
		w.wrote = true
		written, err := w.appendRows(ctx, app, rec)
		rec.Release()
		if err != nil {
			return 0, err
		}
		n += written
	}
	if err := app.FlushWithCancel(ctx); err != nil {
		return 0, w.fail("the Appender", err)
	}
	return n, nil
}

// appenderRefuses is err, duckdb-go's failure to create an Appender on
// the table, as an ErrUnsupported naming the column when the table has one
// of a type the Appender writes none of (TIME_NS: duckdb-go v2.10506.0
// says "unsupported data type: unknown type: index: N").
func (w *inserter) appenderRefuses(ctx context.Context, err error) error {
	rows, qerr := w.s.conn.QueryContext(ctx, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+w.name+")")
	if qerr != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, typ string
		if rows.Scan(&name, &typ) == nil && typ == "TIME_NS" && slices.ContainsFunc(fieldNames(w.schema), func(f string) bool { return strings.EqualFold(f, name) }) {
			return &mapper.Error{Column: name, Row: -1, Err: fmt.Errorf(
				"%w: the table's column is TIME_NS, which DuckDB's Appender writes none of: ingest without IngestConfig.Appender (%v)", mapper.ErrUnsupported, err)}
		}
	}
	return err
}

// appendRows appends rec's rows through the Appender.
func (w *inserter) appendRows(ctx context.Context, app *duckdb.Appender, rec arrow.RecordBatch) (int64, error) {
	cols := make([]valueOf, rec.NumCols())
	for j, col := range rec.Columns() {
		v, err := valuesOf(col, w.tableTypes[j])
		if err != nil {
			return 0, w.fail(fmt.Sprintf("column %q", rec.ColumnName(j)), err)
		}
		cols[j] = v
	}
	row := make([]driver.Value, len(cols))
	for i := range int(rec.NumRows()) {
		// A chunk of rows between looks at ctx: the Appender does not.
		if i%appendChunk == 0 {
			if err := ctx.Err(); err != nil {
				return 0, w.fail("the Appender", err)
			}
		}
		for j, v := range cols {
			x, err := v(i)
			if err != nil {
				return 0, w.fail(fmt.Sprintf("column %q, row %d", rec.ColumnName(j), i), err)
			}
			row[j] = x
		}
		if err := app.AppendRow(row...); err != nil {
			return 0, w.fail("the Appender", err)
		}
	}
	return rec.NumRows(), nil
}

// appendChunk is the rows appended between two looks at ctx: DuckDB's
// vector size.
const appendChunk = 2048
