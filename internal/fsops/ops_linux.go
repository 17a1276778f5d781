package fsops

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// The operations below act on descriptors from ResolveParent or
// ResolveFile. Run them, together with the resolution, inside
// Runner.AsCaller so the kernel checks them with the caller's credentials
// and applies the caller's umask. Each returns the kernel's errno wrapped
// in an *os.PathError.

// Rename is renameat2(2) between two resolved parents; flags are
// RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT as the caller passed
// them. Neither name is followed if it is a symlink.
func Rename(oldDir Parent, newDir Parent, flags uint) error {
	err := retry(func() error { return unix.Renameat2(oldDir.FD, oldDir.Name, newDir.FD, newDir.Name, flags) })
	return pathErr("renameat2", oldDir.Path(), err)
}

// Link creates newDir/Name as a hard link to the inode src refers to (from
// ResolveFile, following a final symlink or not as the caller asked). It
// links through /proc/self/fd/N, so the inode the policy decided on is the
// one linked, whatever happens to its name meanwhile; the kernel still
// applies fs.protected_hardlinks and EXDEV with the caller's credentials.
func Link(src File, newDir Parent) error {
	proc := "/proc/self/fd/" + strconv.Itoa(src.FD)
	err := retry(func() error {
		return unix.Linkat(unix.AT_FDCWD, proc, newDir.FD, newDir.Name, unix.AT_SYMLINK_FOLLOW)
	})
	return pathErr("linkat", newDir.Path(), err)
}

// LinkEmptyPath is linkat(fd, "", newdir, name, AT_EMPTY_PATH) on the
// caller's own open file (obtained with pidfd_getfd): the kernel applies
// its own rule for AT_EMPTY_PATH (CAP_DAC_READ_SEARCH, or since Linux 6.10
// a file opened by the same credentials).
func LinkEmptyPath(fd int, newDir Parent) error {
	err := retry(func() error { return unix.Linkat(fd, "", newDir.FD, newDir.Name, unix.AT_EMPTY_PATH) })
	return pathErr("linkat", newDir.Path(), err)
}

// Symlink creates dir/Name as a symlink whose content is target. The
// target string is data: it is not resolved.
func Symlink(target string, dir Parent) error {
	err := retry(func() error { return unix.Symlinkat(target, dir.FD, dir.Name) })
	return pathErr("symlinkat", dir.Path(), err)
}

// Unlink removes dir/Name; flags is 0 or AT_REMOVEDIR (rmdir).
func Unlink(dir Parent, flags int) error {
	err := retry(func() error { return unix.Unlinkat(dir.FD, dir.Name, flags) })
	return pathErr("unlinkat", dir.Path(), err)
}

// Mkdir creates dir/Name. The worker thread's umask (the caller's) is
// applied by the kernel, or the parent's default POSIX ACL instead.
func Mkdir(dir Parent, mode uint32) error {
	err := retry(func() error { return unix.Mkdirat(dir.FD, dir.Name, mode) })
	return pathErr("mkdirat", dir.Path(), err)
}

// Mknod creates a regular file, FIFO or socket node dir/Name. Device nodes
// are refused with EPERM, as the kernel refuses them to an unprivileged
// caller, whatever the caller's capabilities.
func Mknod(dir Parent, mode uint32, dev uint64) error {
	switch mode & unix.S_IFMT {
	case unix.S_IFCHR, unix.S_IFBLK:
		return pathErr("mknodat", dir.Path(), unix.EPERM)
	}
	err := retry(func() error { return unix.Mknodat(dir.FD, dir.Name, mode, int(dev)) })
	return pathErr("mknodat", dir.Path(), err)
}

// Truncate sets the length of the file f refers to (resolved following
// symlinks, as truncate(2) does). truncate(2) through /proc/self/fd/N
// checks write permission, EISDIR, EINVAL for non-regular files and
// append-only with the caller's credentials, without opening the file (a
// FIFO would block).
func Truncate(f File, length int64) error {
	proc := "/proc/self/fd/" + strconv.Itoa(f.FD)
	err := retry(func() error { return unix.Truncate(proc, length) })
	return pathErr("truncate", f.Path, err)
}

// Chmod changes the mode of the inode f refers to. A symlink itself
// (AT_SYMLINK_NOFOLLOW) cannot have its mode changed on Linux:
// EOPNOTSUPP, as fchmodat2(2) answers.
func Chmod(f File, mode uint32) error {
	var st unix.Stat_t
	if err := unix.Fstat(f.FD, &st); err != nil {
		return pathErr("fstat", f.Path, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return pathErr("fchmodat", f.Path, unix.EOPNOTSUPP)
	}
	proc := "/proc/self/fd/" + strconv.Itoa(f.FD)
	err := retry(func() error { return unix.Fchmodat(unix.AT_FDCWD, proc, mode, 0) })
	return pathErr("fchmodat", f.Path, err)
}

// Chown changes the owner and group of the inode f refers to (the symlink
// itself when it was resolved without following); -1 leaves an id as is.
func Chown(f File, uid, gid int) error {
	err := retry(func() error { return unix.Fchownat(f.FD, "", uid, gid, unix.AT_EMPTY_PATH) })
	return pathErr("fchownat", f.Path, err)
}

// Utimens sets the access and modification times of the inode f refers
// to. ts nil means both "now"; UTIME_NOW and UTIME_OMIT work as in
// utimensat(2).
func Utimens(f File, ts []unix.Timespec) error {
	if ts == nil {
		ts = []unix.Timespec{{Nsec: unix.UTIME_NOW}, {Nsec: unix.UTIME_NOW}}
	}
	err := retry(func() error { return unix.UtimesNanoAt(f.FD, "", ts, unix.AT_EMPTY_PATH) })
	return pathErr("utimensat", f.Path, err)
}

func pathErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	return &os.PathError{Op: op, Path: path, Err: err}
}
