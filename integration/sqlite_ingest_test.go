package integration

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amadbc "github.com/arrowmap/arrowmap/adbc"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The SQLite server's bulk ingest, which arrow-go's example server lacks
// (v18.8.0 answers Unimplemented): rows ingested from []T through Flight
// SQL and through ADBC, then queried back through the example server's own
// query path, equal to what went in.

// ifExistsFail is the protocol's TableExistsOption that refuses a table
// that exists.

// DoPutCommandStatementIngest writes the rows of the incoming records into
// the table the command names, in one transaction: a stream that fails
// midway, or a value that cannot be written, leaves the table as it was.
// It returns the number of rows written.
func (s *sqliteServer) DoPutCommandStatementIngest(ctx context.Context, cmd arrowflightsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	table := cmd.GetTable()
	switch {
	case table == "":
		return 0, status.Error(codes.InvalidArgument, "ingest: no table")
	case cmd.GetTemporary():
		// A TEMP table lives on one connection of the pool, and goes with it.
		return 0, status.Errorf(codes.Unimplemented, "ingest into %q: temporary tables are not supported", table)
	case len(cmd.GetTransactionId()) > 0:
		return 0, status.Errorf(codes.Unimplemented, "ingest into %q: transactions are not supported", table)
	case cmd.GetSchema() != "" || cmd.GetCatalog() != "":
		return 0, status.Errorf(codes.Unimplemented, "ingest into %q: SQLite has no schema or catalog to ingest into", table)
	}
	opts := cmd.GetTableDefinitionOptions()
	if opts == nil || opts.IfNotExist == arrowflightsql.TableDefinitionOptionsTableNotExistOptionUnspecified ||
		opts.IfExists == arrowflightsql.TableDefinitionOptionsTableExistsOptionUnspecified {
		// The protocol: servers should error if UNSPECIFIED is sent.
		return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: the table definition options are unspecified", table)
	}
	schema := rdr.Schema()
	if schema == nil {
		return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: the stream has no schema", table)
	}
	decls := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		typ, ok := sqliteTypes[f.Type.ID()]
		if !ok {
			return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: column %q: Arrow type %s has no SQLite type here (int64, int32, float64, utf8, binary)", table, f.Name, f.Type)
		}
		decls[i] = quoteIdent(f.Name) + " " + typ
	}

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, status.Errorf(codes.Internal, "ingest into %q: %s", table, err)
	}
	n, err := ingestRows(ctx, tx, table, opts, schema, decls, rdr)
	if err != nil {
		_ = tx.Rollback()
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, status.Errorf(codes.Internal, "ingest into %q: commit: %s", table, err)
	}
	return n, nil
}

// sqliteTypes is the declared type of a column of each Arrow type: the
// example server reads each back as the Arrow type of its kind (INTEGER
// as int64, whatever it went in as).
var sqliteTypes = map[arrow.Type]string{
	arrow.INT64: "INTEGER", arrow.INT32: "INTEGER", arrow.FLOAT64: "REAL",
	arrow.STRING: "TEXT", arrow.BINARY: "BLOB",
}

