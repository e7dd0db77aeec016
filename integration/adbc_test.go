package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	amadbc "github.com/arrowmap/arrowmap/adbc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typedRow is a row of a table of one SQLite type: the id orders the rows,
// v is nullable.
type typedRow[V any] struct {
	ID int64 `arrow:"id"`
	V  *V    `arrow:"v"`
}

// roundTrip creates a table with a column of sqlType, inserts values with
// bound parameters (ExecWith), and checks that SQLite holds NULL exactly
// where a value is nil and that Query reads back what was inserted.
func roundTrip[V any](t *testing.T, ctx context.Context, cnxn adbc.Connection, sqlType string, values []*V) {
	table := "t_" + strings.ToLower(sqlType)
	_, err := amadbc.Exec(ctx, cnxn, fmt.Sprintf("CREATE TABLE %s (id INTEGER, v %s)", table, sqlType))
	require.NoError(t, err)
	rows := make([]typedRow[V], len(values))
	var nullIDs []int64
	for i, v := range values {
		rows[i] = typedRow[V]{ID: int64(i + 1), V: v}
		if v == nil {
			nullIDs = append(nullIDs, rows[i].ID)
		}
	}
	n, err := amadbc.ExecWith(ctx, cnxn, fmt.Sprintf("INSERT INTO %s VALUES (?, ?)", table), rows)
	require.NoError(t, err)
	assert.Equal(t, int64(len(rows)), n, "rows inserted")

	// SQLite's own view of the NULLs, decoded by nothing of ours but ids.
	nulls := queryAll[struct {
		ID int64 `arrow:"id"`
	}](t, ctx, cnxn, fmt.Sprintf("SELECT id FROM %s WHERE v IS NULL ORDER BY id", table))
	var gotNullIDs []int64
	for _, r := range nulls {
		gotNullIDs = append(gotNullIDs, r.ID)
	}
	assert.Equal(t, nullIDs, gotNullIDs, "the rows SQLite holds NULL in")

	got := queryAll[typedRow[V]](t, ctx, cnxn, fmt.Sprintf("SELECT id, v FROM %s ORDER BY id", table))
	require.Equal(t, rows, got)
}

