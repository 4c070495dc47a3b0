package fs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data: a temporary file in the same
// directory, synced, then renamed over path, so a reader sees the old
// content or the new, never a mix. A symlink is followed and its target
// replaced. Missing parent directories are created.
func writeAtomic(path string, data []byte, mode iofs.FileMode) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tai-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = errors.Join(write(f, data, mode), f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func write(f *os.File, data []byte, mode iofs.FileMode) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(mode.Perm()); err != nil {
		return err
	}
	return f.Sync()
}

// removeFile deletes a file; a file already gone is not an error.
func removeFile(path string) error {
	err := os.Remove(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil
	}
	return err
}

// readSmall loads a whole text file that the editing tools will rewrite:
// it must be a regular file, at most editCap bytes, and not binary.
func readSmall(path, name string) ([]byte, iofs.FileMode, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if fi.IsDir() {
		return nil, 0, fmt.Errorf("%s is a directory, not a file", name)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file (%s)", name, fi.Mode().Type())
	}
	if fi.Size() > editCap {
		return nil, 0, fmt.Errorf("%s is %s; the editing tools handle files up to %s", name, size(fi.Size()), size(editCap))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if isBinary(data) {
		return nil, 0, fmt.Errorf("%s is a binary file; the editing tools change text only", name)
	}
	return data, fi.Mode(), nil
}
