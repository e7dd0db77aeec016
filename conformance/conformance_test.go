package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/conformance/internal/golden"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
)

// root holds one folder per version or writer of Arrow's integration files.
const root = "../testdata/arrow-integration"

// knownFailures are the data sets that do not pass yet, in every folder:
// the stages they fail at, exactly, and why. A data set that passes, or
// fails at other stages, fails the test, so this table shrinks as the work
// lands.
var knownFailures = map[string]struct {
	stages []stage
	why    string
}{}

// stage is a step of the harness a data set can fail at.
type stage string

const (
	stageGen     stage = "gen"     // arrowmap gen printed no type
	stageRead    stage = "read"    // arrow-go's reader, or the IPC data against the golden JSON
	stageDecode  stage = "decode"  // mapper.New or mapper.Decode
	stageGolden  stage = "golden"  // a decoded value differs from the golden JSON
	stageWindow  stage = "window"  // Batch.Slice windows of 3 rows decode otherwise than Decode
	stagePages   stage = "pages"   // a Reader in pages of 3 rows decodes otherwise than Decode
	stageEncode  stage = "encode"  // mapper.Encode of the decoded rows
	stageRecord  stage = "record"  // the encoded record is not array.RecordEqual to the original
	stageSchema  stage = "schema"  // SchemaOf or the encoded schema differs from the original
	stageOutside stage = "outside" // a value outside the Arrow spec is not refused both ways
	stageMemory  stage = "memory"  // Arrow memory left allocated
)

// failure is one thing a data set got wrong.
type failure struct {
	stage stage
	msg   string
}

// generatedFile is a data set of a folder and the harness of the type gen
// printed for it (nil when gen failed, with its error).
type generatedFile struct {
	folder, name string
	harness      func(c *fileCase) []failure
	genError     string
}

// fileCase is one IPC file or stream of a data set.
type fileCase struct {
	path   string
	stream bool
	golden *golden.File
	mem    *memory.CheckedAllocator
}

// pageSize is small so that pages and windows cross every batch's end.
const pageSize = 3

func TestConformance(t *testing.T) {
	registry := map[string]generatedFile{}
	for _, g := range generatedFiles {
		registry[g.folder+"/"+g.name] = g
	}
	folders, err := os.ReadDir(root)
	require.NoError(t, err)
	onDisk := map[string]bool{}
	for _, folder := range folders {
		if !folder.IsDir() {
			continue
		}
		for _, stem := range dataSets(t, filepath.Join(root, folder.Name())) {
			key := folder.Name() + "/" + stem
			onDisk[key] = true
			t.Run(key, func(t *testing.T) {
				g, ok := registry[key]
				if !ok {
					t.Fatalf("%s has no generated type: run go generate ./conformance", key)
				}
				fails := runDataSet(t, g, filepath.Join(root, folder.Name(), stem))
				judge(t, stem, fails)
			})
		}
	}
	for key := range registry {
		if !onDisk[key] {
			t.Errorf("types_gen_test.go has a type for %s, which is gone: run go generate ./conformance", key)
		}
	}
}

// dataSets are the stems of the IPC files and streams of a folder.
func dataSets(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var stems []string
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ".arrow_file")
		if !ok {
			stem, ok = strings.CutSuffix(e.Name(), ".stream")
		}
		if ok && !slices.Contains(stems, stem) {
			stems = append(stems, stem)
		}
	}
	slices.Sort(stems)
	return stems
}

