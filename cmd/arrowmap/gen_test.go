package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeProgram decodes a file with the Row type that arrowmap gen wrote
// next to it, record by record with mapper.Decode[Row], and prints how many
// rows it read and the id of the last one.
const decodeProgram = `package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
)

func main() {
	rows, err := decodeFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d rows, last id %d\n", len(rows), rows[len(rows)-1].ID)
}

func decodeFile(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []Row
	decode := func(rec arrow.RecordBatch) error {
		batch, err := mapper.Decode[Row](rec)
		rows = append(rows, batch...)
		return err
	}
	switch {
	case bytes.HasPrefix(data, []byte("ARROW1")):
		f, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		for i := range f.NumRecords() {
			rec, err := f.RecordBatch(i) // owned by f
			if err != nil {
				return nil, err
			}
			if err := decode(rec); err != nil {
				return nil, err
			}
		}
		return rows, nil
	case bytes.HasPrefix(data, []byte("PAR1")):
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 2}, memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			return nil, err
		}
		defer rr.Release()
		for rr.Next() {
			if err := decode(rr.RecordBatch()); err != nil {
				return nil, err
			}
		}
		if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return rows, nil
	default:
		r, err := ipc.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		defer r.Release()
		for r.Next() {
			if err := decode(r.RecordBatch()); err != nil {
				return nil, err
			}
		}
		return rows, r.Err()
	}
}
`

// goModLine is the first line of the main module's go.mod that starts
// with prefix, without it.
func goModLine(t *testing.T, goMod, prefix string) string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(goMod))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(strings.TrimPrefix(line, prefix))
		}
	}
	t.Fatalf("go.mod has no line starting with %q", prefix)
	return ""
}

// goCommand runs the go command in dir with the module cache and proxy of
// the environment, resolving requirements as it goes.
func goCommand(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// The source gen prints compiles, and its Row type decodes the very file
// it was generated from: each program below is gen's output next to
// decodeProgram, in a module that requires this one.
func TestGeneratedTypesCompileAndDecodeTheirFile(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot compile the generated source")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	mainMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	sample, err := filepath.Abs("sample.arrow")
	require.NoError(t, err)

	mod := t.TempDir()
	goMod := "module gentest\n\n" +
		"go " + goModLine(t, string(mainMod), "go ") + "\n\n" +
		"require (\n" +
		"\tgithub.com/apache/arrow-go/v18 " + goModLine(t, string(mainMod), "github.com/apache/arrow-go/v18 ") + "\n" +
		"\tgithub.com/arrowmap/arrowmap v0.0.0\n" +
		")\n\n" +
		"replace github.com/arrowmap/arrowmap => " + strconv.Quote(root) + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte(goMod), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.sum"), goSum, 0o600))

	cases := []struct {
		name string
		dir  string
		file string // what gen reads; "" is the embedded sample
		data string // what the program decodes
		want string
	}{
		{"an IPC file", "ipcfile", testFiles.ipcFile, testFiles.ipcFile, "5 rows, last id 5"},
		{"an IPC stream", "stream", testFiles.stream, testFiles.stream, "5 rows, last id 5"},
		{"a Parquet file", "parquet", testFiles.pqt, testFiles.pqt, "5 rows, last id 5"},
		{"the embedded sample", "sample", "", sample, "3000 rows, last id 3000"},
		{"a file of every kind of column", "kinds", testFiles.kinds, testFiles.kinds, "2 rows, last id 2"},
	}
	for _, c := range cases {
		args := []string{"gen"}
		if c.file != "" {
			args = append(args, c.file)
		}
		src, stderr, status := arrowmap(t, nil, args...)
		require.Equal(t, 0, status, "gen for %s: %s", c.name, stderr)
		pkg := filepath.Join(mod, c.dir)
		require.NoError(t, os.Mkdir(pkg, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(pkg, "row.go"), []byte(src), 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(pkg, "main.go"), []byte(decodeProgram), 0o600))
	}
	goCommand(t, mod, "mod", "tidy")
	// One build for every program: they share everything but a few lines.
	bin := t.TempDir()
	goCommand(t, mod, "build", "-o", bin+string(filepath.Separator), "./...")

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := exec.Command(filepath.Join(bin, c.dir), c.data).CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Equal(t, c.want+"\n", string(out))
		})
	}
}

