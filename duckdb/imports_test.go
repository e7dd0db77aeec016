package duckdb_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThePackageImportsNoInternalPackageOfTheRoot lists every package of
// this module the duckdb package builds from, with DuckDB's Arrow
// interface and without, and their imports: none is an internal package of
// the root module. This module is released apart from the root, and an
// internal package has no API to keep: one the root changed would break
// the duckdb module of a release before. (The root's public packages
// import the root's internal ones at their own version, which is theirs.)
// The table of Arrow's types it needs is its own copy, internal/arrowtype,
// generated from the root's. Its tests may use the root's test support.
func TestThePackageImportsNoInternalPackageOfTheRoot(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	const module = "github.com/arrowmap/arrowmap/duckdb"
	for _, tags := range []string{"duckdb_arrow", ""} {
		out, err := exec.Command(goCmd, "list", "-tags="+tags, "-deps", "-f",
			`{{if .Module}}{{if eq .Module.Path "`+module+`"}}{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{"\n"}}{{end}}{{end}}`, ".").CombinedOutput()
		require.NoError(t, err, "%s", out)
		ours := map[string][]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			ours[f[0]] = f[1:]
		}
		require.Contains(t, ours, module, "the list is of the module's packages")
		require.Contains(t, ours, module+"/internal/arrowtype")
		assert.Contains(t, ours[module], "github.com/arrowmap/arrowmap/mapper", "their imports listed")
		for pkg, imports := range ours {
			for _, imp := range imports {
				assert.False(t, strings.HasPrefix(imp, "github.com/arrowmap/arrowmap/internal/"),
					"%s (tags %q) imports the root's %s", pkg, tags, imp)
			}
		}
	}
}
