package notify

import (
	"errors"
	"syscall"

	"github.com/aixbroker/aixbroker/policy"
)

// replyKind says how the supervisor answers the kernel.
type replyKind uint8

const (
	replyValue    replyKind = iota // the syscall returns Val
	replyErrno                     // the syscall fails with Errno
	replyFD                        // inject FD and return its number in the target
	replyContinue                  // let the kernel run the syscall (TOCTOU!)
)

// Reply is a handler's answer to one trapped syscall.
type Reply struct {
	kind    replyKind
	errno   syscall.Errno
	val     int64
	fd      int
	cloexec bool
	reason  string
}

// Value makes the syscall return v (0 for success of most syscalls).
func Value(v int64) Reply { return Reply{kind: replyValue, val: v} }

// Errno makes the syscall fail with e.
func Errno(e syscall.Errno) Reply {
	if e == 0 {
		return Value(0)
	}
	return Reply{kind: replyErrno, errno: e}
}

// ErrorOf answers with the errno err carries (the kernel's own when err
// wraps one), EACCES for any other error, and success (0) for nil.
func ErrorOf(err error) Reply {
	if err == nil {
		return Value(0)
	}
	var e syscall.Errno
	if errors.As(err, &e) {
		return Errno(e)
	}
	return Errno(syscall.EACCES)
}

// InjectFD installs fd in the target (atomically answering the syscall with
// its number there). The supervisor closes fd afterwards. cloexec sets
// O_CLOEXEC on the target's descriptor.
func InjectFD(fd int, cloexec bool) Reply {
	return Reply{kind: replyFD, fd: fd, cloexec: cloexec}
}

// Continue lets the kernel perform the syscall as the target asked. It is
// only safe where nothing the target can swap in after the check would be
// granted: say why in reason, and put a "// TOCTOU:" comment above the call.
func Continue(reason string) Reply {
	return Reply{kind: replyContinue, reason: reason}
}

// Denied answers a refusal with the decision's errno, or the default for
// op: ENOENT for reads (the name does not exist for the agent), EACCES for
// everything else.
func Denied(d policy.Decision, op policy.Op) Reply {
	return Errno(denyErrno(d, op))
}

func denyErrno(d policy.Decision, op policy.Op) syscall.Errno {
	switch d.Errno {
	case policy.ENOENT:
		return syscall.ENOENT
	case policy.EACCES:
		return syscall.EACCES
	}
	if op == policy.OpRead || op == policy.OpStat {
		return syscall.ENOENT
	}
	return syscall.EACCES
}

// Handler serves one trapped syscall family.
type Handler func(r *Request) Reply

// handlers maps syscall names to their handler; filled by init functions.
var handlers = map[string]Handler{}

// register makes h the handler of each named syscall. Call it from init.
func register(h Handler, syscalls ...string) {
	for _, s := range syscalls {
		if _, dup := handlers[s]; dup {
			panic("notify: two handlers for " + s) // a programming error, caught by any test
		}
		handlers[s] = h
	}
}

// handled reports whether a handler is registered for syscall.
func handled(syscall string) bool {
	_, ok := handlers[syscall]
	return ok
}