// runDataSet runs the harness on the IPC file and the IPC stream of a data
// set, each failure message naming which.
func runDataSet(t *testing.T, g generatedFile, base string) []failure {
	if g.genError != "" {
		return []failure{{stageGen, g.genError}}
	}
	gold, err := golden.ReadFile(base + ".json.gz")
	require.NoError(t, err, "every data set has its golden JSON")
	// A failure of the file and the stream alike is told once, naming both.
	var fails []failure
	kinds := map[failure][]string{}
	for _, ext := range []string{".arrow_file", ".stream"} {
		if _, err := os.Stat(base + ext); err != nil {
			continue
		}
		c := &fileCase{path: base + ext, stream: ext == ".stream", golden: gold, mem: memory.NewCheckedAllocator(memory.DefaultAllocator)}
		got := g.harness(c)
		if n := c.mem.CurrentAlloc(); n != 0 {
			got = append(got, failure{stageMemory, fmt.Sprintf("%d bytes left allocated", n)})
		}
		for _, f := range got {
			if kinds[f] == nil {
				fails = append(fails, f)
			}
			kinds[f] = append(kinds[f], ext[1:])
		}
	}
	for i, f := range fails {
		fails[i].msg = strings.Join(kinds[f], ", ") + ": " + f.msg
	}
	return fails
}

// maxShown bounds the failures told per stage: past a few, more say
// nothing new.
const maxShown = 4

// judge passes a data set without failures, and one whose failures are
// the stages knownFailures lists for it.
func judge(t *testing.T, stem string, fails []failure) {
	var stages []stage
	for _, f := range fails {
		if !slices.Contains(stages, f.stage) {
			stages = append(stages, f.stage)
		}
	}
	slices.Sort(stages)
	known, listed := knownFailures[stem]
	want := slices.Sorted(slices.Values(known.stages))
	switch {
	case !listed && len(fails) == 0:
	case !listed:
		t.Errorf("%s fails at %v:", stem, stages)
		tell(t.Errorf, fails)
	case len(fails) == 0:
		t.Errorf("%s passes now: remove it from knownFailures (%q)", stem, known.why)
	case !slices.Equal(stages, want):
		t.Errorf("%s fails at %v, knownFailures says %v (%q):", stem, stages, want, known.why)
		tell(t.Errorf, fails)
	default:
		t.Logf("known to fail at %v: %s", want, known.why)
		tell(t.Logf, fails)
	}
}

// tell prints fails, at most maxShown a stage.
func tell(printf func(string, ...any), fails []failure) {
	shown := map[stage]int{}
	for _, f := range fails {
		if shown[f.stage]++; shown[f.stage] <= maxShown {
			printf("%s: %s", f.stage, f.msg)
		}
	}
	for s, n := range shown {
		if n > maxShown {
			printf("%s: … and %d more", s, n-maxShown)
		}
	}
}

// harnessFor runs every check on one IPC file or stream with T, the type
// gen printed for it.
func harnessFor[T any](c *fileCase) (fails []failure) {
	fail := func(s stage, format string, args ...any) {
		fails = append(fails, failure{s, fmt.Sprintf(format, args...)})
	}
	schema, records, err := readIPC(c)
	defer func() {
		for _, r := range records {
			r.Release()
		}
	}()
	if err != nil {
		fail(stageRead, "%v", err)
		return fails
	}
	if len(records) != len(c.golden.Batches) {
		fail(stageRead, "%d record batches, the golden JSON has %d", len(records), len(c.golden.Batches))
		return fails
	}
	// The schema encoded records have: SchemaOf's, which must be the
	// file's.
	encoded, err := mapper.SchemaOf[T]()
	if err != nil {
		fail(stageSchema, "SchemaOf: %v", err)
		encoded = schema
	}
	for _, d := range diffSchemas(schema, encoded) {
		fail(stageSchema, "SchemaOf: %s", d)
	}
	m, err := mapper.New[T](schema)
	if err != nil {
		fail(stageDecode, "New: %v", err)
		return fails
	}
	var all []T   // every row Decode gave, up to the first batch refused
	refused := -1 // the first batch holding a value outside the spec
	for b, rec := range records {
		outside, err := c.golden.OutsideSpec(b)
		if err != nil {
			fail(stageRead, "batch %d: golden JSON: %v", b, err)
			return fails
		}
		rows, err := mapper.Decode[T](rec)
		if len(outside) > 0 {
			if refused < 0 {
				refused = b
			}
			checkRefused[T](fail, b, err, outside, c.golden.Schema.Fields)
			checkAround[T](fail, c.golden, b, rec, outside)
			continue
		}
		if err != nil {
			fail(stageDecode, "batch %d: %v", b, err)
			continue
		}
		if refused < 0 {
			all = append(all, rows...)
		}
		for _, mm := range c.golden.Check(b, rows) {
			fail(stageGolden, "%s", mm)
		}
		view, err := m.View(rec)
		if err != nil {
			fail(stageDecode, "batch %d: View: %v", b, err)
		} else {
			var windows []T
			for i := 0; i < view.Len(); i += pageSize {
				windows = view.Slice(i, min(i+pageSize, view.Len())).Append(windows)
			}
			if i := firstDifference(rows, windows); i >= 0 {
				fail(stageWindow, "batch %d, row %d: windows of %d give %+v, Decode %+v", b, i, pageSize, at(windows, i), at(rows, i))
			}
		}
		out, err := mapper.Encode(rows, mapper.Allocator(c.mem))
		if err != nil {
			fail(stageEncode, "batch %d: %v", b, err)
			continue
		}
		for _, d := range diffRecords(rec, out) {
			fail(stageRecord, "batch %d: %s", b, d)
		}
		for _, d := range diffSchemas(encoded, out.Schema()) {
			fail(stageSchema, "batch %d, the encoded record against SchemaOf: %s", b, d)
		}
		out.Release()
	}
	checkPages(fail, schema, records, all, refused)
	return fails
}

