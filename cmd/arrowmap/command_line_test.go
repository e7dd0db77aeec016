package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/internal/version"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arrowmapWith is arrowmap with env added to the command's environment.
func arrowmapWith(t *testing.T, env []string, stdin []byte, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	cmd := exec.Command(binaryPath, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errOut.String(), 0
}

// copyFile copies the file src to a new file in dir and returns its path.
func copyFile(t *testing.T, src, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// dirNames is the names of the entries of dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// -version prints the version the Parquet files arrowmap writes name.
func TestVersionIsTheOneTheParquetFilesName(t *testing.T) {
	for _, arg := range []string{"-version", "--version", "version"} {
		stdout, stderr, status := arrowmap(t, nil, arg)
		assert.Equal(t, 0, status, "%s: %s", arg, stderr)
		assert.Equal(t, "arrowmap version "+version.Version+"\n", stdout, arg)
	}
}

// What the command line alone shows wrong is a usage error: a line naming
// it, then the usage of the command, and exit status 2, before any file
// is read or written.
func TestUsageErrorsExitTwoWithTheUsageOfTheirCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.arrow")
	for _, tc := range []struct {
		name     string
		args     []string
		contains string
		usage    string // the first line of the usage printed
	}{
		{"no command", nil, "missing command", "usage: arrowmap COMMAND"},
		{"an unknown command", []string{"tail", testFiles.ipcFile}, `"tail"`, "usage: arrowmap COMMAND"},
		{"an unknown flag", []string{"head", "-x", testFiles.ipcFile}, "-x", "usage: arrowmap head"},
		{"a flag of another command", []string{"schema", "-n", "3"}, "-n", "usage: arrowmap schema"},
		{"a negative -n", []string{"head", "-n", "-1"}, "negative", "usage: arrowmap head"},
		{"a -n that is not a number", []string{"head", "-n", "ten"}, "ten", "usage: arrowmap head"},
		{"two files to head", []string{"head", testFiles.ipcFile, testFiles.stream}, "one FILE at most", "usage: arrowmap head"},
		{"two files to schema", []string{"schema", testFiles.ipcFile, testFiles.stream}, "one FILE at most", "usage: arrowmap schema"},
		{"two files to gen", []string{"gen", testFiles.ipcFile, testFiles.stream}, "one FILE at most", "usage: arrowmap gen"},
		{"a package name that is not an identifier", []string{"gen", "-package", "my-pkg"}, "my-pkg", "usage: arrowmap gen"},
		{"a type name that is not exported", []string{"gen", "-type", "row"}, `"row"`, "usage: arrowmap gen"},
		{"convert without arguments", []string{"convert"}, "want IN OUT, got 0", "usage: arrowmap convert"},
		{"convert with one argument", []string{"convert", out}, "want IN OUT, got 1", "usage: arrowmap convert"},
		{"convert with three arguments", []string{"convert", testFiles.ipcFile, out, out}, "want IN OUT, got 3", "usage: arrowmap convert"},
		{"an unknown flag to convert", []string{"convert", "-n", "3", testFiles.ipcFile, out}, "-n", "usage: arrowmap convert"},
		{"an unknown extension", []string{"convert", testFiles.ipcFile, filepath.Join(dir, "out.csv")}, `unknown extension ".csv"`, "usage: arrowmap convert"},
		{"no extension", []string{"convert", testFiles.ipcFile, filepath.Join(dir, "out")}, "no extension", "usage: arrowmap convert"},
		{"standard output without -to", []string{"convert", testFiles.ipcFile, "-"}, "needs -to", "usage: arrowmap convert"},
		{"an unknown -to", []string{"convert", "-to", "csv", testFiles.ipcFile, out}, `-to "csv"`, "usage: arrowmap convert"},
		{"an unknown -from", []string{"convert", "-from", "csv", testFiles.ipcFile, out}, `-from "csv"`, "usage: arrowmap convert"},
		{"an unknown compression", []string{"convert", "-compression", "brotli", testFiles.ipcFile, out}, `-compression "brotli"`, "usage: arrowmap convert"},
		{"snappy for IPC", []string{"convert", "-compression", "snappy", testFiles.ipcFile, out}, `-compression "snappy"`, "usage: arrowmap convert"},
		{"-to stream for a .arrow file", []string{"convert", "-to", "stream", testFiles.ipcFile, out}, "-to stream writes an Arrow IPC stream, but " + out + " names an Arrow IPC file", "usage: arrowmap convert"},
		{"-to file for a .parquet file", []string{"convert", "-to", "file", testFiles.ipcFile, filepath.Join(dir, "out.parquet")}, "names a Parquet file", "usage: arrowmap convert"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, tc.args...)
			assert.Equal(t, 2, status, "stderr: %s", stderr)
			assert.Empty(t, stdout)
			first, rest, _ := strings.Cut(stderr, "\n")
			assert.True(t, strings.HasPrefix(first, "arrowmap: "), "stderr: %q", stderr)
			assert.Contains(t, first, tc.contains)
			assert.True(t, strings.HasPrefix(strings.TrimLeft(rest, "\n"), tc.usage), "the usage follows: %q", rest)
			assert.Empty(t, dirNames(t, dir), "nothing written")
		})
	}
}

