package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawAgent puts the terminal in raw mode and handles Ctrl-Z itself, by
// stopping only its own process, as Claude Code and Codex do.
const rawAgent = `import os, sys, tty, termios, signal
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
def resume(*a):
    tty.setraw(fd); sys.stdout.write("agent resumed\r\n"); sys.stdout.flush()
signal.signal(signal.SIGCONT, resume)
tty.setraw(fd)
sys.stdout.write("agent ready\r\n"); sys.stdout.flush()
while True:
    c = os.read(fd, 1)
    if c == b'\x1a':
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        os.kill(os.getpid(), signal.SIGTSTP)
    elif c == b'q':
        termios.tcsetattr(fd, termios.TCSADRAIN, old); print("agent bye"); break
`

// TestJobControlInTmux: Ctrl-Z in an agent that owns the terminal gives the
// shell its prompt back (the session stops with the agent), and fg resumes
// the agent, in a real terminal (tmux); twice in a row, as a user would.
// At 1f7ac63 the terminal froze: the supervisor never noticed the stop.
func TestJobControlInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	bin := buildBinary(t)
	dir, err := os.MkdirTemp("", "aixbroker-jobcontrol-")
	if err != nil {
		t.Fatal(err)
	}
	// Removed after tmux is gone (its shell may still write into HOME as
	// it exits, which t.TempDir's cleanup reports as a failure).
	defer func() {
		for i := 0; i < 50 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	}()
	agent := filepath.Join(dir, "agent.py")
	if err := os.WriteFile(agent, []byte(rawAgent), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", "jc", "-x", "120", "-y", "30", "env", "-i", "PATH=/usr/bin:/bin", "HOME="+dir, "HISTFILE=/dev/null", "TERM=xterm", "bash", "--norc", "--noprofile")
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	screen := func() string { return tmux("capture-pane", "-t", "jc", "-p", "-S", "-100") }
	waitFor := func(what string, n int) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if strings.Count(screen(), what) >= n {
				return
			}
		}
		t.Fatalf("no %d× %q on the screen:\n%s", n, what, screen())
	}
	tmux("send-keys", "-t", "jc", "cd "+dir+" && "+bin+" exec -q --profile generic -- python3 "+agent, "Enter")
	waitFor("agent ready", 1)
	for round := 1; round <= 2; round++ {
		tmux("send-keys", "-t", "jc", "C-z")
		waitFor("Stopped", round)
		tmux("send-keys", "-t", "jc", "echo shell-back-"+string(rune('0'+round)), "Enter")
		waitFor("shell-back-"+string(rune('0'+round))+"\n", 1)
		tmux("send-keys", "-t", "jc", "fg", "Enter")
		waitFor("agent resumed", round)
	}
	tmux("send-keys", "-t", "jc", "q")
	waitFor("agent bye", 1)
}
