package integration

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Flight SQL queries and ingest through package flightsql, against arrow-go's
// SQLite example server in-process. Its type mapping (example/
// sql_batch_reader.go): a column's declared type names its Arrow type —
// INTEGER and int int64, mediumint int32, tinyint int8, REAL and double
// float64, float float32, TEXT, varchar(n), char, clob and date utf8, BLOB
// binary; any other declared type (BIGINT, BOOLEAN, DATETIME, NUMERIC)
// panics the server, so no test declares one. A column without a declared
// type (an expression, an aggregate) takes the type of its first row's
// value, and a dense union when that is NULL, which the server then fails
// to fill; the tests declare their columns, and order aggregates so that
// the first value is not NULL.

// The protocol's table definition options, by what they do.
const (
	ifNotExistCreate = arrowflightsql.TableDefinitionOptionsTableNotExistOptionCreate
	ifNotExistFail   = arrowflightsql.TableDefinitionOptionsTableNotExistOptionFail
	ifExistsAppend   = arrowflightsql.TableDefinitionOptionsTableExistsOptionAppend
	ifExistsReplace  = arrowflightsql.TableDefinitionOptionsTableExistsOptionReplace
	ifExistsFail     = arrowflightsql.TableDefinitionOptionsTableExistsOptionFail
)

// queryRows runs query through Query and reads every row.
func queryRows[T any](t *testing.T, c amflightsql.Conn, query string, opts ...amflightsql.ReadOption) []T {
	t.Helper()
	r, err := amflightsql.Query[T](testContext(t), c, query, opts...)
	require.NoError(t, err)
	defer r.Release()
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

// sqliteTypeCase is a column of one declared type, the values inserted
// into it as SQL literals, and what a pointer field reads of them.
type sqliteTypeCase struct {
	name      string
	decl      string
	literals  []string
	arrowType arrow.DataType
	check     func(t *testing.T, c amflightsql.Conn, query string)
}

// typeCase reads the column as *V (nil for NULL) and expects want.
func typeCase[V any](name, decl string, arrowType arrow.DataType, literals []string, want []*V) sqliteTypeCase {
	return sqliteTypeCase{name: name, decl: decl, literals: literals, arrowType: arrowType,
		check: func(t *testing.T, c amflightsql.Conn, query string) {
			type row struct {
				V *V `arrow:"v"`
			}
			rows := queryRows[row](t, c, query)
			got := make([]*V, len(rows))
			for i, r := range rows {
				got[i] = r.V
			}
			assert.Equal(t, want, got)
		}}
}

func TestFlightSQLQueryReadsEverySQLiteType(t *testing.T) {
	noGoroutineLeft(t)
	_, addr := startSQLiteServer(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)

	cases := []sqliteTypeCase{
		typeCase("an INTEGER column is int64, its NULL a nil pointer", "INTEGER", arrow.PrimitiveTypes.Int64,
			[]string{"1", "-9223372036854775808", "NULL", "9223372036854775807"},
			[]*int64{ptr[int64](1), ptr[int64](-1 << 63), nil, ptr[int64](1<<63 - 1)}),
		typeCase("an int column is int64 too", "int", arrow.PrimitiveTypes.Int64,
			[]string{"NULL", "-7"}, []*int64{nil, ptr[int64](-7)}),
		typeCase("a mediumint column is int32", "mediumint", arrow.PrimitiveTypes.Int32,
			[]string{"8388607", "NULL", "-8388608"}, []*int32{ptr[int32](8388607), nil, ptr[int32](-8388608)}),
		typeCase("a mediumint column widens into an int64 field", "mediumint", arrow.PrimitiveTypes.Int32,
			[]string{"-5"}, []*int64{ptr[int64](-5)}),
		typeCase("a REAL column is float64", "REAL", arrow.PrimitiveTypes.Float64,
			[]string{"1.5", "NULL", "-0.1"}, []*float64{ptr(1.5), nil, ptr(-0.1)}),
		typeCase("a double column is float64", "double", arrow.PrimitiveTypes.Float64,
			[]string{"1e300"}, []*float64{ptr(1e300)}),
		typeCase("a float column is float32", "float", arrow.PrimitiveTypes.Float32,
			[]string{"0.5", "NULL", "-3.25"}, []*float32{ptr[float32](0.5), nil, ptr[float32](-3.25)}),
		typeCase("a float column widens into a float64 field", "float", arrow.PrimitiveTypes.Float32,
			[]string{"0.1"}, []*float64{ptr(float64(float32(0.1)))}),
		typeCase("a TEXT column is utf8", "TEXT", arrow.BinaryTypes.String,
			[]string{"'héllo, 世界'", "''", "NULL"}, []*string{ptr("héllo, 世界"), ptr(""), nil}),
		typeCase("a varchar(n) column is utf8", "varchar(8)", arrow.BinaryTypes.String,
			[]string{"'abc'", "NULL"}, []*string{ptr("abc"), nil}),
		typeCase("a char and a clob column are utf8", "clob", arrow.BinaryTypes.String,
			[]string{"'a long text'"}, []*string{ptr("a long text")}),
		typeCase("a date column is text, not an Arrow date: the driver's time, in RFC 3339", "date", arrow.BinaryTypes.String,
			[]string{"'2024-02-29'", "NULL"}, []*string{ptr("2024-02-29T00:00:00Z"), nil}),
		typeCase("a BLOB column is binary, and the server sends a NULL BLOB as an empty one", "BLOB", arrow.BinaryTypes.Binary,
			[]string{"x'00ff10'", "NULL", "x''"}, []*[]byte{ptr([]byte{0, 0xff, 0x10}), ptr([]byte{}), ptr([]byte{})}),
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := fmt.Sprintf("types_%d", i)
			stmts := []string{fmt.Sprintf("CREATE TABLE %s (k INTEGER, v %s)", table, tc.decl)}
			for k, lit := range tc.literals {
				stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%d, %s)", table, k, lit))
			}
			exec(t, c, stmts...)
			query := fmt.Sprintf("SELECT v FROM %s ORDER BY k", table)

			// The Arrow type the server gives the column, as arrow-go's own
			// client reads it.
			info, err := c.Client.Execute(testContext(t), query)
			require.NoError(t, err)
			rdr, err := c.Client.DoGet(testContext(t), info.Endpoint[0].Ticket)
			require.NoError(t, err)
			assert.True(t, arrow.TypeEqual(tc.arrowType, rdr.Schema().Field(0).Type), "server's type %s", rdr.Schema().Field(0).Type)
			for rdr.Next() {
			}
			require.NoError(t, rdr.Err())
			rdr.Release()

			tc.check(t, c, query)
		})
	}
}

