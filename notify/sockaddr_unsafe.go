//go:build linux

package notify

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// sockaddrCall performs connect or bind (nr) on fd with addr as raw bytes,
// exactly as the target passed them (the kernel checks and interprets
// them, as it would have for the target).
func sockaddrCall(nr uintptr, fd int, addr []byte) error {
	var p unsafe.Pointer
	if len(addr) > 0 {
		p = unsafe.Pointer(&addr[0])
	}
	_, _, errno := unix.Syscall(nr, uintptr(fd), uintptr(p), uintptr(len(addr)))
	if errno != 0 {
		return errno
	}
	return nil
}