// queryAll runs query with Query and reads all its rows, releasing the
// Reader.
func queryAll[T any](t *testing.T, ctx context.Context, cnxn adbc.Connection, query string, opts ...amadbc.ReadOption) []T {
	t.Helper()
	r, err := amadbc.Query[T](ctx, cnxn, query, opts...)
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

func ptr[V any](v V) *V { return &v }

func TestADBCQueryReadsEachSQLiteTypeWithNulls(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	addr, srv := startCountingSQLite(t)
	cnxn := openFlightSQL(t, ctx, addr, mem)

	t.Run("an INTEGER column comes back into *int64, NULL as nil, the extremes exact", func(t *testing.T) {
		roundTrip(t, ctx, cnxn, "INTEGER", []*int64{ptr[int64](0), nil, ptr[int64](-1), ptr[int64](math.MaxInt64), ptr[int64](math.MinInt64), nil})
	})
	t.Run("a REAL column comes back into *float64, NULL as nil, bit for bit", func(t *testing.T) {
		roundTrip(t, ctx, cnxn, "REAL", []*float64{ptr(1.5), nil, ptr(-0.1), ptr(math.MaxFloat64), ptr(math.SmallestNonzeroFloat64), ptr(1e-300)})
	})
	t.Run("a TEXT column comes back into *string, NULL as nil, the empty string kept", func(t *testing.T) {
		roundTrip(t, ctx, cnxn, "TEXT", []*string{ptr("héllo ☃"), nil, ptr(""), ptr(`it's "quoted"`), ptr(strings.Repeat("long ", 500))})
	})
	t.Run("a BLOB column comes back into []byte, as the server sends it", func(t *testing.T) {
		// The example server drops BLOB parameters (it releases each
		// parameter's scalar before reading it), so the rows go in as SQL
		// literals; and it sends a NULL BLOB as an empty, valid value
		// (SqlBatchReader tests the *[]byte, not the slice, for nil). The
		// null path of binary is TestADBCQueryWithChecksTheParameterSchema's.
		_, err := amadbc.Exec(ctx, cnxn, "CREATE TABLE t_blob (id INTEGER, v BLOB)")
		require.NoError(t, err)
		_, err = amadbc.Exec(ctx, cnxn, "INSERT INTO t_blob VALUES (1, x'00ff10'), (2, NULL), (3, x''), (4, randomblob(3000))")
		require.NoError(t, err)
		type blobRow struct {
			ID      int64  `arrow:"id"`
			V       []byte `arrow:"v"`
			IsNull  int64  `arrow:"is_null"`
			Length  *int64 `arrow:"len"`
			Hex     string `arrow:"hex"`
			Pointer *[]byte
		}
		got := queryAll[blobRow](t, ctx, cnxn, "SELECT id, v, v IS NULL AS is_null, length(v) AS len, hex(v) AS hex, v AS Pointer FROM t_blob ORDER BY id")
		require.Len(t, got, 4)
		assert.Equal(t, []byte{0x00, 0xff, 0x10}, got[0].V)
		assert.Equal(t, int64(1), got[1].IsNull, "SQLite holds NULL")
		assert.Nil(t, got[1].Length, "length(NULL) is NULL")
		assert.NotNil(t, got[1].V, "…and the server sent it as an empty value, not a null")
		assert.Empty(t, got[1].V)
		assert.NotNil(t, got[2].V, "an empty BLOB is an empty slice, not nil")
		assert.Empty(t, got[2].V)
		for _, r := range got {
			assert.Equal(t, r.Hex, fmt.Sprintf("%X", r.V), "row %d: the bytes SQLite holds", r.ID)
			require.NotNil(t, r.Pointer)
			assert.Equal(t, r.V, *r.Pointer)
			if r.Length != nil {
				assert.Equal(t, *r.Length, int64(len(r.V)))
			}
		}
	})
	t.Run("every prepared statement was closed", func(t *testing.T) {
		assert.Zero(t, srv.open.Load())
	})
}

// sqliteRow is a row of the table people, in snake case.
type sqliteRow struct {
	UserID   int64
	UserName *string
}

// people creates and fills the table people: user_id 1…n, user_name
// "user <id>", NULL for every third.
func people(t *testing.T, ctx context.Context, cnxn adbc.Connection, n int) []sqliteRow {
	t.Helper()
	_, err := amadbc.Exec(ctx, cnxn, "CREATE TABLE people (user_id INTEGER, user_name TEXT)")
	require.NoError(t, err)
	rows := make([]sqliteRow, n)
	for i := range rows {
		rows[i].UserID = int64(i + 1)
		if i%3 != 2 {
			rows[i].UserName = ptr(fmt.Sprintf("user %d", i+1))
		}
	}
	inserted, err := amadbc.ExecWith(ctx, cnxn, "INSERT INTO people VALUES (?, ?)", rows)
	require.NoError(t, err)
	require.Equal(t, int64(n), inserted)
	return rows
}

func TestADBCQueryReadsResults(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	addr, srv := startCountingSQLite(t)
	cnxn := openFlightSQL(t, ctx, addr, mem)
	rows := people(t, ctx, cnxn, 2500) // the server sends 1024 rows a record

	t.Run("a result of several records reads back whole, row by row and by pages", func(t *testing.T) {
		got := queryAll[sqliteRow](t, ctx, cnxn, "SELECT user_id, user_name FROM people ORDER BY user_id", mapper.SnakeCase())
		require.Equal(t, rows, got)

		r, err := amadbc.Query[sqliteRow](ctx, cnxn, "SELECT user_id, user_name FROM people ORDER BY user_id", mapper.SnakeCase())
		require.NoError(t, err)
		defer r.Release()
		var paged []sqliteRow
		for page, err := range r.Pages(1000) {
			require.NoError(t, err)
			paged = append(paged, page...)
		}
		require.Equal(t, rows, paged)
	})
	t.Run("a query with no rows reads none, cleanly", func(t *testing.T) {
		r, err := amadbc.Query[sqliteRow](ctx, cnxn, "SELECT user_id, user_name FROM people WHERE user_id < 0", mapper.SnakeCase())
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		assert.Empty(t, got)
		n, err := r.Read(make([]sqliteRow, 4))
		assert.Zero(t, n)
		assert.Same(t, io.EOF, err)
	})
	t.Run("a query with no rows still has its schema checked against T", func(t *testing.T) {
		skipIfTheDriverRaces(t)
		r, err := amadbc.Query[struct{ UserID string }](ctx, cnxn, "SELECT user_id FROM people WHERE user_id < 0", mapper.SnakeCase())
		require.Nil(t, r)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
		assert.Equal(t, "UserID", me.Path)
		assert.Equal(t, "user_id", me.Column)
	})
	t.Run("QueryWith runs the query once per row of parameters, results in order", func(t *testing.T) {
		type byID struct{ UserID int64 }
		r, err := amadbc.QueryWith[sqliteRow](ctx, cnxn, "SELECT user_id, user_name FROM people WHERE user_id = ?",
			[]byID{{3}, {1}, {99999}, {2}}, mapper.SnakeCase(), mapper.Strict(), mapper.Allocator(mem))
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		assert.Equal(t, []sqliteRow{rows[2], rows[0], rows[1]}, got)
	})
	t.Run("an empty params runs nothing, through QueryWith and ExecWith", func(t *testing.T) {
		type byID struct{ UserID int64 }
		r, err := amadbc.QueryWith[sqliteRow](ctx, cnxn, "DELETE FROM people WHERE user_id = ? RETURNING user_id, user_name",
			[]byID{}, mapper.SnakeCase(), mapper.Allocator(mem))
		require.NoError(t, err)
		defer r.Release()
		assert.Equal(t, "user_id", r.Schema().Field(0).Name, "the schema is T's own")
		got, err := r.ReadAll()
		require.NoError(t, err)
		assert.Empty(t, got)
		n, err := amadbc.ExecWith(ctx, cnxn, "DELETE FROM people WHERE user_id = ?", []byID{}, mapper.SnakeCase())
		require.NoError(t, err)
		assert.Zero(t, n)
		r2, err := amadbc.Query[sqliteRow](ctx, cnxn, "SELECT user_id, user_name FROM people ORDER BY user_id", mapper.SnakeCase())
		require.NoError(t, err)
		defer r2.Release()
		all, err := r2.ReadAll()
		require.NoError(t, err)
		assert.Equal(t, rows, all, "no row was deleted")
	})
	t.Run("releasing a Reader before the end closes its statement and lets go of every record", func(t *testing.T) {
		skipIfTheDriverRaces(t)
		r, err := amadbc.QueryWith[sqliteRow](ctx, cnxn, "SELECT user_id, user_name FROM people WHERE user_id > ? ORDER BY user_id",
			[]struct{ From int64 }{{0}}, mapper.SnakeCase())
		require.NoError(t, err)
		assert.Equal(t, int64(1), srv.open.Load(), "the Reader's statement is open")
		for page, err := range r.Pages(10) {
			require.NoError(t, err)
			assert.Equal(t, rows[:10], page)
			break
		}
		r.Release()
		assert.Zero(t, srv.open.Load(), "Release closed the statement")
		_, err = r.ReadAll()
		assert.ErrorIs(t, err, mapper.ErrClosed)
	})
	t.Run("every prepared statement was closed", func(t *testing.T) {
		assert.Zero(t, srv.open.Load())
	})
}

func TestADBCFaultsAreClearErrors(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	addr, srv := startCountingSQLite(t)
	cnxn := openFlightSQL(t, ctx, addr, mem)
	people(t, ctx, cnxn, 3)

	type person struct {
		UserID   int64   `arrow:"user_id"`
		UserName *string `arrow:"user_name"`
	}
	type byID struct{ ID int64 }
	for _, tc := range []struct {
		name    string
		run     func() (*mapper.Reader[person], error)
		check   func(t *testing.T, err error)
		cancels bool // releases a result whose stream may not have ended
	}{
		{
			name: "bad SQL is the driver's error, wrapped with the query and the call",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.Query[person](ctx, cnxn, "SELEC user_id FROM people")
			},
			check: func(t *testing.T, err error) {
				var ae adbc.Error
				require.ErrorAs(t, err, &ae)
				assert.Contains(t, ae.Msg, "syntax error")
				assert.Contains(t, err.Error(), `adbc.Query "SELEC user_id FROM people": ExecuteQuery`)
			},
		},
		{
			name: "bad SQL with parameters fails at Prepare",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.QueryWith[person](ctx, cnxn, "SELECT user_id FROM nosuch WHERE user_id = ?", []byID{{1}})
			},
			check: func(t *testing.T, err error) {
				var ae adbc.Error
				require.ErrorAs(t, err, &ae)
				assert.Contains(t, ae.Msg, "no such table")
				assert.Contains(t, err.Error(), ": Prepare: ")
			},
		},
		{
			name: "a result column of another type is reported before any row, naming field and column",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.Query[person](ctx, cnxn, "SELECT user_name AS user_id, user_name FROM people")
			},
			check: func(t *testing.T, err error) {
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
				assert.Equal(t, "UserID", me.Path)
				assert.Equal(t, "user_id", me.Column)
				assert.Equal(t, -1, me.Row)
			},
			cancels: true,
		},
		{
			name: "a result without a field's column is reported before any row, through QueryWith too",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.QueryWith[person](ctx, cnxn, "SELECT user_id FROM people WHERE user_id = ?", []byID{{1}})
			},
			check: func(t *testing.T, err error) {
				var me *mapper.Error
				require.ErrorAs(t, err, &me)
				assert.ErrorIs(t, err, mapper.ErrMissingColumn)
				assert.Equal(t, "UserName", me.Path)
			},
			cancels: true,
		},
		{
			name: "too few parameters for a server that gives no parameter schema is the server's error",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.QueryWith[person](ctx, cnxn, "SELECT * FROM people WHERE user_id = ? OR user_id = ?", []byID{{1}})
			},
			check: func(t *testing.T, err error) {
				var ae adbc.Error
				require.ErrorAs(t, err, &ae)
				assert.Contains(t, err.Error(), "ExecuteQuery")
				assert.Contains(t, ae.Msg, "argument")
			},
		},
		{
			name: "an allocator given to Query, whose driver allocates, is refused before the query runs",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.Query[person](ctx, cnxn, "SELECT * FROM people", mapper.Allocator(mem))
			},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, mapper.ErrOption)
				assert.Contains(t, err.Error(), "adbc.Query does not take Allocator")
			},
		},
		{
			name: "a nil connection is an error, not a panic",
			run: func() (*mapper.Reader[person], error) {
				return amadbc.QueryWith[person](ctx, nil, "SELECT 1", []byID{{1}})
			},
			check: func(t *testing.T, err error) {
				assert.ErrorContains(t, err, "nil connection")
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cancels {
				skipIfTheDriverRaces(t)
			}
			r, err := tc.run()
			require.Error(t, err)
			require.Nil(t, r)
			tc.check(t, err)
			assert.Zero(t, srv.open.Load(), "the statement was closed")
		})
	}

	t.Run("an error of Exec and ExecWith is the driver's, wrapped", func(t *testing.T) {
		_, err := amadbc.Exec(ctx, cnxn, "INSERT INTO nosuch VALUES (1)")
		var ae adbc.Error
		require.ErrorAs(t, err, &ae)
		assert.Contains(t, err.Error(), "ExecuteUpdate")
		_, err = amadbc.ExecWith(ctx, cnxn, "INSERT INTO nosuch VALUES (?)", []byID{{1}})
		require.ErrorAs(t, err, &ae)
		_, err = amadbc.ExecWith(ctx, cnxn, "INSERT INTO people VALUES (?, ?)", []byID{{1}}, mapper.SchemaMetadata(arrow.Metadata{}))
		assert.ErrorIs(t, err, mapper.ErrOption)
		assert.ErrorContains(t, err, "adbc.ExecWith does not take SchemaMetadata")
		assert.Zero(t, srv.open.Load())
	})
}