func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// ingestRows makes the table as opts say, and inserts the rows of rdr.
func ingestRows(ctx context.Context, tx *sql.Tx, table string, opts *arrowflightsql.TableDefinitionOptions, schema *arrow.Schema, decls []string, rdr flight.MessageReader) (int64, error) {
	var exists int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&exists); err != nil {
		return 0, status.Errorf(codes.Internal, "ingest into %q: %s", table, err)
	}
	create := "CREATE TABLE " + quoteIdent(table) + " (" + strings.Join(decls, ", ") + ")"
	if exists == 0 {
		if opts.IfNotExist != arrowflightsql.TableDefinitionOptionsTableNotExistOptionCreate {
			return 0, status.Errorf(codes.NotFound, "ingest into %q: the table does not exist", table)
		}
	} else {
		switch opts.IfExists {
		case arrowflightsql.TableDefinitionOptionsTableExistsOptionFail:
			return 0, status.Errorf(codes.AlreadyExists, "ingest into %q: the table already exists", table)
		case arrowflightsql.TableDefinitionOptionsTableExistsOptionAppend:
			create = ""
		case arrowflightsql.TableDefinitionOptionsTableExistsOptionReplace:
			if _, err := tx.ExecContext(ctx, "DROP TABLE "+quoteIdent(table)); err != nil {
				return 0, status.Errorf(codes.Internal, "ingest into %q: %s", table, err)
			}
		default:
			return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: table exists option %v", table, opts.IfExists)
		}
	}
	if create != "" {
		if _, err := tx.ExecContext(ctx, create); err != nil {
			return 0, status.Errorf(codes.Internal, "ingest into %q: %s", table, err)
		}
	}

	cols := make([]string, schema.NumFields())
	marks := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i], marks[i] = quoteIdent(f.Name), "?"
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO "+quoteIdent(table)+" ("+strings.Join(cols, ", ")+") VALUES ("+strings.Join(marks, ", ")+")")
	if err != nil {
		// Appending to a table that lacks a column of the stream, say.
		return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: %s", table, err)
	}
	defer stmt.Close()

	var n int64
	args := make([]any, schema.NumFields())
	for rdr.Next() {
		rec := rdr.RecordBatch() // the reader's, released by its next Next
		for row := 0; row < int(rec.NumRows()); row++ {
			for c, col := range rec.Columns() {
				args[c] = sqliteValue(col, row)
			}
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return 0, status.Errorf(codes.InvalidArgument, "ingest into %q: row %d: %s", table, n, err)
			}
			n++
		}
	}
	if err := rdr.Err(); err != nil {
		return 0, status.Errorf(codes.Aborted, "ingest into %q: the stream failed after %d rows: %s", table, n, err)
	}
	return n, nil
}

// sqliteValue is the parameter of the value at row of col, whose type is
// one of sqliteTypes: nil for a null.
func sqliteValue(col arrow.Array, row int) any {
	if col.IsNull(row) {
		return nil
	}
	switch col := col.(type) {
	case *array.Int64:
		return col.Value(row)
	case *array.Int32:
		return int64(col.Value(row))
	case *array.Float64:
		return col.Value(row)
	case *array.String:
		return col.Value(row)
	case *array.Binary:
		// An empty value may be a nil slice (a column without data): it
		// goes as an empty BLOB, whatever the driver makes of nil.
		if v := col.Value(row); v != nil {
			return v
		}
		return []byte{}
	}
	panic(fmt.Sprintf("sqliteValue: %T is not one of sqliteTypes", col)) // checked against the schema first
}

// batchCounter is the SQLite server counting the records and rows each
// ingest stream brings.
type batchCounter struct {
	*sqliteServer
	mu      sync.Mutex
	batches []int64          // rows of each record of the last ingest
	active  int              // ingests running
	ended   map[string]error // the error of the last ingest into each table
}

func (s *batchCounter) DoPutCommandStatementIngest(ctx context.Context, cmd arrowflightsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	s.mu.Lock()
	s.batches = nil
	s.active++
	s.mu.Unlock()
	n, err := s.sqliteServer.DoPutCommandStatementIngest(ctx, cmd, &countingReader{MessageReader: rdr, s: s})
	s.mu.Lock()
	s.active--
	if s.ended == nil {
		s.ended = map[string]error{}
	}
	s.ended[cmd.GetTable()] = err
	s.mu.Unlock()
	return n, err
}

// settled waits for no ingest to be running, and returns the outcome of
// the last into table, if one reached the server: the server goes on with
// an ingest after its client has cancelled it, and a stream cancelled
// early never reaches it (whichever is gRPC's race). An ingest that
// reaches it later finds its context cancelled.
func (s *batchCounter) settled(t *testing.T, table string) (err error, reached bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		active := s.active
		err, reached = s.ended[table]
		s.mu.Unlock()
		if active == 0 {
			return err, reached
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d ingests still running", active)
		}
	}
}

func (s *batchCounter) lastBatches() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int64(nil), s.batches...)
}

type countingReader struct {
	flight.MessageReader
	s *batchCounter
}

func (r *countingReader) Next() bool {
	if !r.MessageReader.Next() {
		return false
	}
	r.s.mu.Lock()
	r.s.batches = append(r.s.batches, r.RecordBatch().NumRows())
	r.s.mu.Unlock()
	return true
}

