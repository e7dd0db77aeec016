//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	duckdbgo "github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
)

// The benchmarks of issue 23: a query of 1M rows of 8 flat columns into
// []Order, and []Order into a table, by arrowmap and by what a user of
// duckdb-go writes without it. Run them with
//
//	go run ./bench/report -dir duckdb -tags duckdb_arrow -vs export,scan,appender -count 5 -benchtime 5x
//
// from the repository's root; bench/RESULTS.md has the figures.

// Order is a row of the benchmarks' table.
type Order struct {
	ID       int64     `arrow:"id"`
	Customer int32     `arrow:"customer"`
	Status   string    `arrow:"status"`
	Amount   float64   `arrow:"amount"`
	Quantity int32     `arrow:"quantity"`
	Placed   time.Time `arrow:"placed,timestamp,naive,unit=us"`
	Note     *string   `arrow:"note"`
	Flag     bool      `arrow:"flag"`
}

// benchRows is the number of rows of the benchmarks' table.
const benchRows = 1_000_000

// ordersSQL makes the table every benchmark reads: a year of orders of
// 50,000 customers, five statuses, a note on two rows of three.
const ordersSQL = `CREATE TABLE orders AS SELECT
	i::BIGINT AS id,
	(i * 7919 %% 50000)::INTEGER AS customer,
	(['pending', 'paid', 'shipped', 'delivered', 'cancelled'])[i %% 5 + 1] AS status,
	round((i * 37 %% 100000) * 0.37 + 1.5, 2)::DOUBLE AS amount,
	(i %% 20 + 1)::INTEGER AS quantity,
	TIMESTAMP '2024-01-01' + to_microseconds(i * 31536000) AS placed,
	CASE WHEN i %% 3 = 0 THEN NULL ELSE 'leave at the door, ring ' || i END AS note,
	i %% 2 = 0 AS flag
FROM range(%d) t(i)`

// ordersDDL is the table the insert benchmarks write, the one both
// variants write and the one Create (Table.Mode) would make of Order.
const ordersDDL = `CREATE TABLE %s (
	id BIGINT NOT NULL,
	customer INTEGER NOT NULL,
	status VARCHAR NOT NULL,
	amount DOUBLE NOT NULL,
	quantity INTEGER NOT NULL,
	placed TIMESTAMP NOT NULL,
	note VARCHAR,
	flag BOOLEAN NOT NULL)`

const ordersQuery = "SELECT * FROM orders"

// export is the Arrow export of the query, the same for mapper, hand and
// export: the package's default, lossless (BOOLEAN as arrow.bool8).
var export = duckdb.QueryConfig{}

// bench is the in-memory database of the benchmarks, made once per test
// binary, with the orders the hand loop reads from it.
var bench = struct {
	once   sync.Once
	db     *sql.DB
	orders []Order
	err    error
	// checked is the variants whose output was compared with the hand
	// loop's, each once per binary.
	checked sync.Map
}{}

