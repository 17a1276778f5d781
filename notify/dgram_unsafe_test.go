//go:build linux

package notify

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// makeSocket creates and closes a socket or a pair. It uses Syscall, not
// x/sys's socket (RawSyscall): a trapped call blocks until the supervisor
// answers, and a RawSyscall would keep its P from the supervisor's
// goroutines meanwhile.
func makeSocket(domain, typ int, pair bool) error {
	if pair {
		var fds [2]int32
		_, _, e := unix.Syscall6(unix.SYS_SOCKETPAIR, uintptr(domain), uintptr(typ), 0, uintptr(unsafe.Pointer(&fds)), 0, 0)
		if e != 0 {
			return e
		}
		unix.Close(int(fds[0]))
		unix.Close(int(fds[1]))
		return nil
	}
	fd, _, e := unix.Syscall(unix.SYS_SOCKET, uintptr(domain), uintptr(typ), 0)
	if e != 0 {
		return e
	}
	unix.Close(int(fd))
	return nil
}
