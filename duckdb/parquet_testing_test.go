//go:build duckdb_arrow

package duckdb_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	amduckdb "github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Apache parquet-testing's files (github.com/apache/parquet-testing,
// data/) are the files other Parquet readers are tested on. They are not
// in this repository: TestParquetTestingFiles reads them from the checkout
// ARROWMAP_PARQUET_TESTING names, or ../shared/testdata/parquet-testing
// from the repository's root, and skips without one. Each file is read by
// DuckDB (read_parquet), by arrowmap's readers (parquet.OpenRecords, and
// its records decoded by mapper.DecodeTo into mapper.GoTypeOf's type: what
// ReadFile does for a type known at run time) and by the built `arrowmap
// head`, and their values compared, row by row, in the canonical form of
// parquet_files_test.go's tokens. The table the test makes is
// docs/parquet-testing.md's (ARROWMAP_PARQUET_TESTING_DOC=path writes it
// there; without it, the test fails when the doc's table differs).

// parquetTestingExpected is what is known of a file that is not read by
// everyone with equal values: who refuses it and why, or which values
// differ and why. The test fails on a file that does otherwise, and on an
// entry no file shows.
var parquetTestingExpected = map[string]struct {
	duckdb  string // a part of DuckDB's error, when it refuses the file
	refused error  // what arrowmap's error wraps, when it refuses the file
	differs string // the values arrowmap reads otherwise than DuckDB, and why
	twin    string // a file of the same values, for one DuckDB refuses
	note    string
	// zone, when not empty, is why timestamps of the same instants carry
	// other time zones than DuckDB's.
	zone string
}{
	"byte_stream_split_extended.gzip.parquet": {duckdb: "BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data",
		note: "each column encoded PLAIN is read equal to its twin encoded BYTE_STREAM_SPLIT"},
	"hadoop_lz4_compressed.parquet": {duckdb: `Unsupported compression codec "LZ4"`, twin: "lz4_raw_compressed.parquet",
		note: "the deprecated LZ4 codec, Hadoop's framing: decompressed by arrowmap, equal to the LZ4_RAW twin"},
	"hadoop_lz4_compressed_larger.parquet": {duckdb: `Unsupported compression codec "LZ4"`, twin: "lz4_raw_compressed_larger.parquet",
		note: "the deprecated LZ4 codec, Hadoop's framing in several blocks a page: equal to the LZ4_RAW twin"},
	"non_hadoop_lz4_compressed.parquet": {duckdb: `Unsupported compression codec "LZ4"`, twin: "lz4_raw_compressed.parquet",
		note: "the deprecated LZ4 codec as a raw block (parquet-cpp 1.5): equal to the LZ4_RAW twin"},
	"map_no_value.parquet": {duckdb: "MAP_KEY_VALUE requires two children",
		note: "a MAP of keys and no values, read by arrowmap as a list of keys (pqarrow's reading)"},
	"datapage_v1-corrupt-checksum.parquet": {refused: parquet.ErrChecksum,
		note: "a data page whose CRC does not match its bytes: DuckDB does not check CRCs and reads the damaged values; ReadConfig.SkipPageChecksums reads them as DuckDB does"},
	"rle-dict-uncompressed-corrupt-checksum.parquet": {refused: parquet.ErrChecksum,
		note: "a dictionary page whose CRC does not match its bytes: as datapage_v1-corrupt-checksum.parquet"},
	"large_string_map.brotli.parquet": {refused: parquet.ErrPageTooLarge,
		note: "a page of 1 GiB uncompressed in a file of 4 KiB; raised (and in records of one row: two keys of 1 GiB overflow a utf8 array's int32 offsets), " +
			"arrowmap reads its rows, in 4.2 GB resident, not compared with DuckDB's"},
	"nested_structs.rust.parquet": {zone: "its timestamps are of the converted type TIMESTAMP_MICROS, which the Parquet spec says are adjusted to UTC " +
		"(arrowmap, as pqarrow: timestamp[us, UTC]); DuckDB reads them as naive TIMESTAMP"},
	"alltypes_dictionary.parquet":       {zone: int96Zone},
	"alltypes_plain.parquet":            {zone: int96Zone},
	"alltypes_plain.snappy.parquet":     {zone: int96Zone},
	"alltypes_tiny_pages.parquet":       {zone: int96Zone},
	"alltypes_tiny_pages_plain.parquet": {zone: int96Zone},
	"old_list_structure.parquet":        {note: "a list of lists of parquet-mr's two-level structure, which pqarrow reads as a list of structs of one list: arrowmap reads the list of lists"},
	"int96_from_spark.parquet": {zone: int96Zone, differs: "row 5: Spark wrote year 290,000 (its Julian microseconds wrap around past 2^63), which arrowmap reads back as Spark does; " +
		"DuckDB reads the Julian day as unsigned and wraps again: 226,414 BC",
		note: "INT96 read in microseconds (ReadConfig.Int96Unit), where arrow-go refuses dates past 2262"},
}