func benchDB(b *testing.B) (*sql.DB, []Order) {
	b.Helper()
	bench.once.Do(func() {
		bench.db, bench.err = sql.Open("duckdb", "")
		if bench.err != nil {
			return
		}
		if _, bench.err = bench.db.Exec(fmt.Sprintf(ordersSQL, benchRows)); bench.err != nil {
			return
		}
		bench.orders, bench.err = queryHand(context.Background(), bench.db)
		if bench.err == nil && len(bench.orders) != benchRows {
			bench.err = fmt.Errorf("the hand loop read %d rows of %d", len(bench.orders), benchRows)
		}
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.db, bench.orders
}

// queryMapper is arrowmap's query into []Order.
func queryMapper(ctx context.Context, db *sql.DB) ([]Order, error) {
	r, err := duckdb.Query[Order](ctx, db, ordersQuery, export)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// queryHand is what a careful user writes over DuckDB's Arrow export: the
// typed arrays of each record asserted once, strings copied out of
// DuckDB's memory (released with the record), the null notes as nil.
func queryHand(ctx context.Context, db *sql.DB) ([]Order, error) {
	rr, err := duckdb.QueryRecords(ctx, db, ordersQuery, export)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var out []Order
	for rr.Next() {
		rec := rr.RecordBatch()
		ids, ok1 := rec.Column(0).(*array.Int64)
		customers, ok2 := rec.Column(1).(*array.Int32)
		statuses, ok3 := rec.Column(2).(*array.String)
		amounts, ok4 := rec.Column(3).(*array.Float64)
		quantities, ok5 := rec.Column(4).(*array.Int32)
		placed, ok6 := rec.Column(5).(*array.Timestamp)
		notes, ok7 := rec.Column(6).(*array.String)
		var flags *array.Int8 // arrow.bool8's storage
		ext, ok8 := rec.Column(7).(array.ExtensionArray)
		if ok8 {
			flags, ok8 = ext.Storage().(*array.Int8)
		}
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8) ||
			placed.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
			return nil, fmt.Errorf("the hand loop does not know the schema %s", rec.Schema())
		}
		n := int(rec.NumRows())
		start := len(out)
		out = slices.Grow(out, n)[:start+n]
		for i, r := 0, out[start:]; i < n; i++ {
			o := &r[i]
			o.ID = ids.Value(i)
			o.Customer = customers.Value(i)
			o.Status = strings.Clone(statuses.Value(i))
			o.Amount = amounts.Value(i)
			o.Quantity = quantities.Value(i)
			o.Placed = time.UnixMicro(int64(placed.Value(i))).UTC()
			if notes.IsValid(i) {
				s := strings.Clone(notes.Value(i))
				o.Note = &s
			}
			o.Flag = flags.Value(i) != 0
		}
	}
	return out, rr.Err()
}

// queryExport reads DuckDB's Arrow export and decodes nothing: the floor
// under mapper and hand.
func queryExport(ctx context.Context, db *sql.DB) (int64, error) {
	rr, err := duckdb.QueryRecords(ctx, db, ordersQuery, export)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	return n, rr.Err()
}

// queryScan is database/sql's way: Rows.Scan through duckdb-go, row by
// row, the nullable note through sql.NullString.
func queryScan(ctx context.Context, db *sql.DB) ([]Order, error) {
	rows, err := db.QueryContext(ctx, ordersQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Order
	for rows.Next() {
		var o Order
		var note sql.NullString
		if err := rows.Scan(&o.ID, &o.Customer, &o.Status, &o.Amount, &o.Quantity, &o.Placed, &note, &o.Flag); err != nil {
			return nil, err
		}
		if note.Valid {
			o.Note = &note.String
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func BenchmarkQuery(b *testing.B) {
	ctx := context.Background()
	db, want := benchDB(b)
	variants := []struct {
		name string
		run  func() (int, error)
	}{
		{"mapper", rowsOf(ctx, db, queryMapper)},
		{"hand", rowsOf(ctx, db, queryHand)},
		{"export", func() (int, error) { n, err := queryExport(ctx, db); return int(n), err }},
		{"scan", rowsOf(ctx, db, queryScan)},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			checkOnce(b, "Query/"+v.name, func() error { return checkQuery(ctx, db, v.name, want) })
			b.ReportAllocs()
			for b.Loop() {
				n, err := v.run()
				if err != nil {
					b.Fatal(err)
				}
				if n != benchRows {
					b.Fatalf("%d rows of %d", n, benchRows)
				}
			}
		})
	}
}

// rowsOf is the benchmark's body of a query into []Order: the number of
// rows read.
func rowsOf(ctx context.Context, db *sql.DB, query func(context.Context, *sql.DB) ([]Order, error)) func() (int, error) {
	return func() (int, error) {
		rows, err := query(ctx, db)
		return len(rows), err
	}
}

// checkQuery compares the output of a query variant with the hand loop's.
func checkQuery(ctx context.Context, db *sql.DB, variant string, want []Order) error {
	var got []Order
	var err error
	switch variant {
	case "mapper":
		got, err = queryMapper(ctx, db)
	case "hand":
		got, err = queryHand(ctx, db)
	case "scan":
		got, err = queryScan(ctx, db)
	case "export":
		// No rows of its own: what it reads is what hand decodes, row
		// for row.
		n, err := queryExport(ctx, db)
		if err == nil && n != int64(len(want)) {
			err = fmt.Errorf("the export has %d rows, the hand loop %d", n, len(want))
		}
		return err
	}
	if err != nil {
		return err
	}
	return sameOrders(got, want)
}

// checkOnce runs check the first time the benchmark key runs in this
// binary, outside the timer, and fails the benchmark when it fails.
func checkOnce(b *testing.B, key string, check func() error) {
	b.Helper()
	if _, done := bench.checked.Load(key); done {
		return
	}
	if err := check(); err != nil {
		b.Fatalf("%s: %v", key, err)
	}
	bench.checked.Store(key, true)
}

// sameOrders is nil when got and want hold the same rows in the same
// order, or says which row differs first and how.
func sameOrders(got, want []Order) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		same := g.ID == w.ID && g.Customer == w.Customer && g.Status == w.Status &&
			g.Amount == w.Amount && g.Quantity == w.Quantity && g.Placed.Equal(w.Placed) &&
			(g.Note == nil) == (w.Note == nil) && (g.Note == nil || *g.Note == *w.Note) && g.Flag == w.Flag
		if !same {
			return fmt.Errorf("row %d is %s, want %s", i, g, w)
		}
	}
	return nil
}

func (o Order) String() string {
	note := "NULL"
	if o.Note != nil {
		note = fmt.Sprintf("%q", *o.Note)
	}
	return fmt.Sprintf("{%d %d %q %v %d %s %s %v}", o.ID, o.Customer, o.Status, o.Amount, o.Quantity, o.Placed.Format(time.RFC3339Nano), note, o.Flag)
}

// insertMapper is arrowmap's insert of rows into the empty table.
func insertMapper(ctx context.Context, db *sql.DB, table string, rows []Order) error {
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: table}, rows)
	return err
}

