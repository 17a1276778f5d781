package fsops

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Inode identifies a file independently of its names.
type Inode struct{ Dev, Ino uint64 }

// InodeKey returns the device and inode number of the file fd refers to.
func InodeKey(fd int) (dev, ino uint64, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, 0, &os.PathError{Op: "fstat", Path: strconv.Itoa(fd), Err: err}
	}
	return st.Dev, st.Ino, nil
}

// DenyInodes is the set of inodes of the policy's concrete denied files,
// so that a hard link made before the session (a copy of ~/.ssh/id_rsa's
// inode under the project) is still recognised. It is built once and read
// concurrently.
type DenyInodes struct {
	set map[Inode]string
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

// Contains reports whether (dev, ino) is one of the denied files.
func (d *DenyInodes) Contains(dev, ino uint64) bool {
	_, ok := d.Lookup(dev, ino)
	return ok
}

// Lookup returns the denied path recorded for (dev, ino).
func (d *DenyInodes) Lookup(dev, ino uint64) (string, bool) {
	if d == nil {
		return "", false
	}
	p, ok := d.set[Inode{Dev: dev, Ino: ino}]
	return p, ok
}

// Len is the number of inodes recorded.
func (d *DenyInodes) Len() int {
	if d == nil {
		return 0
	}
	return len(d.set)
}