// checkRefused checks that a batch holding a value outside the spec is an
// ErrInvalidData from Decode, and that encoding such a value is refused
// too: the first of each top-level column.
func checkRefused[T any](fail func(stage, string, ...any), b int, decodeErr error, outside []golden.Outside, fields []golden.Field) {
	var me *mapper.Error
	if !errors.Is(decodeErr, mapper.ErrInvalidData) || !errors.As(decodeErr, &me) {
		fail(stageOutside, "batch %d holds %s: Decode gave %v, want a *mapper.Error wrapping ErrInvalidData", b, outside[0], decodeErr)
	}
	tried := map[int]bool{}
	for _, o := range outside {
		fd := &fields[o.Column]
		if tried[o.Column] || o.Path != fd.Name || fd.Type.Name == "date" {
			// A nested value: no row of T is built around it. A date: a
			// time.Time within a day is a valid date once floored, as a
			// timestamp is floored to its unit.
			continue
		}
		tried[o.Column] = true
		row, err := rowWith[T](o, fd)
		if err != nil {
			fail(stageOutside, "batch %d: %v", b, err)
			continue
		}
		rec, err := mapper.Encode([]T{row})
		if err == nil {
			rec.Release()
		}
		if !errors.Is(err, mapper.ErrOverflow) && !errors.Is(err, mapper.ErrInvalidData) {
			fail(stageOutside, "batch %d: encoding %s gave %v, want ErrOverflow or ErrInvalidData", b, o, err)
		}
	}
}

// checkAround checks every value of a refused batch that is inside the
// spec against the golden JSON: each column alone, in windows of the rows
// between those holding a value outside, decoded with AllowMissing.
func checkAround[T any](fail func(stage, string, ...any), gold *golden.File, b int, rec arrow.RecordBatch, outside []golden.Outside) {
	for k := range int(rec.NumCols()) {
		bad := map[int]bool{}
		for _, o := range outside {
			if o.Column == k {
				bad[o.Row] = true
			}
		}
		one := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(k)}, nil), []arrow.Array{rec.Column(k)}, rec.NumRows())
		for i := 0; i < int(rec.NumRows()); {
			if bad[i] {
				i++
				continue
			}
			j := i
			for j < int(rec.NumRows()) && !bad[j] {
				j++
			}
			window := one.NewSlice(int64(i), int64(j))
			rows, err := mapper.Decode[T](window, mapper.AllowMissing())
			window.Release()
			if err != nil {
				fail(stageDecode, "batch %d, column %q alone, rows [%d, %d): %v", b, rec.ColumnName(k), i, j, err)
			}
			for _, mm := range gold.CheckColumn(b, k, i, rows) {
				fail(stageGolden, "%s", mm)
			}
			i = j
		}
		one.Release()
	}
}

