package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, three levels up.
const root = "../../.."

// TestTheGeneratedFilesAreWhatTheTableMakes regenerates every *_gen.go
// into a temporary folder and fails on a file that differs from the one
// committed: run go generate ./internal/arrowtype after changing the table
// or a template.
func TestTheGeneratedFilesAreWhatTheTableMakes(t *testing.T) {
	files, err := generate(root)
	require.NoError(t, err)
	require.NotEmpty(t, files)
	tmp := t.TempDir()
	for rel, b := range files {
		require.NoError(t, os.MkdirAll(filepath.Join(tmp, filepath.Dir(rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(tmp, rel), b, 0o644))
	}
	for rel := range files {
		fresh, err := os.ReadFile(filepath.Join(tmp, rel))
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err, "%s is not generated: run go generate ./internal/arrowtype", rel)
		assert.Equal(t, string(fresh), string(committed), "%s is stale: run go generate ./internal/arrowtype", rel)
	}
}

// TestEveryGeneratedFileHasItsTemplate finds no *_gen.go left behind by a
// template that was removed or renamed.
func TestEveryGeneratedFileHasItsTemplate(t *testing.T) {
	files, err := generate(root)
	require.NoError(t, err)
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_gen.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "from "+filepath.Base(path)+".tmpl; DO NOT EDIT.") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		assert.Contains(t, files, filepath.ToSlash(rel), "%s has no template", rel)
		return nil
	}))
}

// TestTheDuckDBModulesCopyIsTheTableFileByFile finds in the duckdb
// module's copy of the table every production file of the table, under
// its generated header, and no other Go file (one left behind by a file of
// the table removed or renamed).
func TestTheDuckDBModulesCopyIsTheTableFileByFile(t *testing.T) {
	copies, err := copyTable(root)
	require.NoError(t, err)
	assert.Contains(t, copies, copyDir+"/table.go")
	assert.NotContains(t, copies, copyDir+"/arrowtype_test.go", "tests stay with the table")
	for rel, b := range copies {
		src, err := os.ReadFile(filepath.Join(root, tableDir, filepath.Base(rel)))
		require.NoError(t, err)
		header, body, ok := strings.Cut(string(b), "\n\n")
		require.True(t, ok)
		assert.Regexp(t, `^// Code generated .* DO NOT EDIT\.$`, header, rel)
		assert.Equal(t, goGenerate.ReplaceAllString(string(src), ""), body, "%s is its file of the table", rel)
	}
	assert.Contains(t, string(copies[copyDir+"/arrowtype.go"]), "without its go:generate line")
	assert.NotContains(t, string(copies[copyDir+"/arrowtype.go"]), "//go:generate", "the copy has no ./gen to run")
	entries, err := os.ReadDir(filepath.Join(root, copyDir))
	require.NoError(t, err)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			assert.Contains(t, copies, copyDir+"/"+e.Name(), "%s is no file of the table", e.Name())
		}
	}
}

// TestTemplatesSeeEachValueByTheClassesOfItsRows checks the classes a
// template picks a generic function by against what Arrow says of the
// types.
func TestTemplatesSeeEachValueByTheClassesOfItsRows(t *testing.T) {
	require.NoError(t, loadConsts(root))
	byName := map[string]Value{}
	for _, v := range tableData().Values {
		byName[v.Name] = v
	}
	require.Len(t, byName, 18)
	assert.Equal(t, Value{Name: "Int8", Type: "int8", Bytes: 1, Integer: true, Signed: true, Ordered: true}, byName["Int8"],
		"int8 indexes dictionaries but ends no runs")
	assert.True(t, byName["Int16"].RunEnds)
	assert.False(t, byName["Uint64"].RunEnds, "run ends are signed")
	assert.Equal(t, Value{Name: "Float16", Type: "float16.Num", Bytes: 2, Float: true, Signed: true}, byName["Float16"],
		"a float16 is no cmp.Ordered")
	assert.True(t, byName["Decimal32"].Decimal)
	assert.False(t, byName["Decimal32"].Integer, "a decimal32's int32 is no integer of the table")
	assert.Equal(t, "decimal128.Num", byName["Decimal128"].Type)
	assert.True(t, byName["MonthDayNanoInterval"].Interval)
	assert.False(t, byName["Int32"].Interval, "date32 and time32 share Int32 but make it no interval")
}

// TestPruneImportsKeepsOnlyTheImportsTheCodeUses checks the generated
// import block against a file that uses one of two.
func TestPruneImportsKeepsOnlyTheImportsTheCodeUses(t *testing.T) {
	out, err := pruneImports([]byte("package p\n\nimport (\n\t\"strings\"\n\t\"strconv\"\n)\n\nvar _ = strings.ToUpper\n"))
	require.NoError(t, err)
	assert.Contains(t, string(out), `"strings"`)
	assert.NotContains(t, string(out), `"strconv"`)
}
