//go:build linux

package seccomp

import (
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// ioctlPtr issues one ioctl whose argument is a pointer to p.
//
// It is a raw syscall: the goroutine keeps its P (the Go scheduler's
// processor) through the call. None of these ioctls waits long (RECV is
// called once poll reported a notification; ADDFD with SEND waits only for
// the target to take the descriptor), but with SYNC_WAKE_UP the answered
// target preempts the supervisor's thread right inside SEND or ADDFD: as
// an ordinary syscall, the runtime's sysmon would then find the P "in a
// syscall", hand it to another thread, and the supervisor would resume on
// a third one, each step a thread wake-up on the target's critical path
// (measured in docs/PERFORMANCE.md, "Enforcement").
func ioctlPtr(fd int, req uintptr, p unsafe.Pointer) (uintptr, error) {
	r, _, errno := unix.RawSyscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(p))
	if errno != 0 {
		return 0, errno
	}
	return r, nil
}

func recvRaw(fd int, n *SeccompNotif) error {
	_, err := ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(n))
	return err
}

func sendRaw(fd int, r *SeccompNotifResp) error {
	_, err := ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(r))
	return err
}

func idValidRaw(fd int, id uint64) error {
	_, err := ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id))
	return err
}

func addFDRaw(fd int, a *SeccompNotifAddfd) (int, error) {
	r, err := ioctlPtr(fd, unix.SECCOMP_IOCTL_NOTIF_ADDFD, unsafe.Pointer(a))
	return int(r), err
}

// setFlagsRaw passes flags by value: SECCOMP_IOCTL_NOTIF_SET_FLAGS takes the
// flag word itself, not a pointer to it (a pointer gets EINVAL).
func setFlagsRaw(fd int, flags uint64) error {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_SET_FLAGS, uintptr(flags))
	if errno != 0 {
		return errno
	}
	return nil
}

// installRaw calls seccomp(SECCOMP_SET_MODE_FILTER, flags, prog) and returns
// what the kernel returns: the listener fd with NEW_LISTENER, else 0.
func installRaw(prog []bpf.RawInstruction, flags uint) (int, error) {
	if len(prog) == 0 {
		return -1, unix.EINVAL
	}
	filters := make([]unix.SockFilter, len(prog))
	for i, ins := range prog {
		filters[i] = unix.SockFilter{Code: ins.Op, Jt: ins.Jt, Jf: ins.Jf, K: ins.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, uintptr(flags), uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}
