package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everyRow is what head prints of every row of FILE ("" the sample).
func everyRow(t *testing.T, file string) string {
	t.Helper()
	args := []string{"head", "-n", "1000000"}
	if file != "" {
		args = append(args, file)
	}
	stdout, stderr, status := arrowmap(t, nil, args...)
	require.Equal(t, 0, status, "head %s: %s", file, stderr)
	require.NotEmpty(t, stdout)
	return stdout
}

// convertOK runs convert and checks it succeeded quietly.
func convertOK(t *testing.T, args ...string) {
	t.Helper()
	stdout, stderr, status := arrowmap(t, nil, append([]string{"convert"}, args...)...)
	require.Equal(t, 0, status, "convert %v: %s", args, stderr)
	require.Empty(t, stdout)
	require.Empty(t, stderr, "no progress on a standard error that is not a terminal")
}

// schemaOf is what `arrowmap schema` prints of file.
func schemaOf(t *testing.T, file string) string {
	t.Helper()
	stdout, stderr, status := arrowmap(t, nil, "schema", file)
	require.Equal(t, 0, status, stderr)
	return stdout
}

// changingDictionaries is an IPC stream, written by arrow-go, of records
// whose dictionaries replace one another (each record's own values, in
// their order), which an IPC file cannot hold as they are.
func changingDictionaries(t *testing.T, dir string) string {
	type row struct {
		ID     int64   `arrow:"id"`
		Region string  `arrow:"region,dict"`
		Code   *string `arrow:"code,dict"`
	}
	code := func(s string) *string { return &s }
	batches := [][]row{
		{{1, "north", code("a")}, {2, "south", nil}},
		{{3, "east", code("b")}, {4, "north", code("a")}},
		{{5, "south", nil}, {6, "west", code("c")}, {7, "east", code("b")}},
	}
	schema, err := mapper.SchemaOf[row]()
	require.NoError(t, err)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	for _, rows := range batches {
		rec, err := mapper.Encode(rows)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		rec.Release()
	}
	require.NoError(t, w.Close())
	path := filepath.Join(dir, "changing.arrows")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	return path
}

// A conversion keeps every value: head prints the same lines of the input
// and of every file converted from it, through every format and back.
func TestConvertKeepsEveryValue(t *testing.T) {
	dir := t.TempDir()
	inputs := []struct {
		name string
		file string // "" the embedded sample
	}{
		{"the sample the command embeds", "sample.arrow"},
		{"an IPC file", testFiles.ipcFile},
		{"an IPC stream", testFiles.stream},
		{"a Parquet file", testFiles.pqt},
		{"the file of every kind of column", testFiles.kinds},
		{"a stream whose dictionaries replace one another", changingDictionaries(t, dir)},
	}
	for k, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			want := everyRow(t, in.file)
			at := func(name string) string { return filepath.Join(dir, fmt.Sprintf("%d-%s", k, name)) }
			source := func(args ...string) []string { return append([]string{in.file}, args...) }
			convertOK(t, source(at("out.arrow"))...)
			convertOK(t, source(at("out.arrows"))...)
			convertOK(t, at("out.arrows"), at("back.feather"))             // stream → file
			convertOK(t, at("out.arrow"), at("back.stream"))               // file → stream
			convertOK(t, "-to", "stream", at("out.arrow"), at("out.data")) // -to over the extension
			convertOK(t, source(at("out.parquet"))...)
			convertOK(t, "-compression", "zstd", at("out.parquet"), at("again.arrow")) // Parquet → IPC
			convertOK(t, "-compression", "none", at("again.arrow"), at("again.pq"))
			files := []string{at("out.arrow"), at("out.arrows"), at("back.feather"), at("back.stream"), at("out.data"),
				at("out.parquet"), at("again.arrow"), at("again.pq")}
			for _, f := range files {
				assert.Equal(t, want, everyRow(t, f), "head of %s", filepath.Base(f))
			}
			// Between IPC files and streams nothing changes, not even the schema.
			if !strings.HasSuffix(in.file, ".parquet") {
				for _, f := range files[:5] {
					assert.Equal(t, schemaOf(t, in.file), schemaOf(t, f), "schema of %s", filepath.Base(f))
				}
			}
		})
	}
}

