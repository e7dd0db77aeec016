//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

// A sparse union's variants are carried to DuckDB's types as the same
// types are at the top: a float16 as a FLOAT, a zoned timestamp[ns] as
// microseconds (its nanoseconds refused), through a list and a struct.
func TestASparseUnionsVariantsAreCarriedAsTheTopsTypesAre(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type either struct {
		H *float16.Num `arrow:"h"`
		T *time.Time   `arrow:"t"`
	}
	type row struct {
		ID int32    `arrow:"id"`
		V  []either `arrow:"v,elem=sparse_union"`
	}
	at := time.Date(2026, 12, 6, 1, 2, 3, 4000, time.UTC)
	half := float16.New(1.5)
	rows := []row{{ID: 1, V: []either{{H: &half}, {T: &at}}}, {ID: 2}}
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "variants", Mode: duckdb.Create}, rows)
	require.NoError(t, err)

	assert.Equal(t, "UNION(h FLOAT, t TIMESTAMP WITH TIME ZONE)[]", columnType(t, db, "variants", "v"))
	var h float32
	var ts time.Time
	require.NoError(t, db.QueryRow("SELECT v[1].h, v[2].t FROM variants WHERE id = 1").Scan(&h, &ts))
	assert.Equal(t, float32(1.5), h)
	assert.True(t, at.Equal(ts), "%s is not %s", ts, at)

	late := at.Add(5) // 4,005 ns: not whole microseconds
	rows[0].V[1].T = &late
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "variants"}, rows)
	require.Error(t, err, "nanoseconds DuckDB would truncate")
	assert.Contains(t, err.Error(), "microseconds")
}

// A dense union goes through the Appender into the table a sparse union's
// CREATE makes: its variants of the same types.
func TestADenseUnionsVariantsAreCarriedIntoTheTableItCreates(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	type either struct {
		H *float16.Num `arrow:"h"`
		S *string      `arrow:"s"`
	}
	type row struct {
		V either `arrow:"v,dense_union"`
	}
	half, word := float16.New(-2.25), "two"
	rows := []row{{V: either{H: &half}}, {V: either{S: &word}}}
	_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "dense_variants", Mode: duckdb.Create}, rows)
	require.NoError(t, err)
	assert.Equal(t, "UNION(h FLOAT, s VARCHAR)", columnType(t, db, "dense_variants", "v"))
	var h float32
	require.NoError(t, db.QueryRow("SELECT v.h FROM dense_variants WHERE v.h IS NOT NULL").Scan(&h))
	assert.Equal(t, float32(-2.25), h)
}

// DuckDB's Arrow scan (1.5) fails with an INTERNAL error that invalidates
// the whole database on a list whose element is a dictionary or run-end
// encoding, in a batch whose lists reach none of it. Such an element goes
// to DuckDB as its values: batches of empty and null lists between full
// ones go in, and the database goes on.
func TestListsOfAnEncodingThatReachNoneOfItInABatchGoInAndTheDatabaseGoesOn(t *testing.T) {
	ctx := context.Background()
	type row struct {
		ID     int32       `arrow:"id"`
		Labels []string    `arrow:"labels,elem=dict"`
		Stamps []time.Time `arrow:"stamps,elem=ree"`
	}
	at := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	for _, appender := range []bool{false, true} {
		db := openDB(t)
		rows := make([]row, 5000)
		for i := range rows {
			rows[i].ID = int32(i)
			if i >= 3000 || i < 1000 && i%2 == 0 { // rows 1000 to 2999: a batch of no elements, and one of null lists
				rows[i].Labels = []string{"a", "b", "a"}[:i%3+1]
				rows[i].Stamps = []time.Time{at, at, at.Add(time.Second)}[:i%3+1]
			}
		}
		_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "encoded", Mode: duckdb.Create}, rows, duckdb.IngestConfig{BatchRows: 1000, Appender: appender})
		require.NoError(t, err, "appender %v", appender)
		var n, labels, b int64
		var seconds float64
		require.NoError(t, db.QueryRow(`SELECT count(*), sum(len(labels)), sum(len(list_filter(labels, x -> x = 'b'))),
			sum(list_sum(list_transform(stamps, s -> epoch(s) - epoch(TIMESTAMPTZ '2026-12-06 00:00:00+00'))))
			FROM encoded`).Scan(&n, &labels, &b, &seconds))
		var wantLabels, wantB int64
		var wantSeconds float64
		for _, r := range rows {
			wantLabels += int64(len(r.Labels))
			for k := range r.Labels {
				if r.Labels[k] == "b" {
					wantB++
				}
				if k == 2 {
					wantSeconds++
				}
			}
		}
		assert.EqualValues(t, 5000, n)
		assert.Equal(t, wantLabels, labels)
		assert.Equal(t, wantB, b)
		assert.Equal(t, wantSeconds, seconds)
		assert.Equal(t, "VARCHAR[]", columnType(t, db, "encoded", "labels"))
	}
}