// startBatchCounter serves a new batchCounter.
func startBatchCounter(t *testing.T) (*batchCounter, string) {
	t.Helper()
	srv := &batchCounter{sqliteServer: newSQLiteServer(t)}
	return srv, serve(t, srv, srv.mem)
}

// ingestPath is one way into the SQLite server and back: Flight SQL's or
// ADBC's, both with our entry points.
type ingestPath struct {
	name string
	// ingest writes rows into table in a mode, adbc's, which is
	// flightsql's of the same name.
	ingest func(t *testing.T, table string, mode amadbc.IngestMode, rows any) (int64, error)
	// query reads the rows of query into a slice of want's type, or is
	// its error.
	query func(t *testing.T, query string, want any) any
	// batchRows is the most rows the path sends in one record.
	batchRows int
}

// ingestPaths are Flight SQL's and ADBC's paths to the SQLite server at
// addr, whose client sides allocate from mem.
func ingestPaths(t *testing.T, addr string, mem memory.Allocator) []ingestPath {
	c := connect(t, addr, mem)
	cnxn := openIngesting(t, testContext(t), addr, mem)
	return []ingestPath{
		{name: "through Flight SQL", batchRows: amflightsql.IngestBatchRows,
			ingest: func(t *testing.T, table string, mode amadbc.IngestMode, rows any) (int64, error) {
				tbl := amflightsql.Table{Name: table, Mode: amflightsql.IngestMode(mode)}
				return ingestAny(rows, func(ingest ingester) (int64, error) { return ingest.flightSQL(testContext(t), c, tbl) })
			},
			query: func(t *testing.T, query string, want any) any {
				return queryAny(want, func(q querier) (any, error) { return q.flightSQL(testContext(t), c, query) })
			}},
		{name: "through ADBC", batchRows: amadbc.IngestBatchRows,
			ingest: func(t *testing.T, table string, mode amadbc.IngestMode, rows any) (int64, error) {
				return ingestAny(rows, func(ingest ingester) (int64, error) {
					return ingest.adbc(testContext(t), cnxn, amadbc.Table{Name: table, Mode: mode}, mapper.Allocator(mem))
				})
			},
			query: func(t *testing.T, query string, want any) any {
				return queryAny(want, func(q querier) (any, error) { return q.adbc(testContext(t), cnxn, query) })
			}},
	}
}

// ingester and querier are the generic entry points for the row types of
// the tests, which a path takes as any.
type ingester interface {
	flightSQL(ctx context.Context, c amflightsql.Conn, table amflightsql.Table) (int64, error)
	adbc(ctx context.Context, cnxn adbc.Connection, table amadbc.Table, opts ...amadbc.WriteOption) (int64, error)
}

type querier interface {
	flightSQL(ctx context.Context, c amflightsql.Conn, query string) (any, error)
	adbc(ctx context.Context, cnxn adbc.Connection, query string) (any, error)
}

type rowsOf[T any] []T

func (r rowsOf[T]) flightSQL(ctx context.Context, c amflightsql.Conn, table amflightsql.Table) (int64, error) {
	return amflightsql.Ingest(ctx, c, table, []T(r))
}

func (r rowsOf[T]) adbc(ctx context.Context, cnxn adbc.Connection, table amadbc.Table, opts ...amadbc.WriteOption) (int64, error) {
	return amadbc.Ingest(ctx, cnxn, table, []T(r), opts...)
}

type queryOf[T any] struct{}

