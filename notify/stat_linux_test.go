package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/aixbroker/aixbroker/redact"
)

// statProbe is testdata/statprobe.c compiled statically (cprogs): a static
// binary the interposer cannot reach.
func statProbe(t testing.TB) string {
	t.Helper()
	return filepath.Join(cprogs(t), "statprobe")
}

func inode(t testing.TB, path string) uint64 {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		t.Fatal(err)
	}
	return st.Ino
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestStatTrap runs a static binary that calls the stat, access and
// readlink syscalls directly: with the trap, hidden names do not exist for
// it and redacted files have their stub's size; without, the kernel
// answers (the setting's trade-off).
func TestStatTrap(t *testing.T) {
	probe := statProbe(t)
	s := newSandbox(t)
	s.execRoots = []string{filepath.Dir(probe)}
	s.trapStat = true
	pem := filepath.Join(s.project, "key.pem")
	writeFile(t, pem, "-----BEGIN PRIVATE KEY-----\nQ0FOQVJZ\n-----END PRIVATE KEY-----\n")
	s.policy.Redact = []string{pem}
	s.policy.RedactMode = map[string]string{pem: redact.ModeStub}
	stubSize := len(redact.Stub("redact:" + pem))
	readme := filepath.Join(s.project, "README")
	links := map[string]string{ // link → target
		filepath.Join(s.project, "to-readme"): readme,
		filepath.Join(s.project, "to-secret"): s.secret,
		filepath.Join(s.home, ".ssh", "link"): "anything",
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	readmeOK := "ok size=14 ino=" + strconv.FormatUint(inode(t, readme), 10)
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"stat hidden", []string{"stat", s.secret}, "errno=ENOENT"},
		{"lstat hidden", []string{"lstat", s.secret}, "errno=ENOENT"},
		{"newfstatat hidden", []string{"newfstatat", s.secret}, "errno=ENOENT"},
		{"statx hidden", []string{"statx", s.secret}, "errno=ENOENT"},
		{"access hidden", []string{"access", s.secret}, "errno=ENOENT"},
		{"statfs hidden", []string{"statfs", s.secret}, "errno=ENOENT"},
		{"statfs allowed", []string{"statfs", "README"}, "ok type=" + fsType(t, readme)},
		{"hidden directory", []string{"stat", filepath.Dir(s.secret)}, "errno=ENOENT"},
		{"symlink to hidden", []string{"stat", "to-secret"}, "errno=ENOENT"},
		{"readlink in hidden directory", []string{"readlink", filepath.Join(s.home, ".ssh", "link")}, "errno=ENOENT"},
		{"stat allowed", []string{"stat", "README"}, readmeOK},
		{"statx allowed", []string{"statx", readme}, readmeOK},
		{"stat through symlink", []string{"stat", "to-readme"}, readmeOK},
		{"lstat symlink", []string{"lstat", "to-secret"}, "ok size=" + strconv.Itoa(len(s.secret)) + " "},
		{"access allowed", []string{"access", "README"}, "ok"},
		{"access for writing", []string{"accessw", "README"}, "ok"},
		{"missing", []string{"stat", "nonexistent"}, "errno=ENOENT"},
		{"readlink allowed", []string{"readlink", "to-readme"}, "ok link=" + readme},
		{"readlink not a link", []string{"readlink", "README"}, "errno=EINVAL"},
		{"readlink own exe", []string{"readlink", "/proc/self/exe"}, "ok link=" + probe},
		{"stat own exe", []string{"stat", "/proc/self/exe"}, "ok size=" + strconv.FormatInt(fileSize(t, probe), 10) + " ino=" + strconv.FormatUint(inode(t, probe), 10)},
		{"readlink /proc/self", []string{"readlink", "/proc/self"}, "ok link="},
		{"fstat held file", []string{"fstat", "README"}, readmeOK},
		{"O_PATH open hidden", []string{"opath", s.secret}, "errno=ENOENT"},
		{"O_PATH open symlink to hidden", []string{"opath", "to-secret"}, "errno=ENOENT"},
		{"O_PATH open allowed", []string{"opath", "README"}, readmeOK},
		{"fstat pipe", []string{"fstatpipe", "-"}, "ok fifo=1"},
		{"stat own fd", []string{"stat", "/dev/stdin"}, "ok "},
		{"bad buffer", []string{"badbuf", "README"}, "errno=EFAULT"},
		{"redacted stub size", []string{"stat", pem}, "ok size=" + strconv.Itoa(stubSize) + " "},
		{"redacted statx size", []string{"statx", pem}, "ok size=" + strconv.Itoa(stubSize) + " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.run(t, append([]string{probe}, tt.argv...)...)
			if got.code != 0 || !strings.HasPrefix(got.stdout, tt.want) {
				t.Errorf("statprobe %q: exit %d stdout %q stderr %q, want %q", tt.argv, got.code, got.stdout, got.stderr, tt.want)
			}
		})
	}
	// The stub's inode in stat and in fstat of the opened file: cp checks
	// they agree (FINDINGS FP1).
	if st, fst := s.run(t, probe, "stat", pem), s.run(t, probe, "fstat", pem); st.stdout != fst.stdout {
		t.Errorf("stat of the redacted file %q, fstat of it opened %q: want the same size and inode", st.stdout, fst.stdout)
	}
	if got := s.run(t, "cp", pem, "copy"); got.code != 0 {
		t.Errorf("cp of the redacted file: exit %d, stderr %q", got.code, got.stderr)
	}
	s.trapStat = false
	if got := s.run(t, probe, "stat", s.secret); !strings.HasPrefix(got.stdout, "ok size=11 ") {
		t.Errorf("untrapped stat of the secret: %q, want the kernel's answer", got.stdout)
	}
}

