// Package atomicfile writes a file that replaces the one at a path whole
// or not at all: the bytes go to a temporary file in the path's
// directory, which Commit syncs and puts at the path, and Abort removes. A
// reader of the path sees the old file or the new one, never a part of
// either, and a failed write leaves the old file as it was.
//
// Where the system allows (Linux, on a file system that takes O_TMPFILE),
// the temporary file has no name until Commit links it: a process killed
// before (SIGKILL, a crash, the machine going down) leaves nothing behind,
// the system freeing the file with its last descriptor. Elsewhere it is
// named beside the path, and only Abort or the caller removes it.
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
	// Path is the path the file is put at by Commit.
	Path string
	tmp  string // the temporary file's name, "" while it has none
	done bool
}

// tempTries is how many random names Create tries before giving up.
const tempTries = 10

// Create creates the temporary file of a write to path, in path's
// directory (a rename does not cross file systems): unnamed where the
// system allows, else named path's base, then ".tmp-" and 12 random hex
// digits, created exclusively. Its permissions are those of the file at
// path when there is one (a regular file), else those of a new file (0666
// less the umask). path itself is not touched until Commit.
func Create(path string) (*File, error) {
	mode := fs.FileMode(0o666)
	existing := false
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		mode, existing = fi.Mode().Perm(), true
	}
	f, err := createUnnamed(filepath.Dir(path), path)
	if err != nil {
		if f, err = createNamed(path); err != nil {
			return nil, err
		}
	}
	if existing {
		if err := f.Chmod(mode); err != nil {
			f.Abort()
			return nil, err
		}
	}
	return f, nil
}

// createNamed creates the temporary file of a write to path beside it,
// under a random name.
func createNamed(path string) (*File, error) {
	var suffix [6]byte
	for range tempTries {
		if _, err := rand.Read(suffix[:]); err != nil {
			return nil, err
		}
		tmp := tempName(path, suffix[:])
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &File{File: f, Path: path, tmp: tmp}, nil
	}
	return nil, fmt.Errorf("creating a temporary file beside %s: no free name in %d tries", path, tempTries)
}

func tempName(path string, suffix []byte) string {
	return filepath.Join(filepath.Dir(path), filepath.Base(path)+".tmp-"+hex.EncodeToString(suffix))
}

// TempName is the name of the temporary file, which a caller that may be
// interrupted has to remove, or "" when the file has none: nothing is
// left of it if the process dies.
func (f *File) TempName() string {
	if f.done {
		return ""
	}
	return f.tmp
}

// Commit syncs the file to disk, closes it and puts it at Path, then syncs
// Path's directory (where the file system allows). An unnamed file is
// linked at Path when there is no file there; otherwise it is linked
// beside Path under a random name and renamed onto it, as a named one is.
// On a failure the temporary file is removed and Path is left as it was.
// Commit after Commit or Abort is an error.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	err := f.Sync()
	if err == nil && f.tmp == "" {
		err = f.name()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && f.tmp != "" {
		err = os.Rename(f.tmp, f.Path)
	}
	if err != nil {
		if f.tmp != "" {
			os.Remove(f.tmp)
		}
		return err
	}
	if d, err := os.Open(filepath.Dir(f.Path)); err == nil {
		d.Sync() // the rename's durability: not every file system syncs a directory
		d.Close()
	}
	return nil
}

// name links the unnamed file at Path, or, when a file is there, beside
// it under a random name, which it sets as f.tmp for Commit to rename onto
// Path.
func (f *File) name() error {
	err := linkUnnamed(f.File, f.Path)
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	var suffix [6]byte
	for range tempTries {
		if _, err := rand.Read(suffix[:]); err != nil {
			return err
		}
		tmp := tempName(f.Path, suffix[:])
		err := linkUnnamed(f.File, tmp)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err == nil {
			f.tmp = tmp
		}
		return err
	}
	return fmt.Errorf("naming a temporary file beside %s: no free name in %d tries", f.Path, tempTries)
}

// Abort closes and removes the temporary file, leaving Path as it was. It
// does nothing after Commit or Abort, so that a deferred Abort undoes
// every failure, a panic included, and nothing after a Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close() // an unnamed file is gone with it
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
}

// forceNamed makes Create name its files, as where the system has no
// unnamed ones: the tests of that path set it.
var forceNamed = false