func TestFlightSQLQueryNulls(t *testing.T) {
	noGoroutineLeft(t)
	_, addr := startSQLiteServer(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE people (id INTEGER, name TEXT, age INTEGER, height REAL)",
		"INSERT INTO people VALUES (1, 'ann', 31, 1.7)",
		"INSERT INTO people VALUES (2, NULL, NULL, NULL)",
		"INSERT INTO people VALUES (3, 'cy', NULL, 1.8)")

	type person struct {
		ID     int64    `arrow:"id"`
		Name   *string  `arrow:"name"`
		Age    *int64   `arrow:"age"`
		Height *float64 `arrow:"height"`
	}
	t.Run("pointer fields read NULL as nil, values as pointers to them", func(t *testing.T) {
		rows := queryRows[person](t, c, "SELECT id, name, age, height FROM people ORDER BY id")
		require.Equal(t, []person{
			{ID: 1, Name: ptr("ann"), Age: ptr[int64](31), Height: ptr(1.7)},
			{ID: 2},
			{ID: 3, Name: ptr("cy"), Height: ptr(1.8)},
		}, rows)
	})
	t.Run("a nullable tag reads NULL as the zero value", func(t *testing.T) {
		type loose struct {
			ID  int64 `arrow:"id"`
			Age int64 `arrow:"age,nullable"`
		}
		require.Equal(t, []loose{{1, 31}, {2, 0}, {3, 0}}, queryRows[loose](t, c, "SELECT id, age FROM people ORDER BY id"))
	})
	t.Run("a NULL where the field takes none is ErrNull naming the field, the column and the row, after the rows before it", func(t *testing.T) {
		type strict struct {
			ID   int64  `arrow:"id"`
			Name string `arrow:"name"`
		}
		r, err := amflightsql.Query[strict](testContext(t), c, "SELECT id, name FROM people ORDER BY id")
		require.NoError(t, err, "the schema matches: nulls are found in the data")
		defer r.Release()
		var got []strict
		var last error
		for row, err := range r.All() {
			if err != nil {
				last = err
				break
			}
			got = append(got, row)
		}
		// The server sends every row in one record: the row before the
		// null comes first, then the error.
		require.Equal(t, []strict{{1, "ann"}}, got)
		require.ErrorIs(t, last, mapper.ErrNull)
		var me *mapper.Error
		require.ErrorAs(t, last, &me)
		assert.Equal(t, "Name", me.Path)
		assert.Equal(t, "name", me.Column)
		assert.Equal(t, 1, me.Row)
	})
}

func TestFlightSQLQueryEmptyResults(t *testing.T) {
	noGoroutineLeft(t)
	_, addr := startSQLiteServer(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE empty (id INTEGER, name TEXT)", "CREATE TABLE one (id INTEGER, name TEXT)",
		"INSERT INTO one VALUES (1, 'x')")
	type row struct {
		ID   int64  `arrow:"id"`
		Name string `arrow:"name"`
	}
	for _, query := range []string{"SELECT id, name FROM empty", "SELECT id, name FROM one WHERE id > 1"} {
		t.Run(query+" reads no row and ends cleanly", func(t *testing.T) {
			r, err := amflightsql.Query[row](testContext(t), c, query)
			require.NoError(t, err)
			defer r.Release()
			assert.Equal(t, "id", r.Schema().Field(0).Name)
			n, err := r.Read(make([]row, 4))
			assert.Zero(t, n)
			require.Equal(t, io.EOF, err)
			require.NoError(t, r.Err())
		})
	}
	t.Run("an empty result still checks its schema against T", func(t *testing.T) {
		type wrong struct {
			ID int32 `arrow:"id"`
		}
		_, err := amflightsql.Query[wrong](testContext(t), c, "SELECT id FROM empty")
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
	})
}

