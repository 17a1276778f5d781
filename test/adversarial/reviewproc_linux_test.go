package adversarial

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNprocExhaustion runs case 148 as the unprivileged user under a low
// RLIMIT_NPROC (soft = hard: the supervisor cannot raise it): the agent
// fills the uid's task budget, then makes 130 FIFO opens block. The
// supervisor must neither crash (Go aborts when it cannot create an OS
// thread: "fatal error: newosproc") nor leave a survivor. The limit is the
// uid's current task count plus 500, so the flood stays below 500 tasks.
// (review of h-liveness/h-lifetime, notes/review-proc.md R2)
func TestNprocExhaustion(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox and a bounded fork flood; skipped with -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root: RLIMIT_NPROC is set for the unprivileged user only (root is not bound by it)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is needed")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit is needed")
	}
	who := accounts(t)[0]
	cases, err := Load(".", Attack)
	if err != nil {
		t.Fatal(err)
	}
	var c Case
	for _, k := range cases {
		if strings.HasPrefix(k.Name, "148-") {
			c = k
		}
	}
	if c.Name == "" {
		t.Fatal("case 148 not found")
	}
	tasks, _ := exec.Command("ps", "-L", "-u", strconv.Itoa(who.UID), "--no-headers").Output() // exit 1: none
	limit := strings.Count(string(tasks), "\n") + 500
	dir := sharedTempDir(t)
	bin := buildBroker(t)
	wrapper := filepath.Join(dir, "aixbroker-nproc")
	script := fmt.Sprintf("#!/bin/sh\nexec prlimit --nproc=%d:%d -- %s \"$@\"\n", limit, limit, bin)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Bin: wrapper, Dir: mustAbs(t, "."), User: who}
	if err := r.Compile([]Case{c}, dir); err != nil {
		t.Fatal(err)
	}
	if r.Parent, err = WorldParent(who); err != nil {
		t.Fatal(err)
	}
	res := r.Run(c)
	t.Logf("RLIMIT_NPROC %d: %s %s\n%s", limit, res.Verdict, res.Detail, tail(res.Output, 600))
	switch {
	case res.Failed() && c.Known != "":
		t.Logf("%s: %s (%s)", c.Name, res.Verdict, res.Detail)
	case res.Failed():
		t.Errorf("%s: %s", res.Verdict, res.Detail)
	}
}
