package fsops

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ErrTooMany is returned by Walk when the tree is larger or deeper than
// its limits: the caller cannot check it all and should refuse.
var ErrTooMany = errors.New("directory tree too large to check")

// maxWalkDepth bounds Walk's recursion (one descriptor per level).
const maxWalkDepth = 128

// Walk calls fn with the path, relative to p.Path(), of every name below
// the directory p names, parents before children, without following
// symlinks. If p does not name a directory, it calls nothing. It stops at
// fn's first error, and with ErrTooMany after limit names or more than 128
// levels. The rename handler uses it: renaming a directory moves
// everything below it, so every descendant must be movable.
func Walk(p Parent, limit int, fn func(rel string) error) error {
	fd, err := openDirAt(p.FD, p.Name)
	if errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
		return nil // a file or a symlink: nothing below
	}
	if err != nil {
		return &os.PathError{Op: "walk", Path: p.Path(), Err: err}
	}
	w := walker{limit: limit, fn: fn}
	return w.dir(fd, "", 0)
}

type walker struct {
	limit, count int
	fn           func(rel string) error
}

// dir lists the directory open as fd (and closes it).
func (w *walker) dir(fd int, rel string, depth int) error {
	if depth >= maxWalkDepth {
		unix.Close(fd)
		return ErrTooMany
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	for {
		entries, err := f.ReadDir(256)
		for _, e := range entries {
			if err := w.entry(fd, rel, e, depth); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && len(entries) == 0) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (w *walker) entry(dirfd int, rel string, e os.DirEntry, depth int) error {
	w.count++
	if w.count > w.limit {
		return ErrTooMany
	}
	child := e.Name()
	if rel != "" {
		child = rel + "/" + e.Name()
	}
	if err := w.fn(child); err != nil {
		return err
	}
	if !e.IsDir() {
		return nil
	}
	cfd, err := openDirAt(dirfd, e.Name())
	if err != nil {
		return &os.PathError{Op: "walk", Path: child, Err: err}
	}
	return w.dir(cfd, child, depth+1)
}

func openDirAt(dirfd int, name string) (int, error) {
	return retryFD(func() (int, error) {
		return unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
}