func TestConvertWritesTheFormatAsked(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args  []string
		magic string // at the start of OUT
	}{
		{[]string{filepath.Join(dir, "a.arrow")}, "ARROW1"},
		{[]string{filepath.Join(dir, "a.ipc")}, "ARROW1"},
		{[]string{"-compression", "lz4", filepath.Join(dir, "b.arrows")}, "\xff\xff\xff\xff"},
		{[]string{"-to", "parquet", filepath.Join(dir, "c.out")}, "PAR1"},
		{[]string{"-to", "file", "-compression", "ZSTD", filepath.Join(dir, "d.out")}, "ARROW1"},
		{[]string{"-compression", "gzip", filepath.Join(dir, "e.pq")}, "PAR1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			convertOK(t, append(tc.args[:len(tc.args)-1:len(tc.args)-1], testFiles.ipcFile, tc.args[len(tc.args)-1])...)
			data, err := os.ReadFile(tc.args[len(tc.args)-1])
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(data, []byte(tc.magic)), "starts with %q: %q", tc.magic, data[:8])
		})
	}
	t.Run("to standard output, from standard input", func(t *testing.T) {
		stream, stderr, status := arrowmap(t, nil, "convert", "-to", "stream", testFiles.pqt, "-")
		require.Equal(t, 0, status, stderr)
		file, stderr, status := arrowmap(t, []byte(stream), "convert", "-from", "stream", "-to", "arrow", "-", "-")
		require.Equal(t, 0, status, stderr)
		require.True(t, strings.HasPrefix(file, "ARROW1"))
		path := filepath.Join(dir, "piped.arrow")
		require.NoError(t, os.WriteFile(path, []byte(file), 0o600))
		assert.Equal(t, everyRow(t, testFiles.pqt), everyRow(t, path))
	})
}

