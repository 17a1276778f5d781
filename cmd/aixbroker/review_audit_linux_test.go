package main

import (
	"github.com/aixbroker/aixbroker/audit"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAuditLogInWritableRoot (review of h-audit, R1): `exec --audit FILE`
// (its own --help example is --audit /tmp/session.jsonl) and a policy's
// audit.log from --policy or a user profile may put the log below a root
// the agent may write (/tmp, ${TMPDIR}, the project). Only
// ${AIXGATE_CONFIG_DIR}/** is denied, so the agent then reads the log,
// deletes it (its session_start goes, and the recreated log verifies "ok
// from the first record ever written"), and replaces the log and its side
// files by symlinks, which the supervisor follows with the user's rights:
// log.head.tmp → any file of the user is truncated and overwritten by the
// head anchor; log → a file that does not exist yet is created by the
// supervisor and filled with records whose paths the agent chose
// (`$(cmd)` runs when a shell sources it: ~/.bash_profile, /etc/profile.d).
// Each case must be held: the agent reaches neither the log nor, through
// it, a file outside.
func TestAuditLogInWritableRoot(t *testing.T) {
	cases := []struct {
		name   string
		script string // $L is the log, $O a folder outside every root (set in the script: the policy strips unknown variables)
		check  func(t *testing.T, out, o, sessionLog string)
	}{
		{
			name:   "read",
			script: `head -c 4000 "$L"`,
			check: func(t *testing.T, out, o, log string) {
				if strings.Contains(out, `"session_start"`) {
					t.Errorf("the agent read the audit log: %.300s", out)
				}
			},
		},
		{
			name:   "unlink",
			script: `rm -f "$L"; sleep 0.2; ls -la "$L"`,
			check: func(t *testing.T, out, o, log string) {
				data, _ := os.ReadFile(log)
				if !strings.Contains(string(data), `"session_start"`) {
					t.Errorf("the agent deleted the audit log: its session_start is gone (%d bytes left)", len(data))
				}
			},
		},
		{
			name:   "head-tmp-symlink",
			script: `ln -s "$O/victimrc" "$L.head.tmp"; cat /nonexistent/x 2>/dev/null; sleep 0.3`,
			check: func(t *testing.T, out, o, log string) {
				if data, _ := os.ReadFile(filepath.Join(o, "victimrc")); string(data) != "precious\n" {
					t.Errorf("a file outside the sandbox was overwritten by the supervisor through LOG.head.tmp: now %q", data)
				}
			},
		},
		{
			name:   "log-symlink",
			script: `ln -s "$O/newrc" "$L.new" && mv -T "$L.new" "$L"; cat '/nonexistent/$(touch '"$O"'/pwned)' 2>/dev/null; sleep 0.3`,
			check: func(t *testing.T, out, o, log string) {
				data, err := os.ReadFile(filepath.Join(o, "newrc"))
				if err == nil {
					t.Errorf("the supervisor created a file outside the sandbox through a symlinked log (%d bytes, holds the agent's $(...): %v)", len(data), strings.Contains(string(data), "$(touch"))
					exec.Command("bash", filepath.Join(o, "newrc")).Run()
					if _, err := os.Stat(filepath.Join(o, "pwned")); err == nil {
						t.Errorf("sourcing it ran the agent's command outside the sandbox")
					}
				}
			},
		},
	}
	for _, who := range accounts(t) {
		for _, where := range []string{"tmp", "project"} {
			for _, c := range cases {
				t.Run(who.name+"/"+where+"/"+c.name, func(t *testing.T) {
					w := newWorld(t, who)
					outside := filepath.Join(w.home, "outside")
					if err := os.MkdirAll(outside, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(outside, "victimrc"), []byte("precious\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					dir := filepath.Join(w.project, "logs")
					if where == "tmp" {
						d, err := os.MkdirTemp("/tmp", "rv-audit-")
						if err != nil {
							t.Fatal(err)
						}
						t.Cleanup(func() { os.RemoveAll(d) })
						dir = d
					}
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if who.uid >= 0 {
						for _, p := range []string{outside, filepath.Join(outside, "victimrc"), dir} {
							os.Chown(p, who.uid, who.gid)
						}
					}
					log := filepath.Join(dir, "session.jsonl")
					cmd := exec.Command(durableBinary(t), "exec", "--quiet", "--profile", "generic", "--audit", log, "--", "sh", "-c", "L='"+log+"'; O='"+outside+"'; "+c.script)
					cmd.Dir = w.project
					cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=/tmp"}
					cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
					if who.uid >= 0 {
						cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}
					}
					done := make(chan struct{})
					time.AfterFunc(30*time.Second, func() {
						select {
						case <-done:
						default:
							syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
						}
					})
					out, _ := cmd.CombinedOutput()
					close(done)
					t.Logf("output: %.400s", out)
					c.check(t, string(out), outside, log)
				})
			}
		}
	}
}

// floodScript opens a file in the project behind a ~4000-byte path: each
// open is an allowed event of about 4.3 KB, and allowed events have no
// flood budget. argv: count (0: no bound), seconds, then it prints "filled".
const floodScript = `import os, sys, time
n, secs = int(sys.argv[1]), float(sys.argv[2])
p = "flood"
while len(p) < 3900:
    p += "/" + "d" * 200
os.makedirs(p, exist_ok=True)
p += "/f"
open(p, "w").close()
end, i = time.time() + secs, 0
while (n == 0 or i < n) and time.time() < end:
    os.close(os.open(p, os.O_RDONLY))
    i += 1
print("filled", i, flush=True)
`

// TestAllowedFloodRotatesRunningSession (review of h-audit, R3): session A
// runs; session B, started after it, floods allowed events (no budget) and
// rotation removes A's records, its session_start included, while A is
// still running: each writer protects only its own records. The test
// measures how fast. Held would be: A's session_start still in the log
// when B is done (B fails closed instead, or B's allowed events are
// budgeted).
func TestAllowedFloodRotatesRunningSession(t *testing.T) {
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			cfgDir := filepath.Join(w.home, ".aixgate")
			os.MkdirAll(cfgDir, 0o700)
			if err := os.WriteFile(filepath.Join(cfgDir, "config.yaml"), []byte("audit:\n  max_size_mb: 1\n  max_files: 4\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(w.project, "flood.py"), []byte(floodScript), 0o644); err != nil {
				t.Fatal(err)
			}
			if who.uid >= 0 {
				for _, p := range []string{cfgDir, filepath.Join(cfgDir, "config.yaml"), filepath.Join(w.project, "flood.py")} {
					os.Chown(p, who.uid, who.gid)
				}
			}
			// A fills more than one file, then keeps running.
			a, aOut, aDone := w.startExec(t, who, "sh", "-c", "python3 flood.py 400 10; while :; do cat ~/.ssh/id_rsa 2>/dev/null; sleep 0.1; done")
			for deadline := time.Now().Add(30 * time.Second); !strings.Contains(aOut.String(), "filled"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("session A never filled: %s", aOut)
				}
			}
			var startA audit.Record
			if files, err := audit.Files(w.auditLog()); err == nil {
				for e, err := range audit.Scan(files) {
					if err == nil && e.Record.Type == audit.TypeSessionStart {
						startA = e.Record
					}
				}
			}
			time.Sleep(200 * time.Millisecond) // A's batch flushed
			hasStart := func() bool {
				files, err := audit.Files(w.auditLog())
				if err != nil {
					return false
				}
				for e, err := range audit.Scan(files) {
					if err == nil && e.Record.Type == audit.TypeSessionStart && e.Record.SessionID == startA.SessionID {
						return true
					}
				}
				return false
			}
			if !hasStart() {
				t.Fatal("session A's start is not in the log before B")
			}
			began := time.Now()
			_, bOut, bDone := w.startExec(t, who, "python3", "flood.py", "0", "6")
			var gone time.Duration
		wait:
			for {
				select {
				case <-bDone:
					break wait
				case <-time.After(50 * time.Millisecond):
					if gone == 0 && !hasStart() {
						gone = time.Since(began)
					}
				}
			}
			if gone == 0 && !hasStart() {
				gone = time.Since(began)
			}
			var size int64
			if files, err := audit.Files(w.auditLog()); err == nil {
				for _, f := range files {
					if fi, err := os.Stat(f); err == nil {
						size += fi.Size()
					}
				}
			}
			t.Logf("B: %s (log now %d bytes in 4 files of 1 MiB)", strings.TrimSpace(bOut.String()), size)
			select {
			case <-aDone:
				t.Errorf("session B's flood stopped session A (its audit could no longer rotate without removing its own records): %s", aOut)
			case <-time.After(2 * time.Second):
				a.Process.Signal(syscall.SIGTERM)
				<-aDone
			}
			_, sessions := w.verify(t, "sessions")
			t.Logf("audit sessions after both:\n%s", sessions)
			code, msg := w.verify(t, "verify")
			t.Logf("A said: %s\nverify: exit %d: %s", aOut, code, msg)
			if code == 0 && !strings.Contains(sessions, "ended") {
				t.Errorf("verify exits 0 although session A has neither its start nor its end in the log")
			}
			if gone != 0 {
				t.Errorf("session B's allowed flood rotated away running session A's session_start %.1f s after B started (A was still running)", gone.Seconds())
			}
		})
	}
}

