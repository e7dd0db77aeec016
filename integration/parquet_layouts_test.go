package integration

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/schema"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bss = pq.Encodings.ByteStreamSplit

const (
	parquetGo = "parquet-go v0.32.0"
	arrowGoLL = "arrow-go's column writers, hand-made schema"
)

// parquetLayouts is the table of layouts the conformance test reads: what
// each writes, with which writer, and what it checks.
func parquetLayouts() []parquetLayout {
	return []parquetLayout{
		{
			name: "INT96 timestamps", writer: parquetGo,
			checks: "INT96 (Julian day, nanoseconds of the day) in UTC: before 1970, leap days, nanoseconds, nulls; in microseconds by default (Spark's and DuckDB's unit), " +
				"nanoseconds refused in one line naming ReadConfig.Int96Unit (head -int96-unit); in nanoseconds, every value as pqarrow reads it",
			write: writeWithParquetGo(int96Rows()), check: int96Readable,
		},
		{
			name: "decimals as INT32, INT64, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY", writer: parquetGo,
			checks: "decimal128 from every physical type, decimal256 past 38 digits, the largest and most negative values of each precision, nulls",
			write:  writeDecimals, check: readable(decimalWant()),
		},
		{
			name: "byte-stream-split floats, integers and fixed-size binary", writer: parquetGo,
			checks: "BYTE_STREAM_SPLIT on FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY, with nulls, NaN payloads and infinities, over several pages of values",
			write:  writeWithParquetGo(splitRows()), check: readable(splitWant()),
			encodings: map[string]pq.Encoding{"f32": bss, "f64": bss, "i32": bss, "i64": bss, "fixed": bss},
		},
		{
			name: "delta encodings", writer: parquetGo,
			checks: "DELTA_BINARY_PACKED (deltas that overflow int64), DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (shared prefixes) over more than one block",
			write:  writeDeltas, check: readable(deltaWant()),
			encodings: map[string]pq.Encoding{
				"i32": pq.Encodings.DeltaBinaryPacked, "i64": pq.Encodings.DeltaBinaryPacked,
				"prefix": pq.Encodings.DeltaByteArray, "blob": pq.Encodings.DeltaByteArray, "length": pq.Encodings.DeltaLengthByteArray,
			},
		},
		{
			name: "nested maps and lists", writer: parquetGo,
			checks: "3-level lists of lists, of maps and of structs; maps of lists and of maps; null and empty at every level",
			write:  writeWithParquetGo(nestedRows()), check: readable(nestedWant()),
		},
		{
			name: "repeated fields without LIST annotation", writer: parquetGo,
			checks: "a bare repeated primitive and a bare repeated group as non-nullable lists, a repeated field inside a repeated group",
			write:  writeWithParquetGo(repeatedRows()), check: readable(repeatedWant()),
		},
		{
			name: "legacy two-level lists", writer: arrowGoLL,
			checks: "LIST over a repeated primitive, over a repeated group named array and one named <list>_tuple (lists of structs)",
			write:  writeTwoLevelLists, check: readable(twoLevelWant()),
		},
		{
			name: "legacy converted-type maps and lists", writer: arrowGoLL,
			checks: "MAP over MAP_KEY_VALUE and a two-level LIST of UTF8, annotated by converted types as parquet-mr 1.x writes them; null values, null and empty maps and lists",
			write:  writeConvertedTypes, check: readable(convertedWant()),
		},
		{
			name: "float16", writer: arrowGoLL,
			checks: "the FLOAT16 logical type from raw IEEE half-precision bits: subnormals, the largest, negative zero, infinities, NaN payloads, nulls",
			write:  writeFloat16, check: readable(float16Want()),
		},
		{
			name: "a MAP keyed by binary", writer: arrowGoLL,
			checks: "map<binary, int32> as entries with []byte keys, which no Go map takes: in the order written, a key twice (head prints it twice), an empty key, null and empty maps",
			write:  writeMapBinaryKey, check: readable(binaryKeyWant()),
		},
		{
			name: "a LIST whose child is not repeated", writer: arrowGoLL,
			checks: "pqarrow refuses the file (a column it cannot read makes every column unreadable): one line naming the column, no panic",
			write:  writeListOfOptional, check: refused("bad", "non-repeated nodes in a list group"),
		},
		{
			name: "a MAP with an optional key", writer: arrowGoLL,
			checks: "pqarrow refuses the file (MAP keys must be required), which parquet-mr once wrote and DuckDB reads: arrowmap reads the map",
			write:  writeMapOptionalKey, check: optionalKeyReadable,
		},
	}
}

// writeWithParquetGo writes rows with parquet-go's writer, the schema of R's
// parquet tags.
func writeWithParquetGo[R any](rows []R) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		require.NoError(t, parquet.WriteFile(path, rows, parquet.PageBufferSize(256)))
	}
}

