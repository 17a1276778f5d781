package notify

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
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

// taskHeadroom is how many tasks of the user's budget the sandbox leaves
// to the supervisor and the guardian: their threads count against the
// same RLIMIT_NPROC as the agent's processes, and a Go program that cannot
// create a thread aborts (review finding: an agent that used up the
// budget, then made one request block, killed both).
const taskHeadroom = 512

// limitAgentTasks lowers stage 2's RLIMIT_NPROC, inherited by the agent,
// so that the agent runs out of tasks before the supervisor does: the
// kernel checks the forking process's own limit against the user's task
// count. An unlimited budget is bounded by the machine's pid and thread
// limits, which the agent could otherwise exhaust for every process of the
// machine. Root is exempt from RLIMIT_NPROC in the kernel: for a root agent
// this changes nothing (SECURITY.md, known limits).
func limitAgentTasks() error {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
		return fmt.Errorf("read the task limit: %w", err)
	}
	hard := lim.Max
	if machine := machineTasks(); machine > 0 && (hard == unix.RLIM_INFINITY || hard > machine) {
		hard = machine
	}
	hard -= min(taskHeadroom, hard/2) // a small budget is halved: the supervisor needs about 150 tasks at most
	if hard >= lim.Max {
		return nil
	}
	lim.Max, lim.Cur = hard, min(lim.Cur, hard)
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
		return fmt.Errorf("lower the agent's task limit to %d: %w", hard, err)
	}
	return nil
}

// machineTasks is the smaller of the kernel's pid_max and threads-max (0
// if neither can be read).
func machineTasks() uint64 {
	var out uint64
	for _, f := range []string{"/proc/sys/kernel/pid_max", "/proc/sys/kernel/threads-max"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
		if err == nil && n > 0 && (out == 0 || n < out) {
			out = n
		}
	}
	return out
}
