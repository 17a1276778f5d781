package notify

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestBrokerDeathFailsClosed kills the broker process while a grandchild of
// the agent waits: the agent itself dies with the broker (PDEATHSIG) and
// the grandchild, which survives it, can no longer open a file the policy
// allowed (its trapped syscalls fail with ENOSYS).
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
	if strings.Contains(rest, "LEAK") || !strings.Contains(rest, "DENIED") {
		t.Errorf("after the broker died the grandchild printed %q, want DENIED", rest)
	}
}
