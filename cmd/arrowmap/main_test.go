package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests run the command as users do: a binary built once by TestMain,
// on files written by arrow-go's own IPC and Parquet writers.
var (
	binaryPath string // the arrowmap binary
	testFiles  struct {
		ipcFile, stream, pqt   string
		truncFile, truncStream string
		truncParquet           string
		kinds, union           string
	}
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "arrowmap-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Without the go command there is no binary: the tests that run it skip.
	if _, err := exec.LookPath("go"); err == nil {
		binaryPath = filepath.Join(dir, "arrowmap")
		build := exec.Command("go", "build", "-tags", "arrowmap_testhooks", "-o", binaryPath, ".")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building arrowmap: %v\n%s", err, out)
			return 1
		}
	}
	if err := writeFixtures(dir); err != nil {
		fmt.Fprintf(os.Stderr, "writing the test files: %v\n", err)
		return 1
	}
	return m.Run()
}

// arrowmap runs the binary with args and stdin (nil: none) and returns its
// standard output, standard error and exit status.
func arrowmap(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	cmd := exec.Command(binaryPath, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(t, err, "running arrowmap %s", strings.Join(args, " "))
	return out.String(), errOut.String(), 0
}

// The fixture: nested data of every kind head has to print — a nullable
// string, a zoned timestamp, a nullable list with null elements, a nullable
// struct, a list of structs and a nullable map with null values.
var (
	lineType    = arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32})
	fixtureType = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}},
		{Name: "scores", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}, arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float64}), Nullable: true},
		{Name: "lines", Type: arrow.ListOfNonNullable(lineType)},
		{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
)

type fixtureLine struct {
	sku string
	qty int32
}

type fixtureRow struct {
	id     int64
	name   *string
	at     string   // RFC 3339
	scores []*int32 // nil: a null list
	point  *[2]float64
	lines  []fixtureLine
	attrs  map[string]*int64 // nil: a null map
}

func fixturePtr[T any](v T) *T { return &v }

// fixtureRows are written in two record batches, of 2 and 3 rows; want is
// each row as head prints it.
var fixtureRows = []struct {
	row  fixtureRow
	want string
}{
	{
		fixtureRow{1, fixturePtr("ada"), "2024-03-01T09:00:00.123+09:00", []*int32{fixturePtr[int32](1), nil, fixturePtr[int32](3)}, &[2]float64{1.5, -2},
			[]fixtureLine{{"a", 1}, {"b", 2}}, map[string]*int64{"k": fixturePtr[int64](1)}},
		`{"id":1,"name":"ada","at":"2024-03-01T09:00:00.123+09:00","scores":[1,null,3],"point":{"x":1.5,"y":-2},"lines":[{"sku":"a","qty":1},{"sku":"b","qty":2}],"attrs":{"k":1}}`,
	},
	{
		fixtureRow{2, nil, "2024-03-01T10:00:00+09:00", nil, nil, []fixtureLine{}, nil},
		`{"id":2,"name":null,"at":"2024-03-01T10:00:00+09:00","scores":null,"point":null,"lines":[],"attrs":null}`,
	},
	{
		fixtureRow{3, fixturePtr("Zoë"), "2024-12-31T23:59:59.999+09:00", []*int32{}, &[2]float64{0, 0.25},
			[]fixtureLine{{"c", 3}}, map[string]*int64{}},
		`{"id":3,"name":"Zoë","at":"2024-12-31T23:59:59.999+09:00","scores":[],"point":{"x":0,"y":0.25},"lines":[{"sku":"c","qty":3}],"attrs":{}}`,
	},
	{
		fixtureRow{4, fixturePtr(""), "1970-01-01T09:00:00+09:00", []*int32{fixturePtr[int32](-7)}, &[2]float64{-1, 1000},
			[]fixtureLine{{"d", 4}, {"e", 5}, {"f", 6}}, map[string]*int64{"a": fixturePtr[int64](-1), "b": nil}},
		`{"id":4,"name":"","at":"1970-01-01T09:00:00+09:00","scores":[-7],"point":{"x":-1,"y":1000},"lines":[{"sku":"d","qty":4},{"sku":"e","qty":5},{"sku":"f","qty":6}],"attrs":{"a":-1,"b":null}}`,
	},
	{
		fixtureRow{5, fixturePtr("last"), "2000-02-29T12:34:56.789+09:00", []*int32{nil}, &[2]float64{2, 3},
			[]fixtureLine{}, map[string]*int64{"z": fixturePtr[int64](0)}},
		`{"id":5,"name":"last","at":"2000-02-29T12:34:56.789+09:00","scores":[null],"point":{"x":2,"y":3},"lines":[],"attrs":{"z":0}}`,
	},
}

