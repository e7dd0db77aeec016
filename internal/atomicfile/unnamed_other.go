//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

var errNoUnnamed = errors.New("atomicfile: no unnamed files on this system")

// createUnnamed fails: only Linux makes a file without a name (O_TMPFILE).
func createUnnamed(dir, path string) (*File, error) { return nil, errNoUnnamed }

func linkUnnamed(f *os.File, path string) error { return errNoUnnamed }
