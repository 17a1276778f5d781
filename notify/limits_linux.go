package notify

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// The supervisor's own resource limits. Whatever started aixbroker (a
// shell with `ulimit`, a parent that was itself sandboxed, a hostile
// script preparing the next session) may have lowered them, and the
// supervisor's failures are the sandbox's: a file size limit makes every
// audit append fail (EFBIG), a descriptor limit makes every request fail
// (EMFILE), a CPU limit kills the supervisor (SIGXCPU, then SIGKILL) and
// frees the listener.
//
// raiseOwnLimits raises every soft limit to its hard limit, after stage 2
// has started (Run): the agent inherits the limits the user had, so
// `ulimit -n` inside is what the user set (RLIMIT_NOFILE is the Go
// runtime's: it raises it at start and restores the original for every
// child it starts). A hard limit cannot be raised without privilege: one
// below what the supervisor needs refuses the session (ownLimitsNeeded),
// a finite CPU hard limit only warns (CI runners set one: the supervisor
// is then killed when it is reached, and the sandbox fails closed).
// SIGXCPU is ignored, so only the hard CPU limit (SIGKILL) can end the
// supervisor.
func raiseOwnLimits() error {
	signal.Ignore(syscall.SIGXCPU, syscall.SIGXFSZ) // EFBIG instead of death on the file size limit
	for _, l := range ownLimits {
		var rl unix.Rlimit
		if err := unix.Getrlimit(l.res, &rl); err != nil {
			continue
		}
		if l.min != 0 && rl.Max != unix.RLIM_INFINITY && rl.Max < l.min {
			return fmt.Errorf("check own limits: the hard %s limit is %d, the supervisor needs at least %d (%s): raise it (ulimit -H) or start aixbroker from a shell that did not lower it", l.name, rl.Max, l.min, l.why)
		}
		if rl.Cur == rl.Max {
			continue
		}
		rl.Cur = rl.Max
		if err := unix.Setrlimit(l.res, &rl); err != nil {
			return fmt.Errorf("raise own %s limit: %w", l.name, err)
		}
	}
	var cpu unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_CPU, &cpu) == nil && cpu.Max != unix.RLIM_INFINITY {
		fmt.Fprintf(os.Stderr, "aixbroker: warning: the CPU time limit is %d s: the kernel kills the supervisor when it is reached, and the sandbox then stops\n", cpu.Max)
	}
	return nil
}

// ownLimits are the limits raised; min (0: none) is the least hard limit
// the supervisor works with.
var ownLimits = []struct {
	res  int
	name string
	min  uint64
	why  string
}{
	{unix.RLIMIT_FSIZE, "file size (RLIMIT_FSIZE)", 1 << 30, "the audit log's files"},
	{unix.RLIMIT_NOFILE, "open files (RLIMIT_NOFILE)", 4 * defaultMaxDetached, "a few descriptors per request being served"},
	{unix.RLIMIT_CPU, "CPU time (RLIMIT_CPU)", 0, ""},
	{unix.RLIMIT_AS, "address space (RLIMIT_AS)", 0, ""},
	{unix.RLIMIT_DATA, "data segment (RLIMIT_DATA)", 0, ""},
	{unix.RLIMIT_STACK, "stack (RLIMIT_STACK)", 0, ""},
	{unix.RLIMIT_NPROC, "processes (RLIMIT_NPROC)", 0, ""},
	{unix.RLIMIT_SIGPENDING, "pending signals (RLIMIT_SIGPENDING)", 0, ""},
	{unix.RLIMIT_MEMLOCK, "locked memory (RLIMIT_MEMLOCK)", 0, ""},
	{unix.RLIMIT_RTTIME, "real-time CPU time (RLIMIT_RTTIME)", 0, ""},
}
