//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

// everyType has a field of each of DuckDB's types, in the Go type it
// reads and writes as.
type everyType struct {
	Bool      bool                       `arrow:"bool"`
	TinyInt   int8                       `arrow:"tinyint"`
	SmallInt  int16                      `arrow:"smallint"`
	Integer   int32                      `arrow:"integer"`
	BigInt    int64                      `arrow:"bigint"`
	UTinyInt  uint8                      `arrow:"utinyint"`
	USmallInt uint16                     `arrow:"usmallint"`
	UInteger  uint32                     `arrow:"uinteger"`
	UBigInt   uint64                     `arrow:"ubigint"`
	HugeInt   duckdb.HugeInt             `arrow:"hugeint"`
	UHugeInt  duckdb.UHugeInt            `arrow:"uhugeint"`
	Float     float32                    `arrow:"float"`
	Double    float64                    `arrow:"double"`
	Decimal   decimal.Decimal128         `arrow:"decimal,decimal(18,3)"`
	Wide      decimal.Decimal128         `arrow:"wide,decimal(38,10)"`
	Varchar   string                     `arrow:"varchar"`
	Blob      []byte                     `arrow:"blob"`
	Date      time.Time                  `arrow:"date,date32"`
	Time      time.Duration              `arrow:"time,time64,unit=us"`
	TimeTZ    duckdb.TimeTZ              `arrow:"timetz"`
	Timestamp time.Time                  `arrow:"timestamp,timestamp,naive,unit=us"`
	TSSeconds time.Time                  `arrow:"timestamp_s,timestamp,naive,unit=s"`
	TSMillis  time.Time                  `arrow:"timestamp_ms,timestamp,naive,unit=ms"`
	TSNanos   time.Time                  `arrow:"timestamp_ns,timestamp,naive,unit=ns"`
	TSZoned   time.Time                  `arrow:"timestamptz,timestamp,tz=UTC,unit=us"`
	Interval  arrow.MonthDayNanoInterval `arrow:"interval"`
	UUID      [16]byte                   `arrow:"uuid,ext=arrow.uuid"`
	JSON      json.RawMessage            `arrow:"json,ext=arrow.json"`
	Enum      string                     `arrow:"enum"`
	List      []int32                    `arrow:"list"`
	Nested    [][]string                 `arrow:"nested"`
	Struct    struct {
		A int64    `arrow:"a"`
		B *string  `arrow:"b"`
		C []uint16 `arrow:"c"`
	} `arrow:"struct"`
	Map      map[string]int64 `arrow:"map"`
	Array    [3]int32         `arrow:"array"`
	Nullable *int64           `arrow:"nullable"`
	NullList []*string        `arrow:"null_list"`
}

