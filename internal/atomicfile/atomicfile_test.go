package atomicfile_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/internal/atomicfile"
	"github.com/arrowmap/arrowmap/internal/testsupport/atomictest"
	"github.com/stretchr/testify/require"
)

// The contract holds whether the system gives the temporary file no name
// (Linux's O_TMPFILE) or Create names it beside the path.
func TestTheContractHoldsWhetherTheFileIsNamedOrNot(t *testing.T) {
	contract := []struct {
		name string
		test func(t *testing.T)
	}{
		{"Commit replaces the file whole, keeping its permissions", commitReplacesTheFileWholeKeepingItsPermissions},
		{"a new file gets the umask's permissions", aNewFileGetsTheUmasksPermissions},
		{"Abort leaves the old file and no temporary", abortLeavesTheOldFileAndNoTemporary},
		{"a deferred Abort undoes a panic", aDeferredAbortUndoesAPanic},
		{"Create in a missing directory is an error", createInAMissingDirectoryIsAnError},
		{"a full disk fails Commit or the write and leaves the old file", aFullDiskFailsCommitOrTheWriteAndLeavesTheOldFile},
		{"Commit puts the file at a path where there was none", commitPutsTheFileAtANewPath},
	}
	for _, named := range []bool{false, true} {
		way := "unnamed where the system allows"
		if named {
			way = "named"
		}
		for _, c := range contract {
			t.Run(way+"/"+c.name, func(t *testing.T) {
				if named {
					atomicfile.NamedOnly(t.Cleanup)
				}
				c.test(t)
			})
		}
	}
}

func commitReplacesTheFileWholeKeepingItsPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old contents"), 0o600))
	require.NoError(t, os.Chmod(path, 0o640)) // past the umask
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	require.Equal(t, filepath.Dir(path), filepath.Dir(f.Name()), "beside the path")
	_, err = f.WriteString("new")
	require.NoError(t, err)
	old, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old contents", string(old), "untouched until Commit")
	require.NoError(t, f.Commit())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), fi.Mode().Perm())
	atomictest.RequireNoTemporary(t, path)
	require.Error(t, f.Commit(), "Commit after Commit")
	f.Abort() // nothing after a Commit
	_, err = os.Stat(path)
	require.NoError(t, err)
}

func aNewFileGetsTheUmasksPermissions(t *testing.T) {
	umask := syscall.Umask(0o027)
	defer syscall.Umask(umask)
	path := filepath.Join(t.TempDir(), "new.bin")
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), fi.Mode().Perm(), "0666 less the umask")
}

func abortLeavesTheOldFileAndNoTemporary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("half a new file")
	require.NoError(t, err)
	f.Abort()
	f.Abort()
	atomictest.RequireUntouched(t, path, []byte("old"))
}

func aDeferredAbortUndoesAPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.PanicsWithValue(t, "encoder bug", func() {
		f, err := atomicfile.Create(path)
		require.NoError(t, err)
		defer f.Abort()
		f.WriteString("partial")
		panic("encoder bug")
	})
	atomictest.RequireUntouched(t, path, []byte("old"))
}

func createInAMissingDirectoryIsAnError(t *testing.T) {
	_, err := atomicfile.Create(filepath.Join(t.TempDir(), "missing", "out.bin"))
	require.ErrorIs(t, err, fs.ErrNotExist)
}

func aFullDiskFailsCommitOrTheWriteAndLeavesTheOldFile(t *testing.T) {
	dir := atomictest.SmallDisk(t, "64k")
	path := filepath.Join(dir, "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.Write(make([]byte, 1<<20))
	require.ErrorIs(t, err, syscall.ENOSPC)
	f.Abort()
	atomictest.RequireUntouched(t, path, []byte("old"))
}

func commitPutsTheFileAtANewPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.bin")
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("new")
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
	require.Equal(t, []string{"new.bin"}, names(t, dir))
}

// names is the names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// unnamed skips the test unless the system makes unnamed files in dir.
func unnamed(t *testing.T, dir string) {
	t.Helper()
	f, err := atomicfile.Create(filepath.Join(dir, "probe"))
	require.NoError(t, err)
	defer f.Abort()
	if f.TempName() != "" {
		t.Skipf("no unnamed file in %s on %s (no O_TMPFILE): Create named it %s", dir, runtime.GOOS, f.TempName())
	}
}

// Where the system allows, the temporary file has no name until Commit:
// nothing is in the directory but the old file while it is written.
func TestAnUnnamedFileHasNoNameUntilCommit(t *testing.T) {
	dir := t.TempDir()
	unnamed(t, dir)
	path := filepath.Join(dir, "out.bin")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	require.Empty(t, f.TempName())
	_, err = f.WriteString("new")
	require.NoError(t, err)
	require.Equal(t, []string{"out.bin"}, names(t, dir))
	require.NoError(t, f.Commit())
	require.Equal(t, []string{"out.bin"}, names(t, dir))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
}

// killedChild is the environment variable that makes
// TestKilledWriterChild the writer TestAKilledWriterLeavesNothing kills:
// its value is the path to write.
const killedChild = "ATOMICFILE_KILLED_CHILD"

// A writer killed (SIGKILL) before Commit leaves nothing behind, where
// the system gives the file no name: no cleanup of its own could run.
func TestAKilledWriterLeavesNothing(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("a file at the path before: %v", existing), func(t *testing.T) {
			dir := t.TempDir()
			unnamed(t, dir)
			path := filepath.Join(dir, "out.bin")
			want := []string(nil)
			if existing {
				require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
				want = []string{"out.bin"}
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterChild$")
			cmd.Env = append(os.Environ(), killedChild+"="+path)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil || line != "written\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the child did not write: %q, %v", line, err)
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			require.Error(t, cmd.Wait())
			require.Equal(t, want, names(t, dir), "nothing left but the old file")
			if existing {
				atomictest.RequireUntouched(t, path, []byte("old"))
			}
		})
	}
}

// TestKilledWriterChild is the writer TestAKilledWriterLeavesNothing
// kills: it writes 1 MiB to the file of a write to the path it is given,
// says so on standard output, and waits to be killed.
func TestKilledWriterChild(t *testing.T) {
	path := os.Getenv(killedChild)
	if path == "" {
		t.Skip("run by TestAKilledWriterLeavesNothing")
	}
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.Write(make([]byte, 1<<20))
	require.NoError(t, err)
	fmt.Println("written")
	time.Sleep(time.Minute) // killed long before
	f.Abort()
	t.Fatal("not killed")
}
