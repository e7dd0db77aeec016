package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parquetLayout is one Parquet layout that pqarrow's Arrow path never
// writes, in a file another writer made, and what reading it must give.
type parquetLayout struct {
	name   string // the layout
	writer string // the writer of the file: parquet-go v0.32.0, or arrow-go's column writers with a hand-made schema
	checks string // what the layout checks beyond the values
	write  func(t *testing.T, path string)
	// encodings is an encoding that the column chunk of each leaf (by its
	// dotted path) must use, so the file is the layout its name says.
	encodings map[string]pq.Encoding
	// check reads the file: readable compares every value, refused checks
	// the one-line error of what pqarrow cannot read.
	check func(t *testing.T, path string)
}

// TestParquetConformance reads files of other writers than pqarrow's Arrow
// path, as a user does: the row type is the one `arrowmap gen` builds
// (mapper.GoTypeOf of the schema pqarrow reads), decoded through
// parquet.ReadFile, parquet.Open in small pages and mapper.DecodeTo, and
// the command's schema, head and gen run on the file; SchemaOf and Encode
// of the type give the schema and the values back. Every value is
// compared with the values written and with pqarrow's record read through
// arrow-go's accessors. What pqarrow cannot read is one line naming the
// column, and never a panic.
func TestParquetConformance(t *testing.T) {
	for _, l := range parquetLayouts() {
		t.Run(l.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), strings.ReplaceAll(l.name, " ", "_")+".parquet")
			l.write(t, path)
			requireEncodings(t, path, l.encodings)
			l.check(t, path)
		})
	}
}

// schemaLoss is a part of a schema's schemaText that comes back from
// SchemaOf of the row type gen makes as another: what no tag says yet
// (docs/tags.md).
type schemaLoss struct{ read, back string }

// readable checks a file pqarrow reads: every row through every entry
// point equals want, which is written with the row type gen makes, R (an
// alias of an unnamed struct type, as reflect.StructOf builds them), and R
// gives the schema back but for lost.
func readable[R any](want []R, lost ...schemaLoss) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		recs, schema := conformanceRecords(t, path, 3)
		defer func() {
			for _, rec := range recs {
				rec.Release()
			}
		}()

		typ, err := mapper.GoTypeOf(schema)
		require.NoError(t, err, "gen's type of %s", schema)
		require.Equal(t, reflect.TypeFor[R]().String(), typ.String(), "the row type gen makes, of %s", schema)
		require.Equal(t, reflect.TypeFor[R](), typ, "reflect.StructOf gives the type of the same literal")

		// The reference: pqarrow's records through arrow-go's accessors,
		// against the values the writer was given.
		var ref []map[string]any
		for _, rec := range recs {
			ref = append(ref, refRows(rec)...)
		}
		require.Equal(t, plainRows(reflect.ValueOf(want), schema), ref, "pqarrow's values, read with arrow-go's accessors, against those written")

		// The type gives the file back: SchemaOf writes the schema pqarrow
		// read, every name, nullability and pin at every depth (but
		// pqarrow's PARQUET:field_id=-1, which GoTypeOf drops), and
		// Encode of the rows written writes their values, maps' entries
		// in order.
		back, err := mapper.SchemaOf[R]()
		require.NoError(t, err)
		wantBack := schemaText(schema)
		for _, l := range lost {
			require.Contains(t, wantBack, l.read, "a loss of the schema that is not there")
			wantBack = strings.Replace(wantBack, l.read, l.back, 1)
		}
		assert.Equal(t, wantBack, schemaText(back), "SchemaOf of the row type gen makes")
		encoded, err := guard(func() (arrow.RecordBatch, error) { return mapper.Encode(want) })
		require.NoError(t, err)
		defer encoded.Release()
		assert.Equal(t, ref, refRows(encoded), "mapper.Encode of the rows, read with arrow-go's accessors")

		// mapper.DecodeTo into gen's type, record by record.
		var decoded []R
		for _, rec := range recs {
			rows, err := guard(func() (reflect.Value, error) { return mapper.DecodeTo(typ, rec) })
			require.NoError(t, err)
			if rows.Len() > 0 {
				decoded = append(decoded, rows.Interface().([]R)...)
			}
		}
		equalRows(t, schema, want, decoded, "mapper.DecodeTo")

		// Our parquet package's entry points.
		got, err := guard(func() ([]R, error) { return amparquet.ReadFile[R](path) })
		require.NoError(t, err)
		equalRows(t, schema, want, got, "parquet.ReadFile")

		paged, err := guard(func() ([]R, error) {
			r, err := amparquet.Open[R](path, amparquet.ReadConfig{BatchRows: 3})
			if err != nil {
				return nil, err
			}
			defer r.Release()
			var all []R
			for page, err := range r.Pages(2) {
				if err != nil {
					return nil, err
				}
				all = append(all, page...)
			}
			return all, nil
		})
		require.NoError(t, err)
		equalRows(t, schema, want, paged, "parquet.Open, in pages of 2 rows from records of 3")

		// The command, as a user runs it: pqarrow's schema, without the
		// field id "-1" pqarrow gives a field that has none.
		out, errOut, status := runArrowmap(t, "schema", path)
		require.Equal(t, 0, status, "arrowmap schema: %s", errOut)
		assert.Equal(t, withoutNoFieldIDs(schema.String())+"\n", out, "arrowmap schema")

		// head prints every value, NaNs and infinities as strings, a map
		// as an object in entry order, a key twice printed twice: each
		// line is read keeping its objects' order.
		out, errOut, status = runArrowmap(t, "head", "-n", fmt.Sprint(len(want)+1), path)
		require.Equal(t, 0, status, "arrowmap head: %s", errOut)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		require.Len(t, lines, len(want), "arrowmap head prints every row")
		for i, line := range lines {
			row, err := orderedJSON([]byte(line))
			require.NoError(t, err, "arrowmap head, row %d", i)
			assert.Equal(t, orderedJSONOf(t, jsonRow(ref[i], schema)), row, "arrowmap head, row %d", i)
		}

		out, errOut, status = runArrowmap(t, "gen", "-type", "Row", path)
		require.Equal(t, 0, status, "arrowmap gen: %s", errOut)
		_, err = parser.ParseFile(token.NewFileSet(), "row.go", out, 0)
		require.NoError(t, err, "arrowmap gen prints Go:\n%s", out)
		for _, f := range schema.Fields() {
			assert.Contains(t, out, "`arrow:\""+f.Name, "arrowmap gen tags column %s", f.Name)
		}
		// gen's columns have GoTypeOf's tags, the pins and all, but json,
		// which gen writes not, and nullable, which gen adds where it
		// makes a pointer a value, the data having no null there.
		genTags := rowTags(t, out, "Row")
		for f := range typ.Fields() {
			require.Contains(t, genTags, f.Name, "arrowmap gen declares field %s", f.Name)
			for _, key := range []string{"arrow", "arrow-elem", "arrow-key", "arrow-value", "arrow-meta", "arrow-elem-meta", "arrow-key-meta", "arrow-value-meta"} {
				got := genTags[f.Name].Get(key)
				if want := f.Tag.Get(key); want != got {
					assert.Equal(t, want, strings.TrimSuffix(strings.TrimSuffix(got, "nullable"), ","), "arrowmap gen's %s tag of field %s", key, f.Name)
				}
			}
		}
	}
}

