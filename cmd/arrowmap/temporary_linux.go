package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// createUnnamed creates a file in dir that has no name (O_TMPFILE), read
// and written by this process alone, gone with its last descriptor.
func createUnnamed(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_EXCL|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}