// everyRows is rows of everyType: the zero row, the types' extremes, and
// rows of ordinary values with nulls among them.
func everyRows(t *testing.T) []everyType {
	t.Helper()
	str := func(s string) *string { return &s }
	i64 := func(v int64) *int64 { return &v }
	tokyo := time.FixedZone("", 9*3600)
	maxHuge, err := duckdb.HugeIntOf(bigOf(t, "170141183460469231731687303715884105727"))
	require.NoError(t, err)
	maxUHuge, err := duckdb.UHugeIntOf(bigOf(t, "340282366920938463463374607431768211455"))
	require.NoError(t, err)
	tz, err := duckdb.TimeTZOf(time.Date(1, 1, 1, 23, 59, 59, 999999000, time.FixedZone("", -(15*3600+59*60+59))))
	require.NoError(t, err)
	epoch := time.Unix(0, 0).UTC()
	rows := []everyType{{TSNanos: epoch, Date: epoch, Timestamp: epoch, TSSeconds: epoch, TSMillis: epoch, TSZoned: epoch}}
	extreme := everyType{
		Bool: true, TinyInt: math.MinInt8, SmallInt: math.MaxInt16, Integer: math.MinInt32, BigInt: math.MaxInt64,
		UTinyInt: math.MaxUint8, USmallInt: math.MaxUint16, UInteger: math.MaxUint32, UBigInt: math.MaxUint64,
		HugeInt: maxHuge, UHugeInt: maxUHuge, Float: math.MaxFloat32, Double: -math.SmallestNonzeroFloat64,
		Decimal: decimal128.FromI64(999_999_999_999_999_999), Wide: decimal128.FromBigInt(bigOf(t, "-"+strings.Repeat("9", 38))),
		Varchar: strings.Repeat("ü", 5000), Blob: []byte{0, 0xff, 0},
		Date: time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), Time: 24*time.Hour - time.Microsecond, TimeTZ: tz,
		Timestamp: time.Date(2262, 4, 11, 23, 47, 16, 854775000, time.UTC), TSSeconds: time.Date(1677, 9, 21, 0, 12, 44, 0, time.UTC),
		TSMillis: time.Date(2000, 2, 29, 12, 0, 0, 999e6, time.UTC), TSNanos: time.Unix(0, math.MaxInt64).UTC(),
		TSZoned:  time.Date(2024, 3, 31, 2, 30, 0, 123456000, tokyo).UTC(),
		Interval: arrow.MonthDayNanoInterval{Months: -7, Days: 40, Nanoseconds: 3_600_000_001_000},
		UUID:     [16]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xfe},
		JSON:     json.RawMessage(`{"a":[1,2,{"b":null}]}`), Enum: "shipped",
		List: []int32{math.MinInt32, 0, math.MaxInt32}, Nested: [][]string{{"a", ""}, {}, nil, {"z"}},
		Map: map[string]int64{"": 0, "k": -1}, Array: [3]int32{1, -2, 3}, Nullable: i64(-9), NullList: []*string{nil, str("x"), nil},
	}
	extreme.Struct.A, extreme.Struct.B, extreme.Struct.C = -1, str("β"), []uint16{65535}
	rows = append(rows, extreme)
	for i := range 300 {
		r := everyType{
			Bool: i%3 == 0, TinyInt: int8(i), SmallInt: int16(i * 7), Integer: int32(i * 1000), BigInt: int64(i) << 40,
			UTinyInt: uint8(i), USmallInt: uint16(i * 3), UInteger: uint32(i) << 20, UBigInt: uint64(i) << 50,
			HugeInt: duckdb.HugeIntFromInt64(int64(-i) << 50), Float: float32(i) / 8, Double: float64(i) / 3,
			Decimal: decimal128.FromI64(int64(i*1001 - 5000)), Wide: decimal128.FromI64(int64(i) << 40),
			Varchar: fmt.Sprintf("row %d", i), Date: epoch.AddDate(0, 0, i*37-5000),
			Time: time.Duration(i) * 17 * time.Second, Timestamp: epoch.Add(time.Duration(i) * 1234567 * time.Microsecond),
			TSSeconds: epoch.Add(time.Duration(i) * time.Hour), TSMillis: epoch.Add(time.Duration(i) * time.Millisecond * 333),
			TSNanos: epoch.Add(time.Duration(i*i) * 7), TSZoned: epoch.Add(time.Duration(i) * time.Minute),
			Interval: arrow.MonthDayNanoInterval{Months: int32(i % 13), Days: int32(i % 31), Nanoseconds: int64(i) * 1000},
			Enum:     []string{"placed", "shipped", "returned"}[i%3], JSON: json.RawMessage(fmt.Sprintf("[%d]", i)),
		}
		r.UHugeInt, err = duckdb.UHugeIntOf(new(big.Int).Lsh(big.NewInt(int64(i)), 100))
		require.NoError(t, err)
		r.TimeTZ, err = duckdb.TimeTZOf(time.Date(1, 1, 1, i%24, i%60, 0, 0, time.FixedZone("", (i%31-15)*1800)))
		require.NoError(t, err)
		r.UUID[i%16] = byte(i)
		if i%4 != 0 {
			r.Blob = []byte(r.Varchar)
			r.List = []int32{int32(i), int32(-i)}
			r.Nested = [][]string{{r.Varchar}}
			r.Map = map[string]int64{r.Varchar: int64(i)}
			r.Nullable = i64(int64(i))
			r.NullList = []*string{str(r.Varchar), nil}
			r.Struct.B = str(r.Varchar)
			r.Struct.C = []uint16{uint16(i)}
		}
		r.Struct.A = int64(i)
		r.Array = [3]int32{int32(i), int32(i + 1), int32(i + 2)}
		rows = append(rows, r)
	}
	return rows
}

