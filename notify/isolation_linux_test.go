package notify

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// installListener is a python program that installs a seccomp filter
// (one instruction: allow) with SECCOMP_FILTER_FLAG_NEW_LISTENER and prints
// "listener" with the descriptor it got, or the errno name.
const installListener = `
import ctypes, errno, os, sys
print("ready", flush=True)
os.read(3, 1)
libc = ctypes.CDLL(None, use_errno=True)
class Insn(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]
class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Insn))]
insn = (Insn * 1)(Insn(0x06, 0, 0, 0x7fff0000))
prog = Prog(1, insn)
libc.prctl(38, 1, 0, 0, 0)
for flags, name in ((8, "new-listener"), (8 | 1, "new-listener+tsync"), (8 | 32, "new-listener+killable"), (1 << 7, "future-flag")):
    fd = libc.syscall(317, 1, flags, ctypes.byref(prog))
    if fd >= 0:
        print(name, "listener", fd, flush=True)
    else:
        print(name, errno.errorcode[ctypes.get_errno()], flush=True)
`

// TestListenerTakeoverRefused kills the broker and its guardian from
// outside while a grandchild of the agent survives, then has the grandchild install a
// filter with a new listener of its own: the kernel freed the one-listener
// slot with the broker's listener, so only the filter's refusal stands
// between the agent and a listener that answers CONTINUE for everything.
func TestListenerTakeoverRefused(t *testing.T) {
	s := newSandbox(t)
	script := `exec 3<&0
/usr/bin/python3 -c '` + installListener + `' &
wait`
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "bash", "-c", script)
	cmd.Env = append(os.Environ(), brokerHelperEnv+"="+s.project)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	// Supervisor and guardian die together (either alone kills the tree:
	// lifetime_linux_test.go): the guardian is stopped first so that it
	// cannot act on the supervisor's death.
	guard := guardianOf(t, cmd.Process.Pid)
	syscall.Kill(guard, syscall.SIGSTOP)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	syscall.Kill(guard, syscall.SIGKILL)
	stdin.Write([]byte("go\n"))
	stdin.Close()
	rest, _ := out.ReadString(0)
	for _, want := range []string{"new-listener EBUSY", "new-listener+tsync EBUSY", "new-listener+killable EBUSY", "future-flag EINVAL"} {
		if !strings.Contains(rest, want+"\n") {
			t.Errorf("after the broker died the grandchild printed %q, want %q", rest, want)
		}
	}
}

// TestOtherProcessesUntouched has the agent set limits, priority, io
// priority, scheduling and CPUs of a process outside the sandbox and of
// its supervisor (this test process): every call is refused, and the same
// calls on the agent itself and on its own child work.
func TestOtherProcessesUntouched(t *testing.T) {
	s := newSandbox(t)
	victim := exec.Command("/bin/sleep", "60")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { victim.Process.Kill(); victim.Wait() }()
	before := procFacts(t, victim.Process.Pid)
	self := procFacts(t, os.Getpid())
	v := strconv.Itoa(victim.Process.Pid)
	script := `for p in ` + v + ` $PPID_OF_STAGE2; do
  prlimit --pid $p --cpu=1:1 && echo "LEAK prlimit cpu $p"
  prlimit --pid $p --nofile=3:3 && echo "LEAK prlimit nofile $p"
  prlimit --pid $p --fsize=0:0 && echo "LEAK prlimit fsize $p"
  renice -n 19 -p $p >/dev/null 2>&1 && echo "LEAK renice $p"
  taskset -p 1 $p >/dev/null 2>&1 && echo "LEAK taskset $p"
  ionice -c 3 -p $p >/dev/null 2>&1 && echo "LEAK ionice $p"
  chrt -i -p 0 $p >/dev/null 2>&1 && echo "LEAK chrt $p"
done
renice -n 19 -u $(id -u) >/dev/null 2>&1 && echo "LEAK renice user"
renice -n 19 -g 0 >/dev/null 2>&1 && echo "LEAK renice group"
ionice -c 3 -u $(id -u) >/dev/null 2>&1 && echo "LEAK ionice user"
prlimit --pid ` + v + ` --cpu >/dev/null && echo read-other-ok
nice -n 5 true && echo nice-ok
renice -n 18 -p $$ >/dev/null && echo renice-self-ok
taskset -p 1 $$ >/dev/null && echo taskset-self-ok
ionice -c 2 -n 7 -p $$ && echo ionice-self-ok
prlimit --pid $$ --nofile=512:4096 && echo prlimit-self-ok
sleep 5 & c=$!
renice -n 19 -p $c >/dev/null && taskset -p 1 $c >/dev/null && prlimit --pid $c --cpu=100:100 && chrt -b -p 0 $c && echo child-ok
kill $c`
	script = strings.ReplaceAll(script, "$PPID_OF_STAGE2", strconv.Itoa(os.Getpid()))
	got := s.run(t, "bash", "-c", script)
	if strings.Contains(got.stdout, "LEAK") {
		t.Errorf("calls on processes outside the sandbox succeeded:\n%s", got.stdout)
	}
	for _, want := range []string{"read-other-ok", "nice-ok", "renice-self-ok", "taskset-self-ok", "ionice-self-ok", "prlimit-self-ok", "child-ok"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("missing %q: stdout %q stderr %q", want, got.stdout, got.stderr)
		}
	}
	if after := procFacts(t, victim.Process.Pid); after != before {
		t.Errorf("victim changed:\nbefore %s\nafter  %s", before, after)
	}
	if after := procFacts(t, os.Getpid()); after != self {
		t.Errorf("supervisor changed:\nbefore %s\nafter  %s", self, after)
	}
}

// procFacts summarises what the calls above could change in pid: nice,
// policy (fields 19 and 41 of stat), CPU affinity, io priority and limits.
func procFacts(t *testing.T, pid int) string {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	var set unix.CPUSet
	unix.SchedGetaffinity(pid, &set)
	prio, _, _ := unix.Syscall(unix.SYS_IOPRIO_GET, 1, uintptr(pid), 0)
	limits, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	return "nice=" + f[16] + " policy=" + f[38] + " cpus=" + strconv.Itoa(set.Count()) + " ioprio=" + strconv.Itoa(int(prio)) + "\n" + string(limits)
}
