//go:build linux

package notify

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// waitPoll is ppoll(fds, NULL, mask) for the goroutine holding the receive
// role: it waits with the thread's signal mask set to mask (nil: as is).
//
// With two or more Ps it is a raw syscall, which keeps the goroutine's P
// while it waits: an ordinary syscall that outlasts a sysmon tick (20 µs,
// shorter than most waits for the next notification) has its P handed to
// another thread, and the supervisor then resumes on a different thread
// after a futex wake-up, on the target's critical path. Waiting raw, the
// other Ps run the rest of the broker (audit writer, watchdog, detached
// requests); a stop-the-world or preemption request reaches the waiting
// thread as a signal, poll returns EINTR and the loop yields. With one P
// the wait would stall every other goroutine until sysmon's forced
// preemption (10 ms), so it stays an ordinary syscall.
func waitPoll(fds []unix.PollFd, mask *unix.Sigset_t) error {
	if runtime.GOMAXPROCS(0) < 2 {
		_, err := unix.Ppoll(fds, nil, mask)
		return err
	}
	var size uintptr
	if mask != nil {
		size = 8 // the kernel's sigset_t, _NSIG/8 (amd64, arm64)
	}
	_, _, errno := unix.RawSyscall6(unix.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), 0,
		uintptr(unsafe.Pointer(mask)), size, 0)
	runtime.KeepAlive(fds)
	runtime.KeepAlive(mask)
	if errno != 0 {
		return errno
	}
	return nil
}