// equalRows asserts got is want, in the plain form (where NaNs compare)
// and, without NaNs, as Go values (time zones, pointers and all).
func equalRows[R any](t *testing.T, schema *arrow.Schema, want, got []R, msg string) {
	t.Helper()
	plain := plainRows(reflect.ValueOf(want), schema)
	assert.Equal(t, plain, plainRows(reflect.ValueOf(got), schema), msg)
	if !slices.ContainsFunc(plain, func(row map[string]any) bool { return hasSpecial(row) }) {
		assert.Equal(t, want, got, msg)
	}
}

// withoutNoFieldIDs is a schema's text without the lines of metadata that
// hold nothing but pqarrow's field id -1.
func withoutNoFieldIDs(schema string) string {
	lines := strings.Split(schema, "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool {
		return strings.TrimSpace(l) == `metadata: ["PARQUET:field_id": "-1"]`
	}), "\n")
}

// refused checks a file pqarrow cannot read, for its column named column:
// our entry points, and the command, refuse it with one line that names
// the column and holds words (pqarrow's reason); none panics.
func refused(column string, words ...string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		_, err := guard(func() (*arrow.Schema, error) { return pqarrowSchema(path) })
		require.Error(t, err, "pqarrow reads the file: the layout does not show what it cannot")

		named := append([]string{fmt.Sprintf("column %q", column)}, words...)
		_, err = guard(func() ([]struct{}, error) { return amparquet.ReadFile[struct{}](path) })
		requireOneLine(t, err, named...)
		require.ErrorIs(t, err, mapper.ErrInvalidData)
		_, err = guard(func() (*mapper.Reader[struct{}], error) {
			return amparquet.Open[struct{}](path, amparquet.ReadConfig{BatchRows: 3})
		})
		requireOneLine(t, err, named...)

		// The command reads Parquet through our parquet package.
		for _, cmd := range []string{"schema", "head", "gen"} {
			out, errOut, status := runArrowmap(t, cmd, path)
			assert.Equal(t, 1, status, "arrowmap %s", cmd)
			assert.Empty(t, out, "arrowmap %s", cmd)
			requireOneLine(t, errors.New(strings.TrimSuffix(errOut, "\n")), append(named, path)...)
		}
	}
}

func TestTheReferenceReadsHalfFloatsByTheirBits(t *testing.T) {
	for _, f := range float16Bits {
		got := halfFloat(f.bits)
		if f.value != f.value {
			assert.True(t, math.IsNaN(got), "%#04x", f.bits)
			continue
		}
		assert.Equal(t, float64(f.value), got, "%#04x", f.bits)
		assert.Equal(t, math.Signbit(float64(f.value)), math.Signbit(got), "%#04x", f.bits)
	}
	assert.True(t, math.IsInf(halfFloat(0xFC00), -1))
	assert.True(t, math.IsNaN(halfFloat(0x7E00)))
}

