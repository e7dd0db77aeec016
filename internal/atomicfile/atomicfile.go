// Package atomicfile writes a file that replaces the one at a path whole
// or not at all: the bytes go to a temporary file beside the path, which
// Commit syncs and renames onto it, and Abort removes. A reader of the path
// sees the old file or the new one, never a part of either, and a failed
// write leaves the old file as it was.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is the temporary file of a write to Path: an *os.File until Commit
// or Abort.
type File struct {
	*os.File
	// Path is the path the file is renamed to by Commit.
	Path string
	done bool
}

// tempTries is how many random names Create tries before giving up.
const tempTries = 10

// Create creates the temporary file of a write to path: in path's
// directory (a rename does not cross file systems), named path's base, then
// ".tmp-" and 12 random hex digits, created exclusively. Its permissions
// are those of the file at path when there is one (a regular file), else
// those of a new file (0666 less the umask). path itself is not touched
// until Commit.
func Create(path string) (*File, error) {
	var mode fs.FileMode
	existing := false
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		mode, existing = fi.Mode().Perm(), true
	}
	var suffix [6]byte
	for range tempTries {
		if _, err := rand.Read(suffix[:]); err != nil {
			return nil, err
		}
		tmp := filepath.Join(filepath.Dir(path), filepath.Base(path)+".tmp-"+hex.EncodeToString(suffix[:]))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if existing {
			if err := f.Chmod(mode); err != nil {
				f.Close()
				os.Remove(tmp)
				return nil, err
			}
		}
		return &File{File: f, Path: path}, nil
	}
	return nil, fmt.Errorf("creating a temporary file beside %s: no free name in %d tries", path, tempTries)
}

// Commit syncs the file to disk, closes it and renames it onto Path, then
// syncs Path's directory (where the file system allows). On a failure the
// temporary file is removed and Path is left as it was. Commit after
// Commit or Abort is an error.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	tmp := f.Name()
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.Path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(filepath.Dir(f.Path)); err == nil {
		d.Sync() // the rename's durability: not every file system syncs a directory
		d.Close()
	}
	return nil
}

// Abort closes and removes the temporary file, leaving Path as it was. It
// does nothing after Commit or Abort, so that a deferred Abort undoes
// every failure, a panic included, and nothing after a Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}
