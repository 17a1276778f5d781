package notify

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/landlock"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// cprogs compiles testdata/*.c statically, once per test binary.
func cprogs(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "aixbroker-cprogs")
		if buildErr != nil {
			return
		}
		os.Chmod(buildDir, 0o755)
		for _, name := range []string{"race", "attacks", "openbench", "statprobe", "notifyfloor", "review"} {
			out, err := exec.Command("gcc", "-static", "-O2", "-pthread", "-o",
				filepath.Join(buildDir, name), filepath.Join("testdata", name+".c")).CombinedOutput()
			if err != nil {
				buildErr = err
				buildDir = string(out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatalf("compile test programs: %v: %s", buildErr, buildDir)
	}
	return buildDir
}

func TestAttacks(t *testing.T) {
	bin := cprogs(t)
	s := newSandbox(t)
	s.execRoots = []string{bin}
	if err := os.Symlink(s.secret, filepath.Join(s.project, "innocent")); err != nil {
		t.Fatal(err)
	}
	attacks := filepath.Join(bin, "attacks")
	rel, _ := filepath.Rel(s.project, s.secret)
	tests := []struct {
		name     string
		argv     []string
		wantCode int
		want     []string // lines expected in stdout
	}{
		{"raw openat of secret", []string{attacks, "raw-openat", s.secret}, 0, []string{"raw-openat: errno=ENOENT"}},
		{"raw openat of allowed", []string{attacks, "raw-openat", "README"}, 0, []string{"raw-openat: ok"}},
		{"openat2 resolve flags", []string{attacks, "openat2", rel}, 0, []string{
			"beneath-escape: errno=EXDEV", "beneath-inside: ok", "in-root-abs: ok",
			"no-symlinks: errno=ELOOP", "plain-symlink: errno=ENOENT", "e2big: errno=E2BIG",
		}},
		{"io_uring refused", []string{attacks, "io_uring"}, 0, []string{"io_uring_setup: errno=EPERM"}},
		{"user namespace refused", []string{attacks, "unshare"}, 0, []string{"unshare-user: errno=EPERM"}},
		{"int 0x80 kills", []string{attacks, "int80"}, int80Status(t, attacks), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.run(t, tt.argv...)
			if got.code != tt.wantCode {
				t.Errorf("exit %d, want %d (stdout %q stderr %q)", got.code, tt.wantCode, got.stdout, got.stderr)
			}
			if strings.Contains(got.stdout, "LEAK") {
				t.Errorf("secret leaked: %q", got.stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(got.stdout, w+"\n") {
					t.Errorf("stdout %q, want line %q", got.stdout, w)
				}
			}
		})
	}
}

// TestRacingPathSwap flips the path between an allowed file and the secret
// from a sibling thread during two seconds of opens: the broker decides on
// what it opened, so the secret is never read.
func TestRacingPathSwap(t *testing.T) {
	bin := cprogs(t)
	s := newSandbox(t)
	s.execRoots = []string{bin}
	got := s.run(t, filepath.Join(bin, "race"), filepath.Join(s.project, "README"), s.secret, "2")
	if got.code != 0 || !strings.Contains(got.stdout, "opens=") {
		t.Fatalf("race: exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
	t.Log(strings.TrimSpace(got.stdout))
}

func TestExecDenied(t *testing.T) {
	s := newSandbox(t)
	s.policy.ExecDeny = []string{"/usr/bin/curl", "/usr/bin/wget", "/usr/bin/id"}
	got := s.run(t, "bash", "-c", "id; echo rc=$?")
	if !strings.Contains(got.stdout, "rc=126") || !strings.Contains(got.stderr, "Permission denied") {
		t.Errorf("stdout %q stderr %q, want id refused", got.stdout, got.stderr)
	}
	if evs := s.events.find("/usr/bin/id"); len(evs) == 0 || evs[0].Decision.Allowed() {
		t.Errorf("events for /usr/bin/id = %+v, want a denial", evs)
	}
}

func TestExitStatus(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		argv []string
		want int
	}{
		{[]string{"true"}, 0},
		{[]string{"bash", "-c", "exit 7"}, 7},
		{[]string{"bash", "-c", "kill -TERM $$"}, 128 + 15},
	}
	for _, tt := range tests {
		if got := s.run(t, tt.argv...); got.code != tt.want {
			t.Errorf("%q: exit %d, want %d", tt.argv, got.code, tt.want)
		}
	}
}

// int80Status is how the int 0x80 attack must end in the sandbox: killed by
// the filter (SIGSYS) on a kernel with IA-32 emulation; a kernel without it
// faults the instruction (SIGSEGV) before any filter runs, natively too.
func int80Status(t *testing.T, attacks string) int {
	err := exec.Command(attacks, "int80").Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ProcessState.Sys().(syscall.WaitStatus).Signal() == syscall.SIGSEGV {
		t.Log("no IA-32 emulation in this kernel: int 0x80 faults natively")
		return 128 + int(syscall.SIGSEGV)
	}
	return 128 + int(syscall.SIGSYS)
}

// TestLandlockBackstop checks what the kernel refuses even where the policy
// allows: executing a file outside the exec roots, and signalling the
// broker (ABI 6 signal scoping).
func TestLandlockBackstop(t *testing.T) {
	s := newSandbox(t)
	data, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.project, "mytrue"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	got := s.run(t, "bash", "-c", "./mytrue; echo exec=$?; kill -0 "+strconv.Itoa(os.Getpid())+"; echo kill=$?")
	if !strings.Contains(got.stdout, "exec=126") {
		t.Errorf("stdout %q: executing outside the exec roots was not refused", got.stdout)
	}
	if !strings.Contains(got.stdout, "kill=1") {
		t.Errorf("stdout %q: signalling the broker was not refused", got.stdout)
	}
}

// TestAgentExecDenied denies the agent's own binary: Run reports the
// refused exec with status 126.
func TestAgentExecDenied(t *testing.T) {
	s := newSandbox(t)
	s.policy.ExecDeny = []string{"/usr/bin/id"}
	code, err := Run(t.Context(), Config{
		Argv: []string{"id"}, Env: []string{"PATH=/usr/bin:/bin"}, Dir: s.project,
		Broker:   broker.New(s.policy, s.events),
		Landlock: landlock.Roots{Read: []string{"/"}, Exec: []string{"/usr", "/lib", "/lib64"}},
	})
	if code != exitExecFailed || err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("Run(id) = %d, %v; want 126 and a permission error", code, err)
	}
	if evs := s.events.find("/usr/bin/id"); len(evs) != 1 || evs[0].Decision.Allowed() || evs[0].Syscall != "execve" {
		t.Errorf("events for /usr/bin/id = %+v, want one denied execve", evs)
	}
}

// TestProcOfOutsideProcess reads the environment of a process outside the
// sandbox (the test itself): refused, while its public entries and the
// agent's own environment stay readable.
func TestProcOfOutsideProcess(t *testing.T) {
	s := newSandbox(t)
	outside := "/proc/" + strconv.Itoa(os.Getppid())
	got := s.run(t, "bash", "-c", "cat "+outside+"/environ >/dev/null; echo env=$?; cat "+outside+"/stat >/dev/null; echo stat=$?; "+
		"cat /proc/self/environ >/dev/null; echo self=$?; cat /proc/$$/environ > /dev/null; echo shell=$?")
	for _, want := range []string{"env=1", "stat=0", "self=0", "shell=0"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("stdout %q, want %q (stderr %q)", got.stdout, want, got.stderr)
		}
	}
}