func fixtureRecord(mem memory.Allocator, from, to int) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(mem, fixtureType)
	defer b.Release()
	id := b.Field(0).(*array.Int64Builder)
	name := b.Field(1).(*array.StringBuilder)
	at := b.Field(2).(*array.TimestampBuilder)
	scores := b.Field(3).(*array.ListBuilder)
	score := scores.ValueBuilder().(*array.Int32Builder)
	point := b.Field(4).(*array.StructBuilder)
	x, y := point.FieldBuilder(0).(*array.Float64Builder), point.FieldBuilder(1).(*array.Float64Builder)
	lines := b.Field(5).(*array.ListBuilder)
	line := lines.ValueBuilder().(*array.StructBuilder)
	sku, qty := line.FieldBuilder(0).(*array.StringBuilder), line.FieldBuilder(1).(*array.Int32Builder)
	attrs := b.Field(6).(*array.MapBuilder)
	key, val := attrs.KeyBuilder().(*array.StringBuilder), attrs.ItemBuilder().(*array.Int64Builder)
	for _, fr := range fixtureRows[from:to] {
		r := fr.row
		id.Append(r.id)
		if r.name == nil {
			name.AppendNull()
		} else {
			name.Append(*r.name)
		}
		when, err := time.Parse(time.RFC3339, r.at)
		if err != nil {
			return nil, err
		}
		at.Append(arrow.Timestamp(when.UnixMilli()))
		if r.scores == nil {
			scores.AppendNull()
		} else {
			scores.Append(true)
			for _, s := range r.scores {
				if s == nil {
					score.AppendNull()
				} else {
					score.Append(*s)
				}
			}
		}
		if r.point == nil {
			point.AppendNull()
		} else {
			point.Append(true)
			x.Append(r.point[0])
			y.Append(r.point[1])
		}
		lines.Append(true)
		for _, l := range r.lines {
			line.Append(true)
			sku.Append(l.sku)
			qty.Append(l.qty)
		}
		if r.attrs == nil {
			attrs.AppendNull()
		} else {
			attrs.Append(true)
			for _, k := range slices.Sorted(maps.Keys(r.attrs)) {
				key.Append(k)
				if v := r.attrs[k]; v == nil {
					val.AppendNull()
				} else {
					val.Append(*v)
				}
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// writeFixtures writes the fixture rows into dir as an IPC file, an IPC
// stream and a Parquet file, with arrow-go's writers, and truncated copies.
func writeFixtures(dir string) error {
	mem := memory.NewGoAllocator()
	first, err := fixtureRecord(mem, 0, 2)
	if err != nil {
		return err
	}
	defer first.Release()
	second, err := fixtureRecord(mem, 2, len(fixtureRows))
	if err != nil {
		return err
	}
	defer second.Release()
	recs := []arrow.RecordBatch{first, second}

	var file, stream, pq bytes.Buffer
	fw, err := ipc.NewFileWriter(&file, ipc.WithSchema(fixtureType), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	sw := ipc.NewWriter(&stream, ipc.WithSchema(fixtureType), ipc.WithAllocator(mem))
	for _, rec := range recs {
		if err := fw.Write(rec); err != nil {
			return err
		}
		if err := sw.Write(rec); err != nil {
			return err
		}
	}
	if err := fw.Close(); err != nil {
		return err
	}
	if err := sw.Close(); err != nil {
		return err
	}
	// The stored Arrow schema keeps the time zone of the timestamp column.
	tbl := array.NewTableFromRecords(fixtureType, recs)
	defer tbl.Release()
	props := parquet.NewWriterProperties(parquet.WithAllocator(mem))
	if err := pqarrow.WriteTable(tbl, &pq, 2, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
		return err
	}

	kinds, err := kindsFile(mem)
	if err != nil {
		return err
	}
	union, err := unionFile(mem)
	if err != nil {
		return err
	}
	files := []struct {
		path *string
		name string
		data []byte
	}{
		{&testFiles.kinds, "kinds.arrow", kinds},
		{&testFiles.union, "union.arrow", union},
		{&testFiles.ipcFile, "rows.arrow", file.Bytes()},
		{&testFiles.stream, "rows.arrows", stream.Bytes()},
		{&testFiles.pqt, "rows.parquet", pq.Bytes()},
		{&testFiles.truncFile, "truncated.arrow", file.Bytes()[:file.Len()*2/3]},
		{&testFiles.truncStream, "truncated.arrows", stream.Bytes()[:stream.Len()*2/3]},
		{&testFiles.truncParquet, "truncated.parquet", pq.Bytes()[:pq.Len()*2/3]},
	}
	for _, f := range files {
		*f.path = filepath.Join(dir, f.name)
		if err := os.WriteFile(*f.path, f.data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// The kinds fixture: a column of each kind whose Go type head retypes or
// gen has to spell (decimals, float16, fixed-size binary, the UUID
// extension, a dictionary, run-end encoding, a list of uint8, a list of
// lists, a fixed-size list of uint8, the null type) and a column named "-".
var kindsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "half", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	{Name: "code", Type: &arrow.FixedSizeBinaryType{ByteWidth: 2}},
	{Name: "uid", Type: extensions.NewUUIDType(), Nullable: true},
	{Name: "bytes", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Uint8)},
	{Name: "runs", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.String)},
	{Name: "big", Type: arrow.BinaryTypes.LargeString},
	{Name: "-", Type: arrow.PrimitiveTypes.Int32},
	{Name: "deep", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), Nullable: true},
	{Name: "fixed", Type: arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Uint8)},
	{Name: "nothing", Type: arrow.Null, Nullable: true},
}, nil)

// kindsRows are the rows of the kinds fixture, as arrow-go reads them from
// JSON and as head prints them.
var kindsRows = []struct{ data, want string }{
	{
		`{"id": 1, "region": "north", "price": "12.50", "half": 1.5, "code": "YWI=", "uid": "00000000-0000-0000-0000-000000000001", "bytes": [1, 2], "runs": "a", "big": "x", "-": 7, "deep": [[1, 2], []], "fixed": [1, 2], "nothing": null}`,
		`{"id":1,"region":"north","price":"12.50","half":1.5,"code":"YWI=","uid":"AAAAAAAAAAAAAAAAAAAAAQ==","bytes":[1,2],"runs":"a","big":"x","-":7,"deep":[[1,2],[]],"fixed":[1,2],"nothing":null}`,
	},
	{
		`{"id": 2, "region": "south", "price": null, "half": null, "code": "Y2Q=", "uid": null, "bytes": [], "runs": "a", "big": "", "-": -1, "deep": null, "fixed": [0, 255], "nothing": null}`,
		`{"id":2,"region":"south","price":null,"half":null,"code":"Y2Q=","uid":null,"bytes":[],"runs":"a","big":"","-":-1,"deep":null,"fixed":[0,255],"nothing":null}`,
	},
}

// kindsFile is the kinds fixture as an IPC file.
func kindsFile(mem memory.Allocator) ([]byte, error) {
	var rows []string
	for _, r := range kindsRows {
		rows = append(rows, r.data)
	}
	rec, _, err := array.RecordFromJSON(mem, kindsSchema, strings.NewReader("["+strings.Join(rows, ",")+"]"))
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return ipcFileOf(mem, rec)
}

// unionFile is an IPC file with a column of a dense union, which Parquet
// has no type for.
func unionFile(mem memory.Allocator) ([]byte, error) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "either", Type: arrow.DenseUnionOf([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32}}, []arrow.UnionTypeCode{0}), Nullable: true},
	}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"id": 1, "either": [0, 5]}]`))
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return ipcFileOf(mem, rec)
}

func ipcFileOf(mem memory.Allocator, rec arrow.RecordBatch) ([]byte, error) {
	var file bytes.Buffer
	fw, err := ipc.NewFileWriter(&file, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	if err := fw.Write(rec); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	return file.Bytes(), nil
}

// source is a way to hand the command a file: its name as FILE, or "-"
// with the file on standard input.
type fixtureSource struct {
	name    string
	file    func() string
	stdin   bool
	parquet bool // pqarrow names list elements "element", not "item"
}

func (s fixtureSource) args(cmd string, flags ...string) ([]string, []byte) {
	args := append([]string{cmd}, flags...)
	if !s.stdin {
		return append(args, s.file()), nil
	}
	data, err := os.ReadFile(s.file())
	if err != nil {
		panic(err)
	}
	return append(args, "-"), data
}

var fixtureSources = []fixtureSource{
	{name: "an IPC file", file: func() string { return testFiles.ipcFile }},
	{name: "an IPC stream", file: func() string { return testFiles.stream }},
	{name: "a Parquet file", file: func() string { return testFiles.pqt }, parquet: true},
	{name: "an IPC stream on standard input", file: func() string { return testFiles.stream }, stdin: true},
	{name: "an IPC file on standard input", file: func() string { return testFiles.ipcFile }, stdin: true},
	{name: "a Parquet file on standard input", file: func() string { return testFiles.pqt }, stdin: true, parquet: true},
}

// requireJSONLines checks that out is exactly the want rows, one JSON line
// each, comparing parsed values.
func requireJSONLines(t *testing.T, want []string, out string) {
	t.Helper()
	if len(want) == 0 {
		require.Empty(t, out)
		return
	}
	require.True(t, strings.HasSuffix(out, "\n"), "output ends with a newline: %q", out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, len(want), "output:\n%s", out)
	for i := range want {
		var v any
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &v), "line %d is JSON: %s", i+1, lines[i])
		assert.JSONEq(t, want[i], lines[i], "line %d", i+1)
	}
}

func wantRows(n int) []string {
	var want []string
	for _, r := range fixtureRows[:min(n, len(fixtureRows))] {
		want = append(want, r.want)
	}
	return want
}

func TestHeadPrintsTheFirstRowsAsJSONLines(t *testing.T) {
	for _, src := range fixtureSources {
		for _, n := range []int{0, 1, 2, 3, 5, 100} {
			t.Run(fmt.Sprintf("%s with -n %d", src.name, n), func(t *testing.T) {
				args, stdin := src.args("head", "-n", fmt.Sprint(n))
				stdout, stderr, status := arrowmap(t, stdin, args...)
				require.Equal(t, 0, status, "stderr: %s", stderr)
				require.Empty(t, stderr)
				requireJSONLines(t, wantRows(n), stdout)
			})
		}
		t.Run(src.name+" without -n prints up to 10 rows", func(t *testing.T) {
			args, stdin := src.args("head")
			stdout, stderr, status := arrowmap(t, stdin, args...)
			require.Equal(t, 0, status, "stderr: %s", stderr)
			requireJSONLines(t, wantRows(10), stdout)
		})
	}
}

// A Parquet page larger than -max-page-size uncompressed (the library's
// ReadConfig.MaxPageSize) is refused in one line naming the flag; raised,
// it is read.
func TestHeadRefusesAPageLargerThanMaxPageSizeNamingTheFlag(t *testing.T) {
	type row struct {
		Name string `arrow:"name"`
	}
	path := filepath.Join(t.TempDir(), "large.parquet")
	value := strings.Repeat("a", 40_000)
	require.NoError(t, amparquet.WriteFile(path, []row{{value}}, amparquet.WriteConfig{Compression: amparquet.Zstd}))

	stdout, stderr, status := arrowmap(t, nil, "head", "-max-page-size", "10000", path)
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	assert.Contains(t, stderr, "past the limit of 10000")
	assert.Contains(t, stderr, "head's -max-page-size sets it")

	stdout, stderr, status = arrowmap(t, nil, "head", "-max-page-size", "100000", path)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Equal(t, `{"name":"`+value+"\"}\n", stdout)

	_, stderr, status = arrowmap(t, nil, "head", "-max-page-size", "-1", path)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "-max-page-size -1 is negative")
}

