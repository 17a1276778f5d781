package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/internal/seccomp"
)

// Run starts cfg.Argv in the sandbox, serves it until it exits and returns
// its exit status (128+signal if a signal killed it). An error means the
// sandbox could not be set up (status 125) or the agent could not be
// executed (126).
//
// Stage 2 is started by a guardian process (guardian_linux.go), a child
// subreaper outside the sandbox, in a session cgroup when this machine
// gives the user one (cgroup_linux.go); the supervisor is a subreaper too.
// When the agent exits, and when the supervisor dies, every remaining
// sandboxed process is stopped and killed, however deep or fast it forks
// (cgroup.kill, then the tree walk of reaper_linux.go). The agent stays in
// the caller's process group, so it keeps the terminal and job control
// (Ctrl-Z stops broker and agent together); SIGTERM, SIGHUP, SIGUSR1 and
// SIGUSR2 are forwarded, and SIGINT and SIGQUIT when they did not come
// from the terminal. Stage 2 dies with the guardian (PR_SET_PDEATHSIG).
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
	s := &session{sock: parent}
	s.cgroup, _ = newSessionCgroup() // none: the tree walk alone (doctor says why)
	guard, pid, err := startGuardian(child, cfg, s.cgroup)
	child.Close()
	if guard != nil {
		s.guard = guard
		go reapChildren()
		defer s.teardown()
	}
	if err != nil {
		return exitSetupFailed, err
	}
	s.pid = pid
	if s.cgroup != nil {
		if err := s.cgroup.place(pid); err != nil {
			return exitSetupFailed, err // before stage 2 may exec anything
		}
	}
	if err := raiseOwnLimits(); err != nil { // after the guardian and stage 2 started: the agent keeps the user's limits
		return exitSetupFailed, err
	}
	if err := s.handover(cfg, path); err != nil {
		return exitSetupFailed, err
	}
	return s.wait(ctx)
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