// writeWithParquetGoSchema writes rows with parquet-go's writer and an explicit
// schema, for what tags cannot say.
func writeWithParquetGoSchema[R any](t *testing.T, path string, sc *parquet.Schema, rows []R) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewGenericWriter[R](f, sc, parquet.PageBufferSize(256))
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
}

// --- INT96 ---

type int96Row struct {
	At    deprecated.Int96   `parquet:"at"`
	Maybe *deprecated.Int96  `parquet:"maybe,optional"`
	Times []deprecated.Int96 `parquet:"times,list"` // as Spark writes array<timestamp>
}

var int96Times = []time.Time{
	time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2000, 2, 29, 23, 59, 59, 999_999_999, time.UTC),
	time.Date(1900, 3, 1, 0, 0, 0, 1, time.UTC),
	time.Date(2262, 4, 11, 0, 0, 0, 0, time.UTC),
	time.Date(1969, 12, 31, 12, 0, 0, 0, time.UTC),
}

// int96Of is t as INT96: the nanoseconds of its day, then its Julian day
// number, little-endian (what Impala and Spark write).
func int96Of(t time.Time) deprecated.Int96 {
	const unixEpochJulianDay = 2440588
	day := t.Unix() / 86400
	if t.Unix()%86400 < 0 {
		day--
	}
	nanos := uint64(t.Sub(time.Unix(day*86400, 0)))
	return deprecated.Int96{uint32(nanos), uint32(nanos >> 32), uint32(day + unixEpochJulianDay)}
}

func int96Rows() []int96Row {
	rows := make([]int96Row, len(int96Times))
	for i, at := range int96Times {
		rows[i].At = int96Of(at)
		if i%2 == 0 {
			rows[i].Maybe = ptr(int96Of(at.Add(time.Hour)))
		}
		rows[i].Times = []deprecated.Int96{}
		for _, t := range int96Times[:i] {
			rows[i].Times = append(rows[i].Times, int96Of(t))
		}
	}
	return rows
}

// int96Gen is the row type gen makes: timestamp[ns, UTC] is time.Time's
// default, so it takes no pin.
type int96Gen = struct {
	At    time.Time   `arrow:"at" json:"at"`
	Maybe *time.Time  `arrow:"maybe" json:"maybe"`
	Times []time.Time `arrow:"times,notnull" arrow-elem:"name=element" json:"times"`
}

func int96Want() []int96Gen {
	want := make([]int96Gen, len(int96Times))
	for i, at := range int96Times {
		want[i].At = at
		if i%2 == 0 {
			want[i].Maybe = ptr(at.Add(time.Hour))
		}
		want[i].Times = append([]time.Time{}, int96Times[:i]...)
	}
	return want
}

// int96Readable checks the INT96 layout: read in microseconds by default,
// its nanoseconds are refused (never dropped) in one line naming the
// setting; read in nanoseconds, every value is the one written and
// pqarrow's, through our readers and head.
func int96Readable(t *testing.T, path string) {
	want := int96Want()
	recs, schema := conformanceRecords(t, path, 3)
	var ref []map[string]any
	for _, rec := range recs {
		ref = append(ref, refRows(rec)...)
		rec.Release()
	}
	require.Equal(t, plainRows(reflect.ValueOf(want), schema), ref, "pqarrow's values, read with arrow-go's accessors, against those written")

	_, err := guard(func() ([]int96Gen, error) { return amparquet.ReadFile[int96Gen](path) })
	requireOneLine(t, err, `column "at", row 1`, "has digits below the unit of timestamp[us, tz=UTC]", "ReadConfig.Int96Unit")
	require.ErrorIs(t, err, amparquet.ErrInt96)
	_, errOut, status := runArrowmap(t, "head", path)
	assert.Equal(t, 1, status)
	requireOneLine(t, errors.New(strings.TrimSuffix(errOut, "\n")), "head's -int96-unit sets it")
	out, errOut, status := runArrowmap(t, "schema", path)
	require.Equal(t, 0, status, "arrowmap schema: %s", errOut)
	assert.Contains(t, out, "at: type=timestamp[us, tz=UTC]")

	ns := amparquet.ReadConfig{Int96Unit: ptr(arrow.Nanosecond)}
	got, err := guard(func() ([]int96Gen, error) { return amparquet.ReadFile[int96Gen](path, ns) })
	require.NoError(t, err)
	equalRows(t, schema, want, got, "parquet.ReadFile, Int96Unit nanoseconds")
	out, errOut, status = runArrowmap(t, "head", "-int96-unit", "ns", "-n", fmt.Sprint(len(want)+1), path)
	require.Equal(t, 0, status, "arrowmap head: %s", errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, len(want), "arrowmap head prints every row")
	for i, line := range lines {
		row, err := orderedJSON([]byte(line))
		require.NoError(t, err, "arrowmap head, row %d", i)
		assert.Equal(t, orderedJSONOf(t, jsonRow(ref[i], schema)), row, "arrowmap head, row %d", i)
	}
}

// --- decimals ---