// Parquet INT96 timestamps are read in microseconds (what Spark writes,
// and DuckDB reads), unless -int96-unit says otherwise: Impala's digits
// below them are refused in one line naming the flag, never dropped.
func TestHeadReadsINT96TimestampsInTheUnitOfInt96Unit(t *testing.T) {
	ns := &arrow.TimestampType{Unit: arrow.Nanosecond}
	sc := arrow.NewSchema([]arrow.Field{{Name: "at", Type: ns}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	at := time.Date(2020, 2, 29, 23, 59, 59, 999_999_001, time.UTC)
	b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(at.UnixNano()))
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true)))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	path := filepath.Join(t.TempDir(), "int96.parquet")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))

	stdout, stderr, status := arrowmap(t, nil, "head", path)
	assert.Equal(t, 1, status)
	assert.Empty(t, stdout)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	assert.Contains(t, stderr, "has digits below the unit of timestamp[us, tz=UTC]")
	assert.Contains(t, stderr, "head's -int96-unit sets it")

	stdout, stderr, status = arrowmap(t, nil, "head", "-int96-unit", "ns", path)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Equal(t, `{"at":"2020-02-29T23:59:59.999999001Z"}`+"\n", stdout)

	_, stderr, status = arrowmap(t, nil, "head", "-int96-unit", "days", path)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, `-int96-unit "days" is none of s, ms, us, ns`)
}

