package seccomp

import (
	"errors"
	"fmt"
	"os"
	"runtime"

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
//
// Signals are blocked on the calling thread for the ioctl. A signal that
// interrupts it (Go preempts goroutines with SIGURG all the time) makes the
// kernel withdraw the queued descriptor, but with SECCOMP_ADDFD_FLAG_SEND
// the notification was already marked answered: the target's syscall then
// returns 0, a descriptor it never asked for (stdin), and the retried ioctl
// finds the notification gone. Measured here: 122 of 6,000 opens returned
// fd 0 with SIGURG sent to the supervisor's threads, none with the mask.
func AddFD(fd int, id uint64, srcfd int, flags, newfdFlags uint32) (int, error) {
	var n int
	err := withSignalsBlocked(func() error {
		var err error
		n, err = AddFDMasked(fd, id, srcfd, flags, newfdFlags)
		return err
	})
	return n, err
}

// AddFDMasked is AddFD for a thread that already blocks asynchronous
// signals (BlockAsyncSignals), sparing the two sigprocmask calls.
func AddFDMasked(fd int, id uint64, srcfd int, flags, newfdFlags uint32) (int, error) {
	a := SeccompNotifAddfd{ID: id, Flags: flags, Srcfd: uint32(srcfd), NewfdFlags: newfdFlags}
	var n int
	err := retry(func() error {
		var err error
		n, err = addFDRaw(fd, &a)
		return err
	})
	return n, wrap("seccomp notif addfd", err)
}

// BlockAsyncSignals blocks every asynchronous signal on the calling thread,
// which must be locked to its goroutine for good (runtime.LockOSThread,
// never undone: the thread ends with the goroutine, mask and all). It
// returns the mask the thread had, to wait with (ppoll's sigmask) so that
// the runtime's signals (SIGURG: preemption, stack scans) get in while the
// thread sleeps. Synchronous signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
// SIGTRAP, SIGSYS) stay deliverable: the kernel kills a thread that faults
// with them blocked, and Go turns them into panics.
func BlockAsyncSignals() (unix.Sigset_t, error) {
	var block, old unix.Sigset_t
	for i := range block.Val {
		block.Val[i] = ^uint64(0)
	}
	for _, sig := range []unix.Signal{unix.SIGSEGV, unix.SIGBUS, unix.SIGFPE, unix.SIGILL, unix.SIGTRAP, unix.SIGSYS} {
		block.Val[(sig-1)/64] &^= 1 << ((uint(sig) - 1) % 64)
	}
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &block, &old); err != nil {
		return old, fmt.Errorf("block signals: %w", err)
	}
	return old, nil
}

// withSignalsBlocked runs fn on a locked OS thread with every signal
// blocked; pending signals are delivered when the mask is restored.
func withSignalsBlocked(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all, old unix.Sigset_t
	for i := range all.Val {
		all.Val[i] = ^uint64(0)
	}
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &all, &old); err != nil {
		return fmt.Errorf("block signals: %w", err)
	}
	defer func() { _ = unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil) }()
	return fn()
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
