package notify

import (
	"bytes"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
)

// Calls that set another process's resource limits, priority, io
// priority, scheduling policy, CPUs or memory placement: a same-uid agent
// may do all of them to any process of the user (the supervisor through
// getppid(), the user's editor), and RLIMIT_CPU {1,1} kills the
// supervisor. The filter decides on registers where it can (the caller
// itself, pid 0; a NULL new limit; process groups and users are refused:
// internal/seccomp isolation rows) and traps the calls naming a pid. These
// handlers allow a pid of the caller's own process or of a process of the
// sandbox, and refuse any other with EPERM, as the kernel refuses a process
// it may not touch.
func init() {
	register(handleOtherProcess, "prlimit64", "setpriority", "ioprio_set", "sched_setscheduler",
		"sched_setparam", "sched_setattr", "sched_setaffinity", "migrate_pages", "move_pages", "kcmp")
}

// targetArgs are the arguments holding the process (or thread) ids each
// call acts on.
var targetArgs = map[string][]int{
	"prlimit64": {0}, "setpriority": {1}, "ioprio_set": {1},
	"sched_setscheduler": {0}, "sched_setparam": {0}, "sched_setattr": {0}, "sched_setaffinity": {0},
	"migrate_pages": {0}, "move_pages": {0}, "kcmp": {0, 1},
}

func handleOtherProcess(r *Request) Reply {
	args, ok := targetArgs[r.Syscall]
	if !ok {
		return Errno(unix.ENOSYS)
	}
	for _, i := range args {
		pid := int(int32(r.Arg(i))) // pid_t and id_t: the kernel reads the low word
		r.attempted = "/proc/" + strconv.Itoa(pid)
		if pid <= 0 {
			return Errno(unix.ESRCH) // what the kernel answers for a negative id; 0 is decided on registers
		}
		if err := r.ownOrSandboxed(pid); err != 0 {
			return Errno(err)
		}
	}
	// TOCTOU: the target is a number in a register, which the kernel reads
	// from the saved registers, not from memory a sibling could rewrite;
	// the check is on the process that number names now. The one window
	// is pid reuse: the target exits and an outside process gets the same
	// number between this check and the kernel's lookup, which needs the
	// pid space to wrap (pid_max ids) within one reply. The target must be
	// the caller's or the sandbox's own, so the agent can only make that
	// race by killing its own process and waiting for an outside fork to
	// land on the number in a window of microseconds.
	return Continue("the target is the caller's own process or one of the sandbox")
}

// ownOrSandboxed returns 0 when id (a process or thread id) belongs to the
// caller's process or to a process of the sandbox (a descendant of the
// supervisor that runs under a seccomp filter), ESRCH when it does not
// exist, and EPERM otherwise.
func (r *Request) ownOrSandboxed(id int) unix.Errno {
	tgid := tgidOf(id)
	if tgid == 0 {
		return unix.ESRCH
	}
	if tgid == r.tgid && r.tgid != 0 {
		return 0
	}
	if r.sup.inSandbox(tgid) && filtered(tgid) {
		return 0
	}
	return unix.EPERM
}

// filtered reports whether pid runs under a seccomp filter (the sandbox's
// filter is inherited by every descendant and cannot be removed).
func filtered(pid int) bool {
	data, err := fsops.ReadStatus(pid)
	return err == nil && bytes.Contains(data, []byte("\nSeccomp:\t2\n"))
}
