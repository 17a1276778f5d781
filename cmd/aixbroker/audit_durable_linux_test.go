package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aixbroker/aixbroker/audit"
)

// durableBinary is the aixbroker these tests run: $AIXBROKER_AUDIT_TEST_BIN
// (to show an older build failing them), else this tree's.
func durableBinary(t *testing.T) string {
	if b := os.Getenv("AIXBROKER_AUDIT_TEST_BIN"); b != "" {
		return b
	}
	return buildBinary(t)
}

// startExec starts `aixbroker exec` on argv as who in the world, in its own
// process group, and returns it with its combined output.
func (w world) startExec(t *testing.T, who account, argv ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
	t.Helper()
	full := append([]string{"exec", "--quiet", "--audit", w.auditLog(), "--"}, argv...)
	cmd := exec.Command(durableBinary(t), full...)
	cmd.Dir = w.project
	cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=/tmp"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if who.uid >= 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, &out, done
}

func (w world) auditLog() string { return filepath.Join(w.home, ".aixgate", "audit.jsonl") }

// waitRecord waits until the log holds a record for which ok is true.
func (w world) waitRecord(t *testing.T, ok func(*audit.Record) bool) audit.Record {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for e, err := range audit.Scan([]string{w.auditLog()}) {
			if err == nil && ok(&e.Record) {
				return e.Record
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the record never reached the log")
	return audit.Record{}
}

// verify runs `aixbroker audit verify LOG` and returns its exit status and
// output.
func (w world) verify(t *testing.T, sub ...string) (int, string) {
	t.Helper()
	args := append([]string{"audit"}, sub...)
	args = append(args, "--file", w.auditLog())
	out, err := exec.Command(durableBinary(t), args...).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestKilledSupervisorIsFlagged (attack 132): SIGKILL the supervisor of a
// running session. The refusal it answered just before is in the log (it
// is written before the reply), and `audit verify` exits 3 naming the
// session, which `audit sessions` shows as abnormal; while it ran, verify
// said running, not abnormal.
func TestKilledSupervisorIsFlagged(t *testing.T) {
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			cmd, out, done := w.startExec(t, who, "sh", "-c", "cat ~/.ssh/id_rsa; exec sleep 60")
			deny := w.waitRecord(t, func(r *audit.Record) bool { return r.Denied() && strings.HasSuffix(r.Path, "/.ssh/id_rsa") })
			if code, msg := w.verify(t, "verify"); code != 0 {
				t.Fatalf("verify of a running session: exit %d: %s", code, msg)
			}
			if _, msg := w.verify(t, "sessions"); !strings.Contains(msg, "running") {
				t.Errorf("audit sessions of a running session: %s", msg)
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-done
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			code, msg := w.verify(t, "verify")
			if code != 3 || !strings.Contains(msg, deny.SessionID) || !strings.Contains(msg, "ended abnormally") {
				t.Fatalf("verify after SIGKILL of the supervisor: exit %d, want 3 naming session %s:\n%s\n(exec output: %s)", code, deny.SessionID, msg, out)
			}
			if _, msg := w.verify(t, "sessions"); !strings.Contains(msg, "ABNORMAL") {
				t.Errorf("audit sessions after the kill: %s", msg)
			}
		})
	}
}

// TestDenialLoggedBeforeAnswer: the agent is refused, then at once leaves
// a marker; the test kills the supervisor as soon as it sees the marker.
// The refusal must be in the log: it was written before the agent got its
// answer, not in a batch that died with the supervisor.
func TestDenialLoggedBeforeAnswer(t *testing.T) {
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			marker := filepath.Join(w.project, "marker")
			lost := 0
			const rounds = 5
			for range rounds {
				os.Remove(marker)
				cmd, _, done := w.startExec(t, who, "sh", "-c", fmt.Sprintf("cat ~/.ssh/id_rsa 2>/dev/null; : > %s; exec sleep 60", marker))
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Microsecond) {
					if _, err := os.Stat(marker); err == nil {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("no marker")
					}
				}
				cmd.Process.Kill()
				<-done
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				found, session := false, ""
				for e, err := range audit.Scan([]string{w.auditLog()}) {
					switch r := e.Record; {
					case err != nil:
					case r.Type == audit.TypeSessionStart:
						session, found = r.SessionID, false
					case r.SessionID == session && r.Denied() && strings.HasSuffix(r.Path, "/.ssh/id_rsa"):
						found = true
					}
				}
				if !found {
					lost++
				}
			}
			if lost > 0 {
				t.Errorf("%d of %d refusals answered before the supervisor was killed are not in the log", lost, rounds)
			}
		})
	}
}

// TestAuditFailureStopsSession (attack 131 without the prlimit from
// inside): RLIMIT_FSIZE 0 set on a running supervisor from outside. The
// next refusal cannot be written: aixbroker says so on stderr, stops the
// agent, and the session ends non-zero; verify flags it.
func TestAuditFailureStopsSession(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			script := "echo up; read x < ~/proj/README.md; while :; do cat ~/.ssh/id_rsa 2>/dev/null; sleep 0.01; done"
			cmd, out, done := w.startExec(t, who, "sh", "-c", script)
			w.waitRecord(t, func(r *audit.Record) bool { return r.Denied() })
			// As the session's own user: lowering another user's limits
			// needs CAP_SYS_RESOURCE, which root may lack in a container.
			lim := exec.Command("prlimit", "--pid", strconv.Itoa(cmd.Process.Pid), "--fsize=0:0")
			if who.uid >= 0 {
				lim.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}}
			}
			if msg, err := lim.CombinedOutput(); err != nil {
				t.Fatalf("prlimit: %v: %s", err, msg)
			}
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("the session exited 0 after its audit failed: %s", out)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("the session went on for 20 s after its audit failed: %s", out)
			}
			if !strings.Contains(out.String(), "the sandbox is being stopped") || !strings.Contains(out.String(), "file too large") {
				t.Errorf("stderr does not say the audit failed and the sandbox stops: %s", out)
			}
			if code, msg := w.verify(t, "verify"); code != 3 {
				t.Errorf("verify after the failure: exit %d, want 3: %s", code, msg)
			}
		})
	}
}
