package atomicfile

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// createUnnamed creates an unnamed file in dir (O_TMPFILE) for a write to
// path. It fails where the kernel or the file system does not take
// O_TMPFILE, and where /proc/self/fd, through which Commit names the file,
// is not mounted: Create then names the file.
func createUnnamed(dir, path string) (*File, error) {
	if forceNamed {
		return nil, unix.EOPNOTSUPP
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	if _, err := os.Stat(procPath(fd)); err != nil {
		unix.Close(fd)
		return nil, err
	}
	// Errors of writes name path, the file the bytes are for.
	return &File{File: os.NewFile(uintptr(fd), path), Path: path}, nil
}

// linkUnnamed gives f, an unnamed file, the name path, which must not
// exist (fs.ErrExist if it does). linkat through /proc/self/fd needs no
// privilege, where linkat of the descriptor itself (AT_EMPTY_PATH) needs
// CAP_DAC_READ_SEARCH.
func linkUnnamed(f *os.File, path string) error {
	fd := int(f.Fd())
	if err := unix.Linkat(unix.AT_FDCWD, procPath(fd), unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW); err != nil {
		return &os.LinkError{Op: "link", Old: f.Name(), New: path, Err: err}
	}
	return nil
}

func procPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
