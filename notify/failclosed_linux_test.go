package notify

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestBrokerDeathFailsClosed kills the broker process while a grandchild of
// the agent waits: the guardian kills the whole tree (lifetime_linux_test.go
// shows no process survives); a grandchild not yet killed could no longer
// open a file the policy allowed (its trapped syscalls fail with ENOSYS).
func TestBrokerDeathFailsClosed(t *testing.T) {
	s := newSandbox(t)
	script := `exec 3<&0
( read go <&3; if read line < README; then echo "LEAK:$line"; else echo DENIED; fi ) &
echo ready
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
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	stdin.Write([]byte("go\n"))
	stdin.Close()
	rest, _ := out.ReadString(0)
	if strings.Contains(rest, "LEAK") || (rest != "" && !strings.Contains(rest, "DENIED")) {
		t.Errorf("after the broker died the grandchild printed %q, want nothing (killed) or DENIED", rest)
	}
}

// TestTeardownKillsLeftovers starts a daemon (new session, double fork)
// from the agent: when the agent exits, Run kills it.
func TestTeardownKillsLeftovers(t *testing.T) {
	s := newSandbox(t)
	pidFile := filepath.Join(s.project, "daemon.pid")
	got := s.run(t, "bash", "-c", "setsid bash -c 'echo $$ > daemon.pid; exec sleep 1000' < /dev/null > /dev/null 2>&1 & sleep 0.2; cat daemon.pid")
	pid, err := strconv.Atoi(strings.TrimSpace(got.stdout))
	if err != nil {
		t.Fatalf("daemon pid %q: %v (%s)", got.stdout, err, pidFile)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("daemon %d still exists after Run returned (kill -0: %v)", pid, err)
	}
}

// TestSignalForwarded sends SIGTERM to a broker process: the agent receives
// it, and its exit status comes back.
func TestSignalForwarded(t *testing.T) {
	s := newSandbox(t)
	script := `trap 'echo got-term; exit 3' TERM; echo ready; while :; do sleep 0.05; done`
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "bash", "-c", script)
	cmd.Env = append(os.Environ(), brokerHelperEnv+"="+s.project)
	stdout, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	rest, _ := out.ReadString(0)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(rest, "got-term") {
		t.Errorf("broker exit %v, agent printed %q; want the agent's trap to run and status 3", err, rest)
	}
}