// int96Zone is why INT96 timestamps carry another zone than DuckDB's.
const int96Zone = "INT96 timestamps are in UTC, as pqarrow reads them (and arrowmap did before); DuckDB reads them as naive TIMESTAMP"

func TestParquetTestingFiles(t *testing.T) {
	root := parquetTestingRoot(t)
	paths, err := filepath.Glob(filepath.Join(root, "data", "*.parquet"))
	require.NoError(t, err)
	geo, err := filepath.Glob(filepath.Join(root, "data", "geospatial", "*.parquet"))
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no .parquet file in %s/data", root)
	bin := buildArrowmap(t)

	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()

	var table []testingRow
	seen := map[string]bool{}
	for _, path := range append(paths, geo...) {
		name, _ := filepath.Rel(filepath.Join(root, "data"), path)
		t.Run(name, func(t *testing.T) {
			row := readEveryWay(t, ctx, db, bin, root, name)
			seen[name] = true
			table = append(table, row)
		})
	}
	t.Run("every expectation is met by a file", func(t *testing.T) {
		for name := range parquetTestingExpected {
			assert.True(t, seen[name], "no file %s", name)
		}
	})
	t.Logf("%d files of data/ and %d of data/geospatial/", len(paths), len(geo))
	checkDoc(t, table)
}

// testingRow is a file's line of docs/parquet-testing.md.
type testingRow struct{ file, duckdb, readFile, head, note string }

