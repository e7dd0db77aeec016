package integration

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	_ "github.com/apache/arrow-go/v18/arrow/flight/flightsql/driver" // registers "flightsql" with database/sql
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	amflightsql "github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/internal/testsupport/benchdata"
)

// Flat is the benchmarks' flat record, as bench's benchmarks read it.
type Flat = benchdata.Flat

var flatSchema = benchdata.FlatSchema

const (
	flatQuery = "SELECT id, qty, price, ok, name, note, at, score FROM flat"
	flatRows  = 1 << 20
	// flatBatch is the rows of a record: 32k rows of Flat are about 2 MiB,
	// well under gRPC's 4 MiB default message limit, which arrow-go's
	// clients (and so its database/sql driver) keep.
	flatBatch = 1 << 15
)

// flatRow is row i of the result: the reference each contender's output is
// checked against.
var flatRow = benchdata.FlatRow

// flatRecord is rows [start, end) of the result.
var flatRecord = benchdata.FlatRecord

// flatRecords is the whole result, built once per process.
var flatRecords = sync.OnceValue(func() []arrow.RecordBatch {
	var recs []arrow.RecordBatch
	for start := 0; start < flatRows; start += flatBatch {
		recs = append(recs, flatRecord(memory.DefaultAllocator, start, min(start+flatBatch, flatRows)))
	}
	return recs
})

// startFlat serves the result from a Flight SQL server of its own, cut
// into endpoints that name no location (arrow-go's database/sql driver
// reads every endpoint from the server it asked), each of whole records.
func startFlat(b *testing.B, endpoints int) *cluster {
	recs := flatRecords()
	if len(recs)%endpoints != 0 {
		b.Fatalf("%d records do not cut into %d endpoints", len(recs), endpoints)
	}
	per := len(recs) / endpoints
	return startCluster(b, clusterConfig{
		Query:     flatQuery,
		Endpoints: endpoints,
		Rows:      flatRows / endpoints,
		Schema:    flatSchema,
		Records: func(k int) []arrow.RecordBatch {
			part := slices.Clone(recs[k*per : (k+1)*per])
			for _, rec := range part {
				rec.Retain() // the server releases each as it sends it
			}
			return part
		},
	})
}

// flatContender is one way to read the query into []Flat.
type flatContender struct {
	name string
	read func(ctx context.Context) ([]Flat, error)
}

func flatContenders(b *testing.B, c *cluster) []flatContender {
	cl := c.frontClient(b)
	db, err := sql.Open("flightsql", "flightsql://"+c.front.Addr()+"?timeout=120s")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return []flatContender{
		{name: "arrowmap", read: func(ctx context.Context) ([]Flat, error) {
			r, err := amflightsql.Query[Flat](ctx, amflightsql.Conn{Client: cl}, flatQuery)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			return r.ReadAll()
		}},
		{name: "database_sql", read: func(ctx context.Context) ([]Flat, error) {
			return scanFlat(ctx, db)
		}},
		{name: "hand", read: func(ctx context.Context) ([]Flat, error) {
			return handFlat(ctx, cl)
		}},
		{name: "transport", read: func(ctx context.Context) ([]Flat, error) {
			return nil, transportFlat(ctx, cl)
		}},
		{name: "records", read: func(ctx context.Context) ([]Flat, error) {
			return nil, recordsFlat(ctx, cl)
		}},
	}
}

// recordsFlat is arrowmap's transport alone: the result read through
// amflight.OpenRecords, as flightsql.Query reads it, and no record decoded.
func recordsFlat(ctx context.Context, cl *flightsql.Client) error {
	info, err := cl.Execute(ctx, flatQuery)
	if err != nil {
		return err
	}
	rr, err := amflight.OpenRecords(ctx, amflight.Source{Client: cl.Client}, info)
	if err != nil {
		return err
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rows += int(rr.RecordBatch().NumRows())
	}
	if err := rr.Err(); err != nil {
		return err
	}
	if rows != flatRows {
		return fmt.Errorf("%d rows, want %d", rows, flatRows)
	}
	return nil
}

// transportFlat reads every record of the result as handFlat does and
// decodes none: the floor under every contender, gRPC and IPC alone, with
// the server in the same process.
func transportFlat(ctx context.Context, cl *flightsql.Client) error {
	info, err := cl.Execute(ctx, flatQuery)
	if err != nil {
		return err
	}
	rows := 0
	for _, ep := range info.Endpoint {
		rdr, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			return err
		}
		for rdr.Next() {
			rows += int(rdr.RecordBatch().NumRows())
		}
		err = rdr.Err()
		rdr.Release()
		if err != nil {
			return err
		}
	}
	if rows != flatRows {
		return fmt.Errorf("%d rows, want %d", rows, flatRows)
	}
	return nil
}

