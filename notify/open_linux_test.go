package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func TestOpenMilestones(t *testing.T) {
	s := newSandbox(t)
	link := filepath.Join(s.project, "innocent")
	if err := os.Symlink(s.secret, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		argv       []string
		wantCode   int
		wantOut    string // substring of stdout
		wantErr    string // substring of stderr
		notContain string // never in stdout or stderr
	}{
		{name: "cat denied secret", argv: []string{"cat", s.secret}, wantCode: 1, wantErr: "No such file or directory", notContain: "SECRET"},
		{name: "cat allowed file", argv: []string{"cat", "README"}, wantOut: "hello project"},
		{name: "symlink to secret", argv: []string{"cat", link}, wantCode: 1, wantErr: "No such file or directory", notContain: "SECRET"},
		{name: "proc self root", argv: []string{"cat", "/proc/self/root" + s.secret}, wantCode: 1, notContain: "SECRET"},
		{name: "proc self cwd", argv: []string{"cat", "/proc/self/cwd/../.ssh/id_rsa"}, wantCode: 1, notContain: "SECRET"},
		{name: "dev fd symlink", argv: []string{"bash", "-c", "ln -s /dev/fd/0 x0 && cat x0 < " + s.secret}, wantCode: 1, notContain: "SECRET"},
		{name: "write and read back", argv: []string{"bash", "-c", "echo written > out.txt && cat out.txt"}, wantOut: "written"},
		{name: "append", argv: []string{"bash", "-c", "echo a > ap && echo b >> ap && cat ap"}, wantOut: "a\nb"},
		{name: "write outside refused", argv: []string{"bash", "-c", "echo x > " + filepath.Join(s.home, "outside")}, wantCode: 1, wantErr: "Permission denied"},
		{name: "pipes and subshells", argv: []string{"bash", "-c", "(cat README | tr a-z A-Z) | (read l; echo \"$l\")"}, wantOut: "HELLO PROJECT"},
		{name: "process substitution", argv: []string{"bash", "-c", "cat <(echo from-pipe)"}, wantOut: "from-pipe"},
		{name: "stdin", argv: []string{"bash", "-c", "echo via-stdin | cat /dev/stdin"}, wantOut: "via-stdin"},
		{name: "python open", argv: []string{"/usr/bin/python3", "-c", "open('p.txt','w').write('py'); print(open('p.txt').read()); open('" + s.secret + "')"}, wantCode: 1, wantOut: "py", wantErr: "FileNotFoundError"},
		{name: "exclusive create exists", argv: []string{"/usr/bin/python3", "-c", "import os; os.open('README', os.O_CREAT|os.O_EXCL|os.O_WRONLY)"}, wantCode: 1, wantErr: "FileExistsError"},
		{name: "umask honoured", argv: []string{"bash", "-c", "umask 077; echo x > um; stat -c %a um"}, wantOut: "600"},
		{name: "listing project", argv: []string{"ls", "-a"}, wantOut: "README"},
		{name: "own executable", argv: []string{"/usr/bin/python3", "-c", "print(len(open('/proc/self/exe','rb').read(4)))"}, wantOut: "4"},
		{name: "own fd listing", argv: []string{"/usr/bin/python3", "-c", "import os; print(sorted(int(x) for x in os.listdir('/proc/self/fd'))[:3])"}, wantOut: "[0, 1, 2]"},
		{name: "tmpfile fallback", argv: []string{"/usr/bin/python3", "-c", "import tempfile; f=tempfile.TemporaryFile(dir='.'); f.write(b'ok'); f.seek(0); print(f.read())"}, wantOut: "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.run(t, tt.argv...)
			if got.code != tt.wantCode {
				t.Errorf("exit %d, want %d (stdout %q, stderr %q)", got.code, tt.wantCode, got.stdout, got.stderr)
			}
			if !strings.Contains(got.stdout, tt.wantOut) {
				t.Errorf("stdout %q, want it to contain %q", got.stdout, tt.wantOut)
			}
			if !strings.Contains(got.stderr, tt.wantErr) {
				t.Errorf("stderr %q, want it to contain %q", got.stderr, tt.wantErr)
			}
			if tt.notContain != "" && strings.Contains(got.stdout+got.stderr, tt.notContain) {
				t.Errorf("output contains %q: %q %q", tt.notContain, got.stdout, got.stderr)
			}
		})
	}
}

func TestOpenRecordsDecision(t *testing.T) {
	s := newSandbox(t)
	s.run(t, "cat", s.secret)
	evs := s.events.find(s.secret)
	if len(evs) == 0 {
		t.Fatalf("no event for %s", s.secret)
	}
	ev := evs[0]
	if ev.Decision.Allowed() || ev.Result != "ENOENT" || ev.TID == 0 || ev.PID != ev.TID || ev.Syscall != "openat" || ev.Latency <= 0 {
		t.Errorf("event = %+v, want a denied openat answered ENOENT with tid and latency", ev)
	}
}

