package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestXattrSettersUnsupported: an ACL or any other xattr cannot be set or
// removed in the sandbox (EOPNOTSUPP, errno 95; a control run outside the sandbox shows the
// filesystem takes them), while reading them works.
func TestXattrSettersUnsupported(t *testing.T) {
	s := newSandbox(t)
	script := `import os
for name, call in [("setxattr", lambda: os.setxattr("README", "user.x", b"1")),
                   ("lsetxattr", lambda: os.setxattr("README", "user.x", b"1", follow_symlinks=False)),
                   ("fsetxattr", lambda: os.setxattr(os.open("README", os.O_RDONLY), "user.x", b"1")),
                   ("removexattr", lambda: os.removexattr("README", "user.x")),
                   ("fremovexattr", lambda: os.removexattr(os.open("README", os.O_RDONLY), "user.x"))]:
    try:
        call(); print(name, "ok")
    except OSError as e:
        print(name, e.errno)
print("list", os.listxattr("README"))
`
	control := exec.Command("/usr/bin/python3", "-c", script)
	control.Dir = s.project
	if out, err := control.Output(); err != nil || !strings.Contains(string(out), "setxattr ok") {
		t.Skipf("the test directory takes no user xattrs outside the sandbox either: %s %v", out, err)
	}
	got := s.run(t, "/usr/bin/python3", "-c", script)
	for _, want := range []string{"setxattr 95", "lsetxattr 95", "fsetxattr 95",
		"removexattr 95", "fremovexattr 95", "list []"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("stdout %q, want %q (stderr %q)", got.stdout, want, got.stderr)
		}
	}
}

// xattrScript prints what the xattr getters by path answer for each path
// in argv: getxattr, lgetxattr, listxattr, llistxattr, size probes, a
// buffer too small, and getxattrat and listxattrat (raw, through ctypes)
// with each of their flags. The same script runs natively and sandboxed.
const xattrScript = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
class Args(ctypes.Structure):
    _fields_ = [("value", ctypes.c_uint64), ("size", ctypes.c_uint32), ("flags", ctypes.c_uint32)]
def at(label, nr, *args):
    n = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    print(label, n if n >= 0 else "errno=%d" % ctypes.get_errno())
def attempt(label, f):
    try:
        print(label, f())
    except OSError as e:
        print(label, "errno=%d" % e.errno)
for p in sys.argv[1:]:
    attempt(p + " get", lambda: os.getxattr(p, "user.a"))
    attempt(p + " lget", lambda: os.getxattr(p, "user.a", follow_symlinks=False))
    attempt(p + " get missing", lambda: os.getxattr(p, "user.none"))
    attempt(p + " list", lambda: sorted(os.listxattr(p)))
    attempt(p + " llist", lambda: sorted(os.listxattr(p, follow_symlinks=False)))
    b = ctypes.create_string_buffer(256)
    at(p + " size", 191, p.encode(), b"user.a", None, 0)
    at(p + " small", 191, p.encode(), b"user.a", b, 2)
    at(p + " list size", 194, p.encode(), None, 0)
    at(p + " name too long", 191, p.encode(), b"user." + b"x" * 300, b, 256)
    for flags in (0, 0x100):
        a = Args(ctypes.addressof(b), 256, 0)
        at(p + " getxattrat %#x" % flags, 464, -100, p.encode(), flags, b"user.a", ctypes.byref(a), 16)
        print(p + " value", b.raw[:5])
        at(p + " listxattrat %#x" % flags, 465, -100, p.encode(), flags, b, 256)
    a = Args(ctypes.addressof(b), 256, 1)
    at(p + " getxattrat bad flags", 464, -100, p.encode(), 0, b"user.a", ctypes.byref(a), 16)
    at(p + " getxattrat short args", 464, -100, p.encode(), 0, b"user.a", ctypes.byref(a), 8)
    at(p + " listxattrat bad at_flags", 465, -100, p.encode(), 0x2, b, 256)
    try:
        fd = os.open(p, os.O_PATH)
    except OSError as e:
        print(p + " O_PATH errno=%d" % e.errno)
        continue
    attempt(p + " O_PATH procfd get", lambda: os.getxattr("/proc/self/fd/%d" % fd, "user.a"))
    at(p + " O_PATH empty path", 465, fd, b"", 0x1000, b, 256)
    os.close(fd)