// readEveryWay reads the file name of root/data every way and compares
// the values, as parquetTestingExpected says of it.
func readEveryWay(t *testing.T, ctx context.Context, db *sql.DB, bin, root, name string) testingRow {
	path := filepath.Join(root, "data", name)
	want := parquetTestingExpected[name]
	row := testingRow{file: name, note: want.note}

	if want.refused == parquet.ErrPageTooLarge {
		// Its values, of 1 GiB, are not read twice: DuckDB counts them (its
		// Arrow export of them needs arrow_large_buffer_size).
		var n int64
		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM read_parquet(?)", path).Scan(&n))
		row.duckdb = fmt.Sprintf("reads %d rows", n)
		rr, oursErr := parquet.OpenRecords(path)
		if oursErr == nil {
			for rr.Next() {
			}
			oursErr = rr.Err()
			rr.Release()
		}
		require.ErrorIs(t, oursErr, parquet.ErrPageTooLarge)
		assert.ErrorContains(t, oursErr, "ReadConfig.MaxPageSize")
		_, headErr := headRows(bin, path)
		require.Error(t, headErr)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(headErr.Error()), "\n")+1, "one line: %v", headErr)
		assert.ErrorContains(t, headErr, "-max-page-size")
		row.readFile, row.head = "refuses: ErrPageTooLarge, naming ReadConfig.MaxPageSize", "refuses, in one line naming -max-page-size"
		if os.Getenv("ARROWMAP_PARQUET_TESTING_LARGE") != "" {
			// Raised, in records of one row: its two keys of 1 GiB each
			// overflow one utf8 array's int32 offsets.
			ours, _, err := readByArrowmap(path, parquet.ReadConfig{MaxPageSize: 2 << 30, BatchRows: 1})
			require.NoError(t, err)
			assert.EqualValues(t, n, len(ours))
		}
		return row
	}
	duck, duckErr := duckdbRows(ctx, db, path)
	if want.duckdb != "" {
		require.Error(t, duckErr, "DuckDB reads the file")
		assert.ErrorContains(t, duckErr, want.duckdb)
		row.duckdb = "refuses: " + want.duckdb
	} else {
		require.NoError(t, duckErr, "DuckDB refuses the file")
		row.duckdb = fmt.Sprintf("reads %d rows", len(duck))
	}

	schema, err := parquet.ReadSchema(readerAt(t, path))
	if want.refused == nil {
		require.NoError(t, err)
	}
	ours, goRows, oursErr := readByArrowmap(path, parquet.ReadConfig{})
	lines, headErr := headRows(bin, path)
	if want.refused != nil {
		require.ErrorIs(t, oursErr, want.refused)
		require.Error(t, headErr)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(headErr.Error()), "\n")+1, "one line: %v", headErr)
		row.readFile = "refuses: " + sentinelName(want.refused)
		row.head = "refuses, in one line"
		switch want.refused {
		case parquet.ErrChecksum:
			// Unchecked, the damaged values read as DuckDB reads them.
			ours, goRows, oursErr = readByArrowmap(path, parquet.ReadConfig{SkipPageChecksums: true})
			require.NoError(t, oursErr)
			sameRows(t, "ReadConfig.SkipPageChecksums", duck, ours, "")
			sameRows(t, "ReadConfig.SkipPageChecksums, decoded", duck, goRows, "")
			row.readFile += fmt.Sprintf("; with SkipPageChecksums equal to DuckDB (%d rows)", len(ours))
		}
		return row
	}
	require.NoError(t, oursErr)
	require.NoError(t, headErr)
	heads, err := jsonRows(lines, schema)
	require.NoError(t, err, "head's JSON")
	assert.Len(t, heads, len(ours), "head's rows")

	switch {
	case want.twin != "":
		twin, twinGo, err := readByArrowmap(filepath.Join(root, "data", want.twin), parquet.ReadConfig{})
		require.NoError(t, err)
		sameRows(t, "the twin "+want.twin, twin, ours, "")
		sameRows(t, "the twin "+want.twin+", decoded", twinGo, goRows, "")
		sameRows(t, "the twin "+want.twin+", head", twin, heads, "")
		row.readFile = fmt.Sprintf("reads %d rows, equal to %s's", len(ours), want.twin)
		row.head = row.readFile
	case name == "byte_stream_split_extended.gzip.parquet":
		pairs := 0
		for c := 0; c+1 < schema.NumFields(); c += 2 {
			require.True(t, strings.HasSuffix(schema.Field(c).Name, "_plain") && strings.HasSuffix(schema.Field(c+1).Name, "_byte_stream_split"))
			pairs++
			for r := range ours {
				assert.True(t, sameValues(ours[r][c], ours[r][c+1]), "row %d, %s", r, schema.Field(c+1).Name)
				assert.True(t, sameValues(goRows[r][c], goRows[r][c+1]), "row %d, %s, decoded", r, schema.Field(c+1).Name)
				assert.True(t, sameValues(heads[r][c], heads[r][c+1]), "row %d, %s, head", r, schema.Field(c+1).Name)
			}
		}
		require.Equal(t, 7, pairs)
		row.readFile = fmt.Sprintf("reads %d rows, each column equal to its twin of the other encoding", len(ours))
		row.head = row.readFile
	case want.duckdb != "":
		row.readFile = fmt.Sprintf("reads %d rows", len(ours))
		row.head = row.readFile
	default:
		if want.zone != "" {
			// The same instants in other zones: so the zones differ, and
			// nothing else does but what differs says.
			if want.differs == "" {
				sameRows(t, "OpenRecords", duck, ours, want.zone)
			}
			duck, ours, goRows, heads = withoutZones(duck), withoutZones(ours), withoutZones(goRows), withoutZones(heads)
		}
		sameRows(t, "OpenRecords", duck, ours, want.differs)
		sameRows(t, "DecodeTo(GoTypeOf)", duck, goRows, want.differs)
		sameRows(t, "head", duck, heads, want.differs)
		row.readFile = fmt.Sprintf("equal to DuckDB (%d rows)", len(ours))
		if want.differs != "" {
			row.readFile = fmt.Sprintf("%d rows; differs from DuckDB: %s", len(ours), want.differs)
		}
		if want.zone != "" {
			row.readFile += "; timestamps in another zone: " + want.zone
		}
		row.head = "as ReadFile"
	}
	return row
}

