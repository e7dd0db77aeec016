//go:build !linux

package main

import (
	"errors"
	"os"
)

// createUnnamed fails: only Linux makes a file without a name (O_TMPFILE).
func createUnnamed(dir string) (*os.File, error) {
	return nil, errors.New("no unnamed files on this system")
}
