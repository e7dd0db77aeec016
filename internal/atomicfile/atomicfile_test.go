package atomicfile_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/arrowmap/arrowmap/internal/atomicfile"
	"github.com/arrowmap/arrowmap/internal/atomicfile/atomictest"
	"github.com/stretchr/testify/require"
)

func TestCommitReplacesTheFileWholeKeepingItsPermissions(t *testing.T) {
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

func TestANewFileGetsTheUmasksPermissions(t *testing.T) {
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

func TestAbortLeavesTheOldFileAndNoTemporary(t *testing.T) {
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

func TestADeferredAbortUndoesAPanic(t *testing.T) {
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

func TestCreateInAMissingDirectoryIsAnError(t *testing.T) {
	_, err := atomicfile.Create(filepath.Join(t.TempDir(), "missing", "out.bin"))
	require.ErrorIs(t, err, fs.ErrNotExist)
}

func TestAFullDiskFailsCommitOrTheWriteAndLeavesTheOldFile(t *testing.T) {
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