type decimalRow struct {
	D32   int32    `parquet:"d32,decimal(2:9)"`
	D64   *int64   `parquet:"d64,decimal(4:18)"`
	Fixed [16]byte `parquet:"fixed,decimal(3:38)"`
	Wide  [21]byte `parquet:"wide,decimal(10:50)"`
	Bytes []byte   `parquet:"bytes"`
	List  []int64  `parquet:"list"`
}

// decimalUnscaled is the unscaled values of the rows, by column: the
// extremes of each precision, zero, and small negatives.
var decimalUnscaled = [][]string{
	{"999999999", "-999999999", "0", "-1", "12345"},
	{"999999999999999999", "-999999999999999999", "", "7", "-12345678"},
	{"99999999999999999999999999999999999999", "-99999999999999999999999999999999999999", "0", "1", "-170141183460469231731687303715884105"},
	{"99999999999999999999999999999999999999999999999999", "-99999999999999999999999999999999999999999999999999", "0", "-1", "123456789012345678901234567890"},
	{"99999999999999999999", "-99999999999999999999", "0", "-128", "255"},
}

func bigOf(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return n
}

// bigEndian is n as the big-endian two's complement of width bytes the
// Parquet format stores decimals in (the shortest when width is 0).
func bigEndian(n *big.Int, width int) []byte {
	if width == 0 {
		width = (n.BitLen() + 8) / 8 // a sign bit to spare
	}
	v := new(big.Int).Set(n)
	if n.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*width)))
	}
	b := v.FillBytes(make([]byte, width))
	return b
}

func writeDecimals(t *testing.T, path string) {
	rows := make([]decimalRow, len(decimalUnscaled[0]))
	for i := range rows {
		rows[i].D32 = int32(bigOf(decimalUnscaled[0][i]).Int64())
		if s := decimalUnscaled[1][i]; s != "" {
			rows[i].D64 = ptr(bigOf(s).Int64())
		}
		copy(rows[i].Fixed[:], bigEndian(bigOf(decimalUnscaled[2][i]), 16))
		copy(rows[i].Wide[:], bigEndian(bigOf(decimalUnscaled[3][i]), 21))
		rows[i].Bytes = bigEndian(bigOf(decimalUnscaled[4][i]), 0)
		rows[i].List = []int64{int64(i) * -101, 1e10 - 1}[:i%3]
	}
	sc := parquet.NewSchema("decimals", parquet.Group{
		"d32":   parquet.Decimal(2, 9, parquet.Int32Type),
		"d64":   parquet.Optional(parquet.Decimal(4, 18, parquet.Int64Type)),
		"fixed": parquet.Decimal(3, 38, parquet.FixedLenByteArrayType(16)),
		"wide":  parquet.Decimal(10, 50, parquet.FixedLenByteArrayType(21)),
		"bytes": parquet.Decimal(0, 20, parquet.ByteArrayType),
		"list":  parquet.Optional(parquet.List(parquet.Decimal(2, 10, parquet.Int64Type))),
	})
	writeWithParquetGoSchema(t, path, sc, rows)
}

type decimalGen = struct {
	Bytes decimal.Decimal128   `arrow:"bytes,decimal(20,0)" json:"bytes"`
	D32   decimal.Decimal128   `arrow:"d32,decimal(9,2)" json:"d32"`
	D64   *decimal.Decimal128  `arrow:"d64,decimal(18,4)" json:"d64"`
	Fixed decimal.Decimal128   `arrow:"fixed,decimal(38,3)" json:"fixed"`
	List  []decimal.Decimal128 `arrow:"list" arrow-elem:"decimal(10,2),name=element" json:"list"`
	Wide  decimal.Decimal256   `arrow:"wide,decimal(50,10)" json:"wide"`
}

func decimalWant() []decimalGen {
	d128 := func(s string) decimal.Decimal128 { return decimal128.FromBigInt(bigOf(s)) }
	want := make([]decimalGen, len(decimalUnscaled[0]))
	for i := range want {
		want[i].D32 = d128(decimalUnscaled[0][i])
		if s := decimalUnscaled[1][i]; s != "" {
			want[i].D64 = ptr(d128(s))
		}
		want[i].Fixed = d128(decimalUnscaled[2][i])
		want[i].Wide = decimal256.FromBigInt(bigOf(decimalUnscaled[3][i]))
		want[i].Bytes = d128(decimalUnscaled[4][i])
		for _, v := range []int64{int64(i) * -101, 1e10 - 1}[:i%3] {
			want[i].List = append(want[i].List, decimal128.FromI64(v))
		}
		if want[i].List == nil {
			want[i].List = []decimal.Decimal128{}
		}
	}
	return want
}

// --- byte-stream split ---

type splitRow struct {
	F32   float32  `parquet:"f32,split"`
	F64   *float64 `parquet:"f64,optional,split"`
	I32   int32    `parquet:"i32,split"`
	I64   *int64   `parquet:"i64,optional,split"`
	Fixed [3]byte  `parquet:"fixed,split"`
}

const splitN = 300 // values enough for several pages of 256 bytes