func (queryOf[T]) flightSQL(ctx context.Context, c amflightsql.Conn, query string) (any, error) {
	r, err := amflightsql.Query[T](ctx, c, query)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

func (queryOf[T]) adbc(ctx context.Context, cnxn adbc.Connection, query string) (any, error) {
	r, err := amadbc.Query[T](ctx, cnxn, query)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// ingestAny calls f with rows, one of the slices of row types of the
// tests, as the generic value the paths take.
func ingestAny(rows any, f func(ingester) (int64, error)) (int64, error) {
	switch rows := rows.(type) {
	case []typedRow[int64]:
		return f(rowsOf[typedRow[int64]](rows))
	case []typedRow[int32]:
		return f(rowsOf[typedRow[int32]](rows))
	case []typedRow[float64]:
		return f(rowsOf[typedRow[float64]](rows))
	case []typedRow[string]:
		return f(rowsOf[typedRow[string]](rows))
	case []typedRow[[]byte]:
		return f(rowsOf[typedRow[[]byte]](rows))
	case []typedRow[float32]:
		return f(rowsOf[typedRow[float32]](rows))
	case []wideRow:
		return f(rowsOf[wideRow](rows))
	}
	panic(fmt.Sprintf("ingestAny: %T", rows))
}

// queryAny is the rows f reads, as a slice of want's type, or its error.
func queryAny(want any, f func(querier) (any, error)) any {
	var (
		got any
		err error
	)
	switch want.(type) {
	case []typedRow[int64]:
		got, err = f(queryOf[typedRow[int64]]{})
	case []typedRow[float64]:
		got, err = f(queryOf[typedRow[float64]]{})
	case []typedRow[string]:
		got, err = f(queryOf[typedRow[string]]{})
	case []typedRow[[]byte]:
		got, err = f(queryOf[typedRow[[]byte]]{})
	case []wideRow:
		got, err = f(queryOf[wideRow]{})
	case []countRow:
		got, err = f(queryOf[countRow]{})
	default:
		panic(fmt.Sprintf("queryAny: %T", want))
	}
	if err != nil {
		return err
	}
	return got
}

// typedRows numbers values as rows, from id 1.
func typedRows[V any](values ...*V) []typedRow[V] {
	rows := make([]typedRow[V], len(values))
	for i, v := range values {
		rows[i] = typedRow[V]{ID: int64(i + 1), V: v}
	}
	return rows
}

// wideRow has a column of each SQLite type.
type wideRow struct {
	ID   int64    `arrow:"id"`
	Name *string  `arrow:"name"`
	Temp *float64 `arrow:"temp"`
	Raw  []byte   `arrow:"raw"`
}

func wideRows(n int) []wideRow {
	rows := make([]wideRow, n)
	for i := range rows {
		rows[i] = wideRow{ID: int64(i), Raw: []byte(fmt.Sprint(i))}
		if i%3 != 0 {
			rows[i].Name = ptr(fmt.Sprintf("row %d", i))
		}
		if i%5 != 0 {
			rows[i].Temp = ptr(float64(i) / 7)
		}
	}
	return rows
}

func TestSQLiteIngestQueriedBackEqualsTheInput(t *testing.T) {
	mem := noLeaks(t)
	_, addr := startSQLiteServer(t)
	paths := ingestPaths(t, addr, mem)

	cases := []struct {
		name string
		rows any
		// want is what is read back, when it is not rows.
		want any
	}{
		{name: "an INTEGER column of int64, its NULLs and extremes",
			rows: typedRows(ptr[int64](0), nil, ptr[int64](-1), ptr[int64](math.MaxInt64), ptr[int64](math.MinInt64), nil, ptr[int64](42))},
		{name: "an INTEGER column of int32 reads back as int64, the extremes of int32 exact",
			rows: typedRows(ptr[int32](math.MaxInt32), nil, ptr[int32](math.MinInt32)),
			want: typedRows(ptr[int64](math.MaxInt32), nil, ptr[int64](math.MinInt32))},
		{name: "a REAL column of float64, its NULLs and extremes, bit for bit",
			rows: typedRows(ptr(1.5), nil, ptr(-0.1), ptr(math.MaxFloat64), ptr(-math.MaxFloat64), ptr(math.SmallestNonzeroFloat64), ptr(1e-300), nil)},
		{name: "a TEXT column of string, its NULLs, the empty string and unicode",
			rows: typedRows(ptr("héllo, 世界 ☃"), nil, ptr(""), ptr(`it's "quoted"`), ptr(strings.Repeat("long ", 500)), ptr("\x00nul inside"))},
		{name: "a BLOB column of []byte: the server sends a NULL BLOB back as an empty one",
			rows: typedRows(ptr([]byte{0, 0xff, 0x10}), nil, ptr([]byte{}), ptr(make([]byte, 3000))),
			want: typedRows(ptr([]byte{0, 0xff, 0x10}), ptr([]byte{}), ptr([]byte{}), ptr(make([]byte, 3000)))},
		{name: "a row of every type at once, NULLs in every nullable column",
			rows: wideRows(50)},
	}
	for _, path := range paths {
		for i, tc := range cases {
			t.Run(path.name+": "+tc.name, func(t *testing.T) {
				table := fmt.Sprintf("ingested_%d_%s", i, strings.ReplaceAll(path.name, " ", "_"))
				n, err := path.ingest(t, table, amadbc.Create, tc.rows)
				require.NoError(t, err)
				want := tc.want
				if want == nil {
					want = tc.rows
				}
				assert.EqualValues(t, lenOf(tc.rows), n, "the rows the server says it wrote")
				got := path.query(t, "SELECT * FROM "+table+" ORDER BY id", want)
				require.Equal(t, want, got)
			})
		}
		t.Run(path.name+": SQLite holds NULL where the value was nil, and an empty BLOB as a BLOB", func(t *testing.T) {
			table := "nulls_" + strings.ReplaceAll(path.name, " ", "_")
			_, err := path.ingest(t, table, amadbc.Create, typedRows(ptr([]byte{1}), nil, ptr([]byte{})))
			require.NoError(t, err)
			// The server's NULL BLOB is an empty value: what SQLite holds is
			// asked of SQLite, as INTEGER columns.
			got := path.query(t, "SELECT id, CAST(length(v) AS INTEGER) AS v FROM "+table+" ORDER BY id", []typedRow[int64]{})
			assert.Equal(t, typedRows(ptr[int64](1), nil, ptr[int64](0)), got)
		})
	}
}

// lenOf is the length of a slice of rows.
func lenOf(rows any) int {
	switch rows := rows.(type) {
	case []typedRow[int64]:
		return len(rows)
	case []typedRow[int32]:
		return len(rows)
	case []typedRow[float64]:
		return len(rows)
	case []typedRow[string]:
		return len(rows)
	case []typedRow[[]byte]:
		return len(rows)
	case []typedRow[float32]:
		return len(rows)
	case []wideRow:
		return len(rows)
	}
	panic(fmt.Sprintf("lenOf: %T", rows))
}

func TestSQLiteIngestOfNoRowsCreatesAnEmptyTable(t *testing.T) {
	mem := noLeaks(t)
	_, addr := startSQLiteServer(t)
	for _, path := range ingestPaths(t, addr, mem) {
		t.Run(path.name+": the table is made from the schema, and reads back no row", func(t *testing.T) {
			table := "empty_" + strings.ReplaceAll(path.name, " ", "_")
			n, err := path.ingest(t, table, amadbc.Create, []wideRow{})
			require.NoError(t, err)
			assert.Zero(t, n)
			got := path.query(t, "SELECT * FROM "+table, []wideRow{})
			require.NotImplements(t, (*error)(nil), got, "the table exists")
			assert.Empty(t, got)
			// Its columns are typed from the Arrow schema: rows appended
			// later read back into the same T.
			rows := wideRows(4)
			n, err = path.ingest(t, table, amadbc.Append, rows)
			require.NoError(t, err)
			assert.EqualValues(t, 4, n)
			assert.Equal(t, rows, path.query(t, "SELECT * FROM "+table+" ORDER BY id", []wideRow{}))
		})
	}
}

func TestSQLiteIngestOfAnEmptySequenceCreatesAnEmptyTableAsAnEmptySliceDoes(t *testing.T) {
	mem := noLeaks(t)
	srv, addr := startSQLiteServer(t)
	c := connect(t, addr, mem)
	cnxn := openIngesting(t, testContext(t), addr, mem)
	noRows := func(func(wideRow, error) bool) {}
	noPages := func(func([]wideRow, error) bool) {}
	emptyPages := func(yield func([]wideRow, error) bool) { yield(nil, nil) }
	for name, ingest := range map[string]func(table string) (int64, error){
		"flightsql.IngestSeq": func(table string) (int64, error) {
			return amflightsql.IngestSeq(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Create}, noRows)
		},
		"flightsql.IngestPages": func(table string) (int64, error) {
			return amflightsql.IngestPages(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Create}, noPages)
		},
		"adbc.IngestSeq": func(table string) (int64, error) {
			return amadbc.IngestSeq(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Create}, noRows, mapper.Allocator(mem))
		},
		"adbc.IngestPages": func(table string) (int64, error) {
			return amadbc.IngestPages(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Create}, noPages, mapper.Allocator(mem))
		},
		"adbc.IngestPages of an empty page": func(table string) (int64, error) {
			return amadbc.IngestPages(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Create}, emptyPages, mapper.Allocator(mem))
		},
	} {
		t.Run(name+": the table is made from the schema, with no row", func(t *testing.T) {
			table := "empty_" + strings.NewReplacer(".", "_", " ", "_").Replace(name)
			_, err := ingest(table)
			require.NoError(t, err)
			var rows int
			require.NoError(t, srv.db.QueryRow("SELECT count(*) FROM "+quoteIdent(table)).Scan(&rows))
			assert.Zero(t, rows)
		})
	}
}