// A value DuckDB cannot hold, below a list, a run-end encoding or a
// struct, is named by the row of the user's rows that holds it, in a
// later batch: not by its place in the list's child or among the runs.
func TestAnErrorBelowAListOrARunNamesTheRowThatHoldsIt(t *testing.T) {
	ctx := context.Background()
	type inner struct {
		At time.Time `arrow:"at"`
	}
	type row struct {
		Inners []inner   `arrow:"inners"`
		Stamp  time.Time `arrow:"stamp,ree"`
	}
	base := time.Date(2026, 12, 6, 1, 2, 3, 4000, time.UTC)
	for _, column := range []string{"inners", "stamp"} {
		for _, appender := range []bool{false, true} {
			rows := make([]row, 5000)
			for i := range rows {
				rows[i] = row{Inners: []inner{{base}, {base}}, Stamp: base}
			}
			late := base.Add(7)
			if column == "inners" {
				rows[4100].Inners[1].At = late
			} else {
				rows[4100].Stamp = late
			}
			db := openDB(t)
			_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "t", Mode: duckdb.Create}, rows, duckdb.IngestConfig{BatchRows: 1000, Appender: appender})
			var me *mapper.Error
			require.ErrorAs(t, err, &me, "%s, appender %v", column, appender)
			assert.Equal(t, column, me.Column)
			assert.Equal(t, 4100, me.Row, "%s, appender %v: %v", column, appender, err)
			assert.ErrorIs(t, err, mapper.ErrOverflow)
		}
	}
}

// BenchmarkIngestAListOfDictionaryStrings is the cost of giving DuckDB a
// list's dictionary element as its values:
// go test -tags duckdb_arrow -run '^$' -bench IngestAListOfDictionaryStrings -benchmem .
func BenchmarkIngestAListOfDictionaryStrings(b *testing.B) {
	type row struct {
		ID     int64    `arrow:"id"`
		Labels []string `arrow:"labels,elem=dict"`
	}
	names := []string{"north", "south", "east", "west"}
	for _, n := range []int{10_000, 1_000_000} {
		rows := make([]row, n)
		for i := range rows {
			rows[i] = row{ID: int64(i), Labels: []string{names[i%4], names[(i+1)%4], names[i%4]}}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db := openDB(b)
				if _, err := duckdb.Ingest(context.Background(), db, duckdb.Table{Name: "labels", Mode: duckdb.Create}, rows); err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
		})
	}
}

// timeRow holds a time.Time and a time.Duration under each temporal tag,
// of values that nsOf makes from the row's id.
type timeRow struct {
	ID   int64         `arrow:"id"`
	MS   time.Time     `arrow:"ms,timestamp,unit=ms,naive"`
	US   *time.Time    `arrow:"us,timestamp,unit=us,tz=Asia/Kolkata"`
	Day  time.Time     `arrow:"day,date32"`
	Mid  *time.Time    `arrow:"mid,date64"`
	Clk  time.Time     `arrow:"clk,time32,unit=ms"`
	Clk6 time.Time     `arrow:"clk6,time64,unit=us"`
	Dur  time.Duration `arrow:"dur,duration,unit=us"`
	TOD  time.Duration `arrow:"tod,time64,unit=us"`
	TOD3 time.Duration `arrow:"tod3,time32,unit=ms"`
}

