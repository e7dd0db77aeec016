package typecount

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// root is the repository's root, three levels up.
const root = "../../.."

// TestEveryArrowTypeIsNamedInAtMostTwoFilesBeyondTheTable is the one-table
// rule, counted honestly: every way of naming a type, in every module,
// outside the table and its generated dispatch, in at most two production
// files. It prints the table docs/layout.md
// quotes.
//
// A type is also named by its family, the table's Layout or Temporal
// constant (arrowtype.Struct, arrowtype.Timestamp), and the families are
// not yet at two files: each package still switches on them by hand, where
// an engine's own representation of a kind (how DuckDB, Parquet, JSON and
// Go hold a timestamp) is decided. Their counts are held to the figures
// below, which may only fall: a file that starts naming a family fails the
// test, and one that stops naming it fails it too, until its figure is
// lowered here, so the record is always the count.
func TestEveryArrowTypeIsNamedInAtMostTwoFilesBeyondTheTable(t *testing.T) {
	counts, families, err := Repository(root)
	require.NoError(t, err)
	require.Len(t, counts, len(arrowtype.Rows()))
	t.Log("\n" + Markdown(counts))
	t.Log("\n" + FamilyMarkdown(families))
	for _, c := range counts {
		assert.NotEmpty(t, c.Files[Table], "the table names %s", c.Type)
		assert.LessOrEqual(t, len(c.Beyond()), 2, "%s is named in %v", c.Type, c.Beyond())
	}
	got := map[string]int{}
	for _, f := range families {
		got[f.Name] = len(f.Beyond())
	}
	assert.Equal(t, familyFiles, got, "the production files beyond the table that name each family")

	doc, err := os.ReadFile(filepath.Join(root, "docs", "layout.md"))
	require.NoError(t, err)
	for _, table := range []string{Markdown(counts), FamilyMarkdown(families)} {
		assert.Equal(t, table, quoted(string(doc), table[:strings.Index(table, "\n")+1]),
			"docs/layout.md quotes the table as it is (rewrite it from this test's -v output)")
	}
}

// quoted is the Markdown table of doc that starts with the line header.
func quoted(doc, header string) string {
	i := strings.Index(doc, header)
	if i < 0 {
		return ""
	}
	end := strings.Index(doc[i:], "\n\n")
	if end < 0 {
		return doc[i:]
	}
	return doc[i : i+end+1]
}

// familyFiles is, for each family, the production files beyond the table
// that name it (TestEveryArrowTypeIsNamedInAtMostTwoFilesBeyondTheTable).
var familyFiles = map[string]int{
	"Null": 11, "Boolean": 8, "Fixed": 9, "Binary": 10, "View": 5, "FixedBinary": 12, "List": 13,
	"ListView": 10, "FixedList": 8, "Struct": 17, "Union": 11, "Dictionary": 16, "RunEnd": 9,
	"Extension": 5, "Date": 0, "TimeOfDay": 2, "Timestamp": 2, "Duration": 1, "Interval": 1,
}

// FamilyMarkdown is families as the Markdown table docs/layout.md quotes.
func FamilyMarkdown(families []Family) string {
	var b strings.Builder
	b.WriteString("| family | its rows | production files beyond the table | generated | tests | the production files |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | --- |\n")
	for _, f := range families {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s |\n", f.Name, strings.Join(f.Rows, ", "), len(f.Beyond()),
			len(f.Files[Generated]), len(f.Files[Test]), strings.Join(f.Beyond(), ", "))
	}
	return b.String()
}

// Markdown is counts as the Markdown table docs/layout.md quotes.
func Markdown(counts []Count) string {
	var b strings.Builder
	b.WriteString("| Arrow type | production files beyond the table | generated | tests | the production files |\n")
	b.WriteString("| --- | ---: | ---: | ---: | --- |\n")
	for _, c := range counts {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", c.Type, len(c.Beyond()), len(c.Files[Generated]), len(c.Files[Test]),
			strings.Join(c.Beyond(), ", "))
	}
	return b.String()
}