func TestConvertFailuresAreOneLine(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(notDir, []byte("x"), 0o600))
	random := filepath.Join(dir, "random.arrow")
	require.NoError(t, os.WriteFile(random, bytes.Repeat([]byte{0x5a, 0x13, 0x77}, 500), 0o600))
	out := filepath.Join(dir, "out.arrow")
	for _, tc := range []struct {
		name     string
		args     []string
		contains string
	}{
		{"a -from that is not the input's format", []string{"-from", "parquet", testFiles.stream, out}, "is an Arrow IPC stream, not a Parquet file"},
		{"an input that does not exist", []string{filepath.Join(dir, "nope.arrow"), out}, "nope.arrow"},
		{"an input that is a directory", []string{dir, out}, "directory"},
		{"an input of random bytes", []string{random, out}, "random.arrow"},
		{"a truncated IPC file", []string{testFiles.truncFile, out}, "truncated.arrow"},
		{"a truncated IPC stream", []string{testFiles.truncStream, out}, "truncated.arrows"},
		{"a truncated Parquet file", []string{testFiles.truncParquet, out}, "truncated.parquet"},
		{"an output in a directory that does not exist", []string{testFiles.ipcFile, filepath.Join(dir, "no", "out.arrow")}, "cannot write"},
		{"an output under a file", []string{testFiles.ipcFile, filepath.Join(notDir, "out.arrow")}, "not a directory"},
		{"an output that is a directory", []string{"-to", "file", testFiles.ipcFile, dir}, "is a directory"},
		{"a union to Parquet", []string{testFiles.union, filepath.Join(dir, "out.parquet")}, `column "either"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, append([]string{"convert"}, tc.args...)...)
			t.Log(strings.TrimSpace(stderr))
			assert.Equal(t, 1, status)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, "arrowmap: "), "stderr: %q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "arrowmap:"), "one arrowmap: prefix: %q", stderr)
			assert.NotContains(t, stderr, "arrowmap/", "no package prefix inside: %q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.Contains(t, stderr, tc.contains)
			for _, bad := range []string{"panic", "goroutine"} {
				assert.NotContains(t, strings.ToLower(stderr), bad)
			}
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				assert.False(t, strings.HasPrefix(e.Name(), "out"), "no output left behind: %s", e.Name())
			}
		})
	}
}

// A failed conversion leaves the file it would have replaced as it was.
func TestAFailedConversionLeavesOutAsItWas(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "keep.arrow")
	convertOK(t, testFiles.ipcFile, out)
	before, err := os.ReadFile(out)
	require.NoError(t, err)
	_, _, status := arrowmap(t, nil, "convert", testFiles.truncStream, out)
	require.Equal(t, 1, status)
	after, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
}

// Flipped bytes near the start of a file, where its schema is, are one
// line of error or rows, never a crash: arrow-go alone made a slice as long
// as a corrupt children count said, and ran out of memory.
func TestCorruptInputIsOneLineNeverACrash(t *testing.T) {
	const seed = 20240302
	t.Logf("corruptions seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	out := filepath.Join(t.TempDir(), "out.arrow")
	for _, src := range []string{testFiles.stream, testFiles.ipcFile, testFiles.kinds} {
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		for trial := range 100 {
			bad := bytes.Clone(data)
			for range 1 + rng.IntN(3) {
				bad[rng.IntN(len(bad)/3)] = byte(rng.UintN(256))
			}
			cmd := []string{"head", "-"}
			if trial%2 == 1 {
				cmd = []string{"convert", "-", out}
			}
			_, stderr, status := arrowmap(t, bad, cmd...)
			require.LessOrEqual(t, status, 1, "%s, trial %d: %.400s", filepath.Base(src), trial, stderr)
			if status == 1 {
				require.Equal(t, 1, strings.Count(stderr, "\n"), "%s, trial %d: one line: %.400s", filepath.Base(src), trial, stderr)
			}
		}
	}
}

// patchInt64s is data with its one run of little-endian int64s find,
// 8-byte aligned, replaced by replace: a buffer's length or a field
// node's in an IPC message's metadata.
func patchInt64s(t *testing.T, data []byte, find, replace []int64) []byte {
	t.Helper()
	enc := func(v []int64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
		return b
	}
	pattern, at := enc(find), -1
	for i := 0; i+len(pattern) <= len(data); i += 8 {
		if bytes.Equal(data[i:i+len(pattern)], pattern) {
			require.Equal(t, -1, at, "%v twice in the IPC bytes", find)
			at = i
		}
	}
	require.NotEqual(t, -1, at, "%v not in the IPC bytes", find)
	out := bytes.Clone(data)
	copy(out[at:], enc(replace))
	return out
}

// malformedInputs writes to dir, for each way a record can be malformed,
// an IPC file and an IPC stream of two records, the second malformed,
// which arrow-go's readers read without complaint: a record of 7 rows,
// then one of rows rows whose IPC metadata find becomes patch.
func malformedInputs(t *testing.T, dir string) []malformedInput {
	mem := memory.NewGoAllocator()
	int64s := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "pad", Type: arrow.PrimitiveTypes.Int16, Nullable: true}}, nil)
	intervals := arrow.NewSchema([]arrow.Field{{Name: "span", Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Nullable: true}, {Name: "pad", Type: arrow.PrimitiveTypes.Int16, Nullable: true}}, nil)
	quads := arrow.NewSchema([]arrow.Field{{Name: "quad", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Int32), Nullable: true}}, nil)
	cases := []struct {
		name        string
		schema      *arrow.Schema
		rows        int
		find, patch []int64 // the second record's metadata, patched
		column      string
		detail      string
	}{
		// An int64 column of 3000 rows and an int16 one: buffers (0, 0),
		// (0, 24000), (24000, 0), (24000, 6000); the first values buffer
		// is cut to half.
		{"an int64 column whose values buffer holds half its rows", int64s, 3000,
			[]int64{0, 24000, 24000}, []int64{0, 12000, 24000}, "id", "values buffer of 12000 bytes for 3000 values"},
		{"a month_day_nano interval column whose values buffer is short", intervals, 1000,
			[]int64{0, 16000, 16000}, []int64{0, 8000, 16000}, "span", "values buffer of 8000 bytes for 1000 values"},
		// Field nodes (100, 0) and (400, 0): the child is cut to 200 rows.
		{"a fixed-size list whose child is half as long as its lists", quads, 100,
			[]int64{100, 0, 400, 0}, []int64{100, 0, 200, 0}, "quad", "child of 200 rows for 100 lists of 4"},
	}
	var inputs []malformedInput
	for k, c := range cases {
		recs := make([]arrow.RecordBatch, 2)
		for r, n := range []int{7, c.rows} {
			b := array.NewRecordBuilder(mem, c.schema)
			for i := range n {
				for _, f := range b.Fields() {
					switch f := f.(type) {
					case *array.Int64Builder:
						f.Append(int64(i))
					case *array.Int16Builder:
						f.Append(int16(i))
					case *array.MonthDayNanoIntervalBuilder:
						f.Append(arrow.MonthDayNanoInterval{Months: int32(i), Days: 1, Nanoseconds: 2})
					case *array.FixedSizeListBuilder:
						f.Append(true)
						for v := range 4 {
							f.ValueBuilder().(*array.Int32Builder).Append(int32(4*i + v))
						}
					}
				}
			}
			recs[r] = b.NewRecordBatch()
			b.Release()
		}
		var file, stream bytes.Buffer
		fw, err := ipc.NewFileWriter(&file, ipc.WithSchema(c.schema))
		require.NoError(t, err)
		sw := ipc.NewWriter(&stream, ipc.WithSchema(c.schema))
		for _, rec := range recs {
			require.NoError(t, fw.Write(rec))
			require.NoError(t, sw.Write(rec))
			rec.Release()
		}
		require.NoError(t, fw.Close())
		require.NoError(t, sw.Close())
		for ext, data := range map[string][]byte{".arrow": file.Bytes(), ".arrows": stream.Bytes()} {
			in := malformedInput{name: c.name + ", " + ext[1:], path: filepath.Join(dir, fmt.Sprintf("bad%d%s", k, ext)),
				column: c.column, detail: c.detail, rows: fmt.Sprintf("rows 7 to %d", 7+c.rows-1)}
			require.NoError(t, os.WriteFile(in.path, patchInt64s(t, data, c.find, c.patch), 0o600))
			inputs = append(inputs, in)
		}
	}
	slices.SortFunc(inputs, func(a, b malformedInput) int { return strings.Compare(a.name, b.name) })
	return inputs
}

type malformedInput struct {
	name, path string
	column     string // the column at fault
	detail     string // what head and convert say is wrong
	rows       string // the rows of the malformed record
}

// convert refuses a malformed record as head does, whatever it writes and
// however IN comes (a file, a stream, standard input): one line naming IN,
// the record's rows and the column, exit status 1, and no OUT — not
// created, or left as it was. arrow-go's writers wrote it out, and reading
// the output failed, or read past a buffer's end.
func TestConvertRefusesAMalformedRecordAsHeadDoes(t *testing.T) {
	dir := t.TempDir()
	for _, in := range malformedInputs(t, dir) {
		t.Run(in.name, func(t *testing.T) {
			_, stderr, status := arrowmap(t, nil, "head", "-n", "100000", in.path)
			require.Equal(t, 1, status, "head refuses it: %s", stderr)
			require.Contains(t, stderr, in.detail)
			data, err := os.ReadFile(in.path)
			require.NoError(t, err)
			for _, to := range []string{"arrow", "arrows", "parquet"} {
				for _, existing := range []bool{false, true} {
					out := filepath.Join(t.TempDir(), "out."+to)
					if existing {
						require.NoError(t, os.WriteFile(out, []byte("before"), 0o600))
					}
					for _, piped := range []bool{false, true} {
						args, stdin, name := []string{"convert", in.path, out}, []byte(nil), in.path
						if piped {
							args, stdin, name = []string{"convert", "-", out}, data, "standard input"
						}
						_, stderr, status := arrowmap(t, stdin, args...)
						what := fmt.Sprintf("%v (OUT there before: %v)", args, existing)
						assert.Equal(t, 1, status, "%s: %s", what, stderr)
						assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s: one line: %q", what, stderr)
						if to != "parquet" || in.column != "span" { // Parquet stores no signed interval: refused by its schema
							assert.Contains(t, stderr, "arrowmap: "+name+": record 1 ("+in.rows+")", what)
							assert.Contains(t, stderr, fmt.Sprintf("column %q", in.column), what)
							assert.Contains(t, stderr, in.detail, what)
						}
						if existing {
							assert.Equal(t, []string{"out." + to}, dirNames(t, filepath.Dir(out)), "%s: no temporary file left", what)
							got, err := os.ReadFile(out)
							require.NoError(t, err)
							assert.Equal(t, "before", string(got), "%s: OUT as it was", what)
						} else {
							assert.Empty(t, dirNames(t, filepath.Dir(out)), "%s: no OUT", what)
						}
					}
				}
			}
		})
	}
}