func TestSQLiteIngestReplaceFailingPastItsFirstBatchKeepsTheOldTableEvenForASequenceThatIgnoresStop(t *testing.T) {
	mem := noLeaks(t)
	srv, addr := startSQLiteServer(t)
	c := connect(t, addr, mem)
	cnxn := openIngesting(t, testContext(t), addr, mem)
	broken := errors.New("the source broke")
	// Each sequence goes on yielding after its error and after yield
	// returned false, as a careless one does.
	rows := func(batch int) iter.Seq2[wideRow, error] {
		return func(yield func(wideRow, error) bool) {
			for i, r := range wideRows(batch + 50) {
				if i == batch+10 {
					yield(wideRow{}, broken)
					continue
				}
				yield(r, nil)
			}
		}
	}
	pages := func(batch int) iter.Seq2[[]wideRow, error] {
		return func(yield func([]wideRow, error) bool) {
			for i := range 4 {
				if i == 2 {
					yield(nil, broken)
					continue
				}
				yield(wideRows(batch), nil)
			}
		}
	}
	for name, ingest := range map[string]func(table string) error{
		"flightsql.IngestSeq": func(table string) error {
			_, err := amflightsql.IngestSeq(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Replace}, rows(amflightsql.IngestBatchRows))
			return err
		},
		"flightsql.IngestPages": func(table string) error {
			_, err := amflightsql.IngestPages(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Replace}, pages(amflightsql.IngestBatchRows))
			return err
		},
		"adbc.IngestSeq": func(table string) error {
			_, err := amadbc.IngestSeq(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Replace}, rows(amadbc.IngestBatchRows), mapper.Allocator(mem))
			return err
		},
		"adbc.IngestPages": func(table string) error {
			_, err := amadbc.IngestPages(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Replace}, pages(amadbc.IngestBatchRows), mapper.Allocator(mem))
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			table := "replaced_" + strings.ReplaceAll(name, ".", "_")
			_, err := amflightsql.Ingest(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Create}, wideRows(7))
			require.NoError(t, err)
			require.NotPanics(t, func() { err = ingest(table) })
			require.ErrorIs(t, err, broken)
			var n, sum int64
			require.NoError(t, srv.db.QueryRow("SELECT count(*), sum(id) FROM "+quoteIdent(table)).Scan(&n, &sum))
			assert.EqualValues(t, 7, n, "the old table's rows")
			assert.EqualValues(t, 21, sum)
		})
	}
}

