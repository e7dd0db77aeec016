package typecount

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// root is the repository's root, three levels up.
const root = "../../.."

// pending are the production files that still name types past the rule,
// each with why: the count holds every other file to it, and fails when
// one of these names no type that is past two files, so the list only
// shrinks.
var pending = map[string]string{
	"cmd/arrowmap/gen.go":                    "the CLI's generator of Go structs spells decimal widths (h/legacy's cmd/)",
	"cmd/arrowmap/head.go":                   "the CLI's printer formats float16, float32 and text by type (h/legacy's cmd/)",
	"cmd/arrowmap/internal/sample/sample.go": "sample data built with arrow-go's builders of each type",
	"duckdb/carry.go":                        "what DuckDB cannot hold, converted per type: truly DuckDB's",
	"parquet/convert.go":                     "Parquet's storage conversions (int32 as time32, int64 as duration, month_interval as int32)",
	"parquet/read_convert.go":                "what Parquet stores read back as Arrow (INT96 as timestamps, two-level lists), type by type",
	"parquet/internal/pagewriter/leaf.go":    "the page writer's physical types, a leaf kind per Arrow type",
	"parquet/write_storage.go":               "Parquet's physical storage of each logical type",
}

// TestEveryArrowTypeIsNamedInAtMostTwoFilesBeyondTheTable is the one-table
// rule, counted honestly: every way of naming a type, in every module,
// outside the table and its generated dispatch, in at most two production
// files (the pending ones aside). It prints the table docs/layout.md
// quotes.
func TestEveryArrowTypeIsNamedInAtMostTwoFilesBeyondTheTable(t *testing.T) {
	counts, err := Repository(root)
	require.NoError(t, err)
	require.Len(t, counts, len(arrowtype.Rows()))
	t.Log("\n" + Markdown(counts))
	needed := map[string]bool{}
	for _, c := range counts {
		assert.NotEmpty(t, c.Files[Table], "the table names %s", c.Type)
		var held []string
		for _, f := range c.Beyond() {
			if _, ok := pending[f]; !ok {
				held = append(held, f)
			}
		}
		assert.LessOrEqual(t, len(held), 2, "%s is named in %v", c.Type, held)
		for _, f := range c.Beyond() {
			if _, ok := pending[f]; ok && len(c.Beyond()) > 2 {
				needed[f] = true
			}
		}
	}
	for f := range pending {
		assert.True(t, needed[f], "%s no longer needs its place in pending: take it off", f)
	}
}

// Markdown is counts as the Markdown table docs/layout.md quotes.
func Markdown(counts []Count) string {
	var b strings.Builder
	b.WriteString("| Arrow type | production files beyond the table | generated | tests | the production files (* pending) |\n")
	b.WriteString("| --- | ---: | ---: | ---: | --- |\n")
	for _, c := range counts {
		files := slices.Clone(c.Beyond())
		for i, f := range files {
			if _, ok := pending[f]; ok {
				files[i] = f + "*"
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", c.Type, len(c.Beyond()), len(c.Files[Generated]), len(c.Files[Test]),
			strings.Join(files, ", "))
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
	write("comment.go", imports+"// arrow.INT8 array.Int8 arrowtype.Int8\nvar _ = 1\n")
	write("other.go", "package p\n\nimport arrow \"example.com/arrow\"\n\nvar _ = arrow.INT16\n")
	write("a_test.go", imports+"var _ = arrow.UINT32\n")
	write("gen.go", "// Code generated by hand; DO NOT EDIT.\n\n"+imports+"var _ = arrow.UINT64\n")
	write("internal/arrowtype/table.go", "package arrowtype\n\nimport \"github.com/apache/arrow-go/v18/arrow\"\n\nvar _ = arrow.LIST\n")
	write("duckdb/internal/arrowtype/table.go", "// Code generated by go generate ./internal/arrowtype: a copy of internal/arrowtype/table.go; DO NOT EDIT.\n\n"+
		"package arrowtype\n\nimport \"github.com/apache/arrow-go/v18/arrow\"\n\nvar _ = arrow.LARGE_LIST\n")
	write("duckdb/carry.go", "package duckdb\n\nimport \"github.com/arrowmap/arrowmap/duckdb/internal/arrowtype\"\n\nvar _ = arrowtype.Float32\n")
	counts, err := Repository(dir)
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
}