// TestAuditOnFullDisk (review of h-audit): the log on a real full
// filesystem, a 256 KiB tmpfs mounted on ~/.aixgate (root only). The agent
// floods allowed events until the filesystem is full. The session must stop
// saying so, and verify must say what happened: a torn last line (a short
// write(2) on ENOSPC) reads as tampering (exit 1) rather than as a session
// that ended abnormally (exit 3).
func TestAuditOnFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			cfgDir := filepath.Join(w.home, ".aixgate")
			os.MkdirAll(cfgDir, 0o700)
			opts := "size=256k,mode=0700"
			if who.uid >= 0 {
				opts += ",uid=" + strconv.Itoa(who.uid) + ",gid=" + strconv.Itoa(who.gid)
			}
			if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", cfgDir).CombinedOutput(); err != nil {
				t.Skipf("mount tmpfs: %v: %s", err, out)
			}
			t.Cleanup(func() { exec.Command("umount", "-l", cfgDir).Run() })
			if err := os.WriteFile(filepath.Join(w.project, "flood.py"), []byte(floodScript), 0o644); err != nil {
				t.Fatal(err)
			}
			if who.uid >= 0 {
				os.Chown(filepath.Join(w.project, "flood.py"), who.uid, who.gid)
			}
			began := time.Now()
			_, out, done := w.startExec(t, who, "python3", "flood.py", "0", "8")
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the session went on for 30 s on a full disk: %s", out)
			}
			t.Logf("session: %v after %.1f s: %s", err, time.Since(began).Seconds(), out)
			if !strings.Contains(out.String(), "the sandbox is being stopped") {
				t.Errorf("the session did not say its audit failed")
			}
			if strings.Contains(out.String(), "filled") {
				t.Errorf("the flood ran to its end: the session was not stopped")
			}
			code, msg := w.verify(t, "verify")
			t.Logf("verify: exit %d: %s", code, msg)
			if code != 3 {
				t.Errorf("verify on the full disk: exit %d, want 3 (the session ended abnormally; nothing was tampered with)", code)
			}
		})
	}
}
