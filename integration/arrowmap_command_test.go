package integration

import (
	"bytes"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The arrowmap command, built once for the tests that need it (its
// functions are in package main, which no test here can import; `go run`
// per file would build it every time).
var arrowmapCommand struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// arrowmapBinary is the path of the arrowmap command built from this
// checkout.
func arrowmapBinary(t *testing.T) string {
	t.Helper()
	c := &arrowmapCommand
	c.once.Do(func() {
		if c.dir, c.err = os.MkdirTemp("", "arrowmap-cmd-"); c.err != nil {
			return
		}
		c.path = filepath.Join(c.dir, "arrowmap")
		// Built in the root module, with its go.mod and go.sum, as its
		// users build it: this module requires none of the command's
		// own dependencies (its progress bar).
		build := osexec.Command("go", "build", "-o", c.path, "./cmd/arrowmap")
		build.Dir = ".."
		out, err := build.CombinedOutput()
		if err != nil {
			c.err = errors.New(string(out))
		}
	})
	require.NoError(t, c.err, "building the arrowmap command")
	return c.path
}

// runArrowmap runs the arrowmap command with args and returns its standard
// output and error and its exit status.
func runArrowmap(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := osexec.Command(arrowmapBinary(t), args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *osexec.ExitError
	if errors.As(err, &exit) {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errOut.String(), 0
}

func TestMain(m *testing.M) {
	code := m.Run()
	if arrowmapCommand.dir != "" {
		os.RemoveAll(arrowmapCommand.dir)
	}
	os.Exit(code)
}
