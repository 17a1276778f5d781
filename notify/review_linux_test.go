package notify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/redact"
)

// clearFlags removes the append-only flag an attack may have set, so the
// temporary directory can be removed.
func clearFlags(path string) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, 0)
}

// TestReviewAttacks: the file_getattr/file_setattr syscalls (Linux 6.17)
// on hidden and read-only names, fstat of an O_PATH descriptor of a
// redacted file, and unix datagram socket encodings.
func TestReviewAttacks(t *testing.T) {
	prog := filepath.Join(cprogs(t), "review")
	s := newSandbox(t)
	s.execRoots = []string{filepath.Dir(prog)}
	s.trapStat = true
	readOnly := filepath.Join(s.home, ".bashrc") // readable, not writable
	writeFile(t, readOnly, "alias ls=rm\n")
	t.Cleanup(func() { clearFlags(readOnly); clearFlags(s.secret) })
	pem := filepath.Join(s.project, "key.pem")
	writeFile(t, pem, "-----BEGIN PRIVATE KEY-----\nQ0FOQVJZQ0FOQVJZ\n-----END PRIVATE KEY-----\n")
	s.policy.Redact = []string{pem}
	s.policy.RedactMode = map[string]string{pem: redact.ModeStub}
	stubSize := len(redact.Stub("redact:" + pem))
	readme := filepath.Join(s.project, "README")
	if err := os.Symlink(readme, filepath.Join(s.project, "to-readme")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		argv  []string
		want  []string // lines that must appear
		never []string // prefixes that must not appear
	}{
		{"file_getattr hidden (stat trap)", []string{"file_getattr", s.secret}, []string{"file_getattr: errno=ENOSYS"}, nil}, // refused in the filter, as if the kernel had none
		{"file_setattr hidden", []string{"file_setattr", s.secret}, nil, []string{"file_setattr-nodump: ok", "file_setattr-append: ok"}},
		{"file_setattr read-only", []string{"file_setattr", readOnly}, nil, []string{"file_setattr-nodump: ok", "file_setattr-append: ok"}},
		{"O_PATH fstat of redacted", []string{"opath-fstat", pem}, []string{"fstat: ok size=" + strconv.Itoa(stubSize)}, nil},
		{"O_PATH of redacted reopened or linked", []string{"opath-escape", pem}, []string{"reopen: ok stub"}, []string{"linkat-empty: ok", "linkat-proc: ok"}},
		{"open after setgroups of 4000 groups (status over 16 KiB)", []string{"manygroups", "README"}, []string{"setgroups: ok", "open-after-setgroups: ok"}, nil},
		{"AT_EMPTY_PATH with a hidden path", []string{"fstatat-empty", s.secret}, []string{"fstatat-empty: errno=ENOENT", "statx-empty: errno=ENOENT"}, nil},
		{"readlink short buffer", []string{"readlink-small", "to-readme"}, []string{"readlink-small: ok 3 buf=" + readme[:3] + "XXXXX", "readlink-size-highword: errno=EINVAL"}, nil},
		{"unix datagram encodings", []string{"dgram"}, nil, []string{
			"dgram: ok", "dgram-cloexec-nonblock: ok", "raw: ok", "dgram-highword-type: ok", "dgram-highword-domain: ok",
			"dgram-bit4: ok", "packet: ok", "rdm: ok", "pair-dgram: ok", "pair-dgram-cloexec-nonblock: ok", "pair-raw: ok",
			"pair-dgram-highword-type: ok", "pair-dgram-highword-domain: ok", "pair-dgram-bit4: ok", "pair-packet: ok", "pair-rdm: ok",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.argv[0] == "manygroups" && os.Geteuid() != 0 {
				t.Skip("setgroups needs CAP_SETGID: this case runs as root")
			}
			got := s.run(t, append([]string{prog}, tt.argv...)...)
			if got.code != 0 {
				t.Fatalf("exit %d, stdout %q stderr %q", got.code, got.stdout, got.stderr)
			}
			t.Logf("%s", got.stdout)
			lines := strings.Split(got.stdout, "\n")
			for _, w := range tt.want {
				if !hasLinePrefix(lines, w) {
					t.Errorf("stdout %q: want a line %q", got.stdout, w)
				}
			}
			for _, n := range tt.never {
				if hasLinePrefix(lines, n) {
					t.Errorf("stdout %q: HOLE: %q", got.stdout, n)
				}
			}
		})
	}
}

func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestReviewStatProcPaths: the stat trap on /proc spellings of a hidden
// name answers as it does for a name that does not exist
// (testdata/statprobe.c).
func TestReviewStatProcPaths(t *testing.T) {
	probe := statProbe(t)
	s := newSandbox(t)
	s.execRoots = []string{filepath.Dir(probe)}
	s.trapStat = true
	missing := filepath.Join(s.home, "missing", "id_rsa")
	tests := []struct {
		name, op, prefix, hidden, absent string
	}{
		{"cwd link", "stat", "/proc/self/cwd/", "../.ssh/id_rsa", "../missing/id_rsa"},
		{"thread-self cwd link", "statx", "/proc/thread-self/cwd/", "../.ssh/id_rsa", "../missing/id_rsa"},
		{"root link", "lstat", "/proc/self/root", s.secret, missing},
		{"dev fd parent", "stat", "/dev/fd/../cwd/", "../.ssh/id_rsa", "../missing/id_rsa"},
		{"access through cwd link", "access", "/proc/self/cwd/", "../.ssh/id_rsa", "../missing/id_rsa"},
		{"statfs through root link", "statfs", "/proc/self/root", s.secret, missing},
		{"readlink through cwd link", "readlink", "/proc/self/cwd/", "../.ssh", "../missing"},
		{"dot-dot through a hidden directory", "stat", s.home + "/", ".ssh/../project/README", "missing/../project/README"},
		{"dot-dot through a hidden directory, relative", "access", "../", ".ssh/../project/README", "missing/../project/README"},
		{"dot-dot through a hidden file", "stat", s.home + "/", ".ssh/id_rsa/..", "missing/id_rsa/.."},
		{"open dot-dot through a hidden directory", "fstat", s.home + "/", ".ssh/../project/README", "missing/../project/README"},
		{"open dot-dot through a hidden file", "fstat", s.home + "/", ".ssh/id_rsa/../../project/README", "missing/id_rsa/../../project/README"},
		{"O_PATH dot-dot through a hidden directory", "opath", s.home + "/", ".ssh/../project/README", "missing/../project/README"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hidden := s.run(t, probe, tt.op, tt.prefix+tt.hidden)
			absent := s.run(t, probe, tt.op, tt.prefix+tt.absent)
			t.Logf("hidden %q absent %q", hidden.stdout, absent.stdout)
			if !strings.HasPrefix(hidden.stdout, "errno=") || hidden.stdout != absent.stdout {
				t.Errorf("statprobe %s %s: %q, a missing name: %q: want the same errno", tt.op, tt.prefix+tt.hidden, hidden.stdout, absent.stdout)
			}
		})
	}
}
