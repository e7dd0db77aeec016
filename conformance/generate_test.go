package conformance

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedTypesAreWhatGenPrints runs go generate's program again, so
// that the committed types cannot drift from what arrowmap gen prints for
// the testdata.
func TestGeneratedTypesAreWhatGenPrints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/arrowmap")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run arrowmap gen with")
	}
	out := filepath.Join(t.TempDir(), "types_gen_test.go")
	cmd := exec.Command(goTool, "run", "regen.go", "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "regen.go: %s", stderr.String())
	fresh, err := os.ReadFile(out)
	require.NoError(t, err)
	committed, err := os.ReadFile("types_gen_test.go")
	require.NoError(t, err)
	if !bytes.Equal(fresh, committed) {
		t.Errorf("types_gen_test.go is not what arrowmap gen prints now: run go generate ./conformance\nfirst difference:\n%s", firstLineDiff(committed, fresh))
	}
}

func firstLineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return "none"
}

// TestTheGoldenReaderSharesNoCodeWithTheMapper checks that package golden
// imports the standard library only: neither arrowmap nor arrow-go.
func TestTheGoldenReaderSharesNoCodeWithTheMapper(t *testing.T) {
	files, err := filepath.Glob("internal/golden/*.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			assert.NotContains(t, path, ".", "%s imports %s: package golden imports the standard library only", name, path)
		}
	}
}
