package main

import (
	"os"
	"os/exec"
	"path/filepath"
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