// Each subcommand's -h prints its own usage, with its flags, on standard
// error, and exits 0; arrowmap -h prints the global usage, which lists the
// subcommands.
func TestEveryCommandHasItsOwnHelp(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		usage string
		flags []string
	}{
		{[]string{"-h"}, "usage: arrowmap COMMAND", []string{"head [-n N] [FILE]", "schema [FILE]", "gen [-package P] [-type T] [FILE]", "convert [-from F] [-to F] [-compression C] [-q] IN OUT"}},
		{[]string{"help"}, "usage: arrowmap COMMAND", []string{"head", "schema", "gen", "convert"}},
		{[]string{"head", "-h"}, "usage: arrowmap head [-n N] [-max-page-size BYTES] [-max-expansion N] [-int96-unit U] [FILE]", []string{"  -n int\n", "the number of rows to print (default 10)", "  -max-page-size int\n", "  -max-expansion int\n", "  -int96-unit string\n"}},
		{[]string{"schema", "-h"}, "usage: arrowmap schema [FILE]", []string{"reads the schema alone", "standard input"}},
		{[]string{"gen", "-h"}, "usage: arrowmap gen [-package P] [-type T] [FILE]", []string{"  -package string\n", "  -type string\n", "(default \"Row\")"}},
		{[]string{"convert", "-h"}, "usage: arrowmap convert [-from F] [-to F] [-compression C] [-max-expansion N] [-q] IN OUT", []string{"  -from string\n", "  -to string\n", "  -compression string\n", "  -max-expansion int\n", "  -q\t", "temporary file"}},
		{[]string{"convert", "--help"}, "usage: arrowmap convert", []string{"  -compression string\n"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, tc.args...)
			assert.Equal(t, 0, status)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, tc.usage), "stderr: %s", stderr)
			for _, f := range tc.flags {
				assert.Contains(t, strings.ToLower(stderr), strings.ToLower(f))
			}
		})
	}
}

// convert with one argument used to write the embedded sample over it.
func TestConvertWithOneArgumentLeavesTheFileAsItWas(t *testing.T) {
	dir := t.TempDir()
	path := copyFile(t, testFiles.ipcFile, dir, "mine.arrow")
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	_, stderr, status := arrowmap(t, nil, "convert", path)
	assert.Equal(t, 2, status, "stderr: %s", stderr)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	assert.Equal(t, []string{"mine.arrow"}, dirNames(t, dir))
}

// OUT may not be IN: by the same name, another name, a symbolic link or a
// hard link. The file is left as it was, and nothing is written beside.
func TestConvertRefusesToWriteOverItsInput(t *testing.T) {
	dir := t.TempDir()
	path := copyFile(t, testFiles.stream, dir, "in.arrows")
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	symlink := filepath.Join(dir, "link.arrows")
	require.NoError(t, os.Symlink(path, symlink))
	hardlink := filepath.Join(dir, "hard.arrows")
	require.NoError(t, os.Link(path, hardlink))
	for _, tc := range []struct{ name, in, out string }{
		{"the same path", path, path},
		{"the same file by another path", path, filepath.Join(dir, ".", "in.arrows")},
		{"a symbolic link to the input", path, symlink},
		{"the input through a symbolic link", symlink, path},
		{"a hard link to the input", path, hardlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, "convert", tc.in, tc.out)
			assert.Equal(t, 1, status, "stderr: %s", stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "itself")
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, before, after)
			assert.ElementsMatch(t, []string{"in.arrows", "link.arrows", "hard.arrows"}, dirNames(t, dir))
		})
	}
}