// What DuckDB gives back is not the Go value itself where DuckDB keeps
// less: an empty list or map in a nullable column reads back as what was
// written, nil as nil.
func TestEveryDuckDBTypeRoundTripsThroughATable(t *testing.T) {
	t.Run("view", func(t *testing.T) { roundTripEveryType(t, duckdb.IngestConfig{BatchRows: 100}) })
	t.Run("appender", func(t *testing.T) {
		roundTripEveryType(t, duckdb.IngestConfig{BatchRows: 100, Appender: true})
	})
}

func roundTripEveryType(t *testing.T, cfg duckdb.IngestConfig) {
	db := openDB(t)
	ctx := context.Background()
	rows := everyRows(t)
	n, err := duckdb.Ingest(ctx, db, duckdb.Table{Name: "every", Mode: duckdb.Create}, rows, cfg)
	require.NoError(t, err)
	assert.EqualValues(t, len(rows), n)

	// DuckDB holds each column in its own type, not as text or blobs.
	types := texts(t, db, "SELECT data_type FROM information_schema.columns WHERE table_name = 'every' ORDER BY ordinal_position")
	assert.Equal(t, []string{"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
		"HUGEINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL(18,3)", "DECIMAL(38,10)", "VARCHAR", "BLOB", "DATE", "TIME",
		"TIME WITH TIME ZONE", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMP WITH TIME ZONE", "INTERVAL",
		"UUID", "JSON", "VARCHAR", "INTEGER[]", "VARCHAR[][]", "STRUCT(a BIGINT, b VARCHAR, c USMALLINT[])", "MAP(VARCHAR, BIGINT)",
		"INTEGER[3]", "BIGINT", "VARCHAR[]"}, types)

	// Through DuckDB's own text of some values: what was written is what
	// DuckDB holds, not only what it gives back.
	var huge, uhuge, timetz, uuid string
	require.NoError(t, db.QueryRow("SELECT hugeint::VARCHAR, uhugeint::VARCHAR, timetz::VARCHAR, uuid::VARCHAR FROM every LIMIT 1 OFFSET 1").Scan(&huge, &uhuge, &timetz, &uuid))
	assert.Equal(t, "170141183460469231731687303715884105727", huge)
	assert.Equal(t, "340282366920938463463374607431768211455", uhuge)
	assert.Equal(t, "23:59:59.999999-15:59:59", timetz)
	assert.Equal(t, "ff010203-0405-0607-0809-0a0b0c0d0efe", uuid)

	r, err := duckdb.Query[everyType](ctx, db, "SELECT * FROM every ORDER BY rowid")
	require.NoError(t, err)
	defer r.Release()
	back, err := r.ReadAll()
	require.NoError(t, err)
	require.Len(t, back, len(rows))
	for i := range rows {
		// A TIMESTAMPTZ reads in its column's zone, Etc/UTC: the same
		// instants in the same zone, under another *time.Location.
		assert.Equal(t, "Etc/UTC", back[i].TSZoned.Location().String())
		back[i].TSZoned = back[i].TSZoned.UTC()
		require.Equal(t, rows[i], back[i], "row %d", i)
	}
}

