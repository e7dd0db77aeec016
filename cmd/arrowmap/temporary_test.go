package main

import (
	"bytes"
	"fmt"
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

// stopMidway runs the binary with args, TMPDIR=tmpDir, and the first half
// of input on standard input, kept open so that the command waits for
// the rest; once the command has a file open in dir (its file for OUT,
// its copy of standard input: named or not, /proc shows it), it sends it
// sig and returns its exit status and standard error.
func stopMidway(t *testing.T, args []string, input []byte, tmpDir, dir string, sig syscall.Signal) (int, string) {
	t.Helper()
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skipf("no /proc/self/fd to see the command's open files: %v", err)
	}
	cmd := exec.Command(binaryPath, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmpDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer stdin.Close()
	_, err = stdin.Write(input[:len(input)/2])
	require.NoError(t, err)
	deadline := time.Now().Add(20 * time.Second)
	for !opensIn(cmd.Process.Pid, dir) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !opensIn(cmd.Process.Pid, dir) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the command opened no file in %s: %s", dir, stderr.String())
	}
	require.NoError(t, cmd.Process.Signal(sig))
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), stderr.String()
	}
	return exit.ExitCode(), stderr.String()
}

// opensIn reports whether process pid has a file in dir open, by
// /proc/PID/fd: an unnamed file (O_TMPFILE) shows there as
// "DIR/#INODE (deleted)".
func opensIn(pid int, dir string) bool {
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// The cases of a command stopped while it writes OUT or copies standard
// input to a temporary file.
func stoppedMidway(t *testing.T) []struct {
	name  string
	input []byte
	args  func(outDir string) []string
} {
	stream, err := os.ReadFile(testFiles.stream)
	require.NoError(t, err)
	parquetFile, err := os.ReadFile(testFiles.pqt)
	require.NoError(t, err)
	return []struct {
		name  string
		input []byte
		args  func(outDir string) []string
	}{
		{"convert, writing OUT", stream, func(dir string) []string {
			return []string{"convert", "-", filepath.Join(dir, "out.parquet")}
		}},
		{"convert, copying a Parquet file on standard input", parquetFile, func(dir string) []string {
			return []string{"convert", "-", filepath.Join(dir, "out.arrow")}
		}},
		{"head, copying a Parquet file on standard input", parquetFile, func(string) []string {
			return []string{"head", "-"}
		}},
	}
}

// An interrupt leaves no temporary file behind: neither the file that is
// to become OUT, nor the copy of a file on standard input. The command is
// stopped while it waits for the rest of its input, its temporary file
// made.
func TestAnInterruptLeavesNoTemporaryFile(t *testing.T) {
	for _, tc := range stoppedMidway(t) {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+", "+sig.String(), func(t *testing.T) {
				dir, tmp := t.TempDir(), t.TempDir()
				out := filepath.Join(dir, "out.parquet")
				require.NoError(t, os.WriteFile(out, []byte("before"), 0o600))
				watch := dir
				if tc.args(dir)[0] == "head" || strings.Contains(tc.name, "copying") {
					watch = tmp
				}
				status, stderr := stopMidway(t, tc.args(dir), tc.input, tmp, watch, sig)
				assert.Equal(t, 128+int(sig), status, "stderr: %s", stderr)
				assert.Equal(t, []string{"out.parquet"}, dirNames(t, dir), "no temporary file left beside OUT")
				assert.Empty(t, dirNames(t, tmp), "no temporary file left in TMPDIR")
				data, err := os.ReadFile(out)
				require.NoError(t, err)
				assert.Equal(t, "before", string(data))
			})
		}
	}
}

// A command killed (SIGKILL: no handler runs) while it writes OUT or
// copies standard input leaves nothing behind, beside OUT or in TMPDIR,
// and OUT as it was: the files are unnamed (Linux's O_TMPFILE), gone with
// the process. It left OUT.tmp-<hex> and $TMPDIR/arrowmap-input-*.
func TestAKilledCommandLeavesNoTemporaryFile(t *testing.T) {
	for _, tc := range stoppedMidway(t) {
		for _, existing := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, OUT there before: %v", tc.name, existing), func(t *testing.T) {
				dir, tmp := t.TempDir(), t.TempDir()
				var want []string
				if existing {
					for _, name := range []string{"out.parquet", "out.arrow"} {
						require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("before"), 0o600))
					}
					want = []string{"out.arrow", "out.parquet"}
				}
				watch := dir
				if strings.Contains(tc.name, "copying") {
					watch = tmp
				}
				status, stderr := stopMidway(t, tc.args(dir), tc.input, tmp, watch, syscall.SIGKILL)
				require.Equal(t, 128+int(syscall.SIGKILL), status, "stderr: %s", stderr)
				assert.Equal(t, want, dirNames(t, dir), "nothing left beside OUT")
				assert.Empty(t, dirNames(t, tmp), "nothing left in TMPDIR")
				for _, name := range want {
					data, err := os.ReadFile(filepath.Join(dir, name))
					require.NoError(t, err)
					assert.Equal(t, "before", string(data))
				}
			})
		}
	}
}