// rowWith is a T whose field of column o.Column holds o's value, the rest
// zero.
func rowWith[T any](o golden.Outside, fd *golden.Field) (T, error) {
	var row T
	v := reflect.ValueOf(&row).Elem()
	var fields []int
	for i := range v.NumField() {
		if sf := v.Type().Field(i); sf.IsExported() && sf.Tag.Get("arrow") != "-" {
			fields = append(fields, i)
		}
	}
	if o.Column >= len(fields) {
		return row, fmt.Errorf("%T has no field for column %d", row, o.Column)
	}
	fv := v.Field(fields[o.Column])
	if fv.Kind() == reflect.Pointer {
		fv.Set(reflect.New(fv.Type().Elem()))
		fv = fv.Elem()
	}
	perUnit := map[string]int64{"SECOND": 1e9, "MILLISECOND": 1e6, "MICROSECOND": 1e3, "NANOSECOND": 1}[fd.Type.Unit]
	switch fv.Addr().Interface().(type) {
	case *decimal.Decimal128:
		fv.Set(reflect.ValueOf(decimal128.FromBigInt(o.Raw)))
	case *decimal.Decimal256:
		fv.Set(reflect.ValueOf(decimal256.FromBigInt(o.Raw)))
	case *time.Duration:
		fv.SetInt(o.Raw.Int64() * perUnit)
	case *time.Time:
		fv.Set(reflect.ValueOf(time.Unix(0, o.Raw.Int64()*perUnit).UTC()))
	default:
		if fv.Kind() < reflect.Int || fv.Kind() > reflect.Int64 || !o.Raw.IsInt64() {
			return row, fmt.Errorf("no value of Go %s for %s", fv.Type(), o)
		}
		fv.SetInt(o.Raw.Int64()) // decimal.Decimal32, Decimal64, a raw integer
	}
	return row, nil
}

// checkPages reads every record through a Reader in pages of pageSize
// rows: the rows Decode gave, then, if a batch was refused, ErrInvalidData.
func checkPages[T any](fail func(stage, string, ...any), schema *arrow.Schema, records []arrow.RecordBatch, want []T, refused int) {
	rr, err := array.NewRecordReader(schema, records)
	if err != nil {
		fail(stagePages, "NewRecordReader: %v", err)
		return
	}
	defer rr.Release()
	r, err := mapper.NewReader[T](rr)
	if err != nil {
		fail(stagePages, "NewReader: %v", err)
		return
	}
	defer r.Release()
	var got []T
	var readErr error
	for page, err := range r.Pages(pageSize) {
		if err != nil {
			readErr = err
			break
		}
		if len(page) > pageSize {
			fail(stagePages, "a page of %d rows, want at most %d", len(page), pageSize)
		}
		got = append(got, page...)
	}
	switch {
	case refused >= 0 && !errors.Is(readErr, mapper.ErrInvalidData):
		fail(stageOutside, "the Reader ended with %v, want ErrInvalidData at batch %d", readErr, refused)
		return
	case refused < 0 && readErr != nil:
		fail(stagePages, "the Reader: %v", readErr)
		return
	}
	if refused >= 0 {
		// Pages stop short of the refused batch; what came is a prefix.
		got = got[:min(len(got), len(want))]
		want = want[:len(got)]
	}
	if len(got) != len(want) {
		fail(stagePages, "%d rows in pages of %d, Decode gave %d", len(got), pageSize, len(want))
		return
	}
	if i := firstDifference(want, got); i >= 0 {
		fail(stagePages, "row %d: pages of %d give %+v, Decode %+v", i, pageSize, at(got, i), at(want, i))
	}
}