func TestHeadKeepsTheColumnOrderOfTheSchema(t *testing.T) {
	stdout, _, status := arrowmap(t, nil, "head", "-n", "1", testFiles.ipcFile)
	require.Equal(t, 0, status)
	assert.Equal(t, fixtureRows[0].want+"\n", stdout)
}

// head prints each column as the JSON of the Go type GoTypeOf gives it,
// but decimals as their exact text, float16 as a number and fixed-size
// binary as base64; a column named "-" is printed under that name.
func TestHeadPrintsEveryKindOfColumn(t *testing.T) {
	stdout, stderr, status := arrowmap(t, nil, "head", testFiles.kinds)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	var want []string
	for _, r := range kindsRows {
		want = append(want, r.want)
	}
	requireJSONLines(t, want, stdout)
}

var fixtureFieldLines = []string{
	"    - id: type=int64",
	"    - name: type=utf8, nullable",
	"    - at: type=timestamp[ms, tz=Asia/Tokyo]",
	"    - scores: type=list<item: int32, nullable>, nullable",
	"    - point: type=struct<x: float64, y: float64>, nullable",
	"    - lines: type=list<item: struct<sku: utf8, qty: int32>>",
	"    - attrs: type=map<utf8, int64, items_nullable>, nullable",
}

func TestSchemaPrintsEveryField(t *testing.T) {
	for _, src := range fixtureSources {
		t.Run(src.name, func(t *testing.T) {
			args, stdin := src.args("schema")
			stdout, stderr, status := arrowmap(t, stdin, args...)
			require.Equal(t, 0, status, "stderr: %s", stderr)
			require.Empty(t, stderr)
			assert.True(t, strings.HasPrefix(stdout, "schema:\n  fields: 7\n"), "output:\n%s", stdout)
			for _, line := range fixtureFieldLines {
				if src.parquet {
					line = strings.ReplaceAll(line, "list<item: ", "list<element: ")
				}
				assert.Contains(t, stdout, line+"\n")
			}
		})
	}
}