func TestAnEnumColumnTakesDictionaryStringsAndGivesThemBack(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec("CREATE TYPE status AS ENUM ('placed', 'shipped', 'returned'); CREATE TABLE orders (id BIGINT, status status)")
	require.NoError(t, err)
	type row struct {
		ID     int64   `arrow:"id"`
		Status *string `arrow:"status,dict"`
	}
	statuses := []string{"placed", "shipped", "returned"}
	rows := make([]row, 5000)
	for i := range rows {
		rows[i].ID = int64(i)
		if i%7 != 0 {
			rows[i].Status = &statuses[i%3]
		}
	}
	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, rows)
	require.NoError(t, err)
	assert.Equal(t, "ENUM('placed', 'shipped', 'returned')", columnType(t, db, "orders", "status"))

	rr, err := duckdb.QueryRecords(ctx, db, "SELECT status FROM orders")
	require.NoError(t, err)
	assert.Equal(t, "dictionary<values=utf8, indices=uint8, ordered=false>", rr.Schema().Field(0).Type.String())
	rr.Release()
	r, err := duckdb.Query[row](ctx, db, "SELECT * FROM orders ORDER BY id")
	require.NoError(t, err)
	defer r.Release()
	back, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, rows, back)

	_, err = duckdb.Ingest(ctx, db, duckdb.Table{Name: "orders"}, []row{{ID: 1, Status: new(string)}})
	assert.ErrorContains(t, err, "Conversion Error", "a value the ENUM has not is DuckDB's error")
}

// Every type DuckDB exports decodes into the Go type GoTypeOf gives its
// schema (what the arrowmap command's gen prints), value for value as
// DuckDB's own text of it says where the two can be compared.
func TestEveryTypeDuckDBExportsDecodesThroughGoTypeOf(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, err := db.Exec(`CREATE TYPE mood AS ENUM ('sad', 'ok');
		CREATE TABLE every AS SELECT
			true AS b, -1::TINYINT AS i1, 2::SMALLINT AS i2, 3 AS i4, 4::BIGINT AS i8, (2::HUGEINT ** 100)::HUGEINT AS h,
			1::UTINYINT AS u1, 2::USMALLINT AS u2, 3::UINTEGER AS u4, 4::UBIGINT AS u8, 340282366920938463463374607431768211455::UHUGEINT AS uh,
			1.5::FLOAT AS f4, 2.5::DOUBLE AS f8, 12.345::DECIMAL(5,3) AS d, 'x' AS s, '\x00\xff'::BLOB AS blob,
			DATE '2024-02-29' AS date, TIME '12:34:56.789' AS time, TIMETZ '12:34:56+05:30' AS timetz,
			TIMESTAMP '2024-02-29 12:34:56.789' AS ts, TIMESTAMP_S '2024-02-29 12:34:56' AS ts_s, TIMESTAMP_MS '2024-02-29 12:34:56.789' AS ts_ms,
			TIMESTAMP_NS '2024-02-29 12:34:56.789123456' AS ts_ns, TIMESTAMPTZ '2024-02-29 12:34:56+00' AS tstz,
			INTERVAL '1 month 2 days 3 seconds' AS iv, '00000000-0000-0000-0000-000000000001'::UUID AS uuid, '{"a":1}'::JSON AS json,
			'ok'::mood AS mood, '101'::BIT AS bit, 12345678901234567890123456789::VARINT AS varint,
			[1, 2] AS list, [[1], []] AS nested, {'a': 1, 'b': 'x'} AS st, MAP {'k': 1} AS m, [1, 2, 3]::INTEGER[3] AS arr,
			union_value(n := 2)::UNION(n INTEGER, s VARCHAR) AS un, NULL::INTEGER AS nothing
		FROM range(3)`)
	require.NoError(t, err)
	for _, cfg := range []duckdb.QueryConfig{{}, {Lossy: true}, {StringViews: true, ListViews: true}} {
		rr, err := duckdb.QueryRecords(ctx, db, "SELECT * FROM every", cfg)
		require.NoError(t, err)
		typ, err := mapper.GoTypeOf(rr.Schema())
		require.NoError(t, err, "%+v", cfg)
		rows := 0
		for rr.Next() {
			v, err := mapper.DecodeTo(typ, rr.RecordBatch())
			require.NoError(t, err, "%+v", cfg)
			rows += v.Len()
		}
		require.NoError(t, rr.Err())
		rr.Release()
		assert.Equal(t, 3, rows)
	}
}