`

// TestXattrGettersLikeNative: on files the agent may read, the trapped
// getters answer exactly what the kernel answers natively (values, lists,
// size probes, ERANGE, EINVAL, E2BIG, the *xattrat flags), run side by
// side. (/proc/self/cwd/... is ELOOP in the sandbox, as for open and
// stat: the broker follows no magic link but the target's own
// descriptors.)
func TestXattrGettersLikeNative(t *testing.T) {
	s := newSandbox(t)
	attrs := filepath.Join(s.project, "attrs")
	writeFile(t, attrs, "x")
	if err := unix.Setxattr(attrs, "user.a", []byte("hello"), 0); err != nil {
		t.Skipf("no user xattrs here: %v", err)
	}
	if err := unix.Setxattr(attrs, "user.b", nil, 0); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(s.project, "dir"), 0o755)
	unix.Setxattr(filepath.Join(s.project, "dir"), "user.a", []byte("dirval"), 0)
	os.Symlink("attrs", filepath.Join(s.project, "lnk"))
	os.Symlink("missing", filepath.Join(s.project, "dangling"))
	args := []string{"attrs", attrs, "lnk", "dangling", "dir", "README", "nonexistent", "attrs/sub", "/dev/fd/0"}
	control := exec.Command("/usr/bin/python3", append([]string{"-c", xattrScript}, args...)...)
	control.Dir = s.project
	want, err := control.CombinedOutput()
	if err != nil {
		t.Fatalf("native run: %v\n%s", err, want)
	}
	got := s.run(t, append([]string{"/usr/bin/python3", "-c", xattrScript}, args...)...)
	if got.stdout != string(want) {
		t.Errorf("sandboxed answers differ from native ones\nsandboxed:\n%s\nnative:\n%s\nstderr: %s", got.stdout, want, got.stderr)
	}
}

// TestXattrGettersDenied: a denied file's attributes never reach the agent
// (the name is hidden: ENOENT, as open says), nor a redacted file's (its
// view has none: ENODATA, an empty list), by path, through an O_PATH
// descriptor's /proc/self/fd, or with getxattrat on one.
func TestXattrGettersDenied(t *testing.T) {
	s := newSandbox(t)
	env := filepath.Join(s.project, ".env")
	writeFile(t, env, "TOKEN=REDACTED-VALUE\n")
	s.policy.Redact = []string{env}
	for _, p := range []string{s.secret, env} {
		if err := unix.Setxattr(p, "user.a", []byte("XATTR-CANARY"), 0); err != nil {
			t.Skipf("no user xattrs here: %v", err)
		}
	}
	got := s.run(t, "/usr/bin/python3", "-c", xattrScript, s.secret, env, "../.ssh/id_rsa")
	if strings.Contains(got.stdout, "XATTR-CANARY") || strings.Contains(got.stdout, "'user.a'") {
		t.Errorf("an attribute of a denied or redacted file reached the agent:\n%s", got.stdout)
	}
	for _, want := range []string{
		s.secret + " get errno=2", s.secret + " list errno=2", s.secret + " listxattrat 0x0 errno=2",
		env + " get errno=61", env + " list []", env + " size errno=61", env + " listxattrat 0x0 0",
		env + " O_PATH procfd get errno=61", env + " O_PATH empty path errno=9",
		"../.ssh/id_rsa get errno=2",
	} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("missing %q in\n%s\nstderr: %s", want, got.stdout, got.stderr)
		}
	}
}

// BenchmarkMetadataTraps runs testdata/metabench natively and in the
// sandbox (default configuration: the metadata traps on, the stat trap
// off; "stat" with the stat trap, whose answer is written through
// /proc/<tid>/mem) and reports the median and 99th percentile of one
// call and what the sandbox adds, in microseconds.
func BenchmarkMetadataTraps(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "metabench")
	if out, err := exec.Command("gcc", "-static", "-O2", "-o", bin, "testdata/metabench.c").CombinedOutput(); err != nil {
		b.Fatalf("compile metabench: %v: %s", err, out)
	}
	os.Chmod(dir, 0o755)
	for _, op := range []string{"getxattr-missing", "getxattr", "listxattr", "readlink", "readlink-einval", "stat"} {
		b.Run(op, func(b *testing.B) {
			s := newSandbox(b)
			s.execRoots = []string{dir}
			s.trapStat = op == "stat"
			file := filepath.Join(s.project, "attrs")
			writeFile(b, file, "x")
			unix.Setxattr(file, "user.a", []byte("hello"), 0)
			os.Symlink("attrs", filepath.Join(s.project, "lnk"))
			path := file
			if op == "readlink" {
				path = filepath.Join(s.project, "lnk")
			}
			args := []string{op, path, "5000"}
			var native, boxed [2]float64
			for b.Loop() {
				out, err := exec.Command(bin, args...).Output()
				if err != nil {
					b.Fatal(err)
				}
				native = percentiles(b, string(out))
				got := s.run(b, append([]string{bin}, args...)...)
				if got.code != 0 {
					b.Fatalf("sandboxed metabench: exit %d: %s", got.code, got.stderr)
				}
				boxed = percentiles(b, got.stdout)
			}
			b.ReportMetric(native[0], "native-p50-µs")
			b.ReportMetric(boxed[0], "sandbox-p50-µs")
			b.ReportMetric(boxed[1], "sandbox-p99-µs")
			b.ReportMetric(boxed[0]-native[0], "added-p50-µs")
		})
	}
}
