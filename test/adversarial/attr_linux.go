package adversarial

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ownerAndXattrs describes a file's owner and extended attribute names, for
// the integrity snapshot (chown and setxattr change neither mode nor
// content).
func ownerAndXattrs(p string) string {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return "?"
	}
	buf := make([]byte, 4096)
	n, err := unix.Llistxattr(p, buf)
	if err != nil {
		n = 0
	}
	return fmt.Sprintf("%d:%d %q flags=%#x", st.Uid, st.Gid, buf[:n], inodeFlags(p, st.Mode))
}

// inodeFlags are the chattr flags of a regular file or directory (0 when
// they cannot be read).
func inodeFlags(p string, mode uint32) uint32 {
	if mode&unix.S_IFMT != unix.S_IFREG && mode&unix.S_IFMT != unix.S_IFDIR {
		return 0
	}
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		return 0
	}
	return flags
}

// clearFlags removes immutable and append-only flags below root, so an
// attack that set them cannot keep its world from being removed.
func clearFlags(root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || (!d.IsDir() && !d.Type().IsRegular()) {
			return nil
		}
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil
		}
		defer unix.Close(fd)
		if flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS); err == nil && flags&(fsImmutable|fsAppend) != 0 {
			unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags&^(fsImmutable|fsAppend)))
		}
		return nil
	})
}

// Inode flags of FS_IOC_GETFLAGS (linux/fs.h), missing from x/sys/unix.
const (
	fsImmutable = 0x10
	fsAppend    = 0x20
)