// A panic in the middle of a conversion (provoked through the tests'
// hook, after the first record is written) is one line naming the input,
// status 1, and leaves neither the temporary file nor a changed OUT.
func TestAPanicMidConvertLeavesNoTemporaryFile(t *testing.T) {
	for _, out := range []string{"out.arrow", "out.arrows", "out.parquet"} {
		t.Run(out, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, out)
			require.NoError(t, os.WriteFile(path, []byte("before"), 0o600))
			stdout, stderr, status := arrowmapWith(t, []string{"ARROWMAP_TEST_PANIC_AFTER=1"}, nil, "convert", testFiles.ipcFile, path)
			t.Log(strings.TrimSpace(stderr))
			assert.Equal(t, 1, status)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, "arrowmap: "+testFiles.ipcFile+": "), "names the input: %q", stderr)
			assert.Contains(t, stderr, "the panic the tests asked for")
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.Equal(t, []string{out}, dirNames(t, dir), "no temporary file left")
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, "before", string(data))
		})
	}
}

// An IPC or Parquet file on standard input is spooled to a temporary file
// (it is read from its footer), which is removed at exit, on success and
// on failure alike.
func TestStandardInputSpoolsFilesAndRemovesTheCopy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		file   string
		args   []string
		status int
	}{
		{"an IPC file to head", testFiles.ipcFile, []string{"head", "-"}, 0},
		{"a Parquet file to convert", testFiles.pqt, []string{"convert", "-to", "stream", "-", "-"}, 0},
		{"a truncated Parquet file to head", testFiles.truncParquet, []string{"head", "-"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			data, err := os.ReadFile(tc.file)
			require.NoError(t, err)
			_, stderr, status := arrowmapWith(t, []string{"TMPDIR=" + tmp}, data, tc.args...)
			assert.Equal(t, tc.status, status, "stderr: %s", stderr)
			assert.Empty(t, dirNames(t, tmp), "the spooled copy is removed")
		})
	}
	t.Run("and a panic mid-convert removes it too", func(t *testing.T) {
		tmp := t.TempDir()
		data, err := os.ReadFile(testFiles.ipcFile)
		require.NoError(t, err)
		_, stderr, status := arrowmapWith(t, []string{"TMPDIR=" + tmp, "ARROWMAP_TEST_PANIC_AFTER=1"}, data, "convert", "-", filepath.Join(tmp, "out.arrows"))
		assert.Equal(t, 1, status)
		assert.True(t, strings.HasPrefix(stderr, "arrowmap: standard input: "), "stderr: %q", stderr)
		assert.Empty(t, dirNames(t, tmp))
	})
}

// durationRow is a row type with a duration, which Parquet stores as an
// int64 and the library restores from the Arrow schema it stores.
type durationRow struct {
	ID   int64         `arrow:"id"`
	Took time.Duration `arrow:"took"`
}

// What the library keeps, the command keeps: schema, gen and head of a
// Parquet file the library wrote from a T with a time.Duration see a
// duration, and convert keeps it through IPC and back to Parquet.
func TestTheCommandReadsTheTypesTheLibraryStores(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "durations.parquet")
	require.NoError(t, amparquet.WriteFile(path, []durationRow{{1, 1500 * time.Millisecond}, {2, -time.Hour}}, amparquet.WriteConfig{}))
	back := filepath.Join(dir, "back.parquet")
	convertOK(t, path, filepath.Join(dir, "via.arrow"))
	convertOK(t, filepath.Join(dir, "via.arrow"), back)
	for _, file := range []string{path, filepath.Join(dir, "via.arrow"), back} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			assert.Contains(t, schemaOf(t, file), "    - took: type=duration[ns]\n")
			src, stderr, status := arrowmap(t, nil, "gen", file)
			require.Equal(t, 0, status, stderr)
			assert.Regexp(t, "Took +time.Duration +`arrow:\"took\"`", src)
			assert.Equal(t, `{"id":1,"took":1500000000}`+"\n"+`{"id":2,"took":-3600000000000}`+"\n", everyRow(t, file))
		})
	}
}