// batchesOf is the sizes of the records n rows are sent in, batch rows
// at most in one.
func batchesOf(n, batch int) []int64 {
	var sizes []int64
	for ; n > 0; n -= batch {
		sizes = append(sizes, int64(min(n, batch)))
	}
	return sizes
}

func TestSQLiteIngestOf100kRowsInSeveralBatchesReadsBackEqual(t *testing.T) {
	mem := noLeaks(t)
	srv, addr := startBatchCounter(t)
	rows := wideRows(100_000)
	for _, path := range ingestPaths(t, addr, mem) {
		t.Run(path.name, func(t *testing.T) {
			table := "many_" + strings.ReplaceAll(path.name, " ", "_")
			n, err := path.ingest(t, table, amadbc.Create, rows)
			require.NoError(t, err)
			assert.EqualValues(t, len(rows), n)
			batches := srv.lastBatches()
			assert.Greater(t, len(batches), 1, "several batches")
			assert.Equal(t, batchesOf(len(rows), path.batchRows), batches, "the records the server read")
			require.Equal(t, rows, path.query(t, "SELECT * FROM "+table+" ORDER BY id", []wideRow{}))
		})
	}
}

func TestSQLiteIngestIntoATableThatExists(t *testing.T) {
	mem := noLeaks(t)
	_, addr := startSQLiteServer(t)
	rows := wideRows(5)
	for _, path := range ingestPaths(t, addr, mem) {
		prefix := strings.ReplaceAll(path.name, " ", "_")
		create := func(t *testing.T, table string) {
			t.Helper()
			n, err := path.ingest(t, table, amadbc.Create, rows)
			require.NoError(t, err)
			require.EqualValues(t, len(rows), n)
		}
		readBack := func(t *testing.T, table string) any {
			t.Helper()
			return path.query(t, "SELECT * FROM "+table+" ORDER BY id, rowid", []wideRow{})
		}
		t.Run(path.name+": fail is an error that names the table, and leaves the table as it was", func(t *testing.T) {
			table := "fail_" + prefix
			create(t, table)
			n, err := path.ingest(t, table, amadbc.Create, wideRows(2))
			require.Error(t, err)
			assert.Zero(t, n)
			assert.Contains(t, err.Error(), fmt.Sprintf(`ingest into %q: the table already exists`, table), "the server's message")
			if path.name == "through Flight SQL" {
				assert.Equal(t, codes.AlreadyExists, status.Code(err))
			}
			assert.Equal(t, rows, readBack(t, table))
		})
		t.Run(path.name+": append doubles the rows", func(t *testing.T) {
			table := "append_" + prefix
			create(t, table)
			n, err := path.ingest(t, table, amadbc.Append, rows)
			require.NoError(t, err)
			assert.EqualValues(t, len(rows), n, "the rows of this ingest")
			var want []wideRow
			for _, r := range rows {
				want = append(want, r, r)
			}
			assert.Equal(t, want, readBack(t, table))
		})
		t.Run(path.name+": replace leaves only the new rows", func(t *testing.T) {
			table := "replace_" + prefix
			create(t, table)
			fresh := wideRows(8)[5:]
			n, err := path.ingest(t, table, amadbc.Replace, fresh)
			require.NoError(t, err)
			assert.EqualValues(t, len(fresh), n)
			assert.Equal(t, fresh, readBack(t, table))
		})
		t.Run(path.name+": append to a table that does not exist is an error that names it", func(t *testing.T) {
			table := "missing_" + prefix
			_, err := path.ingest(t, table, amadbc.Append, rows)
			require.Error(t, err)
			assert.Contains(t, err.Error(), fmt.Sprintf(`ingest into %q: the table does not exist`, table))
			if path.name == "through Flight SQL" {
				assert.Equal(t, codes.NotFound, status.Code(err))
			}
			got := readBack(t, table)
			require.Implements(t, (*error)(nil), got, "no table was made")
			assert.ErrorContains(t, got.(error), "no such table")
		})
	}
}