func TestWithoutFileTheEmbeddedSampleIsUsed(t *testing.T) {
	t.Run("head prints 10 rows, the first with id 1", func(t *testing.T) {
		stdout, stderr, status := arrowmap(t, nil, "head")
		require.Equal(t, 0, status, "stderr: %s", stderr)
		require.Empty(t, stderr)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		require.Len(t, lines, 10)
		for i, line := range lines {
			var row struct {
				ID       int64     `json:"id"`
				Region   string    `json:"region"`
				PlacedAt time.Time `json:"placed_at"`
				Total    string    `json:"total"`
				Items    []struct {
					SKU string `json:"sku"`
				} `json:"items"`
			}
			require.NoError(t, json.Unmarshal([]byte(line), &row), "line %d", i+1)
			assert.Equal(t, int64(i+1), row.ID)
			assert.Contains(t, []string{"north", "south", "east", "west"}, row.Region)
			_, offset := row.PlacedAt.Zone()
			assert.Contains(t, []int{3600, 7200}, offset, "placed_at is in Europe/Paris: %s", row.PlacedAt)
			assert.NotEmpty(t, row.Total)
			assert.NotEmpty(t, row.Items)
		}
		assert.True(t, strings.HasPrefix(lines[0], `{"id":1,`), "first line: %s", lines[0])
	})
	t.Run("head -n 0 prints nothing", func(t *testing.T) {
		stdout, stderr, status := arrowmap(t, nil, "head", "-n", "0")
		require.Equal(t, 0, status, "stderr: %s", stderr)
		require.Empty(t, stdout)
		require.Empty(t, stderr)
	})
	t.Run("head -n 2500 crosses the sample's batches of 1000", func(t *testing.T) {
		stdout, _, status := arrowmap(t, nil, "head", "-n", "2500")
		require.Equal(t, 0, status)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		require.Len(t, lines, 2500)
		assert.True(t, strings.HasPrefix(lines[2499], `{"id":2500,`), "last line: %s", lines[2499])
	})
	t.Run("head -n 5000 prints every one of its rows", func(t *testing.T) {
		stdout, _, status := arrowmap(t, nil, "head", "-n", "5000")
		require.Equal(t, 0, status)
		assert.Equal(t, 3000, strings.Count(stdout, "\n"))
	})
	t.Run("schema prints its fields", func(t *testing.T) {
		stdout, _, status := arrowmap(t, nil, "schema")
		require.Equal(t, 0, status)
		for _, line := range []string{
			"    - id: type=int64\n",
			"    - region: type=dictionary<values=utf8, indices=int8, ordered=false>\n",
			"    - placed_at: type=timestamp[ms, tz=Europe/Paris]\n",
			"    - total: type=decimal(12, 2)\n",
			"    - items: type=list<item: struct<sku: utf8, qty: int32, price: float64>>\n",
			"    - shipping: type=struct<city: utf8, zip: utf8 nullable>, nullable\n",
		} {
			assert.Contains(t, stdout, line)
		}
	})
}

