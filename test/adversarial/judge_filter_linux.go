package adversarial

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// filterChanges are the judge's checks of the outside processes and
// objects the isolation rows of the filter protect: the victim's
// priority, scheduling, CPUs, io priority and limits (they must still be
// what they were when it started), and the SysV objects
// of the case (needs: sysv). With needs: supervisor the supervisor must
// also have lived to write the session_end record: a supervisor killed or
// limited from inside (RLIMIT_CPU, RLIMIT_FSIZE) does not.
func (s *services) filterChanges(c Case, w *World) []string {
	var out []string
	if c.needs("supervisor") {
		if log, err := os.ReadFile(w.auditLog()); err != nil || !strings.Contains(string(log), `"session_end"`) {
			out = append(out, "the supervisor did not write the session_end record (killed or limited from inside)")
		}
	}
	pid := s.procs[0].Process.Pid
	// Compared with the victim's own state as it started, not the
	// runner's: Go raises its own soft RLIMIT_NOFILE and gives children the
	// original one back, so the two differ wherever soft and hard differ.
	if got, want := schedFacts(pid), s.victimFacts; got != want {
		out = append(out, fmt.Sprintf("the process outside the sandbox was re-prioritised or limited: %s, was %s", got, want))
	}
	if s.sysv != nil {
		out = append(out, s.sysv.changed()...)
	}
	return out
}

// schedFacts summarises what prlimit64, setpriority, ioprio_set and the
// sched_set* calls change in pid.
func schedFacts(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "gone"
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if len(f) < 39 {
		return "unreadable"
	}
	var set unix.CPUSet
	unix.SchedGetaffinity(pid, &set)
	prio, _, _ := unix.Syscall(unix.SYS_IOPRIO_GET, 1, uintptr(pid), 0)
	limits, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	return fmt.Sprintf("nice %s policy %s cpus %d ioprio %#x limits %q", f[16], f[38], set.Count(), prio, limits)
}