// TestStatTrapRace flips the path buffer between an allowed file and the
// secret from a sibling thread: the broker reads the path once and stats
// what it resolved, so the secret's inode never comes back.
func TestStatTrapRace(t *testing.T) {
	probe := statProbe(t)
	s := newSandbox(t)
	s.execRoots = []string{filepath.Dir(probe)}
	s.trapStat = true
	ino := strconv.FormatUint(inode(t, s.secret), 10)
	got := s.run(t, probe, "race", filepath.Join(s.project, "README"), s.secret, ino, "3000")
	if got.code != 0 || strings.Contains(got.stdout, "LEAK") || !strings.Contains(got.stdout, "stats=3000") {
		t.Errorf("race: exit %d stdout %q stderr %q", got.code, got.stdout, got.stderr)
	}
}

// TestStatTrapTools checks that ordinary dynamic tools agree with the trap
// and keep working with it.
func TestStatTrapTools(t *testing.T) {
	s := newSandbox(t)
	s.trapStat = true
	tests := []struct {
		name     string
		argv     []string
		wantCode int
		want     string
	}{
		{"ls hidden", []string{"ls", "-la", filepath.Dir(s.secret)}, 2, ""},
		{"ls project", []string{"ls", "-la"}, 0, "README"},
		{"test -e", []string{"sh", "-c", "test -e " + s.secret + " && echo yes || echo no"}, 0, "no"},
		{"python exists", []string{"/usr/bin/python3", "-c", "import os; print(os.path.exists('" + s.secret + "'), os.path.exists('README'))"}, 0, "False True"},
		{"readlink -f", []string{"readlink", "-f", "README"}, 0, filepath.Join(s.project, "README")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.argv[0]); err != nil {
				t.Skipf("needs %s: %v", tt.argv[0], err)
			}
			got := s.run(t, tt.argv...)
			if got.code != tt.wantCode || !strings.Contains(got.stdout, tt.want) {
				t.Errorf("%q: exit %d stdout %q stderr %q, want exit %d and %q", tt.argv, got.code, got.stdout, got.stderr, tt.wantCode, tt.want)
			}
		})
	}
}

func TestStatTrapAsNobody(t *testing.T) {
	rerunAsNobody(t, "^TestStatTrap(Race|Tools)?$")
}

func fsType(t testing.TB, path string) string {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(st.Type, 16)
}

// TestRedactedViewFollowsChanges checks the shared view of a redacted file
// (stubcache_linux.go) is rendered again when the file changes, and that
// two opens of an unchanged file are served the same inode.
func TestRedactedViewFollowsChanges(t *testing.T) {
	s := newSandbox(t)
	env := filepath.Join(s.project, ".env")
	s.policy.Redact = []string{env}
	writeFile(t, env, "FIRST_KEY=one\n")
	same := "import os; a, b = open('.env'), open('.env'); x, y = os.fstat(a.fileno()), os.fstat(b.fileno()); print(x.st_ino == y.st_ino, a.read() == b.read())"
	tests := []struct {
		name    string
		content string // written before the run; "" keeps the file
		argv    []string
		want    string
	}{
		{"first version", "", []string{"cat", ".env"}, "FIRST_KEY="},
		{"same inode twice", "", []string{"/usr/bin/python3", "-c", same}, "True True"},
		{"changed file", "SECOND_KEY=two\n", []string{"cat", ".env"}, "SECOND_KEY="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.content != "" {
				writeFile(t, env, tt.content)
			}
			got := s.run(t, tt.argv...)
			if !strings.Contains(got.stdout, tt.want) || strings.Contains(got.stdout, "one") || strings.Contains(got.stdout, "two") {
				t.Errorf("%q: stdout %q stderr %q, want %q and no value", tt.argv, got.stdout, got.stderr, tt.want)
			}
		})
	}
}
