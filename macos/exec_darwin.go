package macos

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// logDrain is how long the log follower keeps reading after the agent
// exits: the system log delivers reports with a delay.
const logDrain = 1500 * time.Millisecond

// Run runs cfg.Argv under sandbox-exec with the profile of cfg.Engine and
// returns its exit status (128+N for a signal). With cfg.Broker set, the
// kernel's denials for the agent and its descendants are read from the
// system log and recorded. The profile is removed when the agent exits.
func Run(ctx context.Context, cfg Config) (int, error) {
	var f *follower
	if cfg.Broker != nil {
		f = startFollower(ctx, cfg)
	}
	status, err := launch(ctx, cfg, func(pid int) {
		if f != nil {
			f.setRoot(pid)
		}
	})
	if f != nil {
		f.stop(logDrain)
	}
	return status, err
}

// follower reads `log stream` and records the agent's violations.
type follower struct {
	cmd  *exec.Cmd
	done chan struct{}
	mu   sync.Mutex
	root int // sandbox-exec's pid, which becomes the agent's: it execs in place
	cfg  Config
}

func startFollower(ctx context.Context, cfg Config) *follower {
	f := &follower{cfg: cfg, done: make(chan struct{})}
	f.cmd = exec.CommandContext(ctx, "/usr/bin/log", LogStreamArgs...)
	out, err := f.cmd.StdoutPipe()
	if err != nil || f.cmd.Start() != nil {
		close(f.done)
		return f
	}
	go f.read(out)
	return f
}

func (f *follower) setRoot(pid int) {
	f.mu.Lock()
	f.root = pid
	f.mu.Unlock()
}

func (f *follower) read(r io.Reader) {
	defer close(f.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		v, ok := ParseLogLine(line)
		if !ok || !(f.ours(v.PID) || f.tagged(line)) {
			continue
		}
		f.cfg.Broker.Record(v.Event(f.cfg.Engine))
	}
}

// ours reports whether pid is the agent or one of its descendants, by
// walking parent ids. A process that has already exited cannot be placed
// and is skipped (docs/macos.md: short-lived processes).
func (f *follower) ours(pid int) bool {
	f.mu.Lock()
	root := f.root
	f.mu.Unlock()
	for i := 0; i < 64 && pid > 1 && root > 0; i++ {
		if pid == root {
			return true
		}
		kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil || kp == nil {
			return false
		}
		pid = int(kp.Eproc.Ppid)
	}
	return false
}

// tagged reports whether the line carries this session's tag, which the
// profile attaches to its default deny.
func (f *follower) tagged(line string) bool {
	tag := logTag(f.cfg.SessionID)
	return tag != "" && strings.Contains(line, tag)
}

// stop lets the follower read for drain more, then ends it.
func (f *follower) stop(drain time.Duration) {
	if f.cmd.Process != nil {
		select {
		case <-f.done:
		case <-time.After(drain):
		}
		_ = f.cmd.Process.Kill()
	}
	<-f.done
	_ = f.cmd.Wait()
}
