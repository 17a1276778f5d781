package notify

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
)

// The supervisor opens files with its own rights, and it is outside the
// sandbox's Landlock domain. Landlock refuses a sandboxed process the
// ptrace-protected /proc entries (environ, mem, maps, fd, ...) of any
// process outside its domain, such as the user's shell, whose environment
// holds the very secrets the policy filtered out; the supervisor, acting
// for it, must refuse them too. CheckProc does: for a /proc/<pid> entry of
// a process that is not in the sandbox, only the entries anyone may read
// natively (ps, top, pgrep) are allowed.

// publicProcEntries are the /proc/<pid> entries readable without ptrace
// access to the process.
var publicProcEntries = map[string]bool{
	"": true, "task": true, "stat": true, "statm": true, "status": true, "cmdline": true,
	"comm": true, "cgroup": true, "limits": true, "sessionid": true, "loginuid": true,
	"oom_score": true, "oom_score_adj": true, "oom_adj": true,
}

// maxAncestry bounds the parent chain walked to find the supervisor.
const maxAncestry = 64

// CheckProc refuses (EACCES) a canonical path inside /proc/<pid> of a
// process outside the sandbox unless the entry is public. Paths elsewhere,
// and the target's own entries, pass without a lookup.
func (r *Request) CheckProc(canon string) error {
	pid, entry, ok := procEntry(canon)
	if !ok || publicProcEntries[entry] {
		return nil
	}
	if pid == r.TID() || pid == r.tgid || r.sup.inSandbox(pid) {
		return nil
	}
	return fmt.Errorf("open %s of a process outside the sandbox: %w", canon, unix.EACCES)
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
// orphan of the agent. The supervisor itself is not in the sandbox.
func (s *Supervisor) inSandbox(pid int) bool {
	self := os.Getpid()
	for range maxAncestry {
		if pid == self || pid == s.guardian {
			return false
		}
		ppid := parentOf(pid)
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

// parentOf reads the parent of pid (0 when it is gone).
func parentOf(pid int) int {
	data, err := fsops.ReadStatus(pid)
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(data, []byte("\nPPid:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(line)))
	return n
}
