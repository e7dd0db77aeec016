package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onTerminal runs the binary with args under a pseudo-terminal, through
// util-linux's script, and returns what the terminal showed.
func onTerminal(t *testing.T, args ...string) string {
	t.Helper()
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux's script is not on PATH: no pseudo-terminal to run the command on")
	}
	line := []string{binaryPath}
	for _, a := range args {
		line = append(line, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	out, err := exec.Command(script, "-qfec", strings.Join(line, " "), "/dev/null").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// On a terminal, convert shows the rows it converted, with the percentage
// of the total a Parquet footer gives; -q silences it; on a standard error
// that is not a terminal it shows nothing (convertOK checks that).
func TestConvertShowsProgressOnATerminal(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "sample.parquet")
	convertOK(t, "sample.arrow", pq)
	t.Run("with the percentage of a Parquet file's rows", func(t *testing.T) {
		shown := onTerminal(t, "convert", pq, filepath.Join(dir, "a.arrow"))
		assert.Contains(t, shown, "%")
		assert.Contains(t, shown, "/3000")
		assert.Contains(t, shown, "rows")
	})
	t.Run("rows without a total for an IPC file", func(t *testing.T) {
		shown := onTerminal(t, "convert", "sample.arrow", filepath.Join(dir, "b.arrows"))
		assert.Contains(t, shown, "rows")
		assert.NotContains(t, shown, "%")
	})
	t.Run("nothing with -q", func(t *testing.T) {
		shown := onTerminal(t, "convert", "-q", pq, filepath.Join(dir, "c.arrow"))
		assert.Empty(t, strings.TrimSpace(shown))
	})
	t.Run("the file is what it is without a terminal", func(t *testing.T) {
		assert.Equal(t, everyRow(t, pq), everyRow(t, filepath.Join(dir, "a.arrow")))
	})
}