func TestOpenHardLinkToDenied(t *testing.T) {
	s := newSandbox(t)
	link := filepath.Join(s.project, "hardlink")
	if err := os.Link(s.secret, link); err != nil {
		t.Fatal(err)
	}
	deny, err := fsops.NewDenyInodes([]string{s.secret})
	if err != nil {
		t.Fatal(err)
	}
	s.denyInodes = deny
	got := s.run(t, "cat", "hardlink")
	if got.code == 0 || strings.Contains(got.stdout, "SECRET") {
		t.Errorf("cat of a hard link to the secret: exit %d, stdout %q", got.code, got.stdout)
	}
}

// TestOpenAfterDroppingPrivileges runs a root agent that drops to nobody:
// from then on the broker must open with nobody's credentials, so a file
// only root may read stays unreadable.
func TestOpenAfterDroppingPrivileges(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the agent drops from root to nobody")
	}
	s := newSandbox(t)
	if err := os.Chmod(s.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(s.home), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(s.project, "rootonly"), "ROOT-ONLY\n")
	if err := os.Chmod(filepath.Join(s.project, "rootonly"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := s.run(t, "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cat", "rootonly", "README")
	if strings.Contains(got.stdout, "ROOT-ONLY") || !strings.Contains(got.stderr, "Permission denied") {
		t.Errorf("stdout %q stderr %q, want rootonly refused to nobody", got.stdout, got.stderr)
	}
	if !strings.Contains(got.stdout, "hello project") {
		t.Errorf("stdout %q, want README readable by nobody", got.stdout)
	}
}

// TestFIFODoesNotStall opens a FIFO for reading (the broker's open blocks
// until a writer comes) while the writer's own open must be served.
func TestFIFODoesNotStall(t *testing.T) {
	s := newSandbox(t)
	if err := unix.Mkfifo(filepath.Join(s.project, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := s.run(t, "bash", "-c", "(sleep 0.2; echo through-fifo > fifo) & cat fifo; wait")
	if got.code != 0 || !strings.Contains(got.stdout, "through-fifo") {
		t.Errorf("exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
}

func TestReopenOwnMemfd(t *testing.T) {
	s := newSandbox(t)
	script := "import os; fd = os.memfd_create('x'); os.write(fd, b'in-memfd'); print(open('/proc/self/fd/%d' % fd).read())"
	got := s.run(t, "/usr/bin/python3", "-c", script)
	if !strings.Contains(got.stdout, "in-memfd") {
		t.Errorf("stdout %q stderr %q", got.stdout, got.stderr)
	}
}

// TestRunReturnsWithBlockedFIFO kills a reader blocked on a FIFO nobody
// writes: the broker's own open stays blocked, and Run must still return.
func TestRunReturnsWithBlockedFIFO(t *testing.T) {
	s := newSandbox(t)
	if err := unix.Mkfifo(filepath.Join(s.project, "never"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := s.run(t, "bash", "-c", "cat never & sleep 0.3; kill -9 $!; echo done")
	if !strings.Contains(got.stdout, "done") {
		t.Errorf("stdout %q stderr %q", got.stdout, got.stderr)
	}
}

// TestUndecidedRecordsAttempt: a request that fails before any decision
// (the path does not exist) is recorded with the path as the agent gave
// it, the operation its syscall implies and no decision.
func TestUndecidedRecordsAttempt(t *testing.T) {
	s := newSandbox(t)
	s.run(t, "bash", "-c", "cat no-such-file; mkdir no-such-dir/sub; echo x > no-such-dir/f")
	tests := []struct {
		path, syscall string
		wantOp        policy.Op
	}{
		{path: "no-such-file", syscall: "openat", wantOp: policy.OpRead},
		{path: "no-such-dir/sub", syscall: "mkdir", wantOp: policy.OpMkdir},
		{path: "no-such-dir/f", syscall: "openat", wantOp: policy.OpCreate},
	}
	for _, tt := range tests {
		evs := s.events.find(tt.path)
		if len(evs) != 1 {
			t.Errorf("%s: %d events, want 1: %+v", tt.path, len(evs), evs)
			continue
		}
		ev := evs[0]
		if ev.Op != tt.wantOp || ev.Syscall != tt.syscall || ev.Decision.Action != "" || ev.Result != "ENOENT" {
			t.Errorf("%s: event %+v, want op %s, syscall %s, no decision, ENOENT", tt.path, ev, tt.wantOp, tt.syscall)
		}
	}
}

// TestOPathRecordsCanonical: an O_PATH open, which the kernel performs, is
// recorded with the canonical path of what it names.
func TestOPathRecordsCanonical(t *testing.T) {
	s := newSandbox(t)
	if err := os.Symlink("README", filepath.Join(s.project, "alias")); err != nil {
		t.Fatal(err)
	}
	s.run(t, "/usr/bin/python3", "-c", "import os; os.open('alias', os.O_PATH)")
	evs := s.events.find(filepath.Join(s.project, "README"))
	if len(evs) != 1 || evs[0].Op != policy.OpStat || evs[0].Result != "continue" {
		t.Errorf("events %+v, want one O_PATH stat of README answered continue", evs)
	}
}