func splitRows() []splitRow {
	rows := make([]splitRow, splitN)
	for i := range rows {
		rows[i] = splitRow{F32: float32(i) * -1.25, I32: int32(i*7919) - 1<<30, Fixed: [3]byte{byte(i), byte(i >> 8), 0xA5}}
		if i%5 != 0 {
			rows[i].F64 = ptr(float64(i) * math.Pi)
			rows[i].I64 = ptr(int64(i) * -0x1234_5678_9ABC)
		}
		// NaNs with payloads, whose bytes the split scatters, and infinities.
		switch i {
		case 1:
			rows[i].F32, rows[i].F64 = math.Float32frombits(0x7fc0_0123), ptr(math.Float64frombits(0xfff0_0000_0000_0abc))
		case 2:
			rows[i].F32, rows[i].F64 = float32(math.Inf(1)), ptr(math.Inf(-1))
		}
	}
	return rows
}

type splitGen = struct {
	F32   float32  `arrow:"f32" json:"f32"`
	F64   *float64 `arrow:"f64" json:"f64"`
	I32   int32    `arrow:"i32" json:"i32"`
	I64   *int64   `arrow:"i64" json:"i64"`
	Fixed [3]uint8 `arrow:"fixed" json:"fixed"`
}

func splitWant() []splitGen {
	want := make([]splitGen, splitN)
	for i, r := range splitRows() {
		want[i] = splitGen{F32: r.F32, F64: r.F64, Fixed: r.Fixed, I32: r.I32, I64: r.I64}
	}
	return want
}

// --- delta encodings ---

type deltaRow struct {
	I32    int32  `parquet:"i32,delta"`
	I64    int64  `parquet:"i64,delta"`
	Prefix string `parquet:"prefix,delta"`
	Blob   []byte `parquet:"blob,delta"`
	Length string `parquet:"length"`
}

const deltaN = 700 // more than one 128-value block, several pages

func deltaRows() []deltaRow {
	jumps := []int64{math.MinInt64, math.MaxInt64, 0, -1, math.MaxInt64, math.MinInt64}
	rows := make([]deltaRow, deltaN)
	for i := range rows {
		rows[i] = deltaRow{
			I32:    int32(i*i) - int32(i%3)*math.MaxInt32/2,
			I64:    jumps[i%len(jumps)] + int64(i),
			Prefix: "customer/" + strings3(i),
			Blob:   []byte("blob-" + strings3(i/4)),
			Length: strings3(i)[:i%4],
		}
	}
	return rows
}

// strings3 is i as three letters, which share their prefixes with i's
// neighbours.
func strings3(i int) string {
	return string([]byte{'a' + byte(i/676%26), 'a' + byte(i/26%26), 'a' + byte(i%26)})
}

func writeDeltas(t *testing.T, path string) {
	sc := parquet.NewSchema("deltas", parquet.Group{
		"i32":    parquet.Encoded(parquet.Leaf(parquet.Int32Type), &parquet.DeltaBinaryPacked),
		"i64":    parquet.Encoded(parquet.Leaf(parquet.Int64Type), &parquet.DeltaBinaryPacked),
		"prefix": parquet.Encoded(parquet.String(), &parquet.DeltaByteArray),
		"blob":   parquet.Encoded(parquet.Leaf(parquet.ByteArrayType), &parquet.DeltaByteArray),
		"length": parquet.Encoded(parquet.String(), &parquet.DeltaLengthByteArray),
	})
	writeWithParquetGoSchema(t, path, sc, deltaRows())
}

type deltaGen = struct {
	Blob   []uint8 `arrow:"blob,notnull" json:"blob"`
	I32    int32   `arrow:"i32" json:"i32"`
	I64    int64   `arrow:"i64" json:"i64"`
	Length string  `arrow:"length" json:"length"`
	Prefix string  `arrow:"prefix" json:"prefix"`
}

func deltaWant() []deltaGen {
	want := make([]deltaGen, deltaN)
	for i, r := range deltaRows() {
		want[i] = deltaGen{Blob: r.Blob, I32: r.I32, I64: r.I64, Length: r.Length, Prefix: r.Prefix}
	}
	return want
}

// --- nested maps and lists ---

type nestedPoint struct {
	X int32   `parquet:"x"`
	Y *string `parquet:"y,optional"`
}

type nestedRow struct {
	Lists    [][]int64                   `parquet:"lists,optional,list"`
	ListMaps []map[string]int32          `parquet:"list_maps,list"`
	Points   []nestedPoint               `parquet:"points,optional,list"`
	MapLists map[string][]float64        `parquet:"map_lists,optional" parquet-value:",list"`
	MapMaps  map[int32]map[string]string `parquet:"map_maps"`
}

