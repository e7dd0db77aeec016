//go:build duckdb_arrow

package duckdb_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTheREADMEsDuckDBProgramRunsAndPrintsItsQuery runs the README's
// DuckDB program, as docs/readme_test.go runs the others (this one needs
// cgo and this module).
func TestTheREADMEsDuckDBProgramRunsAndPrintsItsQuery(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	var src string
	for _, m := range regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], `"github.com/arrowmap/arrowmap/duckdb"`) {
			src = m[1]
		}
	}
	require.NotEmpty(t, src, "the README shows a program importing the duckdb package")
	dir, err := os.MkdirTemp(".", "readme-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))
	cmd := exec.Command("go", "run", "-tags", "duckdb_arrow", "./"+filepath.Base(dir))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go run of the README's DuckDB program: %s", stderr.String())
	require.Equal(t, "[{east 1 99.99} {north 2 44.25}]\n", string(out))
}