// sameRows asserts that got, rows read by what, holds the values of want,
// DuckDB's; differs, when not empty, is a difference known of the file,
// which must show.
func sameRows(t *testing.T, what string, want, got [][][]token, differs string) {
	t.Helper()
	if !assert.Len(t, got, len(want), "%s: rows", what) {
		return
	}
	diffs := 0
	for r := range want {
		if !assert.Len(t, got[r], len(want[r]), "%s: row %d: columns", what, r) {
			return
		}
		for c := range want[r] {
			if !sameValues(want[r][c], got[r][c]) {
				diffs++
				if differs == "" {
					t.Errorf("%s: row %d, column %d: %v, DuckDB %v", what, r, c, got[r][c], want[r][c])
				} else {
					t.Logf("%s: row %d, column %d: %v, DuckDB %v (known: %s)", what, r, c, got[r][c], want[r][c], differs)
				}
			}
		}
	}
	if differs != "" {
		assert.Positive(t, diffs, "%s: the known difference shows no more: %s", what, differs)
	}
}

// withoutZones is rows with no time zone: what differs in its zone only
// is equal.
func withoutZones(rows [][][]token) [][][]token {
	for _, row := range rows {
		for _, col := range row {
			for i := range col {
				col[i].zone = ""
			}
		}
	}
	return rows
}

// sameValues reports whether a and b, tokens of one column's value, hold
// the same value: the same structure, leaves and zones, whatever the types
// (the class) each reader gives them.
func sameValues(a, b []token) bool {
	return slices.EqualFunc(a, b, func(x, y token) bool { return x.value == y.value && x.zone == y.zone })
}

func sentinelName(err error) string {
	switch err {
	case parquet.ErrChecksum:
		return "ErrChecksum"
	case parquet.ErrPageTooLarge:
		return "ErrPageTooLarge"
	}
	return err.Error()
}

// parquetTestingRoot is the parquet-testing checkout the test reads.
func parquetTestingRoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("ARROWMAP_PARQUET_TESTING")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "testdata", "parquet-testing")
	}
	if _, err := os.Stat(filepath.Join(root, "data")); err != nil {
		t.Skipf("no parquet-testing checkout at %s (set ARROWMAP_PARQUET_TESTING to one): its files are not in this repository", root)
	}
	return root
}

// buildArrowmap builds the command and returns its path.
func buildArrowmap(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "arrowmap")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/arrowmap")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/arrowmap: %s", out)
	return bin
}

func readerAt(t *testing.T, path string) (io.ReaderAt, int64) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return bytes.NewReader(data), int64(len(data))
}

// duckdbRows is the file at path as DuckDB reads it: each row's columns,
// each column's tokens.
func duckdbRows(ctx context.Context, db *sql.DB, path string) ([][][]token, error) {
	// DuckDB's own export (Lossy): a BOOLEAN is a bool, not the arrow.bool8
	// extension of int8.
	// QueryRecords takes no parameters: the path is a literal.
	query := "SELECT * FROM read_parquet('" + strings.ReplaceAll(path, "'", "''") + "')"
	rr, err := amduckdb.QueryRecords(ctx, db, query, amduckdb.QueryConfig{Lossy: true})
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var rows [][][]token
	for rr.Next() {
		rows = appendRecordRows(rows, rr.RecordBatch())
	}
	return rows, rr.Err()
}