func TestFlightSQLQueryFaults(t *testing.T) {
	noGoroutineLeft(t)
	// The server's memory is not checked here (ours is): these faults
	// abandon streams the server is still sending, and arrow-go's server
	// then leaks, now and then, the record it was about to send.
	srv := newUncheckedSQLiteServer(t)
	addr := serve(t, srv, srv.mem)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE items (id INTEGER, name TEXT, price REAL, small tinyint)",
		"INSERT INTO items VALUES (1, 'a', 2.5, 1)", "INSERT INTO items VALUES (2, 'b', 3.5, 2)")
	type item struct {
		ID    int64   `arrow:"id"`
		Name  string  `arrow:"name"`
		Price float64 `arrow:"price"`
	}

	t.Run("SQL the server cannot run is an error naming the query, with the server's message", func(t *testing.T) {
		_, err := amflightsql.Query[item](testContext(t), c, "SELEC id FROM items")
		require.Error(t, err)
		assert.Contains(t, err.Error(), `"SELEC id FROM items"`)
		assert.Contains(t, err.Error(), "syntax error")
		_, err = amflightsql.QueryWith[item](testContext(t), c, "SELECT id FROM nowhere WHERE id = ?", []struct{ ID int64 }{{1}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "preparing")
		assert.Contains(t, err.Error(), "no such table: nowhere")
	})
	t.Run("a result whose column has another type than the field is reported before any row, naming both", func(t *testing.T) {
		type narrow struct {
			ID    int64   `arrow:"id"`
			Price float32 `arrow:"price"`
		}
		_, err := amflightsql.Query[narrow](testContext(t), c, "SELECT id, price FROM items")
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "Price", me.Path)
		assert.Equal(t, "price", me.Column)
		assert.Equal(t, -1, me.Row)
	})
	t.Run("a field with no column in the result is ErrMissingColumn naming it", func(t *testing.T) {
		_, err := amflightsql.Query[item](testContext(t), c, "SELECT id, name FROM items")
		require.ErrorIs(t, err, mapper.ErrMissingColumn)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "Price", me.Path)
		assert.Equal(t, "price", me.Column)
	})
	t.Run("a stream the server fails after its schema is the reader's error", func(t *testing.T) {
		// The example server builds a tinyint column with an int8 builder
		// but scans it as uint8, and fails the stream once it has a row.
		type small struct {
			Small *int8 `arrow:"small"`
		}
		r, err := amflightsql.Query[small](testContext(t), c, "SELECT small FROM items")
		require.NoError(t, err, "the schema comes first, and matches")
		defer r.Release()
		rows, err := r.ReadAll()
		assert.Empty(t, rows)
		require.Error(t, err)
		assert.Equal(t, codes.Unknown, status.Code(err))
		assert.Contains(t, err.Error(), "panic while reading")
		require.NotErrorIs(t, err, io.EOF)
	})
	t.Run("ZeroCopy reads strings that alias the records, valid until the next Read", func(t *testing.T) {
		r, err := amflightsql.Query[item](testContext(t), c, "SELECT id, name, price FROM items ORDER BY id", mapper.ZeroCopy())
		require.NoError(t, err)
		defer r.Release()
		buf := make([]item, 8)
		n, err := r.Read(buf)
		require.NoError(t, err)
		require.Equal(t, []item{{1, "a", 2.5}, {2, "b", 3.5}}, buf[:n])
	})
	t.Run("an Allocator option allocates the records", func(t *testing.T) {
		r, err := amflightsql.Query[item](testContext(t), c, "SELECT id, name, price FROM items ORDER BY id", mapper.Allocator(mem))
		require.NoError(t, err)
		rows, err := r.ReadAll()
		r.Release()
		require.NoError(t, err)
		require.Equal(t, item{1, "a", 2.5}, rows[0])
	})
	t.Run("a Conn without a client is an error", func(t *testing.T) {
		_, err := amflightsql.Query[item](testContext(t), amflightsql.Conn{}, "SELECT 1")
		require.Error(t, err)
	})
}

