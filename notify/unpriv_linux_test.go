package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// rerunAsNobody runs the tests matching run from this test binary again
// as the unprivileged user nobody (broker and agent as the user, no
// capabilities, no user namespaces) and returns their output. A failure or
// a skip there fails t.
func rerunAsNobody(t *testing.T, run string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to nobody; unprivileged, the tests already run as this user")
	}
	if os.Getenv("AIXBROKER_TEST_UNPRIVILEGED") != "" {
		t.Skip("already unprivileged")
	}
	dir, err := os.MkdirTemp("", "notify-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "notify.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", run, "-test.count=1", "-test.v")
	cmd.Env = []string{"AIXBROKER_TEST_UNPRIVILEGED=1", "TMPDIR=" + os.TempDir(), "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests as nobody: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Errorf("a test skipped as nobody:\n%s", out)
	}
	return string(out)
}

// TestUnprivilegedOpenExec reruns the open, exec and attack tests as the
// unprivileged user nobody.
func TestUnprivilegedOpenExec(t *testing.T) {
	run := "TestOpenMilestones|TestOpenRecords|TestOpenHardLink|TestRedact|TestAttacks|TestRacingPathSwap|TestExecDenied|TestExitStatus|TestBrokerDeathFailsClosed|TestProcOfOutside|TestFIFO|TestLandlockBackstop|TestAgentExecDenied|TestTeardown|TestSignalForwarded|TestUnix|TestXattr|TestUndecided|TestOPath"
	out := rerunAsNobody(t, run)
	if !strings.Contains(out, "--- PASS: TestRacingPathSwap") {
		t.Errorf("the racing test did not run as nobody:\n%s", out)
	}
}