// echoRow is the parameters and result of the recording server's echo.
type echoRow struct {
	ID   int64   `arrow:"id"`
	Name *string `arrow:"name"`
	Blob []byte  `arrow:"blob"`
}

func TestADBCQueryWithChecksTheParameterSchema(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	echoSchema, err := mapper.SchemaOf[echoRow]()
	require.NoError(t, err)
	addr, srv := startRecording(t, map[string]*arrow.Schema{
		"ECHO ?, ?, ?": echoSchema,
		"ECHO ?":       arrow.NewSchema([]arrow.Field{{Name: "", Type: arrow.Null, Nullable: true}}, nil),
	})
	cnxn := openFlightSQL(t, ctx, addr, mem)

	t.Run("parameters of the statement's types are bound and come back as they were sent, nulls included", func(t *testing.T) {
		params := []echoRow{{1, ptr("one"), []byte{1}}, {2, nil, nil}, {3, ptr(""), []byte{}}}
		r, err := amadbc.QueryWith[echoRow](ctx, cnxn, "ECHO ?, ?, ?", params, mapper.Allocator(mem))
		require.NoError(t, err)
		got, err := r.ReadAll()
		require.NoError(t, err)
		r.Release()
		require.Equal(t, params, got)
		assert.Nil(t, got[1].Blob, "a null binary is nil")
		assert.NotNil(t, got[2].Blob, "an empty binary is not")
	})
	t.Run("a parameter of another type is an ErrParameters naming it, and nothing is bound", func(t *testing.T) {
		type narrow struct {
			ID   int32 `arrow:"id"`
			Name *string
			Blob []byte
		}
		before := srv.bindCalls()
		r, err := amadbc.QueryWith[echoRow](ctx, cnxn, "ECHO ?, ?, ?", []narrow{{ID: 1}})
		require.Nil(t, r)
		require.ErrorIs(t, err, amadbc.ErrParameters)
		assert.ErrorIs(t, err, mapper.ErrTypeMismatch)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "id", me.Column)
		assert.Contains(t, err.Error(), `parameter 1 ("id")`)
		assert.Contains(t, err.Error(), "is int64, P's column \"id\" is int32")
		assert.Equal(t, before, srv.bindCalls(), "nothing was bound")
	})
	t.Run("too few parameters is an ErrParameters saying how many the statement takes", func(t *testing.T) {
		r, err := amadbc.QueryWith[echoRow](ctx, cnxn, "ECHO ?, ?, ?", []struct{ ID int64 }{{1}})
		require.Nil(t, r)
		require.ErrorIs(t, err, amadbc.ErrParameters)
		assert.Contains(t, err.Error(), "takes 3 parameters (id int64, name utf8, blob binary), P has 1 columns (ID int64)")
	})
	t.Run("a parameter of unknown type takes any type", func(t *testing.T) {
		type word struct{ Word string }
		r, err := amadbc.QueryWith[word](ctx, cnxn, "ECHO ?", []word{{"a"}, {"b"}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		assert.Equal(t, []word{{"a"}, {"b"}}, got)
	})
	t.Run("every prepared statement was closed", func(t *testing.T) {
		assert.Zero(t, srv.openStatements())
	})
}

// order is a row ingested: nested and temporal columns too.
type order struct {
	ID    int64     `arrow:"id"`
	Buyer *string   `arrow:"buyer"`
	Total float64   `arrow:"total"`
	At    time.Time `arrow:"at"`
	Tags  []string  `arrow:"tags"`
}

func orders(n int) []order {
	rows := make([]order, n)
	for i := range rows {
		rows[i] = order{ID: int64(i), Total: float64(i) / 4, At: time.Unix(int64(i)*3600, int64(i)).UTC()}
		if i%5 != 0 {
			rows[i].Buyer = ptr(fmt.Sprintf("buyer %d", i%17))
		}
		if i%3 != 0 {
			rows[i].Tags = []string{"t", fmt.Sprint(i)}
		}
	}
	return rows
}

// stored decodes what the server stored of one ingest call, and the rows
// of each record.
func stored[T any](t *testing.T, call recordedIngest, opts ...mapper.ReadOption) (rows []T, sizes []int) {
	t.Helper()
	for _, rec := range call.records {
		got, err := mapper.Decode[T](rec, opts...)
		require.NoError(t, err)
		rows = append(rows, got...)
		sizes = append(sizes, int(rec.NumRows()))
	}
	return rows, sizes
}

func TestADBCIngest(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	addr, srv := startRecording(t, nil)
	cnxn := openIngesting(t, ctx, addr, mem)
	schema, err := mapper.SchemaOf[order]()
	require.NoError(t, err)
	last := func(t *testing.T) recordedIngest {
		calls := srv.ingested()
		require.NotEmpty(t, calls)
		return calls[len(calls)-1]
	}

	t.Run("rows up to a batch go as one record, stored as they were", func(t *testing.T) {
		rows := orders(100)
		n, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "orders", Mode: amadbc.Create}, rows, mapper.Allocator(mem))
		require.NoError(t, err)
		assert.Equal(t, int64(len(rows)), n)
		call := last(t)
		assert.Equal(t, "orders", call.table)
		got, sizes := stored[order](t, call)
		assert.Equal(t, rows, got)
		assert.Equal(t, []int{100}, sizes)
		assert.True(t, schema.Equal(call.records[0].Schema()), "the table's schema is SchemaOf[T]")
	})
	t.Run("more rows than a batch are streamed in records of IngestBatchRows", func(t *testing.T) {
		rows := orders(2*amadbc.IngestBatchRows + 5)
		n, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "big", Mode: amadbc.Append}, rows, mapper.Allocator(mem))
		require.NoError(t, err)
		assert.Equal(t, int64(len(rows)), n)
		got, sizes := stored[order](t, last(t))
		assert.Equal(t, rows, got)
		assert.Equal(t, []int{amadbc.IngestBatchRows, amadbc.IngestBatchRows, 5}, sizes)
	})
	t.Run("each mode goes to the driver as its ingest mode option", func(t *testing.T) {
		for mode, option := range map[amadbc.IngestMode]string{
			amadbc.Append:       adbc.OptionValueIngestModeAppend,
			amadbc.Create:       adbc.OptionValueIngestModeCreate,
			amadbc.CreateAppend: adbc.OptionValueIngestModeCreateAppend,
			amadbc.Replace:      adbc.OptionValueIngestModeReplace,
		} {
			_, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "modes", Mode: mode}, orders(1))
			require.NoError(t, err, mode)
			want, got := ingestModes[option], last(t).options
			assert.Equal(t, want.GetIfExists(), got.GetIfExists(), mode)
			assert.Equal(t, want.GetIfNotExist(), got.GetIfNotExist(), mode)
		}
	})
	t.Run("a mode that is none of the four is refused before the driver sees it", func(t *testing.T) {
		before := len(srv.ingested())
		_, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "modes", Mode: amadbc.IngestMode(9)}, orders(1))
		assert.EqualError(t, err, `arrowmap/adbc: adbc.Ingest into "modes": no ingest mode IngestMode(9)`)
		assert.Len(t, srv.ingested(), before)
	})
	t.Run("a Table field the driver does not take is the driver's error naming the field", func(t *testing.T) {
		for field, table := range map[string]amadbc.Table{
			"Catalog":   {Name: "t", Catalog: "c"},
			"Schema":    {Name: "t", Schema: "s"},
			"Temporary": {Name: "t", Temporary: true},
		} {
			_, err := amadbc.Ingest(ctx, cnxn, table, orders(1))
			var ae adbc.Error
			require.ErrorAs(t, err, &ae, field)
			assert.Contains(t, err.Error(), `adbc.Ingest into "t": Table.`+field+": SetOption adbc.ingest.", field)
		}
	})
	t.Run("no rows make a record of none, with the table's schema", func(t *testing.T) {
		n, err := amadbc.Ingest[order](ctx, cnxn, amadbc.Table{Name: "empty", Mode: amadbc.Create}, nil)
		require.NoError(t, err)
		assert.Zero(t, n)
		call := last(t)
		got, _ := stored[order](t, call)
		assert.Empty(t, got)
		require.NotEmpty(t, call.records)
		assert.True(t, schema.Equal(call.records[0].Schema()))
	})
	t.Run("a value that does not fit its column past the first batch fails, naming its row in the input", func(t *testing.T) {
		rows := orders(amadbc.IngestBatchRows + 10)
		bad := amadbc.IngestBatchRows + 3
		rows[bad].At = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC) // past timestamp[ns]
		_, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "bad", Mode: amadbc.Create}, rows, mapper.Allocator(mem))
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.ErrorIs(t, err, mapper.ErrOverflow)
		assert.Equal(t, "At", me.Path)
		assert.Equal(t, bad, me.Row)
	})
	t.Run("a value that does not fit in a single batch fails before anything is sent", func(t *testing.T) {
		before := len(srv.ingested())
		rows := orders(10)
		rows[7].At = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
		_, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "bad", Mode: amadbc.Create}, rows)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, 7, me.Row)
		assert.Len(t, srv.ingested(), before)
	})
	t.Run("a table without a name is refused", func(t *testing.T) {
		_, err := amadbc.Ingest(ctx, cnxn, amadbc.Table{Mode: amadbc.Create}, orders(1))
		assert.ErrorContains(t, err, "the Table has no Name")
	})
	t.Run("IngestSeq streams a sequence in records of IngestBatchRows", func(t *testing.T) {
		rows := orders(amadbc.IngestBatchRows + 1)
		seq := func(yield func(order, error) bool) {
			for _, r := range rows {
				if !yield(r, nil) {
					return
				}
			}
		}
		n, err := amadbc.IngestSeq(ctx, cnxn, amadbc.Table{Name: "seq", Mode: amadbc.Create}, seq, mapper.Allocator(mem))
		require.NoError(t, err)
		assert.Equal(t, int64(len(rows)), n)
		got, sizes := stored[order](t, last(t))
		assert.Equal(t, rows, got)
		assert.Equal(t, []int{amadbc.IngestBatchRows, 1}, sizes)
	})
	t.Run("IngestPages cuts a page larger than a batch into records of IngestBatchRows", func(t *testing.T) {
		rows := orders(amadbc.IngestBatchRows + 7)
		pages := func(yield func([]order, error) bool) {
			_ = yield(rows[:3], nil) && yield(nil, nil) && yield(rows[3:], nil)
		}
		n, err := amadbc.IngestPages(ctx, cnxn, amadbc.Table{Name: "pages", Mode: amadbc.Create}, pages, mapper.Allocator(mem))
		require.NoError(t, err)
		assert.Equal(t, int64(len(rows)), n)
		got, sizes := stored[order](t, last(t))
		assert.Equal(t, rows, got)
		assert.Equal(t, []int{3, amadbc.IngestBatchRows, 4}, sizes)
	})
	t.Run("an error of the pages stops the ingest, wrapped with the entry point", func(t *testing.T) {
		boom := errors.New("boom")
		pages := func(yield func([]order, error) bool) {
			_ = yield(orders(2), nil) && yield(nil, boom)
		}
		_, err := amadbc.IngestPages(ctx, cnxn, amadbc.Table{Name: "pages", Mode: amadbc.Create}, pages)
		require.ErrorIs(t, err, boom)
		assert.Contains(t, err.Error(), `adbc.IngestPages into "pages"`)
	})
	t.Run("an error of the sequence stops the ingest, is returned, and the sequence is stopped", func(t *testing.T) {
		boom := errors.New("boom")
		stopped := false
		seq := func(yield func(order, error) bool) {
			defer func() { stopped = true }()
			for _, r := range orders(3) {
				if !yield(r, nil) {
					return
				}
			}
			yield(order{}, boom)
			for _, r := range orders(3) { // a sequence going on after its error
				if !yield(r, nil) {
					return
				}
			}
		}
		_, err := amadbc.IngestSeq(ctx, cnxn, amadbc.Table{Name: "seq", Mode: amadbc.Create}, iter.Seq2[order, error](seq))
		require.ErrorIs(t, err, boom)
		assert.Contains(t, err.Error(), `adbc.IngestSeq into "seq"`)
		assert.True(t, stopped, "the sequence was stopped")
	})
	t.Run("IngestSeq takes the rows of another engine's query", func(t *testing.T) {
		sqliteAddr, sqlite := startCountingSQLite(t)
		source := openFlightSQL(t, ctx, sqliteAddr, mem)
		rows := people(t, ctx, source, 1500)
		r, err := amadbc.Query[sqliteRow](ctx, source, "SELECT user_id, user_name FROM people ORDER BY user_id", mapper.SnakeCase())
		require.NoError(t, err)
		defer r.Release()
		n, err := amadbc.IngestSeq(ctx, cnxn, amadbc.Table{Name: "people", Mode: amadbc.Create}, r.All(), mapper.SnakeCase())
		require.NoError(t, err)
		assert.Equal(t, int64(len(rows)), n)
		got, _ := stored[sqliteRow](t, last(t), mapper.SnakeCase())
		assert.Equal(t, rows, got)
		assert.Equal(t, "user_id", last(t).records[0].Schema().Field(0).Name, "SnakeCase named the columns")
		assert.Zero(t, sqlite.open.Load())
	})
}