// instantNS is row id's instant in ns since the epoch, of n rows: before
// the epoch for the first half, with odd nanoseconds, in SQL and in Go.
const instantNS = "((id - %d) * 7919000013)"

func instantOf(id, n int64) int64 { return (id - n/2) * 7_919_000_013 }

func timeRows(n int) []timeRow {
	rows := make([]timeRow, n)
	zones := []*time.Location{time.UTC, time.FixedZone("-11", -11*3600), time.FixedZone("+14", 14*3600)}
	for i := range rows {
		id := int64(i)
		at := time.Unix(0, instantOf(id, int64(n))).In(zones[i%3])
		rows[i] = timeRow{ID: id, MS: at, Day: at, Clk: at, Clk6: at, Dur: time.Duration(instantOf(id, int64(n))),
			TOD: time.Duration(id*7_919_000_013) % (24 * time.Hour), TOD3: time.Duration(id*1_000_003) % (24 * time.Hour)}
		if i%4 != 0 {
			mid := time.Unix(int64(i-n/2)*86400, 0)
			rows[i].US, rows[i].Mid = &at, &mid
		}
	}
	return rows
}

// The encoder floors an instant to its tick (a date32's day in UTC, a
// time of day's clock in UTC) and truncates a duration; DuckDB's SQL,
// working each value out from the row's id, finds every row so, through
// the view and the Appender, at DuckDB's vector (2,048) and row group
// (122,880) and past them.
func TestTimesAreWhatDuckDBsSQLWorksOutFromTheirRow(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	for _, n := range []int{0, 1, 2, 2048, 2049, 122_880, 122_881} {
		rows := timeRows(n)
		for _, appender := range []bool{false, true} {
			table := fmt.Sprintf("t_%d_%v", n, appender)
			_, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: table, Mode: duckdb.Create}, rows, duckdb.IngestConfig{Appender: appender})
			require.NoError(t, err, table)
			sql := strings.NewReplacer("{at}", fmt.Sprintf(instantNS, n/2), "{half}", strconv.Itoa(n/2))
			for _, differs := range []string{
				"epoch_ms(ms) != floor({at} / 1e6)::BIGINT",
				"(id % 4 = 0) != (us IS NULL) OR epoch_us(us) != floor({at} / 1e3)::BIGINT",
				"day != DATE '1970-01-01' + floor({at} / 86400e9)::INT",
				"(id % 4 = 0) != (mid IS NULL) OR mid != DATE '1970-01-01' + (id - {half})::INT",
				"epoch_ns(clk)::BIGINT != ((floor({at} / 1e6)::BIGINT % 86400000 + 86400000) % 86400000) * 1000000",
				"epoch_ns(clk6)::BIGINT != ((floor({at} / 1e3)::BIGINT % 86400000000 + 86400000000) % 86400000000) * 1000",
				"epoch_us(dur) != trunc({at} / 1e3)::BIGINT",
				"epoch_ns(tod)::BIGINT != ((id * 7919000013) % 86400000000000) // 1000 * 1000",
				"epoch_ns(tod3)::BIGINT != ((id * 1000003) % 86400000000000) // 1000000 * 1000000",
			} {
				where := sql.Replace(differs)
				var count, bad int64
				require.NoError(t, db.QueryRowContext(ctx, fmt.Sprintf(
					"SELECT count(*), count(*) FILTER (WHERE %s) FROM %s", where, table)).Scan(&count, &bad))
				require.EqualValues(t, n, count, table)
				require.Zero(t, bad, "%s: rows where %s", table, where)
			}
		}
	}
}
