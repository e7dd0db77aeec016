package duckdb_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// queryDirectionCalls are calls of the queries given an option of the
// inserts (wrong) and the same calls given one of their own (right).
var queryDirectionCalls = []struct{ wrong, right string }{
	{`duckdb.Query[Row](ctx, db, "q", duckdb.IngestConfig{})`, `duckdb.Query[Row](ctx, db, "q", duckdb.QueryConfig{})`},
	{`duckdb.QueryWith[Row](ctx, db, "q", rows, duckdb.IngestConfig{})`, `duckdb.QueryWith[Row](ctx, db, "q", rows, mapper.Strict())`},
	{`duckdb.QueryColumns[Row](ctx, db, "q", mapper.SchemaMetadata(md))`, `duckdb.QueryColumns[Row](ctx, db, "q", mapper.SnakeCase())`},
	{`duckdb.QueryRecords(ctx, db, "q", mapper.SchemaMetadata(md))`, `duckdb.QueryRecords(ctx, db, "q", duckdb.QueryConfig{Lossy: true})`},
}

// queryDirectionProgram is a package of the calls, one a line in the
// function calls, so that an error's line names its call.
func queryDirectionProgram(calls []string) string {
	var b strings.Builder
	b.WriteString(`package direction

import (
	"context"
	"database/sql"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/duckdb"
	"github.com/arrowmap/arrowmap/mapper"
)

type Row struct{ ID int64 }

var (
	ctx  = context.Background()
	db   *sql.DB
	rows []Row
	md   arrow.Metadata
)

`)
	b.WriteString("func use(...any) {}\n\nfunc calls() {\n")
	for _, c := range calls {
		fmt.Fprintf(&b, "\tuse(%s)\n", c)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestAnIngestsOptionGivenToAQueryDoesNotCompile is the twin of mapper's
// TestAnOptionOfTheOtherDirectionDoesNotCompile for this module: it builds
// a package that gives each query an option of the inserts, and each call
// is a compile error about the argument's type; the same calls with an
// option of their own build.
func TestAnIngestsOptionGivenToAQueryDoesNotCompile(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	module, err := filepath.Abs(".")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(module, "go.sum"))
	require.NoError(t, err)
	build := func(t *testing.T, calls []string) (string, error) {
		dir := t.TempDir()
		mod := fmt.Sprintf("module direction\n\ngo 1.26\n\nrequire (\n\tgithub.com/arrowmap/arrowmap v0.0.0\n\tgithub.com/arrowmap/arrowmap/duckdb v0.0.0\n)\n\n"+
			"replace github.com/arrowmap/arrowmap => %s\n\nreplace github.com/arrowmap/arrowmap/duckdb => %s\n", filepath.Dir(module), module)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "direction.go"), []byte(queryDirectionProgram(calls)), 0o644))
		// The tag of this module's tests, so that its dependencies come
		// built from the cache.
		cmd := exec.Command(goCmd, "build", "-tags=duckdb_arrow", "-gcflags=-e", ".")
		cmd.Dir = dir
		// Offline, from the module cache the module's own build fills.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	var wrong, right []string
	for _, c := range queryDirectionCalls {
		wrong, right = append(wrong, c.wrong), append(right, c.right)
	}
	out, err := build(t, right)
	require.NoError(t, err, "the calls with options of their own direction build:\n%s", out)

	out, err = build(t, wrong)
	require.Error(t, err, "the calls with an insert's option build")
	firstLine := strings.Count(strings.Split(queryDirectionProgram(nil), "func calls() {")[0], "\n") + 2
	lines := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)direction\.go:(\d+):\d+: (.*)$`).FindAllStringSubmatch(out, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		lines[n] = m[2]
	}
	for i, c := range queryDirectionCalls {
		msg, ok := lines[firstLine+i]
		if assert.True(t, ok, "%s compiles:\n%s", c.wrong, out) {
			assert.Regexp(t, `^cannot use .* as .*ReadOption value in argument to .*missing method ReadOption\)$`, msg, c.wrong)
		}
	}
	assert.Len(t, lines, len(queryDirectionCalls), "one error a call, and no other:\n%s", out)
}