func TestFlightSQLQueryWith(t *testing.T) {
	noGoroutineLeft(t)
	srv, addr := startParamsServer(t, nil)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE orders (id INTEGER, region TEXT, amount REAL, note BLOB)")

	type order struct {
		ID     int64   `arrow:"id"`
		Region string  `arrow:"region"`
		Amount float64 `arrow:"amount"`
		Note   []byte  `arrow:"note"`
	}
	orders := []order{{1, "north", 10, []byte("a")}, {2, "south", 25.5, nil}, {3, "north", 7.25, []byte{}},
		{4, "east", 100, []byte{0, 1}}, {5, "south", 0.5, nil}}

	t.Run("rows inserted through ExecuteUpdate and through QueryWith's INSERT … RETURNING read back as they were", func(t *testing.T) {
		exec(t, c, `INSERT INTO orders VALUES (1, 'north', 10, x'61'), (2, 'south', 25.5, NULL),
			(3, 'north', 7.25, x''), (4, 'east', 100, x'0001')`)
		// One row of parameters: the example server runs each row's
		// statement with its cursor open until the stream ends, so more than
		// one write through a query contend for SQLite's lock there. And no
		// BLOB: the server releases a binary parameter before it reads it,
		// and binds an empty one.
		type inserted struct {
			ID int64 `arrow:"id"`
		}
		type newOrder struct {
			ID     int64   `arrow:"id"`
			Region string  `arrow:"region"`
			Amount float64 `arrow:"amount"`
		}
		r, err := amflightsql.QueryWith[inserted](testContext(t), c,
			"INSERT INTO orders (id, region, amount) VALUES (?, ?, ?) RETURNING id", []newOrder{{5, "south", 0.5}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []inserted{{5}}, got)
		require.Zero(t, srv.openStatements(), "read to its end, the statement is closed before Release")

		// The NULL notes come back empty, as the server sends a NULL BLOB.
		want := append([]order(nil), orders...)
		want[1].Note, want[4].Note = []byte{}, []byte{}
		require.Equal(t, want, queryRows[order](t, c, "SELECT id, region, amount, note FROM orders ORDER BY id"))
	})
	t.Run("each row of parameters runs the statement once, the results one after the other", func(t *testing.T) {
		type id struct {
			ID int64 `arrow:"id"`
		}
		type idRegion struct {
			ID     int64  `arrow:"id"`
			Region string `arrow:"region"`
		}
		r, err := amflightsql.QueryWith[idRegion](testContext(t), c, "SELECT id, region FROM orders WHERE id = ?", []id{{3}, {1}, {9}, {3}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []idRegion{{3, "north"}, {1, "north"}, {3, "north"}}, got)
	})
	t.Run("an empty params runs nothing: the insert it would make is not made, and the Reader is T's empty schema", func(t *testing.T) {
		type newOrder struct {
			ID     int64   `arrow:"id"`
			Region string  `arrow:"region"`
			Amount float64 `arrow:"amount"`
		}
		type inserted struct {
			ID int64 `arrow:"inserted_id"`
		}
		before := queryRows[order](t, c, "SELECT id, region, amount, note FROM orders ORDER BY id")
		r, err := amflightsql.QueryWith[inserted](testContext(t), c,
			"INSERT INTO orders (id, region, amount) VALUES (?, ?, ?) RETURNING id AS inserted_id", []newOrder{})
		require.NoError(t, err)
		defer r.Release()
		assert.Equal(t, "inserted_id", r.Schema().Field(0).Name)
		got, err := r.ReadAll()
		require.NoError(t, err)
		assert.Empty(t, got)
		assert.Equal(t, before, queryRows[order](t, c, "SELECT id, region, amount, note FROM orders ORDER BY id"))
		assert.Zero(t, srv.openStatements(), "nothing was prepared")
	})
	t.Run("parameters select rows", func(t *testing.T) {
		type minAmount struct {
			Amount float64 `arrow:"amount"`
		}
		type summary struct {
			Region string  `arrow:"region"`
			Total  float64 `arrow:"total"`
			N      int64   `arrow:"n"`
		}
		r, err := amflightsql.QueryWith[summary](testContext(t), c,
			"SELECT region, SUM(amount) AS total, COUNT(*) AS n FROM orders WHERE amount > ? GROUP BY region ORDER BY region",
			[]minAmount{{Amount: 5}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []summary{{"east", 100, 1}, {"north", 17.25, 2}, {"south", 25.5, 1}}, got)
	})
	t.Run("the caller's As encodes the parameters as it decodes the results", func(t *testing.T) {
		type cents struct{ n int64 } // no Arrow type of its own: through As only
		asAmount := mapper.As[cents, float64](
			func(f float64) (cents, error) { return cents{int64(f * 100)}, nil },
			func(c cents) (float64, error) { return float64(c.n) / 100, nil })
		type minAmount struct {
			Amount cents `arrow:"amount"`
		}
		type order struct {
			ID     int64 `arrow:"id"`
			Amount cents `arrow:"amount"`
		}
		r, err := amflightsql.QueryWith[order](testContext(t), c,
			"SELECT id, amount FROM orders WHERE amount > ? ORDER BY id", []minAmount{{cents{2000}}}, asAmount)
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []order{{2, cents{2550}}, {4, cents{10000}}}, got)
	})
	t.Run("one row of no parameters: the statement runs once, unbound", func(t *testing.T) {
		type count struct {
			N int64 `arrow:"n"`
		}
		r, err := amflightsql.QueryWith[count](testContext(t), c, "SELECT COUNT(*) AS n FROM orders", []struct{}{{}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []count{{5}}, got)
	})
	t.Run("parameters that do not encode are an error before the statement is prepared", func(t *testing.T) {
		type bad struct {
			C chan int `arrow:"c"`
		}
		_, err := amflightsql.QueryWith[order](testContext(t), c, "SELECT * FROM orders WHERE id = ?", []bad{{}})
		require.ErrorIs(t, err, mapper.ErrUnsupported)
		require.Zero(t, srv.openStatements())
	})
}

// TestFlightSQLQueryWithAbandonedResults leaves results before their end.
// The server's memory is not checked here (ours is): arrow-go's server
// (v18.8.0, flightsql's DoGet) returns on a write to a stream its client
// has left without releasing the record it was writing, so it leaks that
// record when the client leaves while it writes.
func TestFlightSQLQueryWithAbandonedResults(t *testing.T) {
	noGoroutineLeft(t)
	srv := &paramsServer{sqliteServer: newUncheckedSQLiteServer(t)}
	addr := serve(t, srv, srv.mem)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE orders (id INTEGER, region TEXT)",
		"INSERT INTO orders VALUES (1, 'north'), (2, 'south'), (3, 'north'), (4, 'east'), (5, 'south')")

	t.Run("a result released before its end closes the statement at Release", func(t *testing.T) {
		type id struct {
			ID int64 `arrow:"id"`
		}
		r, err := amflightsql.QueryWith[id](testContext(t), c, "SELECT id FROM orders WHERE id >= ? ORDER BY id", []id{{1}})
		require.NoError(t, err)
		buf := make([]id, 2)
		n, err := r.Read(buf)
		require.NoError(t, err)
		require.Equal(t, []id{{1}, {2}}, buf[:n])
		require.Equal(t, 1, srv.openStatements())
		r.Release()
		require.Zero(t, srv.openStatements())
	})
	t.Run("a result that does not match T closes the statement at once", func(t *testing.T) {
		type wrong struct {
			ID string `arrow:"id"`
		}
		_, err := amflightsql.QueryWith[wrong](testContext(t), c, "SELECT id FROM orders WHERE id = ?", []struct {
			ID int64 `arrow:"id"`
		}{{1}})
		require.ErrorIs(t, err, mapper.ErrTypeMismatch)
		require.Zero(t, srv.openStatements())
	})
}

func TestFlightSQLQueryWithParameterSchema(t *testing.T) {
	noGoroutineLeft(t)
	const (
		byID     = "SELECT id, name FROM things WHERE id = ?"
		between  = "SELECT id, name FROM things WHERE id BETWEEN ? AND ?"
		unnamed  = "SELECT id, name FROM things WHERE id > ?"
		notNulls = "SELECT id, name FROM things WHERE name = ?"
	)
	srv, addr := startParamsServer(t, map[string]*arrow.Schema{
		byID: arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil),
		between: arrow.NewSchema([]arrow.Field{
			{Name: "lo", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "hi", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		}, nil),
		unnamed:  arrow.NewSchema([]arrow.Field{{Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil),
		notNulls: arrow.NewSchema([]arrow.Field{{Name: "name", Type: arrow.BinaryTypes.String}}, nil),
	})
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE things (id INTEGER, name TEXT)",
		"INSERT INTO things VALUES (1, 'one'), (2, 'two'), (3, 'three')")
	type thing struct {
		ID   int64  `arrow:"id"`
		Name string `arrow:"name"`
	}

	t.Run("parameters that match the server's schema are bound", func(t *testing.T) {
		r, err := amflightsql.QueryWith[thing](testContext(t), c, between, []struct {
			Lo int64 `arrow:"lo"`
			Hi int64 `arrow:"hi"`
		}{{2, 3}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []thing{{2, "two"}, {3, "three"}}, got)
	})
	t.Run("an unnamed parameter is matched by position alone", func(t *testing.T) {
		r, err := amflightsql.QueryWith[thing](testContext(t), c, unnamed, []struct {
			Above int64 `arrow:"above"`
		}{{2}})
		require.NoError(t, err)
		defer r.Release()
		got, err := r.ReadAll()
		require.NoError(t, err)
		require.Equal(t, []thing{{3, "three"}}, got)
	})

	mismatches := []struct {
		name       string
		query      string
		run        func(query string) error
		wantIs     error
		wantColumn string
		wantRow    int
		wantText   string
	}{
		{name: "a parameter of another type is ErrTypeMismatch naming it", query: byID,
			run: func(q string) error {
				_, err := amflightsql.QueryWith[thing](testContext(t), c, q, []struct {
					ID int32 `arrow:"id"`
				}{{1}})
				return err
			},
			wantIs: mapper.ErrTypeMismatch, wantColumn: "id", wantRow: -1, wantText: "parameter 1 of the statement is int64"},
		{name: "a missing parameter is ErrMissingColumn naming it", query: between,
			run: func(q string) error {
				_, err := amflightsql.QueryWith[thing](testContext(t), c, q, []struct {
					Lo int64 `arrow:"lo"`
				}{{1}})
				return err
			},
			wantIs: mapper.ErrMissingColumn, wantColumn: "hi", wantRow: -1, wantText: "parameter 2 of the statement"},
		{name: "parameters in another order than the statement's are an error, not swapped", query: between,
			run: func(q string) error {
				_, err := amflightsql.QueryWith[thing](testContext(t), c, q, []struct {
					Hi int64 `arrow:"hi"`
					Lo int64 `arrow:"lo"`
				}{{3, 1}})
				return err
			},
			wantIs: mapper.ErrMissingColumn, wantColumn: "lo", wantRow: -1, wantText: `parameter 1 of the statement is "lo", and column 1 of the parameters is "hi"`},
		{name: "a column past the last parameter is ErrExtraColumn naming it", query: byID,
			run: func(q string) error {
				_, err := amflightsql.QueryWith[thing](testContext(t), c, q, []struct {
					ID   int64 `arrow:"id"`
					Name string
				}{{1, "x"}})
				return err
			},
			wantIs: mapper.ErrExtraColumn, wantColumn: "Name", wantRow: -1, wantText: "the statement takes 1 parameters"},
		{name: "a null for a parameter that takes none is ErrNull at its row", query: notNulls,
			run: func(q string) error {
				_, err := amflightsql.QueryWith[thing](testContext(t), c, q, []struct {
					Name *string `arrow:"name"`
				}{{ptr("one")}, {nil}})
				return err
			},
			wantIs: mapper.ErrNull, wantColumn: "name", wantRow: 1, wantText: "takes no null"},
	}
	for _, tc := range mismatches {
		t.Run(tc.name+", before anything is bound, and closes the statement", func(t *testing.T) {
			binds := srv.binds()
			err := tc.run(tc.query)
			require.ErrorIs(t, err, tc.wantIs)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.wantColumn, me.Column)
			assert.Equal(t, tc.wantRow, me.Row)
			assert.Contains(t, err.Error(), tc.wantText)
			assert.Contains(t, err.Error(), tc.query)
			assert.Equal(t, binds, srv.binds(), "no parameters sent")
			assert.Zero(t, srv.openStatements())
		})
	}
}

func TestFlightSQLPagesOfAMillionRowsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1.1M rows")
	}
	noGoroutineLeft(t)
	_, addr := startSQLiteServer(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	exec(t, c, "CREATE TABLE big (id INTEGER, name TEXT, score REAL)",
		`INSERT INTO big WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
		 SELECT i, 'name-' || i, i * 0.5 FROM n`)
	type row struct {
		ID    int64   `arrow:"id"`
		Name  string  `arrow:"name"`
		Score float64 `arrow:"score"`
	}

	// peak reads the first n rows in pages of 4096 and returns the most the
	// heap grew while reading, checking every row on the way.
	peak := func(n int) uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		var most uint64
		r, err := amflightsql.Query[row](testContext(t), c, fmt.Sprintf("SELECT id, name, score FROM big WHERE id <= %d ORDER BY id", n))
		require.NoError(t, err)
		defer r.Release()
		next := int64(1)
		for page, err := range r.Pages(4096) {
			require.NoError(t, err)
			for _, got := range page {
				if got.ID != next || got.Name != fmt.Sprint("name-", next) || got.Score != float64(next)*0.5 {
					require.Equal(t, row{next, fmt.Sprint("name-", next), float64(next) * 0.5}, got)
				}
				next++
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base {
				most = max(most, ms.HeapInuse-base)
			}
		}
		require.Equal(t, int64(n+1), next, "every row read")
		return most
	}
	small, large := peak(100_000), peak(1_000_000)
	t.Logf("heap growth while reading: %d KiB for 100k rows, %d KiB for 1M rows", small>>10, large>>10)
	// 1M rows decoded at once would take 1M × 40 bytes of structs and their
	// names: over 50 MiB. Read in pages, both stay in the same bound, that
	// of the records in flight (gRPC's window and a few records of 1024
	// rows) and one page.
	const bound = 16 << 20
	assert.Less(t, small, uint64(bound))
	assert.Less(t, large, uint64(bound))
}

func TestFlightSQLIngest(t *testing.T) {
	noGoroutineLeft(t)
	srv, addr := startIngestServer(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)

	type reading struct {
		Sensor string   `arrow:"sensor"`
		Seq    int64    `arrow:"seq"`
		Value  *float64 `arrow:"value"`
		Raw    []byte   `arrow:"raw"`
	}
	readings := func(n int) []reading {
		rows := make([]reading, n)
		for i := range rows {
			rows[i] = reading{Sensor: fmt.Sprint("s", i%7), Seq: int64(i)}
			if i%5 != 0 {
				rows[i].Value = ptr(float64(i) / 4)
			}
			if i%3 == 0 {
				rows[i].Raw = []byte{byte(i), byte(i >> 8)}
			}
		}
		return rows
	}
	table := func(name string) amflightsql.Table {
		return amflightsql.Table{Name: name, Mode: amflightsql.CreateAppend}
	}
	lastCall := func() *ingestCall {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return srv.calls[len(srv.calls)-1]
	}
	// storedRows decodes what the server stored, checking each record's
	// size.
	storedRows := func(t *testing.T, call *ingestCall) ([]reading, []int64) {
		var rows []reading
		var sizes []int64
		for _, rec := range call.Records {
			got, err := mapper.Decode[reading](rec)
			require.NoError(t, err)
			rows = append(rows, got...)
			sizes = append(sizes, rec.NumRows())
		}
		return rows, sizes
	}

	t.Run("the server stores the rows in records of at most IngestBatchRows, and serves them back equal", func(t *testing.T) {
		in := readings(2*amflightsql.IngestBatchRows + 1000)
		n, err := amflightsql.Ingest(testContext(t), c, table("readings"), in)
		require.NoError(t, err)
		require.Equal(t, int64(len(in)), n)
		call := lastCall()
		stored, sizes := storedRows(t, call)
		require.Equal(t, []int64{amflightsql.IngestBatchRows, amflightsql.IngestBatchRows, 1000}, sizes)
		require.Equal(t, in, stored)

		// The stored records are Encode's, batch by batch.
		for i, rec := range call.Records {
			want, err := mapper.Encode(in[i*amflightsql.IngestBatchRows : i*amflightsql.IngestBatchRows+int(rec.NumRows())])
			require.NoError(t, err)
			assert.True(t, want.Schema().Equal(rec.Schema()), "schema of record %d", i)
			for col := range want.NumCols() {
				assert.Equal(t, want.Column(int(col)).String(), rec.Column(int(col)).String(), "column %d of record %d", col, i)
			}
			want.Release()
		}
		require.Equal(t, in, queryRows[reading](t, c, "SELECT * FROM readings"))
	})
	t.Run("the table's name and options reach the server as given", func(t *testing.T) {
		tbl := amflightsql.Table{Name: "t", Schema: "s", Catalog: "cat", Temporary: true, Mode: amflightsql.Append,
			Transaction: []byte("txn-1"), Options: map[string]string{"k": "v"}}
		_, err := amflightsql.Ingest(testContext(t), c, tbl, readings(3))
		require.NoError(t, err)
		call := lastCall()
		assert.Equal(t, "t", call.Table)
		assert.Equal(t, "s", call.Schema)
		assert.Equal(t, "cat", call.Catalog)
		assert.True(t, call.HasSchema && call.HasCatalog)
		assert.True(t, call.Temporary)
		assert.Equal(t, []byte("txn-1"), call.Transaction)
		assert.Equal(t, map[string]string{"k": "v"}, call.Options)
		assert.Equal(t, ifNotExistFail, call.IfNotExist)
		assert.Equal(t, ifExistsAppend, call.IfExists)
	})
	t.Run("each mode reaches the server as the table definition options it means, never UNSPECIFIED", func(t *testing.T) {
		for _, tc := range []struct {
			mode       amflightsql.IngestMode
			ifNotExist arrowflightsql.TableDefinitionOptionsTableNotExistOption
			ifExists   arrowflightsql.TableDefinitionOptionsTableExistsOption
		}{
			{amflightsql.Append, ifNotExistFail, ifExistsAppend},
			{amflightsql.Create, ifNotExistCreate, ifExistsFail},
			{amflightsql.CreateAppend, ifNotExistCreate, ifExistsAppend},
			{amflightsql.Replace, ifNotExistCreate, ifExistsReplace},
		} {
			_, err := amflightsql.Ingest(testContext(t), c, amflightsql.Table{Name: "mode_" + tc.mode.String(), Mode: tc.mode}, readings(1))
			require.NoError(t, err, tc.mode)
			call := lastCall()
			assert.Equal(t, tc.ifNotExist, call.IfNotExist, tc.mode)
			assert.Equal(t, tc.ifExists, call.IfExists, tc.mode)
		}
	})
	t.Run("a mode that is none of the four is an error before anything is sent", func(t *testing.T) {
		before := lastCall()
		_, err := amflightsql.Ingest(testContext(t), c, amflightsql.Table{Name: "t", Mode: amflightsql.IngestMode(9)}, readings(1))
		assert.EqualError(t, err, `arrowmap/flightsql: flightsql.Ingest into "t": no ingest mode IngestMode(9)`)
		assert.Same(t, before, lastCall(), "no ingest reached the server")
	})
	t.Run("an empty Schema and Catalog are left unset, for the server's default", func(t *testing.T) {
		_, err := amflightsql.Ingest(testContext(t), c, table("plain"), readings(1))
		require.NoError(t, err)
		call := lastCall()
		assert.False(t, call.HasSchema)
		assert.False(t, call.HasCatalog)
		assert.Nil(t, call.Transaction)
	})
	t.Run("no rows: one batch of no rows, so that the server learns the schema", func(t *testing.T) {
		n, err := amflightsql.Ingest(testContext(t), c, table("none"), []reading(nil))
		require.NoError(t, err)
		require.Zero(t, n)
		call := lastCall()
		assert.Equal(t, "none", call.Table)
		require.Len(t, call.Records, 1)
		assert.Zero(t, call.Records[0].NumRows())
		want, err := mapper.SchemaOf[reading]()
		require.NoError(t, err)
		assert.True(t, want.Equal(call.Records[0].Schema()))
	})
	t.Run("IngestPages gathers small pages of a reused buffer into full batches", func(t *testing.T) {
		in := readings(amflightsql.IngestBatchRows + 5000)
		pages := func(yield func([]reading, error) bool) {
			buf := make([]reading, 1000)
			for i := 0; i < len(in); i += len(buf) {
				k := copy(buf, in[i:])
				if !yield(buf[:k], nil) {
					return
				}
				clear(buf) // the page is not kept past its encoding
			}
		}
		n, err := amflightsql.IngestPages(testContext(t), c, table("paged"), pages)
		require.NoError(t, err)
		require.Equal(t, int64(len(in)), n)
		stored, sizes := storedRows(t, lastCall())
		require.Equal(t, []int64{amflightsql.IngestBatchRows, 5000}, sizes)
		require.Equal(t, in, stored)
	})
	t.Run("IngestPages ingests the pages of a Query's Reader", func(t *testing.T) {
		r, err := amflightsql.Query[reading](testContext(t), c, "SELECT * FROM paged")
		require.NoError(t, err)
		defer r.Release()
		_, err = amflightsql.IngestPages(testContext(t), c, table("copied"), r.Pages(777))
		require.NoError(t, err)
		require.Equal(t, queryRows[reading](t, c, "SELECT * FROM paged"), queryRows[reading](t, c, "SELECT * FROM copied"))
	})
	t.Run("IngestSeq ingests the rows of a Query's Reader, in full batches", func(t *testing.T) {
		r, err := amflightsql.Query[reading](testContext(t), c, "SELECT * FROM paged")
		require.NoError(t, err)
		defer r.Release()
		n, err := amflightsql.IngestSeq(testContext(t), c, table("copied_rows"), r.All())
		require.NoError(t, err)
		want := queryRows[reading](t, c, "SELECT * FROM paged")
		assert.Equal(t, int64(len(want)), n)
		_, sizes := storedRows(t, lastCall())
		assert.Equal(t, []int64{amflightsql.IngestBatchRows, 5000}, sizes)
		require.Equal(t, want, queryRows[reading](t, c, "SELECT * FROM copied_rows"))
	})

	type event struct {
		ID int64     `arrow:"id"`
		At time.Time `arrow:"at"`
	}
	events := func(n, bad int) []event {
		rows := make([]event, n)
		for i := range rows {
			rows[i] = event{ID: int64(i), At: time.Unix(int64(i), 0).UTC()}
		}
		rows[bad].At = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) // past int64 nanoseconds
		return rows
	}
	calls := func() (int, int) {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return len(srv.calls), srv.aborted
	}
	t.Run("a row that does not fit, in the first batch, is an error naming it, and nothing is sent", func(t *testing.T) {
		before, _ := calls()
		n, err := amflightsql.Ingest(testContext(t), c, table("events"), events(10, 7))
		require.ErrorIs(t, err, mapper.ErrOverflow)
		require.Zero(t, n)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, "At", me.Path)
		assert.Equal(t, 7, me.Row)
		assert.Contains(t, err.Error(), `flightsql.Ingest into "events"`)
		after, _ := calls()
		assert.Equal(t, before, after, "no ingest reached the server")
	})
	t.Run("a row that does not fit past the first batch is named by its index in rows, and cancels the stream", func(t *testing.T) {
		before, aborted := calls()
		bad := amflightsql.IngestBatchRows + 123
		_, err := amflightsql.Ingest(testContext(t), c, table("events"), events(amflightsql.IngestBatchRows+500, bad))
		require.ErrorIs(t, err, mapper.ErrOverflow)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, bad, me.Row)
		// The cancel can beat the stream to the server's handler, so the
		// server sees a failed ingest or none; never one that ended.
		assert.Never(t, func() bool { n, a := calls(); return n-a > before-aborted }, time.Second, 10*time.Millisecond,
			"the server saw an ingest end as if complete")
	})
	t.Run("an error of the pages ends the ingest, wrapped, and cancels the stream", func(t *testing.T) {
		before, aborted := calls()
		broken := errors.New("the source broke")
		pages := func(yield func([]event, error) bool) {
			big := events(amflightsql.IngestBatchRows, 0)[1:]
			if yield(big, nil) && yield(big[:10], nil) {
				yield(nil, broken)
			}
		}
		_, err := amflightsql.IngestPages(testContext(t), c, table("events"), pages)
		require.ErrorIs(t, err, broken)
		assert.Contains(t, err.Error(), fmt.Sprintf(`flightsql.IngestPages into "events": the sequence failed after %d rows`, amflightsql.IngestBatchRows+9))
		assert.Never(t, func() bool { n, a := calls(); return n-a > before-aborted }, time.Second, 10*time.Millisecond,
			"the server saw an ingest end as if complete")
	})
	t.Run("an error of the server is wrapped with the table, keeps its status, and comes with the rows it wrote", func(t *testing.T) {
		n, err := amflightsql.Ingest(testContext(t), c, table("refused"), readings(amflightsql.IngestBatchRows+10))
		require.Error(t, err)
		assert.Equal(t, codes.ResourceExhausted, status.Code(err))
		assert.Contains(t, err.Error(), `flightsql.Ingest into "refused"`)
		assert.Equal(t, int64(amflightsql.IngestBatchRows), n)
	})
	t.Run("a Table without a name is an error before anything is sent", func(t *testing.T) {
		_, err := amflightsql.Ingest(testContext(t), c, amflightsql.Table{}, readings(1))
		require.ErrorContains(t, err, "no Name")
	})
}

func TestFlightSQLIngestIntoTheSQLiteServer(t *testing.T) {
	noGoroutineLeft(t)
	srv := newSQLiteServer(t)
	addr := serve(t, srv.SQLiteFlightSQLServer, srv.mem) // the bare example server, without sqliteServer's ingest
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	c := connect(t, addr, mem)
	type row struct {
		ID int64 `arrow:"id"`
	}
	// arrow-go's SQLite example server does not implement
	// DoPutCommandStatementIngest: the server's Unimplemented comes back.
	_, err := amflightsql.Ingest(testContext(t), c, amflightsql.Table{Name: "t", Mode: amflightsql.Create}, []row{{1}})
	require.Error(t, err)
	assert.Equal(t, codes.Unimplemented, status.Code(err))
	assert.True(t, strings.HasPrefix(err.Error(), `arrowmap/flightsql: flightsql.Ingest into "t": `), err.Error())
}