// insertCreate is arrowmap's insert of rows into a table it creates.
func insertCreate(ctx context.Context, db *sql.DB, table string, rows []Order) error {
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: table, Mode: duckdb.Create}, rows)
	return err
}

// insertAppender is duckdb-go's Appender, a row at a time.
func insertAppender(ctx context.Context, db *sql.DB, table string, rows []Order) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		a, err := duckdbgo.NewAppenderFromConn(dc.(driver.Conn), "", table)
		if err != nil {
			return err
		}
		for i := range rows {
			o := &rows[i]
			var note driver.Value
			if o.Note != nil {
				note = *o.Note
			}
			if err := a.AppendRow(o.ID, o.Customer, o.Status, o.Amount, o.Quantity, o.Placed, note, o.Flag); err != nil {
				a.Close()
				return err
			}
		}
		return a.Close()
	})
}

// insertVariants are the inserts of BenchmarkInsert: each readies its
// table (outside the timer) and inserts the rows into it.
var insertVariants = []struct {
	name   string
	ready  func(db *sql.DB, table string) error
	insert func(context.Context, *sql.DB, string, []Order) error
}{
	{"mapper", freshTable, insertMapper},
	{"create", dropTable, insertCreate},
	{"appender", freshTable, insertAppender},
}

// BenchmarkInsert checks what each variant wrote by SQL (checkTable), not
// by the count an insert returns: before its timed inserts, and the table
// of the last of them after.
func BenchmarkInsert(b *testing.B) {
	ctx := context.Background()
	db, rows := benchDB(b)
	for _, v := range insertVariants {
		b.Run(v.name, func(b *testing.B) {
			table := "inserted_" + v.name
			checkOnce(b, "Insert/"+v.name, func() error {
				if err := v.ready(db, table); err != nil {
					return err
				}
				if err := v.insert(ctx, db, table, rows); err != nil {
					return err
				}
				return checkTable(db, table, rows)
			})
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if err := v.ready(db, table); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := v.insert(ctx, db, table, rows); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if err := checkTable(db, table, rows); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Exec("DROP TABLE IF EXISTS " + table); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// freshTable is an empty table of ordersDDL named table, in place of
// whatever had the name.
func freshTable(db *sql.DB, table string) error {
	if err := dropTable(db, table); err != nil {
		return err
	}
	_, err := db.Exec(fmt.Sprintf(ordersDDL, table))
	return err
}

// dropTable drops table, if there is one, for an insert that creates it.
func dropTable(db *sql.DB, table string) error {
	_, err := db.Exec("DROP TABLE IF EXISTS " + table)
	return err
}

// checkTable compares the table's contents with rows: the same multiset
// of rows as the source table orders (the rows are the hand loop's of
// it), and aggregates equal to the rows' own sums in Go.
func checkTable(db *sql.DB, table string, rows []Order) error {
	var diff int64
	err := db.QueryRow(fmt.Sprintf(`SELECT
		(SELECT count(*) FROM (SELECT * FROM orders EXCEPT ALL SELECT * FROM %[1]s)) +
		(SELECT count(*) FROM (SELECT * FROM %[1]s EXCEPT ALL SELECT * FROM orders))`, table)).Scan(&diff)
	if err != nil {
		return err
	}
	if diff != 0 {
		return fmt.Errorf("%s and orders differ in %d rows", table, diff)
	}
	type sums struct {
		count, id, customer, quantity, notes, noteBytes, flags int64
		placed                                                 string // past int64: a HUGEINT
		amount                                                 float64
	}
	var want sums
	placed := new(big.Int)
	for _, o := range rows {
		want.count++
		want.id += o.ID
		want.customer += int64(o.Customer)
		want.quantity += int64(o.Quantity)
		placed.Add(placed, big.NewInt(o.Placed.UnixMicro()))
		if o.Note != nil {
			want.notes++
			want.noteBytes += int64(len(*o.Note))
		}
		if o.Flag {
			want.flags++
		}
		want.amount += o.Amount
	}
	want.placed = placed.String()
	var got sums
	err = db.QueryRow(fmt.Sprintf(`SELECT count(*), sum(id)::BIGINT, sum(customer)::BIGINT,
		sum(quantity)::BIGINT, sum(epoch_us(placed))::VARCHAR, count(note), sum(strlen(note))::BIGINT,
		count_if(flag), sum(amount) FROM %s`, table)).
		Scan(&got.count, &got.id, &got.customer, &got.quantity, &got.placed, &got.notes, &got.noteBytes, &got.flags, &got.amount)
	if err != nil {
		return err
	}
	// Sums of doubles in another order differ in their last bits.
	if math.Abs(got.amount-want.amount) <= 1e-9*math.Abs(want.amount) {
		got.amount = want.amount
	}
	if got != want {
		return fmt.Errorf("%s has the sums %+v, the rows %+v", table, got, want)
	}
	return nil
}

// TestTheBenchmarksCheckTheirOutput runs the checks of the benchmarks on a
// small table: every variant reads what the hand loop reads, writes what
// it was given, and a row changed anywhere is found.
func TestTheBenchmarksCheckTheirOutput(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	_, err := db.Exec(fmt.Sprintf(ordersSQL, 3000))
	require.NoError(t, err)
	want, err := queryHand(ctx, db)
	require.NoError(t, err)
	require.Len(t, want, 3000)
	require.Nil(t, want[3].Note, "a row of three has no note")
	require.Equal(t, "leave at the door, ring 4", *want[4].Note)

	for _, query := range []func(context.Context, *sql.DB) ([]Order, error){queryMapper, queryScan} {
		got, err := query(ctx, db)
		require.NoError(t, err)
		require.NoError(t, sameOrders(got, want))
	}
	n, err := queryExport(ctx, db)
	require.NoError(t, err)
	assert.EqualValues(t, 3000, n)

	changed := slices.Clone(want)
	changed[1234].Note = nil
	assert.ErrorContains(t, sameOrders(changed, want), "row 1234 is {1234 ")
	assert.ErrorContains(t, sameOrders(want[1:], want), "2999 rows, want 3000")

	for _, v := range insertVariants {
		t.Run(v.name, func(t *testing.T) {
			require.NoError(t, v.ready(db, "inserted"))
			require.NoError(t, v.insert(ctx, db, "inserted", want))
			require.NoError(t, checkTable(db, "inserted", want))
			assert.ErrorContains(t, checkTable(db, "inserted", changed), "has the sums")

			require.NoError(t, v.ready(db, "inserted"))
			require.NoError(t, v.insert(ctx, db, "inserted", changed))
			assert.ErrorContains(t, checkTable(db, "inserted", changed), "inserted and orders differ in 2 rows")
		})
	}
}
