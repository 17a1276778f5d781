package fsops

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// InodeKey returns the device and inode number of the file fd refers to.
func InodeKey(fd int) (dev, ino uint64, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, 0, &os.PathError{Op: "fstat", Path: strconv.Itoa(fd), Err: err}
	}
	return st.Dev, st.Ino, nil
}

// NewDenyInodes stats every path (glob-free deny rules after expansion) and
// records its inode, and that of its symlink target when it is a symlink.
// Paths that do not exist are skipped: the rule still denies them by name.
func NewDenyInodes(paths []string) (*DenyInodes, error) {
	d := &DenyInodes{set: map[Inode]string{}}
	var errs []error
	for _, p := range paths {
		for _, stat := range []func(string, *unix.Stat_t) error{unix.Lstat, unix.Stat} {
			var st unix.Stat_t
			err := stat(p, &st)
			switch {
			case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.ELOOP):
				continue
			case err != nil:
				errs = append(errs, &os.PathError{Op: "stat", Path: p, Err: err})
				continue
			}
			d.set[Inode{Dev: st.Dev, Ino: st.Ino}] = p
		}
	}
	return d, errors.Join(errs...)
}

// stillAt reports whether path (or its symlink target) is still the inode
// (dev, ino).
func stillAt(path string, dev, ino uint64) bool {
	for _, stat := range []func(string, *unix.Stat_t) error{unix.Lstat, unix.Stat} {
		var st unix.Stat_t
		if stat(path, &st) == nil && st.Dev == dev && st.Ino == ino {
			return true
		}
	}
	return false
}
