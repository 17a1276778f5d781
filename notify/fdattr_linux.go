package notify

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() {
	register(handleFchmod, "fchmod")
	register(handleFchown, "fchown")
}

// fchmod and fchown take no path, but a descriptor opened for reading is
// enough to change a file's mode or group: without them trapped, an agent
// could chmod a file the policy lets it read but not write. They are
// decided as OpWrite on the file behind the descriptor and performed on the
// caller's own open file (pidfd_getfd), so the kernel's rules for that
// file (EBADF for O_PATH, ownership) apply unchanged. They take effect when
// internal/seccomp traps them.

// handleFchmod serves fchmod(fd, mode). On a redacted file's view (the
// descriptor an open of a redacted file gave) it succeeds without a change:
// the view is shared by every open of the file (see stubCache.isShared),
// and the user's file is not the agent's to change anyway.
func handleFchmod(r *Request) Reply {
	mode := uint32(r.Arg(1)) & 0o7777
	return r.fdAction(int32(r.Arg(0)), func(fd int) error {
		if stubs.isShared(fd) {
			return nil
		}
		if err := refuseDevfsAttr(fd); err != nil { // devfs_linux.go
			return err
		}
		return unix.Fchmod(fd, stripSetidFD(mode, fd)) // setid_linux.go
	})
}

// handleFchown serves fchown(fd, uid, gid), as handleFchmod on a view.
func handleFchown(r *Request) Reply {
	uid, gid := int(int32(r.Arg(1))), int(int32(r.Arg(2)))
	return r.fdAction(int32(r.Arg(0)), func(fd int) error {
		if stubs.isShared(fd) {
			return nil
		}
		if err := refuseDevfsAttr(fd); err != nil { // devfs_linux.go
			return err
		}
		return unix.Fchown(fd, uid, gid)
	})
}

// fdAction runs fn as the caller on the caller's descriptor n, after
// deciding OpWrite on the file it refers to.
func (r *Request) fdAction(n int32, fn func(fd int) error) Reply {
	fd, err := r.callerFD(n)
	if err != nil {
		return ErrorOf(err)
	}
	defer unix.Close(fd)
	if err := r.Valid(); err != nil {
		return ErrorOf(err)
	}
	return ErrorOf(r.AsCaller(func() error {
		if err := r.allowFD(fd); err != nil {
			return err
		}
		return fn(fd)
	}))
}

// pidfdThread is PIDFD_THREAD, missing from x/sys/unix.
const pidfdThread = unix.O_EXCL

// callerFD duplicates the target's descriptor n into the broker.
func (r *Request) callerFD(n int32) (int, error) {
	if n < 0 {
		return -1, unix.EBADF
	}
	// A thread pidfd (Linux 6.9) names the calling thread's own descriptor
	// table (it may have unshared it) and spares reading its process id.
	pidfd, err := unix.PidfdOpen(r.TID(), pidfdThread)
	if errors.Is(err, unix.EINVAL) {
		var tgid int
		if tgid, err = r.TGID(); err != nil {
			return -1, err
		}
		pidfd, err = unix.PidfdOpen(tgid, 0)
	}
	if err != nil {
		return -1, unix.ESRCH
	}
	defer unix.Close(pidfd)
	fd, err := unix.PidfdGetfd(pidfd, int(n), 0)
	if err != nil {
		return -1, err // EBADF when n is not open
	}
	return fd, nil
}

// allowFD decides OpWrite on the file fd refers to. An object without a
// path (pipe, socket, memfd's anonymous inode) and a file with no name
// left have nothing a policy names; a file whose name was removed while
// other hard links remain cannot be decided on and is refused.
func (r *Request) allowFD(fd int) error {
	link, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return err
	}
	if !strings.HasPrefix(link, "/") {
		return nil
	}
	path, err := fsops.Canonical(fd)
	if err != nil {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) == nil && st.Nlink == 0 {
			return nil
		}
		return &refusal{op: policy.OpWrite, path: link, errno: unix.EACCES}
	}
	f := fsops.File{FD: fd, Path: path}
	if err := r.allowChange(policy.OpWrite, f); err != nil {
		return err
	}
	return r.allowInode(policy.OpWrite, f)
}
