package notify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestWalkKillsZombieLeader: a process whose leader thread left with
// SYS_exit while another thread runs shows State Z in /proc/PID/stat and
// no filter in its status; the tree walk must still kill it, and
// cgroup.kill alone does not (the kernel queues the SIGKILL on the exited
// leader). Adversarial case 147 is the same in a session.
func TestWalkKillsZombieLeader(t *testing.T) {
	cmd := startZombieLeader(t, nil)
	pid := cmd.Process.Pid
	defer cmd.Process.Kill()
	if st, err := readStat(pid); err != nil || st.dead {
		t.Fatalf("readStat(%d) = %+v, %v: want alive (a thread runs)", pid, st, err)
	}
	if left := killTree(os.Getpid(), nil, false, time.Now().Add(2*time.Second)); len(left) != 0 {
		t.Errorf("killTree left %v", left)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("the process ended with %v, want killed", err)
		}
	case <-time.After(3 * time.Second):
		t.Errorf("the process with an exited leader survived the walk")
	}
}

// startZombieLeader starts a child whose leader thread exits at once while
// its second thread waits (after place, if not nil, put it somewhere),
// and returns once the leader shows as a zombie.
func startZombieLeader(t *testing.T, place func(pid int) error) *exec.Cmd {
	t.Helper()
	src := filepath.Join(t.TempDir(), "zl.c")
	prog := strings.TrimSuffix(src, ".c")
	code := "#include <pthread.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n" +
		"static void *t(void *a) { for (;;) pause(); return a; }\n" +
		"int main(void) { char c; pthread_t th; pthread_create(&th, 0, t, 0); read(0, &c, 1); syscall(SYS_exit, 0); }\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-pthread", "-o", prog, src).CombinedOutput(); err != nil {
		t.Skipf("gcc: %v %s", err, out)
	}
	cmd := exec.Command(prog)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if place != nil {
		if err := place(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
	}
	in.Write([]byte("x")) // the leader exits now
	for i := 0; i < 100; i++ {
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)); err == nil && strings.Contains(string(data), ") Z ") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd
}

// TestCgroupKillZombieLeader: cgroup.kill does not end a process whose
// leader exited alone (the kernel queues the SIGKILL on the exited leader
// and wakes no other thread); the session cgroup's kill must end it too.
func TestCgroupKillZombieLeader(t *testing.T) {
	cg, err := newSessionCgroup()
	if err != nil {
		t.Skipf("no session cgroup here: %v", err)
	}
	defer cg.remove()
	cmd := startZombieLeader(t, cg.place)
	defer cmd.Process.Kill()
	if !cg.kill(time.Now().Add(2 * time.Second)) {
		t.Errorf("the session cgroup is still populated after its kill (a process whose leader exited)")
	}
	cg.remove()
}
