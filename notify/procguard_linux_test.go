//go:build linux

package notify

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestProcWriteGuard: with a policy that allows writing all of /proc (a
// project's allow_write: /proc/**), the agent still writes no entry of a
// process outside the sandbox (its OOM score, name, timer slack, core dump
// filter, clear_refs, sched, per process and per thread), and no autogroup,
// its own included (the terminal session's); its own entries and its
// children's stay writable. $PPID is the guardian, a multithreaded
// process outside the sandbox whose threads are the supervisor's
// children: none of its threads' entries is written or its environ read.
func TestProcWriteGuard(t *testing.T) {
	// The victim must not descend from this process, which acts as the
	// supervisor (its other children would count as in the sandbox): a
	// double fork leaves it to init or an outer subreaper (Run makes this
	// process one only while it runs).
	out, err := exec.Command("sh", "-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(out))
	pid, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("victim pid %q", out)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	read := func(e string) string {
		data, _ := os.ReadFile("/proc/" + v + "/" + e)
		return strings.TrimSpace(string(data))
	}
	entries := []string{"oom_score_adj", "oom_adj", "comm", "timerslack_ns", "coredump_filter", "autogroup"} // sched: statistics that change anyway
	before := map[string]string{}
	for _, e := range entries {
		before[e] = read(e)
	}
	// A failure renices the terminal session of whoever runs the test.
	if ag, err := os.ReadFile("/proc/self/autogroup"); err == nil {
		t.Cleanup(func() {
			if f := strings.Fields(string(ag)); len(f) == 3 {
				os.WriteFile("/proc/self/autogroup", []byte(f[2]), 0)
			}
		})
	}
	s := newSandbox(t)
	s.policy.Write = append(s.policy.Write, "/proc")
	script := `v=` + v + `
w() { if (printf '%s\n' "$2" > "$1") 2>/dev/null; then echo "$1 WRITTEN $3"; else echo "$1 refused $3"; fi; }
for p in $v $PPID; do
  for e in oom_score_adj:1000 oom_adj:15 comm:pwned timerslack_ns:100000000 coredump_filter:0x7f clear_refs:5 sched:0 autogroup:19; do
    w /proc/$p/${e%%:*} ${e#*:}
    for t in /proc/$p/task/*; do w $t/${e%%:*} ${e#*:}; done
  done
  for t in /proc/$p/task/*; do cat $t/environ >/dev/null 2>&1 && echo "$t/environ READ"; done
done
w /proc/self/autogroup 19
w /proc/$$/autogroup 19
w /proc/self/oom_score_adj 500 own
w /proc/self/comm agent own
sleep 30 & c=$!
w /proc/$c/oom_score_adj 600 own
kill $c
`
	res := s.run(t, "/bin/sh", "-c", script)
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		f := strings.Fields(line)
		own := len(f) == 3 && f[2] == "own" // the agent's own entries and its child's
		if len(f) < 2 || f[1] == "READ" || (f[1] == "WRITTEN") != own {
			t.Errorf("%s: want written=%v, never read", line, own)
		}
	}
	for _, e := range entries {
		if got := read(e); got != before[e] {
			t.Errorf("victim's %s changed: %q → %q", e, before[e], got)
		}
	}
	guarded := 0
	for _, ev := range s.events.find("/proc/" + v + "/oom_score_adj") {
		if ev.Decision.Rule.List == "proc-guard" {
			guarded++
		}
	}
	if guarded == 0 {
		t.Errorf("no proc-guard decision recorded for the victim's oom_score_adj:\n%s", res.stdout)
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
	}
}