// TestTheCountFindsEveryWayOfNamingAType writes files that name one type
// each way the count knows, and ways it must not count: a comment, a name
// of another package spelled alike, a test.
func TestTheCountFindsEveryWayOfNamingAType(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	const imports = "package p\n\nimport (\n\t\"github.com/apache/arrow-go/v18/arrow\"\n\t\"github.com/apache/arrow-go/v18/arrow/array\"\n" +
		"\t\"github.com/apache/arrow-go/v18/arrow/decimal\"\n\tdec \"github.com/apache/arrow-go/v18/arrow/decimal128\"\n" +
		"\t\"github.com/apache/arrow-go/v18/arrow/float16\"\n\t\"github.com/arrowmap/arrowmap/internal/arrowtype\"\n\t\"github.com/arrowmap/arrowmap/views\"\n)\n\n"
	write("id.go", imports+"var _ = arrow.DATE64\n")
	write("type.go", imports+"var _ *arrow.Time32Type\n")
	write("named.go", imports+"var _ arrow.Timestamp\n")
	write("array.go", imports+"var _ *array.Duration\n")
	write("builder.go", imports+"var _ = array.NewStringViewBuilder\n")
	write("group.go", imports+"var _ = arrow.PrimitiveTypes.Uint16\n")
	write("value.go", imports+"var _ = arrowtype.Float16\n")
	write("gotype.go", imports+"var _ float16.Num\n")
	write("alias.go", imports+"var _ dec.Num\n") // decimal.Decimal128 under another name
	write("decimal.go", imports+"var _ decimal.Decimal256\n")
	write("view.go", imports+"var _ views.FixedSizeList\n")
	write("family.go", imports+"var _ = arrowtype.Struct\n")
	write("temporal_test.go", imports+"var _ = arrowtype.Timestamp\n")
	write("comment.go", imports+"// arrow.INT8 array.Int8 arrowtype.Int8 arrowtype.List\nvar _ = 1\n")
	write("other.go", "package p\n\nimport arrow \"example.com/arrow\"\n\nvar _ = arrow.INT16\n")
	write("a_test.go", imports+"var _ = arrow.UINT32\n")
	write("gen.go", "// Code generated by hand; DO NOT EDIT.\n\n"+imports+"var _ = arrow.UINT64\n")
	write("internal/arrowtype/table.go", "package arrowtype\n\nimport \"github.com/apache/arrow-go/v18/arrow\"\n\nvar _ = arrow.LIST\n")
	write("duckdb/internal/arrowtype/table.go", "// Code generated by go generate ./internal/arrowtype: a copy of internal/arrowtype/table.go; DO NOT EDIT.\n\n"+
		"package arrowtype\n\nimport \"github.com/apache/arrow-go/v18/arrow\"\n\nvar _ = arrow.LARGE_LIST\n")
	write("duckdb/carry.go", "package duckdb\n\nimport \"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype\"\n\nvar _ = arrowtype.Float32\n")
	counts, families, err := Repository(dir)
	require.NoError(t, err)
	files := map[string]map[Kind][]string{}
	for _, c := range counts {
		files[c.Type] = c.Files
	}
	for typ, file := range map[string]string{"date64": "id.go", "time32": "type.go", "timestamp": "named.go", "duration": "array.go",
		"utf8_view": "builder.go", "uint16": "group.go", "decimal128": "alias.go", "decimal256": "decimal.go",
		"fixed_size_list": "view.go"} {
		assert.Equal(t, map[Kind][]string{Production: {file}}, files[typ], typ)
	}
	assert.Empty(t, files["int8"], "a comment names nothing")
	assert.Empty(t, files["int16"], "another package's arrow is not arrow-go's")
	assert.Equal(t, map[Kind][]string{Test: {"a_test.go"}}, files["uint32"])
	assert.Equal(t, map[Kind][]string{Generated: {"gen.go"}}, files["uint64"])
	assert.Equal(t, map[Kind][]string{Table: {"internal/arrowtype/table.go"}}, files["list"])
	assert.Equal(t, map[Kind][]string{Generated: {"duckdb/internal/arrowtype/table.go"}}, files["large_list"], "the duckdb module's copy of the table")
	assert.Equal(t, map[Kind][]string{Production: {"duckdb/carry.go"}}, files["float32"], "a Value of the copy is the table's")
	assert.Equal(t, map[Kind][]string{Production: {"gotype.go", "value.go"}}, files["float16"], "the table's Value and the Go type")

	byName := map[string]Family{}
	for _, f := range families {
		byName[f.Name] = f
	}
	assert.Equal(t, Family{Name: "Struct", Rows: []string{"struct"}, Files: map[Kind][]string{Production: {"family.go"}}}, byName["Struct"])
	assert.Equal(t, Family{Name: "Timestamp", Rows: []string{"timestamp"}, Files: map[Kind][]string{Test: {"temporal_test.go"}}}, byName["Timestamp"])
	assert.Equal(t, []string{"list", "map", "large_list"}, byName["List"].Rows)
	assert.Empty(t, byName["List"].Files, "a comment names no family")
	assert.Equal(t, []string{"time32", "time64"}, byName["TimeOfDay"].Rows)
	assert.NotContains(t, byName, "Unsupported", "a constant of no row is no family")
	assert.NotContains(t, byName, "NotTemporal", "a constant of no row is no family")
	assert.Empty(t, files["struct"], "a family's name is counted for the family, not its row")
}