func nestedRows() []nestedRow {
	return []nestedRow{
		{
			Lists:    [][]int64{{1, 2}, {}, {3}},
			ListMaps: []map[string]int32{{"a": 1, "b": 2}, {}},
			Points:   []nestedPoint{{X: 1, Y: ptr("one")}, {X: 2}},
			MapLists: map[string][]float64{"x": {1.5, -2}, "e": {}},
			MapMaps:  map[int32]map[string]string{7: {"k": "v"}, -1: {}},
		},
		{Lists: nil, ListMaps: []map[string]int32{}, MapMaps: map[int32]map[string]string{}},
		{
			Lists:    [][]int64{{}},
			ListMaps: []map[string]int32{{"only": -5}},
			Points:   []nestedPoint{},
			MapLists: map[string][]float64{},
			MapMaps:  map[int32]map[string]string{0: {"a": "", "b": "β"}},
		},
	}
}

// The entries of nestedGen's maps: pqarrow reads parquet-go's maps as
// map<K, V, items_non_nullable> (parquet-go's values are required).
type (
	listMapEntry = struct {
		Key   string `arrow:"key" json:"key"`
		Value int32  `arrow:"value" json:"value"`
	}
	mapListEntry = struct {
		Key   string    `arrow:"key" json:"key"`
		Value []float64 `arrow:"value,notnull" arrow-elem:"name=element" json:"value"`
	}
	mapMapEntry = struct {
		Key   int32          `arrow:"key" json:"key"`
		Value []mapMapsEntry `arrow:"value,map,notnull" json:"value"`
	}
	mapMapsEntry = struct {
		Key   string `arrow:"key" json:"key"`
		Value string `arrow:"value" json:"value"`
	}
	nestedPointGen = struct {
		X int32   `arrow:"x" json:"x"`
		Y *string `arrow:"y" json:"y"`
	}
)

// nestedGen is the row type gen makes. The inner list of lists keeps its
// element's name, element, in no tag (arrow-elem is one level):
// SchemaOf's is item.
type nestedGen = struct {
	Lists    [][]int64        `arrow:"lists" arrow-elem:"notnull,name=element,elem(name=element)" json:"lists"`
	ListMaps [][]listMapEntry `arrow:"list_maps,notnull" arrow-elem:"map,notnull,name=element" json:"list_maps"`
	Points   []nestedPointGen `arrow:"points" arrow-elem:"name=element" json:"points"`
	MapLists []mapListEntry   `arrow:"map_lists,map" json:"map_lists"`
	MapMaps  []mapMapEntry    `arrow:"map_maps,map,notnull" json:"map_maps"`
}

// entriesOf is m's entries, made by entry, in the order parquet-go writes
// them: by key (its writer sorts a Go map's keys); nil for a nil map, whose
// column is null.
func entriesOf[K cmp.Ordered, V, E any](m map[K]V, entry func(K, V) E) []E {
	if m == nil {
		return nil
	}
	entries := []E{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		entries = append(entries, entry(k, m[k]))
	}
	return entries
}

func nestedWant() []nestedGen {
	rows := nestedRows()
	want := make([]nestedGen, len(rows))
	for i, r := range rows {
		want[i] = nestedGen{Lists: r.Lists}
		if r.ListMaps != nil {
			want[i].ListMaps = [][]listMapEntry{}
			for _, m := range r.ListMaps {
				want[i].ListMaps = append(want[i].ListMaps, entriesOf(m, func(k string, v int32) listMapEntry { return listMapEntry{Key: k, Value: v} }))
			}
		}
		if r.Points != nil {
			want[i].Points = []nestedPointGen{}
			for _, p := range r.Points {
				want[i].Points = append(want[i].Points, nestedPointGen{X: p.X, Y: p.Y})
			}
		}
		want[i].MapLists = entriesOf(r.MapLists, func(k string, v []float64) mapListEntry { return mapListEntry{Key: k, Value: v} })
		want[i].MapMaps = entriesOf(r.MapMaps, func(k int32, v map[string]string) mapMapEntry {
			return mapMapEntry{Key: k, Value: entriesOf(v, func(k, v string) mapMapsEntry { return mapMapsEntry{Key: k, Value: v} })}
		})
	}
	return want
}

// --- repeated fields without LIST ---

type repeatedGroup struct {
	Name string  `parquet:"name"`
	Vals []int64 `parquet:"vals"`
}

type repeatedRow struct {
	ID     int64           `parquet:"id"`
	Tags   []string        `parquet:"tags"`
	Groups []repeatedGroup `parquet:"groups"`
}

func repeatedRows() []repeatedRow {
	return []repeatedRow{
		{ID: 1, Tags: []string{"a", "b"}, Groups: []repeatedGroup{{Name: "g", Vals: []int64{1, 2, 3}}, {Name: "h"}}},
		{ID: 2},
		{ID: 3, Tags: []string{"c"}, Groups: []repeatedGroup{{Name: "", Vals: []int64{-1}}}},
	}
}

// repeatedGroupGen is a group of repeatedGen. pqarrow declares the
// elements of a bare repeated field nullable, though the format gives them
// no way to be null: gen's elements are pointers; the lists themselves are
// not nullable, so notnull.
type repeatedGroupGen = struct {
	Name string   `arrow:"name" json:"name"`
	Vals []*int64 `arrow:"vals,notnull" json:"vals"`
}

