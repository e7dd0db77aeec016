package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An interrupt leaves no temporary file behind: neither the file beside
// OUT that convert writes, nor the copy of a file on standard input. The
// command is stopped while it waits for the rest of its input, its
// temporary file made.
func TestAnInterruptLeavesNoTemporaryFile(t *testing.T) {
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	stream, err := os.ReadFile(testFiles.stream)
	require.NoError(t, err)
	parquetFile, err := os.ReadFile(testFiles.pqt)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		input []byte // the first half is sent, then the command waits
		args  func(dir string) []string
		temp  string // the temporary file's name starts so
	}{
		{"convert, writing beside OUT", stream, func(dir string) []string {
			return []string{"convert", "-", filepath.Join(dir, "out.parquet")}
		}, "out.parquet.tmp-"},
		{"head, spooling a Parquet file on standard input", parquetFile, func(string) []string {
			return []string{"head", "-"}
		}, "arrowmap-input-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.parquet")
			require.NoError(t, os.WriteFile(out, []byte("before"), 0o600))
			cmd := exec.Command(binaryPath, tc.args(dir)...)
			cmd.Env = append(os.Environ(), "TMPDIR="+dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			_, err = stdin.Write(tc.input[:len(tc.input)/2])
			require.NoError(t, err)

			made := func() bool {
				for _, n := range dirNames(t, dir) {
					if strings.HasPrefix(n, tc.temp) {
						return true
					}
				}
				return false
			}
			deadline := time.Now().Add(20 * time.Second)
			for !made() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !made() {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the command made no temporary file: %s", stderr.String())
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			err = cmd.Wait()
			stdin.Close()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			assert.Equal(t, 128+int(syscall.SIGINT), exit.ExitCode(), "stderr: %s", stderr.String())
			assert.Equal(t, []string{"out.parquet"}, dirNames(t, dir), "no temporary file left")
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, "before", string(data))
		})
	}
}
