package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/internal/seccomp"
)

// Run starts cfg.Argv in the sandbox, serves it until it exits and returns
// its exit status (128+signal if a signal killed it). An error means the
// sandbox could not be set up (status 125) or the agent could not be
// executed (126).
//
// While Run runs, the process is a child subreaper and reaps all its
// children: orphans of the agent are re-parented to it, and when the agent
// exits every remaining sandboxed process (any child whose seccomp mode is
// "filter") is killed. The agent stays in the caller's process group, so it
// keeps the terminal and job control (Ctrl-Z stops broker and agent
// together); SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 are forwarded, and
// SIGINT and SIGQUIT when they did not come from the terminal. The stage-2
// child is started with PR_SET_PDEATHSIG=SIGKILL, so the agent dies with the
// broker; its descendants do not inherit that, but every trapped syscall of
// theirs then fails with ENOSYS (fail closed).
func Run(ctx context.Context, cfg Config) (int, error) {
	if cfg.Broker == nil || len(cfg.Argv) == 0 {
		return exitSetupFailed, errors.New("run sandbox: no broker or no command")
	}
	if seccomp.Native == nil {
		return exitSetupFailed, fmt.Errorf("run sandbox: %w", ErrNotSupported)
	}
	if abi := landlock.ABI(); abi < landlock.MinABI && !cfg.AllowDegraded {
		return exitSetupFailed, fmt.Errorf("run sandbox: %w: kernel has %d, aixbroker needs %d (Linux 6.12)", landlock.ErrDegraded, abi, landlock.MinABI)
	}
	path, err := lookPath(cfg.Argv[0], cfg.Env, cfg.Dir)
	if err != nil {
		return 127, err
	}
	runtime.LockOSThread() // PDEATHSIG follows the thread that forked
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return exitSetupFailed, fmt.Errorf("become subreaper: %w", err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)

	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return exitSetupFailed, fmt.Errorf("create socketpair: %w", err)
	}
	parent, child := os.NewFile(uintptr(fds[0]), "stage2-parent"), os.NewFile(uintptr(fds[1]), "stage2-child")
	defer parent.Close()
	proc, err := startStage2(child, cfg)
	child.Close()
	if err != nil {
		return exitSetupFailed, err
	}
	s := &session{pid: proc.Pid, sock: parent}
	defer s.teardown()
	if err := raiseOwnLimits(); err != nil { // after stage 2 started: the agent keeps the user's limits
		return exitSetupFailed, err
	}
	if err := s.handover(cfg, path); err != nil {
		return exitSetupFailed, err
	}
	return s.wait(ctx)
}

// startStage2 re-executes this binary as stage 2 with an empty environment.
func startStage2(sock *os.File, cfg Config) (*os.Process, error) {
	attr := &os.ProcAttr{
		Dir: cfg.Dir,
		// Stage 2 runs with its own environment (the agent's is sent over
		// the socket). No asynchronous preemption: a signal to the thread
		// waiting in the trapped execve makes the kernel restart it, and
		// the broker decide (and record) the exec again.
		Env:   []string{"GODEBUG=asyncpreemptoff=1"},
		Files: append([]*os.File{orStd(cfg.Stdin, os.Stdin), orStd(cfg.Stdout, os.Stdout), orStd(cfg.Stderr, os.Stderr), sock}, cfg.ExtraFiles...),
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	}
	p, err := os.StartProcess("/proc/self/exe", []string{os.Args[0], stage2Marker}, attr)
	if err != nil {
		return nil, fmt.Errorf("start stage 2: %w", err)
	}
	return p, nil
}

// lookPath resolves argv0 in the agent's PATH, before any filter exists.
func lookPath(argv0 string, env []string, dir string) (string, error) {
	if strings.Contains(argv0, "/") {
		if !strings.HasPrefix(argv0, "/") && dir != "" {
			return dir + "/" + argv0, nil
		}
		return argv0, nil
	}
	pathEnv := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	for _, d := range strings.Split(pathEnv, ":") {
		if d == "" {
			d = "."
		}
		p := d + "/" + argv0
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("find %s in the agent's PATH: %w", argv0, os.ErrNotExist)
}

// trapList is the syscalls with a handler, sorted.
func trapList() []string {
	out := make([]string, 0, len(handlers))
	for name := range handlers {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func orStd(f, std *os.File) *os.File {
	if f != nil {
		return f
	}
	return std
}