// scanFlat is the path users have today: arrow-go's Flight SQL driver
// through database/sql, one Scan a row.
func scanFlat(ctx context.Context, db *sql.DB) ([]Flat, error) {
	rows, err := db.QueryContext(ctx, flatQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Flat
	var note sql.NullString
	for rows.Next() {
		var r Flat
		if err := rows.Scan(&r.ID, &r.Qty, &r.Price, &r.OK, &r.Name, &note, &r.At, &r.Score); err != nil {
			return nil, err
		}
		if note.Valid {
			s := note.String
			r.Note = &s
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// handFlat is what a careful developer writes by hand: each endpoint's
// DoGet read with flight.NewRecordReader (flightsql.Client.DoGet), typed
// arrays, one loop a record, strings copied out of Arrow memory.
func handFlat(ctx context.Context, cl *flightsql.Client) ([]Flat, error) {
	info, err := cl.Execute(ctx, flatQuery)
	if err != nil {
		return nil, err
	}
	var out []Flat
	for _, ep := range info.Endpoint {
		rdr, err := cl.DoGet(ctx, ep.Ticket)
		if err != nil {
			return nil, err
		}
		for rdr.Next() {
			out = appendFlat(out, rdr.RecordBatch())
		}
		err = rdr.Err()
		rdr.Release()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func appendFlat(out []Flat, rec arrow.RecordBatch) []Flat {
	ids := rec.Column(0).(*array.Int64)
	qty := rec.Column(1).(*array.Int32)
	price := rec.Column(2).(*array.Float64)
	ok := rec.Column(3).(*array.Boolean)
	name := rec.Column(4).(*array.String)
	note := rec.Column(5).(*array.String)
	at := rec.Column(6).(*array.Timestamp)
	unit := rec.Schema().Field(6).Type.(*arrow.TimestampType).Unit
	score := rec.Column(7).(*array.Float32)
	n := len(out)
	out = slices.Grow(out, int(rec.NumRows()))[:n+int(rec.NumRows())]
	for i := range int(rec.NumRows()) {
		r := &out[n+i]
		r.ID = ids.Value(i)
		r.Qty = qty.Value(i)
		r.Price = price.Value(i)
		r.OK = ok.Value(i)
		r.Name = strings.Clone(name.Value(i))
		if note.IsValid(i) {
			s := strings.Clone(note.Value(i))
			r.Note = &s
		} else {
			r.Note = nil
		}
		r.At = at.Value(i).ToTime(unit)
		r.Score = score.Value(i)
	}
	return out
}

// checkFlat checks that rows hold every row of the result exactly once,
// each equal to flatRow; the endpoints of an unordered result may come in
// any order.
func checkFlat(rows []Flat) error {
	if len(rows) != flatRows {
		return fmt.Errorf("%d rows, want %d", len(rows), flatRows)
	}
	seen := make([]bool, flatRows)
	for i, r := range rows {
		if r.ID < 0 || r.ID >= flatRows || seen[r.ID] {
			return fmt.Errorf("row %d: id %d is out of range or seen before", i, r.ID)
		}
		seen[r.ID] = true
		want := flatRow(int(r.ID))
		if !sameFlat(r, want) {
			return fmt.Errorf("row %d: got %+v, want %+v", i, r, want)
		}
	}
	return nil
}

// sameFlat compares instants with time.Time.Equal, not by location.
func sameFlat(a, b Flat) bool {
	if (a.Note == nil) != (b.Note == nil) || a.Note != nil && *a.Note != *b.Note {
		return false
	}
	a.Note, b.Note = nil, nil
	if !a.At.Equal(b.At) {
		return false
	}
	a.At, b.At = time.Time{}, time.Time{}
	return a == b
}

func TestTheFlatReferenceMatchesItsRecords(t *testing.T) {
	rec := flatRecord(memory.DefaultAllocator, 999, 1999)
	defer rec.Release()
	rows := appendFlat(nil, rec)
	for i, r := range rows {
		if !sameFlat(r, flatRow(999+i)) {
			t.Fatalf("row %d: %+v, want %+v", i, r, flatRow(999+i))
		}
	}
	if rows[0].Note != nil || rows[1].Note == nil {
		t.Fatalf("row 999 has a null note, 1000 not: %+v %+v", rows[0], rows[1])
	}
	if sameFlat(rows[0], rows[1]) {
		t.Fatal("sameFlat says two rows are the same")
	}
}

// BenchmarkFlightSQL reads a 1M-row query result of 8 flat columns, served
// from records built once, with arrowmap's flightsql.Query, with arrow-go's
// database/sql driver, and with a hand-written loop over the Flight
// streams; every contender's output is checked first. transport reads the
// same streams with arrow-go's client and decodes nothing: the floor under
// the three, the server's and the transport's own cost; records is the
// same through amflight.OpenRecords, the floor under arrowmap.
//
//	cd integration && go test -run '^$' -bench FlightSQL -count 5 -benchmem
func BenchmarkFlightSQL(b *testing.B) {
	for _, endpoints := range []int{1, 4} {
		b.Run(fmt.Sprintf("endpoints=%d", endpoints), func(b *testing.B) {
			c := startFlat(b, endpoints)
			for _, ct := range flatContenders(b, c) {
				b.Run(ct.name, func(b *testing.B) {
					ctx, cancel := context.WithTimeout(b.Context(), 10*time.Minute)
					defer cancel()
					rows, err := ct.read(ctx)
					if err != nil && strings.Contains(err.Error(), "not written yet") {
						b.Skip(err)
					}
					if err != nil {
						b.Fatal(err)
					}
					if err := checkFlat(rows); err != nil && !floor(ct.name) {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := ct.read(ctx); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/flatRows, "ns/row")
				})
			}
		})
	}
}

// BenchmarkFlightSQLRounds runs the contenders of BenchmarkFlightSQL in
// rounds, each contender once a round in a rotated order, after a
// collection so that none pays for another's garbage: on a machine shared
// with other work, the load drifts less within a round than between the
// seconds-long runs of BenchmarkFlightSQL, so the ratios are steadier. It
// reports the median wall and CPU time of each contender over the rounds
// and the medians of the per-round ratios to arrowmap's; ns/op is a
// round's. CPU time counts every goroutine of the process, the server's
// too, and drifts less than wall time with the machine's other work.
//
//	cd integration && go test -run '^$' -bench FlightSQLRounds -benchtime 9x
func BenchmarkFlightSQLRounds(b *testing.B) {
	for _, endpoints := range []int{1, 4} {
		b.Run(fmt.Sprintf("endpoints=%d", endpoints), func(b *testing.B) {
			c := startFlat(b, endpoints)
			contenders := flatContenders(b, c)
			ctx, cancel := context.WithTimeout(b.Context(), 30*time.Minute)
			defer cancel()
			for _, ct := range contenders {
				rows, err := ct.read(ctx)
				if err != nil {
					b.Fatalf("%s: %v", ct.name, err)
				}
				if err := checkFlat(rows); err != nil && !floor(ct.name) {
					b.Fatalf("%s: %v", ct.name, err)
				}
			}
			// ms per contender per round: wall time, and the CPU time of
			// the process (the servers' and the readers' goroutines).
			wall := make([][]float64, len(contenders))
			cpu := make([][]float64, len(contenders))
			round := 0
			for b.Loop() {
				for k := range contenders {
					i := (k + round) % len(contenders)
					runtime.GC()
					start, startCPU := time.Now(), cpuTime()
					if _, err := contenders[i].read(ctx); err != nil {
						b.Fatalf("%s: %v", contenders[i].name, err)
					}
					wall[i] = append(wall[i], float64(time.Since(start).Microseconds())/1e3)
					cpu[i] = append(cpu[i], float64((cpuTime()-startCPU).Microseconds())/1e3)
				}
				round++
			}
			for i, ct := range contenders {
				b.ReportMetric(median(wall[i]), ct.name+"-ms")
				b.ReportMetric(median(cpu[i]), ct.name+"-cpu-ms")
				if i == 0 {
					continue
				}
				b.ReportMetric(medianRatio(wall[i], wall[0]), ct.name+"/arrowmap")
				b.ReportMetric(medianRatio(cpu[i], cpu[0]), ct.name+"/arrowmap-cpu")
			}
		})
	}
}

// floor reports whether a contender is one of the floors, which read the
// records and decode no row.
func floor(name string) bool { return name == "transport" || name == "records" }

// medianRatio is the median of xs[r] / ys[r].
func medianRatio(xs, ys []float64) float64 {
	ratios := make([]float64, len(xs))
	for r := range ratios {
		ratios[r] = xs[r] / ys[r]
	}
	return median(ratios)
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs) == 0 {
		return 0
	}
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}