// claimingTerabytes writes, in dir, an IPC file (or a stream) of ZSTD
// bodies whose every compressed buffer claims a terabyte uncompressed,
// and returns its path.
func claimingTerabytes(t *testing.T, dir string, file bool) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range 100 {
		b.Append(int64(i))
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 100)
	defer rec.Release()
	var buf bytes.Buffer
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	var err error
	if file {
		w, err = ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithZstd())
		require.NoError(t, err)
	} else {
		w = ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithZstd())
	}
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	data := arrowtest.ClaimUncompressed(buf.Bytes(), 1<<40)
	require.NotNil(t, data)
	path := filepath.Join(dir, fmt.Sprintf("terabyte-%t.arrow", file))
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

func TestFailuresAreOneLineAndStatusOne(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o600))
		return path
	}
	const seed = 20240301
	t.Logf("random bytes seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return b
	}
	randomFile := write("random.bin", random(4096))
	arrowMagic := write("random.arrow", append([]byte("ARROW1\x00\x00"), append(random(1024), "ARROW1"...)...))
	parquetMagic := write("random.parquet", append([]byte("PAR1"), append(random(1024), "PAR1"...)...))
	empty := write("empty.arrow", nil)
	streamBytes, err := os.ReadFile(testFiles.stream)
	require.NoError(t, err)

	for _, tc := range []struct {
		name     string
		args     []string
		stdin    []byte
		contains string
	}{
		{"a truncated IPC file", []string{"head", testFiles.truncFile}, nil, "truncated.arrow"},
		{"a truncated IPC stream", []string{"head", "-n", "100", testFiles.truncStream}, nil, "truncated.arrows"},
		{"a truncated Parquet file", []string{"head", testFiles.truncParquet}, nil, "truncated.parquet"},
		{"a truncated IPC stream on standard input", []string{"head", "-"}, streamBytes[:len(streamBytes)/2], "standard input"},
		{"a directory", []string{"head", dir}, nil, "directory"},
		{"a file that does not exist", []string{"schema", filepath.Join(dir, "nope.arrow")}, nil, "nope.arrow"},
		{"a file of random bytes", []string{"head", randomFile}, nil, "random.bin"},
		{"a file of random bytes, to schema", []string{"schema", randomFile}, nil, "random.bin"},
		{"random bytes behind the IPC file magic", []string{"head", arrowMagic}, nil, "random.arrow"},
		{"random bytes between Parquet magics", []string{"head", parquetMagic}, nil, "random.parquet"},
		{"an empty file", []string{"head", empty}, nil, "empty"},
		{"an empty standard input", []string{"schema", "-"}, []byte{}, "empty"},
		{"junk behind the IPC file magic on standard input, to schema", []string{"schema", "-"}, []byte("ARROW1\x00\x00" + "junk"), "standard input"},
		{"a file whose records are broken, to head", []string{"head", brokenBodies(t)}, nil, "broken.arrow"},
		{"a file whose records are broken, to convert", []string{"convert", brokenBodies(t), filepath.Join(dir, "out.arrows")}, nil, "broken.arrow"},
		{"a compressed file whose buffers claim a terabyte", []string{"head", claimingTerabytes(t, dir, true)}, nil, "1099511627776 bytes uncompressed"},
		{"a compressed stream whose buffers claim a terabyte", []string{"head", claimingTerabytes(t, dir, false)}, nil, "1099511627776 bytes uncompressed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, tc.stdin, tc.args...)
			t.Log(strings.TrimSpace(stderr))
			assert.Equal(t, 1, status, "stderr: %s", stderr)
			// The rows before the damage are good and printed; nothing else is.
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				if line != "" {
					assert.True(t, json.Valid([]byte(line)) && strings.HasPrefix(line, `{"id":`), "stdout line %q", line)
				}
			}
			if !strings.Contains(tc.name, "truncated IPC stream") {
				assert.Empty(t, stdout)
			}
			assert.True(t, strings.HasPrefix(stderr, "arrowmap: "), "stderr: %q", stderr)
			assert.Len(t, anyPrefix.FindAllString(stderr, -1), 1, "one prefix of this module's packages: %q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line on stderr: %q", stderr)
			assert.True(t, strings.HasSuffix(stderr, "\n"), "stderr: %q", stderr)
			assert.Contains(t, stderr, tc.contains)
			for _, bad := range []string{"panic", "goroutine", "internal error"} {
				assert.NotContains(t, strings.ToLower(stderr), bad)
			}
		})
	}
}

