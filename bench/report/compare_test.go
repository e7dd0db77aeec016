package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeBench is an executable that prints one benchmark line of ns ns/op
// each time it runs, and appends its name to a log, to see the order of
// the runs.
func fakeBench(t *testing.T, dir, name, ns, log string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	script := "#!/bin/sh\necho " + name + " >> " + log + "\n" +
		"echo 'BenchmarkDecode/flat-2   100   " + ns + " ns/op   64 B/op   2 allocs/op'\n" +
		"echo 'BenchmarkOnlyHere-2   100   5 ns/op'\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func TestCompareAlternatesTheBinariesAndGivesNewOverOld(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "runs")
	oldBin := fakeBench(t, dir, "old", "2000", log)
	newBin := fakeBench(t, dir, "new", "1500", log)
	var out strings.Builder
	require.NoError(t, compare(&out, oldBin, newBin, 3, ".", ""))
	runs, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "old\nnew\nold\nnew\nold\nnew\n", string(runs))
	assert.Contains(t, out.String(), "| Decode/flat | 2.00 µs | 1.50 µs | 0.75 |")
	assert.Contains(t, out.String(), "| OnlyHere |", "a benchmark of both binaries")
}