func appendRecordRows(rows [][][]token, rec arrow.RecordBatch) [][][]token {
	for i := range int(rec.NumRows()) {
		row := make([][]token, rec.NumCols())
		for c, col := range rec.Columns() {
			row[c] = tokens(nil, col, i)
		}
		rows = append(rows, row)
	}
	return rows
}

// readByArrowmap is the file at path as parquet.OpenRecords reads it, and
// as mapper.DecodeTo decodes its records into mapper.GoTypeOf's type.
func readByArrowmap(path string, cfg parquet.ReadConfig) (records, decoded [][][]token, err error) {
	rr, err := parquet.OpenRecords(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer rr.Release()
	schema := rr.Schema()
	typ, err := mapper.GoTypeOf(schema)
	if err != nil {
		return nil, nil, err
	}
	for rr.Next() {
		rec := rr.RecordBatch()
		records = appendRecordRows(records, rec)
		rows, err := mapper.DecodeTo(typ, rec)
		if err != nil {
			return nil, nil, err
		}
		for i := range rows.Len() {
			row := make([][]token, schema.NumFields())
			for c, f := range schema.Fields() {
				row[c] = goTokens(nil, rows.Index(i).Field(c), f.Type)
			}
			decoded = append(decoded, row)
		}
	}
	return records, decoded, rr.Err()
}

// headRows is what `arrowmap head` prints of every row of the file at
// path, a line a row; its error is its standard error.
func headRows(bin, path string) ([]string, error) {
	cmd := exec.Command(bin, "head", "-n", "1000000000", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimSpace(stderr.String()))
	}
	text := strings.TrimSuffix(stdout.String(), "\n")
	if text == "" {
		return nil, nil
	}
	return strings.Split(text, "\n"), nil
}