type repeatedGen = struct {
	ID     int64               `arrow:"id" json:"id"`
	Tags   []*string           `arrow:"tags,notnull" json:"tags"`
	Groups []*repeatedGroupGen `arrow:"groups,notnull" json:"groups"`
}

func repeatedWant() []repeatedGen {
	rows := repeatedRows()
	want := make([]repeatedGen, len(rows))
	for i, r := range rows {
		// A repeated field has no null: no values is an empty list.
		want[i] = repeatedGen{ID: r.ID, Tags: []*string{}, Groups: []*repeatedGroupGen{}}
		for _, tag := range r.Tags {
			want[i].Tags = append(want[i].Tags, ptr(tag))
		}
		for _, g := range r.Groups {
			gg := &repeatedGroupGen{Name: g.Name, Vals: []*int64{}}
			for _, v := range g.Vals {
				gg.Vals = append(gg.Vals, ptr(v))
			}
			want[i].Groups = append(want[i].Groups, gg)
		}
	}
	return want
}

// --- legacy two-level lists (arrow-go's column writers) ---

func writeTwoLevelLists(t *testing.T, path string) {
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		// optional group ints (LIST) { repeated int32 element; }
		must(schema.NewGroupNodeLogical("ints", pq.Repetitions.Optional, schema.FieldList{
			schema.NewInt32Node("element", pq.Repetitions.Repeated, -1),
		}, schema.NewListLogicalType(), -1)),
		// optional group pairs (LIST) { repeated group array { required int32 x; } }
		must(schema.NewGroupNodeLogical("pairs", pq.Repetitions.Optional, schema.FieldList{
			must(schema.NewGroupNode("array", pq.Repetitions.Repeated, schema.FieldList{
				schema.NewInt32Node("x", pq.Repetitions.Required, -1),
			}, -1)),
		}, schema.NewListLogicalType(), -1)),
		// required group pts (LIST) { repeated group pts_tuple { required int64 v; } }
		must(schema.NewGroupNodeLogical("pts", pq.Repetitions.Required, schema.FieldList{
			must(schema.NewGroupNode("pts_tuple", pq.Repetitions.Repeated, schema.FieldList{
				schema.NewInt64Node("v", pq.Repetitions.Required, -1),
			}, -1)),
		}, schema.NewListLogicalType(), -1)),
	}, -1))
	// Rows: ints [1 2], null, [], [3]; pairs [], [{5}], null, [{6} {7}];
	// pts [10], [], [11 12], [].
	writeLowLevel(t, path, root,
		leafChunk{values: []int32{1, 2, 3}, def: []int16{2, 2, 0, 1, 2}, rep: []int16{0, 1, 0, 0, 0}},
		leafChunk{values: []int32{5, 6, 7}, def: []int16{1, 2, 0, 2, 2}, rep: []int16{0, 0, 0, 0, 1}},
		leafChunk{values: []int64{10, 11, 12}, def: []int16{1, 0, 1, 1, 0}, rep: []int16{0, 0, 0, 1, 0}},
	)
}

// twoLevelGen is the row type gen makes: the elements keep the names of
// the file's repeated nodes.
type twoLevelGen = struct {
	Ints  []int32 `arrow:"ints" arrow-elem:"name=element" json:"ints"`
	Pairs []*struct {
		X int32 `arrow:"x" json:"x"`
	} `arrow:"pairs" arrow-elem:"name=array" json:"pairs"`
	Pts []*struct {
		V int64 `arrow:"v" json:"v"`
	} `arrow:"pts,notnull" arrow-elem:"name=pts_tuple" json:"pts"`
}

// twoLevelWant is the rows writeTwoLevelLists writes.
func twoLevelWant() []twoLevelGen {
	type pair = struct {
		X int32 `arrow:"x" json:"x"`
	}
	type pt = struct {
		V int64 `arrow:"v" json:"v"`
	}
	return []twoLevelGen{
		{Ints: []int32{1, 2}, Pairs: []*pair{}, Pts: []*pt{{V: 10}}},
		{Ints: nil, Pairs: []*pair{{X: 5}}, Pts: []*pt{}},
		{Ints: []int32{}, Pairs: nil, Pts: []*pt{{V: 11}, {V: 12}}},
		{Ints: []int32{3}, Pairs: []*pair{{X: 6}, {X: 7}}, Pts: []*pt{}},
	}
}

// --- legacy converted types (arrow-go's column writers) ---