// countRow is the row of a SELECT count(*) AS n.
type countRow struct {
	N int64 `arrow:"n"`
}

func TestSQLiteIngestInEachModeIntoATableThatExistsAndOneThatDoesNot(t *testing.T) {
	mem := noLeaks(t)
	_, addr := startSQLiteServer(t)
	old, fresh := wideRows(5), wideRows(8)[5:]
	for _, tc := range []struct {
		mode   amadbc.IngestMode
		exists bool
		fails  bool
		want   []wideRow // nil: no table
	}{
		{amadbc.Append, true, false, append(slices.Clone(old), fresh...)},
		{amadbc.Append, false, true, nil},
		{amadbc.Create, true, true, old},
		{amadbc.Create, false, false, fresh},
		{amadbc.CreateAppend, true, false, append(slices.Clone(old), fresh...)},
		{amadbc.CreateAppend, false, false, fresh},
		{amadbc.Replace, true, false, fresh},
		{amadbc.Replace, false, false, fresh},
	} {
		for _, path := range ingestPaths(t, addr, mem) {
			existing := map[bool]string{true: "a table that exists", false: "a table that does not"}[tc.exists]
			t.Run(fmt.Sprintf("%s: %v into %s", path.name, tc.mode, existing), func(t *testing.T) {
				table := fmt.Sprintf("mode_%v_%t_%s", tc.mode, tc.exists, strings.ReplaceAll(path.name, " ", "_"))
				if tc.exists {
					_, err := path.ingest(t, table, amadbc.Create, old)
					require.NoError(t, err)
				}
				_, err := path.ingest(t, table, tc.mode, fresh)
				if tc.fails {
					require.Error(t, err)
				} else {
					require.NoError(t, err)
				}
				count := path.query(t, "SELECT count(*) AS n FROM "+table, []countRow{})
				rows := path.query(t, "SELECT * FROM "+table+" ORDER BY rowid", []wideRow{})
				if tc.want == nil {
					require.Implements(t, (*error)(nil), count, "no table was made")
					assert.ErrorContains(t, count.(error), "no such table")
					return
				}
				assert.Equal(t, []countRow{{N: int64(len(tc.want))}}, count)
				assert.Equal(t, tc.want, rows)
			})
		}
	}
}

