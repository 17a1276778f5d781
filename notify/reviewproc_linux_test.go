package notify

import (
	"strings"
	"testing"
)

// TestCgroupAttrChangeRefused: the cgroupfs guard (cgroupfs_linux.go)
// refuses writes, creations and removals under a cgroup mount whatever the
// policy, but changes of mode, owner and times (chmod, chown, utimensat,
// fchmod, fchown: allowChange in ownwrite_linux.go) are decided without
// it. With a policy that allows writing /sys, a root agent makes cgroup
// files world-writable or hands them to another user (a delegation). The
// test only touches the session cgroup's own files (removed at the end).
// (review of h-lifetime, notes/review-proc.md R3)
func TestCgroupAttrChangeRefused(t *testing.T) {
	cg, err := newSessionCgroup()
	if err != nil {
		t.Skipf("no session cgroup here: %v", err)
	}
	cg.remove()
	mount, _, _ := cgroupRoot()
	s := newSandbox(t)
	s.policy.Write = append(s.policy.Write, "/sys")
	script := `d=` + mount + `$(grep '^0::' /proc/self/cgroup | cut -d: -f3)
chmod 0666 $d/cgroup.freeze 2>/dev/null; echo "chmod: $(stat -c %a $d/cgroup.freeze)"
chown 65534 $d/cgroup.procs 2>/dev/null; echo "chown: $(stat -c %u $d/cgroup.procs)"
chmod 0777 $d 2>/dev/null; echo "chmod dir: $(stat -c %a $d)"
touch -d 2001-02-03 $d/cgroup.kill 2>/dev/null; echo "touch: $(stat -c %y $d/cgroup.kill | cut -c1-4)"
exec 3<$d/cgroup.events; python3 -c 'import os; os.fchmod(3, 0o606)' 2>/dev/null; echo "fchmod: $(stat -c %a $d/cgroup.events)"`
	got := s.run(t, "bash", "-c", script)
	want := "chmod: 644\nchown: 0\nchmod dir: 755\ntouch: 20"
	if !strings.HasPrefix(got.stdout, want) || strings.Contains(got.stdout, "fchmod: 606") || strings.Contains(got.stdout, "touch: 2001") {
		t.Errorf("agent printed %q (stderr %q), want the session cgroup's files unchanged (%q...)", got.stdout, got.stderr, want)
	}
}

// TestCgroupEscapeSpellings writes the agent's pid into the root cgroup's
// cgroup.procs (and a v1 hierarchy's tasks) by every path spelling that
// reaches it: an O_PATH descriptor reopened through /proc/self/fd and
// /dev/fd, /proc/self/root and /proc/PID/root, a symlink in the project,
// a relative name from a cwd inside cgroupfs, openat on a directory
// descriptor, doubled slashes, dot and dot-dot. Every one must be refused.
func TestCgroupEscapeSpellings(t *testing.T) {
	cg, err := newSessionCgroup()
	if err != nil {
		t.Skipf("no session cgroup here: %v", err)
	}
	cg.remove()
	mount, _, _ := cgroupRoot()
	s := newSandbox(t)
	s.policy.Write = append(s.policy.Write, "/sys")
	py := `import os, sys
m = sys.argv[1]
procs = m + "/cgroup.procs"
pid = str(os.getpid()).encode()
def tryw(label, fn):
    try:
        fd = fn()
        os.write(fd, pid)
        print("wrote", label)
    except OSError as e:
        pass
p = os.open(procs, os.O_PATH)
tryw("proc-self-fd", lambda: os.open("/proc/self/fd/%d" % p, os.O_WRONLY))
tryw("dev-fd", lambda: os.open("/dev/fd/%d" % p, os.O_WRONLY))
tryw("proc-self-root", lambda: os.open("/proc/self/root" + procs, os.O_WRONLY))
tryw("proc-pid-root", lambda: os.open("/proc/%d/root%s" % (os.getpid(), procs), os.O_WRONLY))
try:
    os.symlink(procs, "cg-link")
except OSError:
    pass
tryw("symlink", lambda: os.open("cg-link", os.O_WRONLY))
d = os.open(m, os.O_PATH | os.O_DIRECTORY)
tryw("openat-dirfd", lambda: os.open("cgroup.procs", os.O_WRONLY, dir_fd=d))
tryw("proc-self-fd-dir", lambda: os.open("/proc/self/fd/%d/cgroup.procs" % d, os.O_WRONLY))
tryw("slashes", lambda: os.open("/" + m.replace("/", "//") + "//./cgroup.procs", os.O_WRONLY))
tryw("dotdot", lambda: os.open(m + "/../" + os.path.basename(m) + "/cgroup.procs", os.O_WRONLY))
tryw("trunc-creat", lambda: os.open(procs, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644))
tryw("v1-tasks", lambda: os.open("/sys/fs/cgroup/pids/tasks", os.O_WRONLY))
tryw("v1-procs", lambda: os.open("/sys/fs/cgroup/systemd/cgroup.procs", os.O_WRONLY))
os.chdir(m)
tryw("relative", lambda: os.open("cgroup.procs", os.O_WRONLY))
tryw("proc-self-cwd", lambda: os.open("/proc/self/cwd/cgroup.procs", os.O_WRONLY))
print("after", open("/proc/self/cgroup").read().split("0::")[1].strip())
`
	got := s.run(t, "python3", "-c", py, mount)
	if strings.Contains(got.stdout, "wrote") || !strings.Contains(got.stdout, "after /aixbroker-") {
		t.Errorf("agent printed %q (stderr %q), want no write and still in the session cgroup", got.stdout, got.stderr)
	}
}