func writeConvertedTypes(t *testing.T, path string) {
	utf8 := func(name string, rep pq.Repetition) schema.Node {
		return must(schema.NewPrimitiveNodeConverted(name, rep, pq.Types.ByteArray, schema.ConvertedTypes.UTF8, 0, 0, 0, -1))
	}
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		// optional group legacy_map (MAP) {
		//   repeated group map (MAP_KEY_VALUE) { required binary key (UTF8); optional int32 value; }
		// }
		must(schema.NewGroupNodeConverted("legacy_map", pq.Repetitions.Optional, schema.FieldList{
			must(schema.NewGroupNodeConverted("map", pq.Repetitions.Repeated, schema.FieldList{
				utf8("key", pq.Repetitions.Required), schema.NewInt32Node("value", pq.Repetitions.Optional, -1),
			}, schema.ConvertedTypes.MapKeyValue, -1)),
		}, schema.ConvertedTypes.Map, -1)),
		// optional group legacy_list (LIST) { repeated binary str (UTF8); }
		must(schema.NewGroupNodeConverted("legacy_list", pq.Repetitions.Optional, schema.FieldList{
			utf8("str", pq.Repetitions.Repeated),
		}, schema.ConvertedTypes.List, -1)),
	}, -1))
	// Rows: {a: 1, b: null} ["x" "y"]; null []; {} null.
	writeLowLevel(t, path, root,
		leafChunk{values: []pq.ByteArray{pq.ByteArray("a"), pq.ByteArray("b")}, def: []int16{2, 2, 0, 1}, rep: []int16{0, 1, 0, 0}},
		leafChunk{values: []int32{1}, def: []int16{3, 2, 0, 1}, rep: []int16{0, 1, 0, 0}},
		leafChunk{values: []pq.ByteArray{pq.ByteArray("x"), pq.ByteArray("y")}, def: []int16{2, 2, 1, 0}, rep: []int16{0, 1, 0, 0}},
	)
}

type legacyMapEntry = struct {
	Key   string `arrow:"key" json:"key"`
	Value *int32 `arrow:"value" json:"value"`
}

type convertedGen = struct {
	LegacyMap  []legacyMapEntry `arrow:"legacy_map,map" json:"legacy_map"`
	LegacyList []string         `arrow:"legacy_list" arrow-elem:"name=str" json:"legacy_list"`
}

// convertedWant is the rows writeConvertedTypes writes.
func convertedWant() []convertedGen {
	return []convertedGen{
		{LegacyMap: []legacyMapEntry{{Key: "a", Value: ptr[int32](1)}, {Key: "b"}}, LegacyList: []string{"x", "y"}},
		{LegacyMap: nil, LegacyList: []string{}},
		{LegacyMap: []legacyMapEntry{}, LegacyList: nil},
	}
}

// --- float16 (arrow-go's column writers) ---

// float16Bits are IEEE half-precision values by their bits, and what they
// are: the Parquet FLOAT16 logical type stores them little-endian.
var float16Bits = []struct {
	bits  uint16
	value float32
}{
	{0x3C00, 1}, {0xC000, -2}, {0x7BFF, 65504}, {0x0001, 1.0 / (1 << 24)}, {0x8000, float32(math.Copysign(0, -1))}, {0x3555, 0.333251953125},
	{0x03FF, 1023.0 / (1 << 24)}, {0x7C00, float32(math.Inf(1))}, {0xFC00, float32(math.Inf(-1))},
	{0x7E00, float32(math.NaN())}, {0xFC01, float32(math.NaN())}, // a quiet NaN, a negative signalling one
}

func writeFloat16(t *testing.T, path string) {
	h := func(name string, rep pq.Repetition) schema.Node {
		return must(schema.NewPrimitiveNodeLogical(name, rep, schema.Float16LogicalType{}, pq.Types.FixedLenByteArray, 2, -1))
	}
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		h("half", pq.Repetitions.Required), h("maybe", pq.Repetitions.Optional),
	}, -1))
	var all, some []pq.FixedLenByteArray
	var def []int16
	for i, f := range float16Bits {
		le := pq.FixedLenByteArray{byte(f.bits), byte(f.bits >> 8)}
		all = append(all, le)
		if i%2 == 1 {
			some, def = append(some, le), append(def, 1)
		} else {
			def = append(def, 0)
		}
	}
	writeLowLevel(t, path, root, leafChunk{values: all}, leafChunk{values: some, def: def})
}

type float16Gen = struct {
	Half  float16.Num  `arrow:"half" json:"half"`
	Maybe *float16.Num `arrow:"maybe" json:"maybe"`
}

func float16Want() []float16Gen {
	want := make([]float16Gen, len(float16Bits))
	for i, f := range float16Bits {
		want[i].Half = float16.FromBits(f.bits)
		if i%2 == 1 {
			want[i].Maybe = ptr(float16.FromBits(f.bits))
		}
	}
	return want
}

// --- what pqarrow cannot read, and what no Go type holds ---

func writeListOfOptional(t *testing.T, path string) {
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		schema.NewInt32Node("id", pq.Repetitions.Required, -1),
		// optional group bad (LIST) { optional int32 element; }: no repeated level
		must(schema.NewGroupNodeLogical("bad", pq.Repetitions.Optional, schema.FieldList{
			schema.NewInt32Node("element", pq.Repetitions.Optional, -1),
		}, schema.NewListLogicalType(), -1)),
	}, -1))
	writeLowLevel(t, path, root,
		leafChunk{values: []int32{1, 2}},
		leafChunk{values: []int32{5}, def: []int16{2, 0}})
}

