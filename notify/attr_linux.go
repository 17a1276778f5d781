package notify

import (
	"encoding/binary"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() {
	register(handleTruncate, "truncate")
	register(handleChmod, "chmod", "fchmodat", "fchmodat2")
	register(handleChown, "chown", "lchown", "fchownat")
	register(handleUtimes, "utime", "utimes", "futimesat", "utimensat")
}

// The attribute handlers decide OpWrite on the canonical path of the inode
// changed (and refuse a denied file's inode under another name), then act
// on the resolved descriptor as the caller.

// handleTruncate serves truncate(path, length); the final symlink is
// followed.
func handleTruncate(r *Request) Reply {
	o, err := r.readOperand(pathArg{-1, 0}, false)
	if err != nil {
		return ErrorOf(err)
	}
	length := int64(r.Arg(1))
	if length < 0 {
		return Errno(unix.EINVAL)
	}
	return r.fileAction(o, true, false, policy.OpWrite, func(f fsops.File) error {
		return fsops.Truncate(f, length)
	})
}

// handleChmod serves chmod(path, mode), fchmodat(dirfd, path, mode) (no
// flags in the syscall) and fchmodat2(dirfd, path, mode, flags) with
// AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH.
func handleChmod(r *Request) Reply {
	at, modeArg, flags := pathArg{-1, 0}, 1, 0
	switch r.Syscall {
	case "fchmodat":
		at, modeArg = pathArg{0, 1}, 2
	case "fchmodat2":
		at, modeArg, flags = pathArg{0, 1}, 2, int(int32(r.Arg(3)))
		if flags&^(unix.AT_SYMLINK_NOFOLLOW|unix.AT_EMPTY_PATH) != 0 {
			return Errno(unix.EINVAL)
		}
	}
	mode := uint32(r.Arg(modeArg)) & 0o7777
	emptyPath := flags&unix.AT_EMPTY_PATH != 0
	o, err := r.readOperand(at, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	follow := flags&unix.AT_SYMLINK_NOFOLLOW == 0
	return r.fileAction(o, follow, emptyPath, policy.OpWrite, func(f fsops.File) error {
		if err := refuseDevfsAttr(f.FD); err != nil { // devfs_linux.go
			return err
		}
		return fsops.Chmod(f, stripSetidFD(mode, f.FD)) // setid_linux.go
	})
}

// handleChown serves chown(path, uid, gid), lchown and fchownat(dirfd,
// path, uid, gid, flags) with AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH.
func handleChown(r *Request) Reply {
	at, idArg, flags := pathArg{-1, 0}, 1, 0
	switch r.Syscall {
	case "lchown":
		flags = unix.AT_SYMLINK_NOFOLLOW
	case "fchownat":
		at, idArg, flags = pathArg{0, 1}, 2, int(int32(r.Arg(4)))
		if flags&^(unix.AT_SYMLINK_NOFOLLOW|unix.AT_EMPTY_PATH) != 0 {
			return Errno(unix.EINVAL)
		}
	}
	uid, gid := int(int32(r.Arg(idArg))), int(int32(r.Arg(idArg+1)))
	emptyPath := flags&unix.AT_EMPTY_PATH != 0
	o, err := r.readOperand(at, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	follow := flags&unix.AT_SYMLINK_NOFOLLOW == 0
	return r.fileAction(o, follow, emptyPath, policy.OpWrite, func(f fsops.File) error {
		if err := refuseDevfsAttr(f.FD); err != nil { // devfs_linux.go
			return err
		}
		return fsops.Chown(f, uid, gid)
	})
}

// handleUtimes serves utime(path, utimbuf), utimes(path, tv),
// futimesat(dirfd, path, tv) and utimensat(dirfd, path, ts, flags). utimensat with a NULL path is
// futimens(dirfd): the descriptor itself. A NULL times pointer means now.
func handleUtimes(r *Request) Reply {
	at, timesArg, flags := pathArg{-1, 0}, 1, 0
	switch r.Syscall {
	case "futimesat":
		at, timesArg = pathArg{0, 1}, 2
	case "utimensat":
		at, timesArg, flags = pathArg{0, 1}, 2, int(int32(r.Arg(3)))
		if flags&^(unix.AT_SYMLINK_NOFOLLOW|unix.AT_EMPTY_PATH) != 0 {
			return Errno(unix.EINVAL)
		}
	}
	ts, err := r.readTimes(timesArg)
	if err != nil {
		return ErrorOf(err)
	}
	o, emptyPath, err := r.utimesOperand(at, flags)
	if err != nil {
		return ErrorOf(err)
	}
	follow := flags&unix.AT_SYMLINK_NOFOLLOW == 0
	return r.fileAction(o, follow, emptyPath, policy.OpWrite, func(f fsops.File) error {
		return fsops.Utimens(f, ts)
	})
}

// utimesOperand reads the path of a utimes-family call. utimensat(fd,
// NULL, ...) names fd itself (futimens); with AT_FDCWD it is EFAULT, and
// with any flag EINVAL, as in the kernel.
func (r *Request) utimesOperand(at pathArg, flags int) (operand, bool, error) {
	emptyPath := flags&unix.AT_EMPTY_PATH != 0
	if r.Syscall != "utimensat" || r.Arg(at.path) != 0 {
		o, err := r.readOperand(at, emptyPath)
		return o, emptyPath, err
	}
	if flags != 0 {
		return operand{}, false, unix.EINVAL
	}
	if int32(r.Arg(at.dir)) == unix.AT_FDCWD {
		return operand{}, false, unix.EFAULT
	}
	// The caller's own open file, not an O_PATH reopen: its access mode
	// counts for a redacted file (allowChange).
	fd, err := r.callerFD(int32(r.Arg(at.dir)))
	if err != nil {
		return operand{}, false, err
	}
	r.Own(fd)
	return operand{dirfd: fd}, true, nil
}

// readTimes reads the times argument: a struct utimbuf (utime: two
// seconds), two struct timeval (utimes, futimesat) or two struct timespec
// (utimensat), nil for a NULL pointer.
func (r *Request) readTimes(i int) ([]unix.Timespec, error) {
	addr := r.Arg(i)
	if addr == 0 {
		return nil, nil
	}
	if r.Syscall == "utime" {
		var buf [16]byte
		if _, err := r.ReadMemory(addr, buf[:]); err != nil {
			return nil, unix.EFAULT
		}
		return []unix.Timespec{
			{Sec: int64(binary.NativeEndian.Uint64(buf[:]))},
			{Sec: int64(binary.NativeEndian.Uint64(buf[8:]))},
		}, nil
	}
	var buf [32]byte
	if _, err := r.ReadMemory(addr, buf[:]); err != nil {
		return nil, unix.EFAULT
	}
	ts := make([]unix.Timespec, 2)
	for k := range ts {
		sec := int64(binary.NativeEndian.Uint64(buf[16*k:]))
		frac := int64(binary.NativeEndian.Uint64(buf[16*k+8:]))
		if r.Syscall == "utimensat" {
			ts[k] = unix.Timespec{Sec: sec, Nsec: frac} // the kernel checks the range
			continue
		}
		if frac < 0 || frac >= 1_000_000 {
			return nil, unix.EINVAL
		}
		ts[k] = unix.Timespec{Sec: sec, Nsec: frac * 1000}
	}
	return ts, nil
}
