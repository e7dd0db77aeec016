// Package atomictest has the checks of the tests of writes through
// atomicfile: a small disk to fill, and that a failed write left the
// old file and no temporary one.
package atomictest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SmallDisk mounts a tmpfs of size bytes on a new directory and returns
// it, unmounted at the end of the test. It skips the test where mounting
// is not permitted (not root, no mount namespace).
func SmallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs to fill: mount: %v: %s", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// RequireUntouched checks that the file at path still holds old, byte for
// byte, and that no temporary file of a write to it is left beside it.
func RequireUntouched(t *testing.T, path string, old []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err, "the old file is still there")
	require.Equal(t, old, got, "the old file is unchanged")
	RequireNoTemporary(t, path)
}

// RequireNoTemporary checks that no temporary file of a write to path is
// left beside it.
func RequireNoTemporary(t *testing.T, path string) {
	t.Helper()
	left, err := filepath.Glob(path + ".tmp-*")
	require.NoError(t, err)
	require.Empty(t, left, "no temporary file left")
}
