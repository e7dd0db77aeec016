//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/duckdb"
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
	Enum      string                     `arrow:"enum,dict"`
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

func TestProbeTypes(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	n, err := duckdb.Insert(ctx, db, "every", []everyType{{Varchar: "x", TSNanos: time.Unix(0, 0)}}, duckdb.InsertConfig{Create: true})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	rows, err := db.Query("SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'every'")
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var name, typ, null string
		require.NoError(t, rows.Scan(&name, &typ, &null))
		t.Logf("%-14s %-40s %s", name, typ, null)
	}
	_ = sql.ErrNoRows
}
