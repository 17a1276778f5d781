package notify

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// The supervisor opens files with its own rights, and it is outside the
// sandbox's Landlock domain. Landlock refuses a sandboxed process the
// ptrace-protected /proc entries (environ, mem, maps, fd, ...) of any
// process outside its domain, such as the user's shell, whose environment
// holds the very secrets the policy filtered out; the supervisor, acting
// for it, must refuse them too. CheckProc does: for a /proc/<pid> entry of
// a process that is not in the sandbox, only the entries anyone may read
// natively (ps, top, pgrep) are allowed, and only for reading.
//
// Writing is refused whatever the policy says (a project's allow_write
// under /proc, say): no entry of an outside process is written (its
// oom_score_adj would make the user's editor or the supervisor the OOM
// killer's next victim; comm, timerslack_ns, coredump_filter, clear_refs,
// sched, attr/*), and autogroup not even the agent's own: the autogroup is
// the whole terminal session, shared with the user's shell and editor, so
// renicing it renices them. These refusals are recorded with the rule
// "proc-guard".

// publicProcEntries are the /proc/<pid> entries readable without ptrace
// access to the process.
var publicProcEntries = map[string]bool{
	"": true, "task": true, "stat": true, "statm": true, "status": true, "cmdline": true,
	"comm": true, "cgroup": true, "limits": true, "sessionid": true, "loginuid": true,
	"oom_score": true, "oom_score_adj": true, "oom_adj": true,
}

// procRule is the rule a refused write names in the audit.
var procRule = policy.Rule{
	List:    "proc-guard",
	Pattern: "/proc entries of processes outside the sandbox, and autogroup, are never written",
	Comment: "an outside process's oom_score_adj, comm, timerslack_ns, coredump_filter, attr, and the session-wide autogroup",
}

// sharedProcEntries are /proc/<pid> entries that act on more than the
// process: never written, not even for the agent's own process.
var sharedProcEntries = map[string]bool{"autogroup": true}

// maxAncestry bounds the parent chain walked to find the supervisor.
const maxAncestry = 64

// CheckProc refuses (EACCES) a canonical path inside /proc/<pid> of a
// process outside the sandbox unless the entry is public and write is
// false, and a write of a shared entry (autogroup) of any process. Paths
// elsewhere, and the target's own entries otherwise, pass without a
// lookup.
func (r *Request) CheckProc(canon string, write bool) error {
	pid, entry, ok := procEntry(canon)
	if !ok {
		return nil
	}
	if write && sharedProcEntries[entry] {
		return r.refuseProcWrite(canon, "the session's")
	}
	if !write && publicProcEntries[entry] {
		return nil
	}
	if pid == r.TID() || pid == r.tgid || r.sup.inSandbox(pid) {
		return nil
	}
	if write {
		return r.refuseProcWrite(canon, "a process outside the sandbox's")
	}
	return fmt.Errorf("open %s of a process outside the sandbox: %w", canon, unix.EACCES)
}

// refuseProcWrite records and returns the refusal of a write of canon.
func (r *Request) refuseProcWrite(canon, whose string) error {
	r.note(policy.OpWrite, canon, policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: procRule})
	return fmt.Errorf("write %s entry %s: %w", whose, canon, unix.EACCES)
}

// procEntry splits "/proc/<pid>/<entry>/..." (and the task/<tid> form).
func procEntry(canon string) (pid int, entry string, ok bool) {
	rest, found := strings.CutPrefix(canon, "/proc/")
	if !found {
		return 0, "", false
	}
	first, rest, _ := strings.Cut(rest, "/")
	pid, err := strconv.Atoi(first)
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	entry, rest, _ = strings.Cut(rest, "/")
	if entry == "task" && rest != "" {
		tid, tail, _ := strings.Cut(rest, "/")
		if n, err := strconv.Atoi(tid); err == nil && n > 0 {
			pid = n
			entry, _, _ = strings.Cut(tail, "/")
		}
	}
	return pid, entry, true
}

// inSandbox reports whether pid descends from the supervisor process (or
// its guardian, which is not in the sandbox itself):
// the stage-2 child and, since the supervisor is a child subreaper, every
// orphan of the agent. The supervisor itself is not in the sandbox. A
// thread id counts as its thread group: a thread of the guardian has the
// guardian's parent, the supervisor, and is no more in the sandbox than
// the guardian (/proc/<guardian>/task/<tid>/environ).
func (s *Supervisor) inSandbox(pid int) bool {
	self := os.Getpid()
	for range maxAncestry {
		tgid, ppid := procIDs(pid)
		if tgid > 0 {
			pid = tgid
		}
		if pid == self || pid == s.guardian {
			return false
		}
		if ppid <= 1 {
			return false
		}
		if ppid == self || ppid == s.guardian {
			return true
		}
		pid = ppid
	}
	return false
}

// procIDs reads the thread group and the parent of pid, a process or a
// thread (0 when it is gone).
func procIDs(pid int) (tgid, ppid int) {
	data, err := fsops.ReadStatus(pid)
	if err != nil {
		return 0, 0
	}
	return statusInt(data, "\nTgid:"), statusInt(data, "\nPPid:")
}

// statusInt is the number after key in a /proc status file (0 if none).
func statusInt(data []byte, key string) int {
	_, rest, ok := bytes.Cut(data, []byte(key))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(line)))
	return n
}