func mapNode(name string, key, value schema.Node) schema.Node {
	return must(schema.NewGroupNodeLogical(name, pq.Repetitions.Optional, schema.FieldList{
		must(schema.NewGroupNode("key_value", pq.Repetitions.Repeated, schema.FieldList{key, value}, -1)),
	}, schema.MapLogicalType{}, -1))
}

func writeMapOptionalKey(t *testing.T, path string) {
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		schema.NewInt32Node("id", pq.Repetitions.Required, -1),
		mapNode("attrs",
			must(schema.NewPrimitiveNodeLogical("key", pq.Repetitions.Optional, schema.StringLogicalType{}, pq.Types.ByteArray, -1, -1)),
			schema.NewInt32Node("value", pq.Repetitions.Optional, -1)),
	}, -1))
	// Rows: id 1 {"k": 7}, id 2 null.
	writeLowLevel(t, path, root,
		leafChunk{values: []int32{1, 2}},
		leafChunk{values: []pq.ByteArray{pq.ByteArray("k")}, def: []int16{3, 0}, rep: []int16{0, 0}},
		leafChunk{values: []int32{7}, def: []int16{3, 0}, rep: []int16{0, 0}})
}

// optionalKeyReadable checks the file writeMapOptionalKey writes: pqarrow
// refuses it, arrowmap reads the map (the parquet package's repair.go).
func optionalKeyReadable(t *testing.T, path string) {
	_, err := guard(func() (*arrow.Schema, error) { return pqarrowSchema(path) })
	require.ErrorContains(t, err, "MAP keys must be required", "pqarrow reads the file: the layout does not show what it cannot")

	type row struct {
		ID    int32             `arrow:"id"`
		Attrs map[string]*int32 `arrow:"attrs"`
	}
	got, err := guard(func() ([]row, error) { return amparquet.ReadFile[row](path) })
	require.NoError(t, err)
	assert.Equal(t, []row{{1, map[string]*int32{"k": ptr(int32(7))}}, {2, nil}}, got)

	out, errOut, status := runArrowmap(t, "head", path)
	require.Equal(t, 0, status, "arrowmap head: %s", errOut)
	assert.Equal(t, "{\"id\":1,\"attrs\":{\"k\":7}}\n{\"id\":2,\"attrs\":null}\n", out)
	out, errOut, status = runArrowmap(t, "schema", path)
	require.Equal(t, 0, status, "arrowmap schema: %s", errOut)
	assert.Contains(t, out, "attrs: type=map<utf8, int32, items_nullable>")
}

// --- a map keyed by binary (arrow-go's column writers) ---

func writeMapBinaryKey(t *testing.T, path string) {
	root := must(schema.NewGroupNode("schema", pq.Repetitions.Required, schema.FieldList{
		schema.NewInt32Node("id", pq.Repetitions.Required, -1),
		mapNode("blobs",
			schema.NewByteArrayNode("key", pq.Repetitions.Required, -1),
			schema.NewInt32Node("value", pq.Repetitions.Required, -1)),
	}, -1))
	// Rows: id 1 {0x00ff: 7, 0x00: 8, 0x00ff: 9}, id 2 null, id 3 {},
	// id 4 {"": -1}.
	levels := func() ([]int16, []int16) { return []int16{2, 2, 2, 0, 1, 2}, []int16{0, 1, 1, 0, 0, 0} }
	keyDef, keyRep := levels()
	valueDef, valueRep := levels()
	writeLowLevel(t, path, root,
		leafChunk{values: []int32{1, 2, 3, 4}},
		leafChunk{values: []pq.ByteArray{{0, 0xff}, {0}, {0, 0xff}, {}}, def: keyDef, rep: keyRep},
		leafChunk{values: []int32{7, 8, 9, -1}, def: valueDef, rep: valueRep})
}

// blobEntry is an entry of binaryKeyGen's map: a Go map takes no []byte
// key, the entries do, and keep a key twice.
type blobEntry = struct {
	Key   []uint8 `arrow:"key,notnull" json:"key"`
	Value int32   `arrow:"value" json:"value"`
}

type binaryKeyGen = struct {
	ID    int32       `arrow:"id" json:"id"`
	Blobs []blobEntry `arrow:"blobs,map" json:"blobs"`
}

// binaryKeyWant is the rows writeMapBinaryKey writes, entries in the order
// written.
func binaryKeyWant() []binaryKeyGen {
	return []binaryKeyGen{
		{ID: 1, Blobs: []blobEntry{{Key: []byte{0, 0xff}, Value: 7}, {Key: []byte{0}, Value: 8}, {Key: []byte{0, 0xff}, Value: 9}}},
		{ID: 2},
		{ID: 3, Blobs: []blobEntry{}},
		{ID: 4, Blobs: []blobEntry{{Key: []byte{}, Value: -1}}},
	}
}