// Input that claims more memory than the readers allow for its bytes is an
// error that names the flag that raises the limit: a record of 84 MB of
// zeros, ZSTD-compressed to a few KiB, is past 64 MiB plus 64 bytes a byte
// of its body. -max-expansion reads it, in head and convert alike.
func TestHeadAndConvertNameAndTakeMaxExpansion(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues(make([]int64, 10_500_000), nil)
	col := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	col.Release()
	var file bytes.Buffer
	w, err := ipc.NewFileWriter(&file, ipc.WithSchema(schema), ipc.WithZstd())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	rec.Release()
	require.NoError(t, w.Close())
	require.Less(t, file.Len(), 1<<20)
	path := filepath.Join(t.TempDir(), "zeros.arrow")
	require.NoError(t, os.WriteFile(path, file.Bytes(), 0o600))

	_, stderr, status := arrowmap(t, nil, "head", "-n", "1", path)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "larger than the reader allows")
	assert.Contains(t, stderr, "(head's -max-expansion raises it)")
	stdout, stderr, status := arrowmap(t, nil, "head", "-n", "1", "-max-expansion", "100000", path)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	assert.Equal(t, "{\"v\":0}\n", stdout)

	out := filepath.Join(t.TempDir(), "zeros.arrows")
	_, stderr, status = arrowmap(t, nil, "convert", "-q", path, out)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr, "(convert's -max-expansion raises it)")
	_, stderr, status = arrowmap(t, nil, "convert", "-q", "-max-expansion", "100000", path, out)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	converted, err := os.ReadFile(out)
	require.NoError(t, err)
	r, err := ipc.NewReader(bytes.NewReader(converted))
	require.NoError(t, err)
	defer r.Release()
	rows := 0
	for r.Next() {
		rows += int(r.RecordBatch().NumRows())
	}
	require.NoError(t, r.Err())
	assert.Equal(t, 10_500_000, rows, "arrow-go's reader reads every row converted")

	_, stderr, status = arrowmap(t, nil, "head", "-max-expansion", "-1", path)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "-max-expansion -1 is negative")
}