// readIPC reads an IPC file or stream with arrow-go's readers.
func readIPC(c *fileCase) (*arrow.Schema, []arrow.RecordBatch, error) {
	fh, err := os.Open(c.path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	var records []arrow.RecordBatch
	if c.stream {
		r, err := ipc.NewReader(fh, ipc.WithAllocator(c.mem))
		if err != nil {
			return nil, nil, err
		}
		defer r.Release()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			records = append(records, rec)
		}
		return r.Schema(), records, r.Err()
	}
	r, err := ipc.NewFileReader(fh, ipc.WithAllocator(c.mem))
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return r.Schema(), records, err
		}
		records = append(records, rec)
	}
	return r.Schema(), records, nil
}

// firstDifference is the first row at which a and b differ, -1 if none.
func firstDifference[T any](a, b []T) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || !reflect.DeepEqual(a[i], b[i]) {
			return i
		}
	}
	return -1
}

func at[T any](rows []T, i int) any {
	if i < len(rows) {
		return rows[i]
	}
	return "nothing"
}

// diffRecords says where got differs from want in the values of columns
// of the same type (diffSchemas tells the types apart), row by row.
//
// array.RecordEqual first; where it finds a difference, only the values a
// row can reach decide. arrow-go's Equal also compares what no []T holds:
// the children of a struct under its null rows, and a dictionary's indices
// and unused entries, which Encode rebuilds from the values.
func diffRecords(want, got arrow.RecordBatch) []string {
	if array.RecordEqual(want, got) {
		return nil
	}
	if want.NumCols() != got.NumCols() || want.NumRows() != got.NumRows() {
		return []string{fmt.Sprintf("%d columns × %d rows, want %d × %d", got.NumCols(), got.NumRows(), want.NumCols(), want.NumRows())}
	}
	var out []string
	for k := range int(want.NumCols()) {
		a, b := want.Column(k), got.Column(k)
		if !arrow.TypeEqual(a.DataType(), b.DataType(), arrow.CheckMetadata()) || array.Equal(a, b) {
			continue
		}
		for i := range a.Len() {
			if !arrowtest.SameValue(a, i, b, i) {
				out = append(out, fmt.Sprintf("column %q, row %d: %s, want %s", want.ColumnName(k), i, b.ValueStr(i), a.ValueStr(i)))
				break
			}
		}
	}
	return out
}

// diffSchemas says how got differs from want: names, types, nullability
// and metadata, of each field and of the schema.
func diffSchemas(want, got *arrow.Schema) []string {
	var out []string
	if !want.Metadata().Equal(got.Metadata()) {
		out = append(out, fmt.Sprintf("schema metadata %v, want %v", got.Metadata(), want.Metadata()))
	}
	if want.NumFields() != got.NumFields() {
		return append(out, fmt.Sprintf("%d fields %v, want %d %v", got.NumFields(), got.Fields(), want.NumFields(), want.Fields()))
	}
	for k := range want.NumFields() {
		a, b := want.Field(k), got.Field(k)
		if a.Equal(b) {
			continue
		}
		out = append(out, fmt.Sprintf("field %d is %s, want %s", k, describeField(b), describeField(a)))
	}
	return out
}

func describeField(f arrow.Field) string {
	s := fmt.Sprintf("%q: %s", f.Name, f.Type)
	if !f.Nullable {
		s += " not null"
	}
	if f.HasMetadata() {
		s += fmt.Sprintf(" metadata %v", f.Metadata)
	}
	return s
}

func TestEveryDataSetHasItsFilesAndGoldenJSON(t *testing.T) {
	folders, err := os.ReadDir(root)
	require.NoError(t, err)
	n := 0
	for _, folder := range folders {
		if !folder.IsDir() {
			continue
		}
		for _, stem := range dataSets(t, filepath.Join(root, folder.Name())) {
			base := filepath.Join(root, folder.Name(), stem)
			assert.FileExists(t, base+".json.gz", "the golden values of %s", base)
			n++
		}
	}
	assert.NotZero(t, n, "the testdata holds data sets")
	for stem := range knownFailures {
		found := false
		for _, g := range generatedFiles {
			found = found || g.name == stem
		}
		assert.True(t, found, "knownFailures names %s, which no folder holds", stem)
	}
}