// gen reads the fixture's types from its schema: pointers where a level is
// nullable, the time zone of the timestamp, structs named after their
// fields.
func TestGenDeclaresTheFixtureTypes(t *testing.T) {
	for _, src := range fixtureSources {
		t.Run(src.name, func(t *testing.T) {
			args, stdin := src.args("gen", "-package", "orders", "-type", "Order")
			out, stderr, status := arrowmap(t, stdin, args...)
			require.Equal(t, 0, status, "stderr: %s", stderr)
			require.Empty(t, stderr)
			// Compare without gofmt's alignment.
			var lines []string
			for _, line := range strings.Split(out, "\n") {
				lines = append(lines, strings.Join(strings.Fields(line), " "))
			}
			norm := strings.Join(lines, "\n")
			// pqarrow names a list's elements "element", which gen pins.
			elem := ""
			if src.parquet {
				elem = " arrow-elem:\"name=element\""
			}
			for _, want := range []string{
				"package orders",
				"type Order struct {",
				"ID int64 `arrow:\"id\"`",
				"Name *string `arrow:\"name\"`",
				"At time.Time `arrow:\"at,timestamp,unit=ms,tz=Asia/Tokyo\"`",
				"Scores []*int32 `arrow:\"scores\"" + elem + "`",
				"Point *Point `arrow:\"point\"`",
				"Lines []Line `arrow:\"lines,notnull\"" + elem + "`", // not nullable: nil is null otherwise
				"Attrs []AttrsEntry `arrow:\"attrs,map\"`",
				"type AttrsEntry struct {\nKey string `arrow:\"key\"`\nValue *int64 `arrow:\"value\"`\n}",
				"type Point struct {\nX float64 `arrow:\"x\"`\nY float64 `arrow:\"y\"`\n}",
				"type Line struct {\nSKU string `arrow:\"sku\"`\nQty int32 `arrow:\"qty\"`\n}",
			} {
				assert.Contains(t, norm, want)
			}
		})
	}
}

// gen spells each kind of column as GoTypeOf types it: the decimal and
// float16 types of arrow-go, arrays for fixed sizes, *uint8 elements for a
// list of uint8, a pointer below a list element (no tag can say nullable
// there), the pins of dictionaries (index=), run-end encoding (run_ends=),
// layouts, extensions (ext=) and non-nullable lists (notnull), and "-,"
// for a column named "-".
func TestGenDeclaresEveryKindOfColumn(t *testing.T) {
	out, stderr, status := arrowmap(t, nil, "gen", "-package", "kinds", testFiles.kinds)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	norm := strings.Join(lines, "\n")
	for _, want := range []string{
		"\"github.com/apache/arrow-go/v18/arrow/decimal\"",
		"\"github.com/apache/arrow-go/v18/arrow/float16\"",
		"ID int64 `arrow:\"id\"`",
		"Region string `arrow:\"region,dict,index=int8\"`",
		"Price *decimal.Decimal128 `arrow:\"price,decimal(10,2)\"`",
		"Half *float16.Num `arrow:\"half\"`",
		"Code [2]byte `arrow:\"code\"`",
		"UID *[16]byte `arrow:\"uid,ext=arrow.uuid\"`",
		"Bytes []*uint8 `arrow:\"bytes,notnull\" arrow-elem:\"notnull\"`", // non-nullable list and elements
		"Runs *string `arrow:\"runs,ree,run_ends=int16\"`",
		"Big string `arrow:\"big,large_utf8\"`",
		"X int32 `arrow:\"-,\"`",
		"Deep [][]*int32 `arrow:\"deep\"`",
		"Fixed [2]byte `arrow:\"fixed,fixed_size_list\"`",
		"Nothing mapper.Null `arrow:\"nothing\"`",
	} {
		assert.Contains(t, norm, want)
	}
}

// gen keeps what the schema says beyond the Go types: field and element
// metadata as arrow-meta and arrow-elem-meta, and the schema's metadata as
// the row type's ArrowSchemaMetadata method, which SchemaOf and Encode
// write back.
func TestGenKeepsSchemaAndFieldMetadata(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "arrow-integration", "1.0.0-littleendian", "generated_custom_metadata.arrow_file")
	out, stderr, status := arrowmap(t, nil, "gen", "-package", "meta", file)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	norm := strings.Join(lines, "\n")
	for _, want := range []string{
		"\"github.com/apache/arrow-go/v18/arrow\"",
		"SortOfPandas *int8 `arrow:\"sort_of_pandas\" arrow-meta:\"pandas={}\"`",
		"ListWithOddValues []*int32 `arrow:\"list_with_odd_values\" arrow-elem-meta:\"odd_values={}\"`",
		"func (Row) ArrowSchemaMetadata() arrow.Metadata {",
		"[]string{\n\"schema_custom_0\",\n\"schema_custom_1\",\n},\n[]string{\n\"{}\",\n\"{}\",\n},",
	} {
		assert.Contains(t, norm, want)
	}
}
