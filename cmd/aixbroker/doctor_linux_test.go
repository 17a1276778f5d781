package main

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/aixbroker/aixbroker/internal/doctor"
)

// TestDoctor runs the real binary's doctor outside and inside a sandbox:
// outside, nothing blocks on this machine; inside, the nested listener is
// detected (EBUSY) and reported as blocking.
func TestDoctor(t *testing.T) {
	bin := buildBinary(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "doctor", "--json")
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	checks := decodeChecks(t, out)
	if err != nil || doctor.Blocking(checks) {
		t.Fatalf("doctor outside a sandbox: %v\n%s", err, out)
	}
	if len(checks) < 8 {
		t.Errorf("%d checks, want at least 8", len(checks))
	}

	who := account{name: "self", uid: -1, gid: -1}
	w := newWorld(t, who)
	r := w.run(t, who, bin, "doctor", "--json")
	if r.code != 1 {
		t.Errorf("doctor inside the sandbox exited %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	inside := map[string]doctor.Level{}
	for _, c := range decodeChecks(t, []byte(r.stdout)) {
		inside[c.Name] = c.Level
	}
	if inside["outer sandbox"] != doctor.Fail || inside["seccomp user notification"] != doctor.Fail {
		t.Errorf("inside the sandbox: outer sandbox %q, seccomp %q, want both fail\n%s", inside["outer sandbox"], inside["seccomp user notification"], r.stdout)
	}
}

func decodeChecks(t *testing.T, out []byte) []doctor.Check {
	t.Helper()
	var checks []doctor.Check
	if err := json.Unmarshal(out, &checks); err != nil {
		t.Fatalf("decode doctor --json: %v\n%s", err, out)
	}
	return checks
}
