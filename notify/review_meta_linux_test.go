package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// capDropScript drops CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER and
// CAP_SYS_ADMIN from the bounding set (prctl PR_CAPBSET_DROP, no capset) and execs a
// shell: root's effective set after the exec lacks them, without any of
// the syscalls the supervisor traps to notice a credential change.
const capDropScript = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for cap in (1, 2, 3, 21):
    if libc.prctl(24, cap, 0, 0, 0) != 0:
        print("prctl errno", ctypes.get_errno())
os.execv("/bin/sh", ["sh", "-c", sys.argv[1]])
`

// capDropProbe is what the shell tries once the capabilities are gone: a
// root-owned 0000 file, a file in another user's 0700 directory, and a
// trusted.* attribute (CAP_SYS_ADMIN: natively ENODATA without it).
const capDropProbe = `grep CapEff /proc/self/status
for f in locked priv/f; do if cat "$f" >/dev/null 2>&1; then echo "$f read"; else echo "$f refused"; fi; done
if ls priv >/dev/null 2>&1; then echo "priv listed"; else echo "priv refused"; fi
/usr/bin/python3 -c 'import os
try: print("trusted", os.getxattr("tfile", "trusted.aix"))
except OSError as e: print("trusted errno", e.errno)'`

// TestReviewMetaCapBoundingDrop (review of issue 14 item 12): a root agent
// that lowers its capabilities through the bounding set and an exec
// (capsh --drop does exactly this) was still served with the supervisor's
// full capabilities: credsChanged is set only by the trapped setuid family
// and capset, so the broker walked and opened as itself (R2, at c04822a).
// Since stage 2 drops CAP_SETPCAP (h-devices) the agent can no longer
// drop from its bounding set; the test then only runs where it can.
func TestReviewMetaCapBoundingDrop(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("dropping capabilities needs root")
	}
	if got := newSandbox(t).run(t, "/bin/sh", "-c", "grep CapBnd /proc/self/status"); !strings.Contains(got.stdout, "fff") {
		t.Skipf("the agent has no CAP_SETPCAP to drop from its bounding set (%s): TestReviewMetaAmbientBroker covers the class", strings.TrimSpace(got.stdout))
	}
	s := newSandbox(t)
	locked := filepath.Join(s.project, "locked")
	writeFile(t, locked, "locked\n")
	os.Chmod(locked, 0)
	priv := filepath.Join(s.project, "priv")
	if err := os.Mkdir(priv, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(priv, "f"), "private\n")
	os.Chown(priv, 65534, 65534)
	tfile := filepath.Join(s.project, "tfile")
	writeFile(t, tfile, "t\n")
	if err := unix.Setxattr(tfile, "trusted.aix", []byte("TRUSTED-VALUE"), 0); err != nil {
		t.Fatalf("set trusted xattr: %v", err)
	}
	control := exec.Command("/usr/bin/python3", "-c", capDropScript, capDropProbe)
	control.Dir = s.project
	want, err := control.CombinedOutput()
	if err != nil {
		t.Fatalf("native run: %v\n%s", err, want)
	}
	got := s.run(t, "/usr/bin/python3", "-c", capDropScript, capDropProbe)
	if got.stdout != string(want) {
		t.Errorf("sandboxed answers differ from native ones\nsandboxed:\n%s\nnative:\n%s\nstderr: %s", got.stdout, want, got.stderr)
	}
}

// TestReviewMetaAmbientBroker (review, R2 after h-devices): an unprivileged
// supervisor that holds a capability through its ambient set (a user
// session or service given CAP_DAC_READ_SEARCH, say) runs an agent that
// holds none (stage 2 clears the ambient set, and a non-root exec keeps
// only ambient capabilities). brokerExceedsAgent counted only
// capabilities outside keptCaps, so the broker opened with its own
// CAP_DAC_READ_SEARCH and the agent read a root-only 0600 file it could
// not read natively; it must be refused as natively.
func TestReviewMetaAmbientBroker(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving another user an ambient capability needs root")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "notify.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, "ROOT-ONLY\n")
	os.Chmod(secret, 0o600)
	project := filepath.Join(dir, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chown(project, 65534, 65534)
	probe := "grep CapEff /proc/self/status; cat " + secret + " 2>&1"
	user := []string{"--reuid", "65534", "--regid", "65534", "--clear-groups",
		"--inh-caps", "+dac_read_search", "--ambient-caps", "+dac_read_search", "--"}
	native := exec.Command(setpriv, append(user, "/bin/sh", "-c", probe)...)
	native.Dir = project
	out, err := native.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ROOT-ONLY") {
		t.Skipf("setpriv cannot give an ambient capability here: %v\n%s", err, out)
	}
	cmd := exec.Command(setpriv, append(user, bin, "-test.run=^$", "--", "/bin/sh", "-c", probe)...)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), brokerHelperEnv+"="+project)
	got, _ := cmd.CombinedOutput() // cat's exit status is not the point
	if !strings.Contains(string(got), "CapEff:\t0000000000000000") {
		t.Fatalf("the agent kept a capability:\n%s", got)
	}
	if strings.Contains(string(got), "ROOT-ONLY") {
		t.Errorf("an agent without capabilities read a root-only file through its broker's ambient CAP_DAC_READ_SEARCH:\n%s", got)
	}
}