// goTokens appends the tokens of v, a value of the Go type GoTypeOf gives
// a column of type dt, as tokens gives those of the column's values.
func goTokens(dst []token, v reflect.Value, dt arrow.DataType) []token {
	class := typeClass(dt)
	leaf := func(s string) []token { return append(dst, token{class: class, value: s}) }
	switch d := dt.(type) {
	case *arrow.DictionaryType:
		return goTokens(dst, v, d.ValueType)
	case arrow.ExtensionType:
		return goTokens(dst, v, d.StorageType())
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if v.IsNil() { // a null, as GoTypeOf's types hold one
			return leaf("null")
		}
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
	}
	switch d := dt.(type) {
	case *arrow.NullType:
		return leaf("null")
	case *arrow.BooleanType:
		return leaf(strconv.FormatBool(v.Bool()))
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type:
		return leaf("int " + strconv.FormatInt(v.Int(), 10))
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return leaf("int " + strconv.FormatUint(v.Uint(), 10))
	case *arrow.Float16Type:
		return leaf(float(float64(v.Interface().(float16.Num).Float32())))
	case *arrow.Float32Type, *arrow.Float64Type:
		return leaf(float(v.Float()))
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return leaf(text([]byte(v.String())))
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return leaf(text(v.Bytes()))
	case *arrow.FixedSizeBinaryType:
		b := make([]byte, v.Len())
		reflect.Copy(reflect.ValueOf(b), v)
		return leaf(text(b))
	case *arrow.TimestampType:
		t := v.Interface().(time.Time)
		return append(dst, token{class: class, value: "instant " + unixNanos(t).String(), zone: zoneOf(d.TimeZone)})
	case *arrow.Date32Type, *arrow.Date64Type:
		t := v.Interface().(time.Time)
		days := new(big.Int).Div(unixNanos(t), big.NewInt(86_400e9)) // Euclidean: floor for a positive divisor
		return leaf("date " + days.String())
	case *arrow.Time32Type, *arrow.Time64Type:
		return leaf("time " + strconv.FormatInt(v.Int(), 10)) // a time.Duration
	case *arrow.DurationType:
		if d.Unit == arrow.Nanosecond {
			return leaf("duration " + strconv.FormatInt(v.Int(), 10))
		}
		return leaf("duration " + nanos(v.Int(), d.Unit))
	case arrow.DecimalType:
		var unscaled *big.Int
		switch x := v.Interface().(type) {
		case decimal.Decimal32:
			unscaled = big.NewInt(int64(x))
		case decimal.Decimal64:
			unscaled = big.NewInt(int64(x))
		case decimal128.Num:
			unscaled = x.BigInt()
		case decimal256.Num:
			unscaled = x.BigInt()
		default:
			return leaf(fmt.Sprintf("unsupported %T", x))
		}
		return leaf(decimalText(unscaled, d.GetScale()))
	case *arrow.StructType:
		dst = append(dst, token{value: fmt.Sprintf("{%d", d.NumFields())})
		for i, f := range d.Fields() {
			dst = goTokens(dst, v.Field(i), f.Type)
		}
		return append(dst, token{value: "}"})
	case *arrow.MapType:
		dst = append(dst, token{value: fmt.Sprintf("[%d", v.Len())})
		for i := range v.Len() {
			e := v.Index(i)
			dst = append(dst, token{value: "{2"})
			dst = goTokens(dst, e.Field(0), d.KeyType())
			dst = goTokens(dst, e.Field(1), d.ItemType())
			dst = append(dst, token{value: "}"})
		}
		return append(dst, token{value: "]"})
	case arrow.ListLikeType:
		dst = append(dst, token{value: fmt.Sprintf("[%d", v.Len())})
		for i := range v.Len() {
			dst = goTokens(dst, v.Index(i), d.Elem())
		}
		return append(dst, token{value: "]"})
	}
	return leaf(fmt.Sprintf("unsupported %s", dt))
}

// unixNanos is t in nanoseconds since the Unix epoch, at any year.
func unixNanos(t time.Time) *big.Int {
	ns := new(big.Int).Mul(big.NewInt(t.Unix()), big.NewInt(1e9))
	return ns.Add(ns, big.NewInt(int64(t.Nanosecond())))
}

// jsonRows is the tokens of lines, rows as `arrowmap head` prints the
// records of schema (cmd/arrowmap/json.go's appendJSON).
func jsonRows(lines []string, schema *arrow.Schema) ([][][]token, error) {
	rows := make([][][]token, 0, len(lines))
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		row := make([][]token, schema.NumFields())
		if err := expectDelim(dec, '{'); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		for c, f := range schema.Fields() {
			if _, err := dec.Token(); err != nil { // the name
				return nil, fmt.Errorf("row %d: %w", i, err)
			}
			var err error
			if row[c], err = jsonTokens(nil, dec, f.Type); err != nil {
				return nil, fmt.Errorf("row %d, column %q: %w", i, f.Name, err)
			}
		}
		if err := expectDelim(dec, '}'); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err == nil && tok != d {
		err = fmt.Errorf("%v where %v was expected", tok, d)
	}
	return err
}