// requireEncodings requires the column chunks of the file at path to use
// the encodings of want, by leaf path.
func requireEncodings(t *testing.T, path string, want map[string]pq.Encoding) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	used := map[string][]pq.Encoding{}
	for g := range pf.NumRowGroups() {
		rg := pf.MetaData().RowGroup(g)
		for c := range rg.NumColumns() {
			chunk, err := rg.ColumnChunk(c)
			require.NoError(t, err)
			used[chunk.PathInSchema().String()] = append(used[chunk.PathInSchema().String()], chunk.Encodings()...)
		}
	}
	for leaf, enc := range want {
		require.Contains(t, used, leaf)
		assert.Contains(t, used[leaf], enc, "the encodings of %s", leaf)
	}
}

// requireOneLine requires err to be one line of text that holds every one
// of words.
func requireOneLine(t *testing.T, err error, words ...string) {
	t.Helper()
	require.Error(t, err)
	msg := err.Error()
	assert.NotContains(t, msg, "\n", "one line")
	assert.NotContains(t, msg, "panic", "no panic")
	for _, w := range words {
		assert.Contains(t, msg, w)
	}
}

// guard is f's results, with a panic of f a test failure's error rather
// than the end of the test binary.
func guard[V any](f func() (V, error)) (v V, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// pqarrowSchema is the Arrow schema pqarrow reads from the file at path.
func pqarrowSchema(path string) (*arrow.Schema, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.Schema()
}

// conformanceRecords is every record of the file at path, batch rows each, as
// pqarrow reads them, and their schema.
func conformanceRecords(t *testing.T, path string, batch int64) ([]arrow.RecordBatch, *arrow.Schema) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batch}, memory.DefaultAllocator)
	require.NoError(t, err)
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	require.NoError(t, err)
	defer rr.Release()
	var recs []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rr.Err(); err != nil && err != io.EOF {
		require.NoError(t, err)
	}
	return recs, rr.Schema()
}

// rowTags is the tag of each field of the struct type named typ in the Go
// source src that `arrowmap gen` prints, by field name.
func rowTags(t *testing.T, src, typ string) map[string]reflect.StructTag {
	t.Helper()
	_, body, ok := strings.Cut(src, "\ntype "+typ+" struct {\n")
	require.True(t, ok, "arrowmap gen declares %s:\n%s", typ, src)
	body, _, ok = strings.Cut(body, "\n}\n")
	require.True(t, ok, "the end of %s:\n%s", typ, src)
	fields := map[string]reflect.StructTag{}
	for _, line := range strings.Split(body, "\n") {
		m := genField.FindStringSubmatch(line)
		require.NotNil(t, m, "a field of %s: %q", typ, line)
		fields[m[1]] = reflect.StructTag(m[2])
	}
	return fields
}

// genField is a field's line in gen's source: its name, its type, its
// tag.
var genField = regexp.MustCompile("^\\t(\\w+)\\s+\\S+\\s+`([^`]*)`$")

// schemaText is schema written out whole: every field at every depth with
// its name, nullability and metadata, which arrow.Schema's Equal and String
// leave out below the columns (a list element's name, a map's entries).
// pqarrow's PARQUET:field_id=-1 is left out: it says no field id.
func schemaText(schema *arrow.Schema) string {
	var b strings.Builder
	for _, f := range schema.Fields() {
		b.WriteString(fieldText(f) + "\n")
	}
	if md := schema.Metadata(); md.Len() > 0 {
		b.WriteString("metadata " + md.String() + "\n")
	}
	return b.String()
}

func fieldText(f arrow.Field) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q", f.Name)
	if f.Nullable {
		b.WriteString(" nullable")
	}
	b.WriteString(": ")
	nested, ok := f.Type.(arrow.NestedType)
	if !ok {
		b.WriteString(f.Type.String())
	} else {
		b.WriteString(f.Type.Name())
		switch dt := f.Type.(type) {
		case *arrow.MapType:
			if dt.KeysSorted {
				b.WriteString(" keys_sorted")
			}
		case *arrow.FixedSizeListType:
			fmt.Fprintf(&b, "(%d)", dt.Len())
		}
		b.WriteByte('<')
		for i, c := range nested.Fields() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fieldText(c))
		}
		b.WriteByte('>')
	}
	md := f.Metadata
	if i := md.FindKey("PARQUET:field_id"); i >= 0 && md.Values()[i] == "-1" {
		md = arrow.NewMetadata(slices.Delete(slices.Clone(md.Keys()), i, i+1), slices.Delete(slices.Clone(md.Values()), i, i+1))
	}
	if md.Len() > 0 {
		b.WriteString(" " + md.String())
	}
	return b.String()
}

// orderedJSONOf is v marshalled and read back, as a line of `arrowmap
// head` is.
func orderedJSONOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	out, err := orderedJSON(b)
	require.NoError(t, err)
	return out
}
