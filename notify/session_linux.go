package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// session is one running sandbox, seen from the broker.
type session struct {
	pid      int // stage 2, then the agent: a child of the guardian
	sock     *os.File
	sup      *Supervisor
	listener int
	execErr  chan error
	guard    *guardian      // the parent of stage 2 (guardian_linux.go)
	cgroup   *sessionCgroup // nil: no writable cgroup v2 here (cgroup_linux.go)
}

// handover sends stage 2 its configuration, receives the listener, starts
// the supervisor and only then lets stage 2 exec.
func (s *session) handover(cfg Config, path string) error {
	sc := stage2Config{
		Path: path, Argv: cfg.Argv, Env: cfg.Env, Dir: cfg.Dir,
		Landlock: cfg.Landlock, AllowDegraded: cfg.AllowDegraded, Trap: trapFor(cfg.TrapStat, cfg.AllowSysV),
		Keep: stage2Fd + 1 + len(cfg.ExtraFiles),
	}
	if err := writeConfig(s.sock, sc); err != nil {
		return err
	}
	listener, err := s.receiveListener()
	if err != nil {
		return err
	}
	s.listener = listener
	sup, err := NewSupervisor(listener, cfg.Broker)
	if err != nil {
		return err
	}
	s.sup = sup
	sup.guardian = s.guard.proc.Pid
	sup.SetDenyInodes(cfg.DenyInodes)
	sup.hideOPath = cfg.TrapStat
	sup.startDevices(cfg) // device_linux.go, caps_linux.go: the session's terminals; act with the agent's reduced capabilities
	// liveness: the supervisor failed closed; the lead may wire the tree kill here
	sup.OnFailClosed(func(string) { unix.Kill(s.pid, unix.SIGKILL) })
	sup.Start()
	s.execErr = make(chan error, 1)
	if _, err := s.sock.Write([]byte{1}); err != nil {
		return fmt.Errorf("acknowledge stage 2: %w", err)
	}
	go s.watchExec()
	return nil
}

// receiveListener reads stage 2's answer: the listener, or its error.
func (s *session) receiveListener() (int, error) {
	buf := make([]byte, 4096)
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(int(s.sock.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("receive listener: %w", err)
	}
	if n == 0 {
		return -1, errors.New("receive listener: stage 2 exited")
	}
	if buf[0] == 'E' {
		return -1, fmt.Errorf("stage 2: %s", buf[1:n])
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return -1, fmt.Errorf("receive listener: no descriptor")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return -1, fmt.Errorf("receive listener: no descriptor")
	}
	return fds[0], nil
}

// watchExec reports an exec failure of stage 2 (its socket closes on a
// successful exec).
func (s *session) watchExec() {
	buf := make([]byte, 4096)
	n, _ := s.sock.Read(buf)
	if n > 0 && buf[0] == 'E' {
		s.execErr <- errors.New(string(bytes.TrimSpace(buf[1:n])))
	}
	close(s.execErr)
}

// wait reaps children until the agent exits, forwarding signals, and
// returns its status.
func (s *session) wait(ctx context.Context) (int, error) {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGINT, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	exited := make(chan unix.WaitStatus, 1)
	go s.reap(exited)
	auditFailed := s.sup.broker.Failed() // the audit can no longer be written: stop the agent
	for {
		select {
		case <-auditFailed:
			unix.Kill(s.pid, unix.SIGKILL)
			auditFailed = nil
		case ws := <-exited:
			return s.status(ws)
		case sig := <-sigs:
			s.forward(sig.(syscall.Signal))
		case <-ctx.Done():
			unix.Kill(s.pid, unix.SIGKILL)
			ctx = context.Background()
		}
	}
}

// status turns the agent's wait status into an exit status.
func (s *session) status(ws unix.WaitStatus) (int, error) {
	code := ws.ExitStatus()
	if ws.Signaled() {
		code = 128 + int(ws.Signal())
	}
	if err, ok := <-s.execErr; ok && err != nil && code == exitExecFailed {
		return code, err
	}
	return code, nil
}

// reap waits for the guardian's report of the agent's exit. The
// supervisor's own children (the guardian, and orphans if the guardian
// dies) are reaped by reapChildren.
func (s *session) reap(exited chan<- unix.WaitStatus) {
	exited <- s.guard.status(s.jobStop)
}

// jobStop follows the agent into a job-control stop, as sudo and script
// do: an agent that owns the terminal (raw mode: Claude Code, Codex)
// handles Ctrl-Z by stopping only itself, and the shell, which waits for
// aixbroker, would otherwise never get its prompt back. The supervisor
// stops itself with the same signal, so the shell sees the job stopped;
// when the shell continues it (fg, bg), it continues the agent. A report
// that arrives once the agent runs again (a stop of the whole group by the
// terminal, already continued) is ignored.
func (s *session) jobStop(sig syscall.Signal) {
	if !processStopped(s.pid) {
		return
	}
	switch sig {
	case syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGSTOP:
	default:
		sig = syscall.SIGTSTP
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The signal is sent to this thread, so the stop takes effect before
	// Tgkill returns to it, not after the agent is continued below.
	// SIGTSTP and its kin have their default action (stop): the supervisor
	// never asks for them (wait's signal.Notify).
	unix.Tgkill(os.Getpid(), unix.Gettid(), sig)
	// Continued: the shell's SIGCONT went to the whole job, the agent
	// included, unless the agent left the process group. Only then is it
	// continued here (a second SIGCONT could land after the agent's next
	// Ctrl-Z and undo that stop).
	if processStopped(s.pid) {
		unix.Kill(s.pid, unix.SIGCONT)
	}
}

// processStopped reports whether process pid is in a job-control stop.
func processStopped(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && i+2 < len(data) && data[i+2] == 'T'
}

// reapChildren reaps this process's children until it has none.
func reapChildren() {
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(-1, &ws, 0, nil)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// forward passes sig to the agent. SIGINT and SIGQUIT reach it from the
// terminal directly when the broker's group is in the foreground.
func (s *session) forward(sig syscall.Signal) {
	if sig == syscall.SIGINT || sig == syscall.SIGQUIT {
		if fg, err := unix.IoctlGetInt(0, unix.TIOCGPGRP); err == nil && fg == unix.Getpgrp() {
			return
		}
	}
	unix.Kill(s.pid, sig)
}

// teardown kills every sandboxed process left, however deep or fast it
// forks, stops the supervisor and closes the listener. The guardian kills
// its tree (the cgroup first, then the walk); then the supervisor kills
// the cgroup and walks its own tree, which holds whatever the guardian
// left or orphaned by dying. The whole takes at most killBudget; what
// could not be killed is named on stderr.
func (s *session) teardown() {
	deadline := time.Now().Add(killBudget)
	if s.guard != nil {
		s.guard.stop(deadline)
	}
	if s.cgroup != nil {
		s.cgroup.kill(deadline)
	}
	spare := map[int]bool{} // other sessions of this process, if any
	if s.guard != nil {
		spare = otherGuardians(s.guard.proc.Pid)
	}
	reportSurvivors(killTree(os.Getpid(), spare, true, deadline))
	if s.guard != nil {
		s.guard.ctl.Close()
	}
	if s.cgroup != nil {
		s.cgroup.remove()
	}
	drained := true
	if s.sup != nil {
		s.sup.Stop()
		drained = s.sup.Wait()
	}
	if s.listener > 0 && drained {
		unix.Close(s.listener)
	}
}