// jsonTokens reads the next JSON value of dec, the value of a column of
// type dt as head prints it, and appends its tokens.
func jsonTokens(dst []token, dec *json.Decoder, dt arrow.DataType) ([]token, error) {
	switch d := dt.(type) {
	case *arrow.DictionaryType:
		return jsonTokens(dst, dec, d.ValueType)
	case arrow.ExtensionType:
		return jsonTokens(dst, dec, d.StorageType())
	}
	class := typeClass(dt)
	leaf := func(s string) ([]token, error) { return append(dst, token{class: class, value: s}), nil }
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return leaf("null")
	}
	str, _ := tok.(string)
	num, _ := tok.(json.Number)
	switch d := dt.(type) {
	case *arrow.BooleanType:
		return leaf(strconv.FormatBool(tok.(bool)))
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return leaf("int " + num.String())
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		bits := 64
		if _, ok := dt.(*arrow.Float64Type); !ok {
			bits = 32 // float16 is printed as the float32 it widens to
		}
		s := string(num)
		switch str {
		case "NaN":
			s = "NaN"
		case "+Inf", "-Inf":
			s = str
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return nil, err
		}
		return leaf(float(f))
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return leaf(text([]byte(str)))
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType, *arrow.FixedSizeBinaryType:
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return nil, err
		}
		return leaf(text(b))
	case *arrow.TimestampType:
		ns, err := rfc3339Nanos(str)
		if err != nil {
			return nil, err
		}
		return append(dst, token{class: class, value: "instant " + ns.String(), zone: zoneOf(d.TimeZone)}), nil
	case *arrow.Date32Type, *arrow.Date64Type:
		ns, err := rfc3339Nanos(str)
		if err != nil {
			return nil, err
		}
		return leaf("date " + new(big.Int).Div(ns, big.NewInt(86_400e9)).String())
	case *arrow.Time32Type, *arrow.Time64Type:
		return leaf("time " + num.String())
	case *arrow.DurationType:
		return leaf("duration " + num.String())
	case arrow.DecimalType:
		return leaf(decimalOfText(str))
	case *arrow.StructType:
		if tok != json.Delim('{') {
			return nil, fmt.Errorf("%v for a struct", tok)
		}
		dst = append(dst, token{value: fmt.Sprintf("{%d", d.NumFields())})
		for _, f := range d.Fields() {
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if dst, err = jsonTokens(dst, dec, f.Type); err != nil {
				return nil, err
			}
		}
		return append(dst, token{value: "}"}), expectDelim(dec, '}')
	case *arrow.MapType:
		if tok != json.Delim('{') {
			return nil, fmt.Errorf("%v for a map", tok)
		}
		var entries []token
		n := 0
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			entries = append(entries, token{value: "{2"})
			keyDec := json.NewDecoder(strings.NewReader(keyJSON(key.(string), d.KeyType())))
			keyDec.UseNumber()
			keyTokens, err := jsonTokens(nil, keyDec, d.KeyType())
			if err != nil {
				return nil, err
			}
			entries = append(entries, keyTokens...)
			if entries, err = jsonTokens(entries, dec, d.ItemType()); err != nil {
				return nil, err
			}
			entries = append(entries, token{value: "}"})
			n++
		}
		dst = append(dst, token{value: fmt.Sprintf("[%d", n)})
		dst = append(append(dst, entries...), token{value: "]"})
		return dst, expectDelim(dec, '}')
	case arrow.ListLikeType:
		if tok != json.Delim('[') {
			return nil, fmt.Errorf("%v for a list", tok)
		}
		var elems []token
		n := 0
		for dec.More() {
			if elems, err = jsonTokens(elems, dec, d.Elem()); err != nil {
				return nil, err
			}
			n++
		}
		dst = append(dst, token{value: fmt.Sprintf("[%d", n)})
		dst = append(append(dst, elems...), token{value: "]"})
		return dst, expectDelim(dec, ']')
	}
	return leaf(fmt.Sprintf("unsupported %s", dt))
}

// keyJSON is the JSON of a map key head printed as the object key k: a
// string key as itself, any other the JSON k holds.
func keyJSON(k string, dt arrow.DataType) string {
	switch dt.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType, *arrow.BinaryType, *arrow.LargeBinaryType,
		*arrow.TimestampType, *arrow.Date32Type, *arrow.Date64Type, arrow.DecimalType:
		b, _ := json.Marshal(k)
		return string(b)
	}
	return k
}

// decimalOfText is the token of a decimal printed as its exact text.
func decimalOfText(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	unscaled, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return "decimal text " + s
	}
	if neg {
		unscaled.Neg(unscaled)
	}
	return decimalText(unscaled, int32(len(frac)))
}

