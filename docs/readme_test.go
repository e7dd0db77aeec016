// Package docs_test checks the README's programs: each complete program
// (a Go block that starts with "package main") builds and prints what the
// README's reader would expect, so that the door of the project never
// shows code that does not compile. The DuckDB program needs cgo and
// the duckdb module: the duckdb module's own test runs it.
package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmePrograms are the README's complete programs, by the first import
// path of arrowmap's they name.
func readmePrograms(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```go\n(package main\n.*?)```").FindAllStringSubmatch(string(b), -1)
	imp := regexp.MustCompile(`"github.com/arrowmap/arrowmap/([a-z]+)"`)
	programs := map[string]string{}
	for _, m := range blocks {
		pkg := imp.FindStringSubmatch(m[1])
		require.NotNil(t, pkg, "a README program imports no arrowmap package:\n%s", m[1])
		programs[pkg[1]] = m[1]
	}
	return programs
}

func TestTheREADMEsProgramsRunAndPrintWhatTheyWrote(t *testing.T) {
	programs := readmePrograms(t)
	require.Contains(t, programs, "duckdb", "the README shows a DuckDB program (run by the duckdb module's test)")
	for pkg, want := range map[string]string{
		"parquet": "2 orders: north [pen ink] leave at the door\n1 2026-11-02\n2 2026-11-03\n",
		"ipc":     "AAPL 189.5\nMSFT 411.2\n",
	} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			src, ok := programs[pkg]
			require.True(t, ok, "the README shows a program of package %s", pkg)
			// A directory inside the module, so that the program's imports
			// are this checkout's packages.
			dir, err := os.MkdirTemp(".", "readme-"+pkg+"-")
			require.NoError(t, err)
			t.Cleanup(func() { os.RemoveAll(dir) })
			require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))
			cmd := exec.Command("go", "run", "./"+filepath.Base(dir))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "go run of the README's %s program: %s", pkg, stderr.String())
			require.Equal(t, want, string(out))
		})
	}
}

// testFuncs are the names of the Test, Benchmark and Fuzz functions
// declared in the repository's test files, in every module.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`)
	names := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return nil
	})
	require.NoError(t, err)
	return names
}

// The README and the reference put each claim beside the test that checks
// it: a test renamed or removed must not leave the docs citing a name that
// checks nothing. A name alone in backticks must be declared; a name inside
// a command (`go test -run TestX ./pkg`) is a -run pattern, and must begin
// the name of some test.
func TestEveryTestTheDocsCiteExists(t *testing.T) {
	names := testFuncs(t)
	require.Contains(t, names, "TestEveryTestTheDocsCiteExists", "the walk finds this file's own tests")
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	docs = append(docs, filepath.Join("..", "README.md"))
	span := regexp.MustCompile("`([^`\n]+)`")
	ident := regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z0-9_]\w*`)
	cited := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, s := range span.FindAllStringSubmatch(string(b), -1) {
			for _, name := range ident.FindAllString(s[1], -1) {
				cited++
				if name == s[1] {
					assert.True(t, names[name], "%s cites %s, which no test file declares", doc, name)
					continue
				}
				prefixed := false
				for n := range names {
					prefixed = prefixed || strings.HasPrefix(n, name)
				}
				assert.True(t, prefixed, "%s runs %s in `%s`, which begins the name of no test", doc, name, s[1])
			}
		}
	}
	require.Greater(t, cited, 100, "the docs cite the tests that check their claims")
}