func TestADBCIngestWithoutDriverSupportIsItsNotImplementedError(t *testing.T) {
	mem := noLeaks(t)
	ctx := testContext(t)
	addr, _ := startCountingSQLite(t)
	cnxn := openFlightSQL(t, ctx, addr, mem)
	for _, tc := range []struct {
		name   string
		ingest func() (int64, error)
	}{
		{"Ingest of a slice", func() (int64, error) {
			return amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "orders", Mode: amadbc.Create}, orders(3), mapper.Allocator(mem))
		}},
		{"Ingest of more than a batch", func() (int64, error) {
			return amadbc.Ingest(ctx, cnxn, amadbc.Table{Name: "orders", Mode: amadbc.Create}, orders(amadbc.IngestBatchRows+1), mapper.Allocator(mem))
		}},
		{"IngestSeq", func() (int64, error) {
			seq := func(yield func(order, error) bool) {
				for _, r := range orders(3) {
					if !yield(r, nil) {
						return
					}
				}
			}
			return amadbc.IngestSeq(ctx, cnxn, amadbc.Table{Name: "orders", Mode: amadbc.Create}, seq, mapper.Allocator(mem))
		}},
	} {
		t.Run(tc.name+" through ADBC's Flight SQL driver fails at the target option", func(t *testing.T) {
			_, err := tc.ingest()
			var ae adbc.Error
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, adbc.StatusNotImplemented, ae.Code)
			assert.Contains(t, err.Error(), `into "orders": Table.Name: SetOption adbc.ingest.target_table`)
		})
	}
}
