package seccomp

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// retry runs f until it returns something other than EINTR.
func retry(f func() error) error {
	for {
		err := f()
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return &os.SyscallError{Syscall: op, Err: err}
}

// NotifRecv receives the next notification on listener fd into n. It blocks
// until one is pending. ENOENT means the target died before it could be
// received; the caller should simply receive again.
func NotifRecv(fd int, n *SeccompNotif) error {
	return wrap("seccomp notif recv", retry(func() error {
		*n = SeccompNotif{} // the kernel requires a zeroed buffer
		return recvRaw(fd, n)
	}))
}

// NotifSend sends the response r. ENOENT means the target is gone (it was
// killed, or its syscall was interrupted) and the response was discarded.
func NotifSend(fd int, r *SeccompNotifResp) error {
	return wrap("seccomp notif send", retry(func() error { return sendRaw(fd, r) }))
}

// IDValid reports, as a nil error, that notification id is still pending:
// the target is alive and still inside that syscall, so everything read from
// it so far (memory, /proc entries) belonged to it.
func IDValid(fd int, id uint64) error {
	return wrap("seccomp notif id valid", retry(func() error { return idValidRaw(fd, id) }))
}

// AddFD installs srcfd in the target of notification id. With
// SECCOMP_ADDFD_FLAG_SEND the installation also answers the notification
// atomically with the new fd number as the syscall's return value. newfdFlags
// may be O_CLOEXEC. It returns the fd number in the target.
func AddFD(fd int, id uint64, srcfd int, flags, newfdFlags uint32) (int, error) {
	a := SeccompNotifAddfd{ID: id, Flags: flags, Srcfd: uint32(srcfd), NewfdFlags: newfdFlags}
	var n int
	err := retry(func() error {
		var err error
		n, err = addFDRaw(fd, &a)
		return err
	})
	return n, wrap("seccomp notif addfd", err)
}

// SetFlags sets listener flags; SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1) makes
// the kernel wake the target on the supervisor's CPU when it is answered.
func SetFlags(fd int, flags uint64) error {
	return wrap("seccomp notif set flags", retry(func() error { return setFlagsRaw(fd, flags) }))
}

// Install loads prog as a seccomp filter on the calling thread and returns
// what seccomp(2) returned: the listener fd when flags has
// SECCOMP_FILTER_FLAG_NEW_LISTENER. The thread must have no_new_privs set (or
// CAP_SYS_ADMIN). The filter applies to this thread only (no TSYNC): the
// caller execs from it.
func Install(prog []bpf.RawInstruction, flags uint) (int, error) {
	fd, err := installRaw(prog, flags)
	if err != nil {
		return -1, fmt.Errorf("install seccomp filter: %w", err)
	}
	return fd, nil
}