// rfc3339Nanos is the instant of s, RFC 3339 text as head prints it (a
// year outside 0–9999 with its sign and every digit:
// "+290000-12-30T23:00:00Z"), in nanoseconds since the Unix epoch.
func rfc3339Nanos(s string) (*big.Int, error) {
	bad := fmt.Errorf("not RFC 3339: %q", s)
	sign, rest := int64(1), s
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		if rest[0] == '-' {
			sign = -1
		}
		rest = rest[1:]
	}
	yearText, rest, ok := strings.Cut(rest, "-")
	year, err := strconv.ParseInt(yearText, 10, 64)
	if !ok || err != nil || len(rest) < len("MM-DDTHH:MM:SSZ") || rest[2] != '-' || rest[5] != 'T' || rest[8] != ':' || rest[11] != ':' {
		return nil, bad
	}
	num := func(text string) int64 {
		n, e := strconv.ParseInt(text, 10, 64)
		if e != nil {
			err = e
		}
		return n
	}
	month, day, hour, minute, second := num(rest[0:2]), num(rest[3:5]), num(rest[6:8]), num(rest[9:11]), num(rest[12:14])
	rest = rest[14:]
	var frac int64
	if strings.HasPrefix(rest, ".") {
		digits := strings.TrimLeft(rest[1:], "0123456789")
		f := rest[1 : len(rest)-len(digits)]
		frac = num((f + "000000000")[:9])
		rest = digits
	}
	var offset int64 // seconds east of UTC
	if rest != "Z" {
		if len(rest) < len("+HH:MM") || (rest[0] != '+' && rest[0] != '-') {
			return nil, bad
		}
		offset = num(rest[1:3])*3600 + num(rest[4:6])*60
		if len(rest) == len("+HH:MM:SS") {
			offset += num(rest[7:9])
		}
		if rest[0] == '-' {
			offset = -offset
		}
	}
	if err != nil {
		return nil, bad
	}
	secs := daysFromCivil(sign*year, int(month), int(day))*86400 + hour*3600 + minute*60 + second - offset
	ns := new(big.Int).Mul(big.NewInt(secs), big.NewInt(1e9))
	return ns.Add(ns, big.NewInt(frac)), nil
}

// daysFromCivil is the days from 1970-01-01 to the date of the proleptic
// Gregorian calendar (Howard Hinnant's days_from_civil).
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (int64(m) + 9) % 12
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// checkDoc writes the table of the files read to
// ARROWMAP_PARQUET_TESTING_DOC, or checks that docs/parquet-testing.md
// holds it.
func checkDoc(t *testing.T, rows []testingRow) {
	var b strings.Builder
	b.WriteString("| file | DuckDB | ReadFile | head | note |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.file, r.duckdb, r.readFile, r.head, r.note)
	}
	const begin, end = "<!-- table: TestParquetTestingFiles -->\n", "<!-- end of table -->\n"
	doc := filepath.Join("..", "docs", "parquet-testing.md")
	if out := os.Getenv("ARROWMAP_PARQUET_TESTING_DOC"); out != "" {
		doc = out
	}
	text, err := os.ReadFile(doc)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		require.NoError(t, err)
	}
	before, after, found := strings.Cut(string(text), begin)
	if found {
		_, after, found = strings.Cut(after, end)
	}
	if os.Getenv("ARROWMAP_PARQUET_TESTING_DOC") != "" {
		if !found {
			before, after = string(text), ""
		}
		require.NoError(t, os.WriteFile(doc, []byte(before+begin+b.String()+end+after), 0o644))
		t.Logf("wrote the table to %s", doc)
		return
	}
	require.True(t, found, "%s has no table (ARROWMAP_PARQUET_TESTING_DOC=%s writes it)", doc, doc)
	got := strings.Split(string(text), begin)[1]
	got = got[:strings.Index(got, end)]
	assert.Equal(t, b.String(), got, "%s's table is not what the files read make (ARROWMAP_PARQUET_TESTING_DOC=%s rewrites it)", doc, doc)
}