func TestSQLiteIngestOfAnArrowTypeWithoutSQLiteTypeIsInvalidArgument(t *testing.T) {
	mem := noLeaks(t)
	_, addr := startSQLiteServer(t)
	for _, path := range ingestPaths(t, addr, mem) {
		t.Run(path.name+": a float32 column names the column and its type, and makes no table", func(t *testing.T) {
			table := "float32_" + strings.ReplaceAll(path.name, " ", "_")
			_, err := path.ingest(t, table, amadbc.Create, typedRows(ptr[float32](1.5)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), `column "v": Arrow type float32 has no SQLite type`)
			if path.name == "through Flight SQL" {
				assert.Equal(t, codes.InvalidArgument, status.Code(err))
			} else {
				assert.Contains(t, err.Error(), "InvalidArgument")
			}
			got := path.query(t, "SELECT * FROM "+table, []typedRow[int64]{})
			require.Implements(t, (*error)(nil), got)
			assert.ErrorContains(t, got.(error), "no such table")
		})
	}
}

func TestSQLiteIngestThatFailsMidwayLeavesNoTable(t *testing.T) {
	mem := noLeaks(t)
	srv, addr := startBatchCounter(t)
	c := connect(t, addr, mem)
	cnxn := openIngesting(t, testContext(t), addr, mem)
	rows := wideRows(amflightsql.IngestBatchRows + 10)
	broken := errors.New("the source broke")
	ingests := []struct {
		name   string
		ingest func(table string) (int64, error)
	}{
		{"through Flight SQL's IngestPages, past its first batch", func(table string) (int64, error) {
			pages := func(yield func([]wideRow, error) bool) {
				if yield(rows, nil) {
					yield(nil, broken)
				}
			}
			return amflightsql.IngestPages(testContext(t), c, amflightsql.Table{Name: table, Mode: amflightsql.Create}, pages)
		}},
		{"through ADBC's IngestSeq, past its first batch", func(table string) (int64, error) {
			seq := func(yield func(wideRow, error) bool) {
				for _, r := range rows[:amadbc.IngestBatchRows+10] {
					if !yield(r, nil) {
						return
					}
				}
				yield(wideRow{}, broken)
			}
			return amadbc.IngestSeq(testContext(t), cnxn, amadbc.Table{Name: table, Mode: amadbc.Create}, seq, mapper.Allocator(mem))
		}},
	}
	for i, tc := range ingests {
		t.Run(tc.name+": the server rolls its transaction back", func(t *testing.T) {
			table := fmt.Sprintf("broken_%d", i)
			_, err := tc.ingest(table)
			require.ErrorIs(t, err, broken)
			if err, reached := srv.settled(t, table); reached {
				assert.Error(t, err, "the server saw a stream that failed, not one that ended")
			}
			_, err = c.Client.ExecuteUpdate(testContext(t), "SELECT count(*) FROM "+table)
			assert.ErrorContains(t, err, "no such table")
		})
	}
}
