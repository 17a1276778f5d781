package notify

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The guardian stands between the supervisor and the sandbox: a small
// re-execution of this binary, outside the sandbox, that the supervisor
// starts before anything else and that starts stage 2 itself. It is a
// child subreaper, so every sandboxed process descends from it whatever
// it does (an orphan is re-parented to it), and its only work is to wait:
// for the agent's exit, which it reports to the supervisor, and for the
// supervisor's word to kill the whole tree at the end of the session.
//
// If the supervisor dies (SIGKILL, the OOM killer), the guardian's end of
// their socket reads EOF: it kills the session cgroup (if any) and walks
// its own tree, so nothing sandboxed survives the supervisor. If the
// guardian dies instead, stage 2 dies with it (PR_SET_PDEATHSIG) and the
// rest of the tree is re-parented to the supervisor, itself a subreaper,
// whose teardown walks it. Only when both die together (kill -9 of the
// whole process group) does a sandboxed process that left the group
// survive, unless it is in a session cgroup that the next session of
// this user does not clean either: that case is not covered.
//
// The sandbox cannot signal the guardian (Landlock scopes signals to the
// domain), ptrace it, read its ptrace-protected /proc entries (CheckProc
// treats it as outside) or lower its limits (the filter refuses prlimit64
// on another process).

// guardianMarker is argv[1] of the re-executed guardian.
const guardianMarker = "__aixbroker-guardian"

// maybeGuardian turns the process into the guardian when it was started
// as one; otherwise it returns at once. Called first by MaybeStage2.
func maybeGuardian() {
	if len(os.Args) < 2 || os.Args[1] != guardianMarker {
		return
	}
	os.Exit(guardianMain(os.Args[2:]))
}

// guardianMain is the guardian: args are the control descriptor, the
// number of descriptors stage 2 inherits (0 .. n-1) and the session
// cgroup ("" for none).
func guardianMain(args []string) int {
	runtime.LockOSThread() // stage 2's PDEATHSIG follows the thread that forked it
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "aixbroker: guardian: bad arguments")
		return exitSetupFailed
	}
	ctlFd, err1 := strconv.Atoi(args[0])
	nfiles, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil || ctlFd < 3 || nfiles < 4 || nfiles > ctlFd {
		fmt.Fprintln(os.Stderr, "aixbroker: guardian: bad arguments")
		return exitSetupFailed
	}
	unix.CloseOnExec(ctlFd)
	ctl := os.NewFile(uintptr(ctlFd), "guardian-ctl")
	var cg *sessionCgroup
	if args[2] != "" {
		cg = &sessionCgroup{dir: args[2]}
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(ctl, "E become subreaper: %v\n", err)
		return exitSetupFailed
	}
	// The terminal's and the user's signals are for the agent (the
	// supervisor forwards them); a handler, not SIG_IGN, so that stage 2
	// does not inherit an ignored disposition.
	// The job-control stops too: the guardian keeps running while the
	// agent is stopped, to report the stop to the supervisor (jobStop).
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE,
		syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	go func() {
		for range sigs {
		}
	}()
	files := make([]*os.File, nfiles)
	for i := range files {
		files[i] = os.NewFile(uintptr(i), "inherited")
	}
	attr := &os.ProcAttr{
		Env:   os.Environ(), // GODEBUG=asyncpreemptoff=1: see startStage2
		Files: files,
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	}
	proc, err := os.StartProcess("/proc/self/exe", []string{os.Args[0], stage2Marker}, attr)
	if err != nil {
		fmt.Fprintf(ctl, "E start stage 2: %v\n", err)
		return exitSetupFailed
	}
	for i := 3; i < nfiles; i++ {
		files[i].Close() // the stage-2 socket must close when stage 2 execs
	}
	if null, err := os.OpenFile("/dev/null", os.O_RDWR, 0); err == nil {
		unix.Dup2(int(null.Fd()), 0)
		unix.Dup2(int(null.Fd()), 1)
		null.Close()
	}
	if _, err := fmt.Fprintf(ctl, "P %d\n", proc.Pid); err != nil {
		guardianKill(cg, true)
		return exitSetupFailed
	}
	exited := make(chan unix.WaitStatus, 1)
	stopped := make(chan syscall.Signal, 4)
	var killing atomic.Bool // the kill's own SIGSTOPs are not job control
	go guardianReap(proc.Pid, exited)
	go watchStops(proc.Pid, stopped, &killing)
	told := make(chan bool, 1) // true: the supervisor said kill; false: it is gone
	go func() {
		r := bufio.NewReader(ctl)
		line, err := r.ReadString('\n')
		told <- err == nil && strings.TrimSpace(line) == "K"
	}()
	for {
		select {
		case ws := <-exited:
			fmt.Fprintf(ctl, "X %d\n", uint32(ws))
		case sig := <-stopped:
			fmt.Fprintf(ctl, "T %d\n", int(sig))
		case asked := <-told:
			killing.Store(true)
			left := guardianKill(cg, !asked)
			if asked {
				fmt.Fprintf(ctl, "D %d\n", len(left))
			}
			return 0
		}
	}
}

// guardianKill kills the sandbox: the cgroup first, then the tree walk.
// With orphaned set (the supervisor is gone) it also reports survivors
// and removes the cgroup, which nobody else will.
func guardianKill(cg *sessionCgroup, orphaned bool) []int {
	deadline := time.Now().Add(killBudget)
	if cg != nil {
		cg.kill(deadline)
	}
	left := killTree(os.Getpid(), nil, false, deadline)
	reportSurvivors(left)
	if orphaned && cg != nil {
		reapAll()
		cg.remove()
	}
	return left
}

// guardianReap reaps every child; stage 2's exit status goes to exited.
func guardianReap(stage2 int, exited chan<- unix.WaitStatus) {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, unix.EINTR):
		case err != nil:
			time.Sleep(10 * time.Millisecond) // no child now: orphans may come
		case pid == stage2:
			exited <- ws
		}
	}
}

// watchStops reports each job-control stop of stage 2 (Ctrl-Z in an agent
// that handles the terminal itself, SIGTTIN) to stopped. It looks without
// consuming the stop (WNOWAIT), so that the reaper and the tree walk, which
// stops every process before it kills them, see the children as they are;
// the walk's own stops are not reported (killing).
func watchStops(stage2 int, stopped chan<- syscall.Signal, killing *atomic.Bool) {
	const cldStopped = 5 // CLD_STOPPED
	for {
		var si unix.Siginfo
		err := unix.Waitid(unix.P_PID, stage2, &si, unix.WSTOPPED|unix.WNOWAIT, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return // stage 2 is gone
		}
		if si.Code == cldStopped && !killing.Load() {
			select {
			case stopped <- syscall.SIGTSTP:
			default: // the supervisor has not read the last one yet: it is enough
			}
		}
		// Then wait for it to be continued (fg): the kernel keeps one flag
		// per state, cleared by the other, so a stop that comes before this
		// wait returns is still seen by the next one.
		for {
			err := unix.Waitid(unix.P_PID, stage2, &si, unix.WCONTINUED|unix.WNOWAIT, nil)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil {
				return
			}
			break
		}
	}
}

// reapAll reaps the children that have exited, without blocking.
func reapAll() {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// guardians are the live guardians of this process's sessions: the
// teardown of one session spares the others' trees.
var guardians = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

// otherGuardians returns the live guardians other than pid.
func otherGuardians(pid int) map[int]bool {
	guardians.Lock()
	defer guardians.Unlock()
	out := map[int]bool{}
	for p := range guardians.pids {
		if p != pid {
			out[p] = true
		}
	}
	return out
}

// guardian is the supervisor's side of the guardian.
type guardian struct {
	proc  *os.Process
	ctl   *os.File
	lines chan string // what the guardian says, closed at EOF
}

// startGuardian starts the guardian, which starts stage 2 with stdio,
// sock (fd 3) and cfg.ExtraFiles, and returns it with stage 2's pid.
func startGuardian(sock *os.File, cfg Config, cg *sessionCgroup) (*guardian, int, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("create guardian socketpair: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "guardian"), os.NewFile(uintptr(fds[1]), "guardian-child")
	defer theirs.Close()
	files := append([]*os.File{orStd(cfg.Stdin, os.Stdin), orStd(cfg.Stdout, os.Stdout), orStd(cfg.Stderr, os.Stderr), sock}, cfg.ExtraFiles...)
	nfiles := len(files)
	files = append(files, theirs)
	dir := ""
	if cg != nil {
		dir = cg.dir
	}
	attr := &os.ProcAttr{
		Dir: cfg.Dir,
		// Stage 2 runs with its own environment (the agent's is sent over
		// the socket). No asynchronous preemption: a signal to the thread
		// waiting in the trapped execve makes the kernel restart it, and
		// the broker decide (and record) the exec again.
		Env:   []string{"GODEBUG=asyncpreemptoff=1"},
		Files: files,
	}
	p, err := os.StartProcess("/proc/self/exe", []string{os.Args[0], guardianMarker, strconv.Itoa(nfiles), strconv.Itoa(nfiles), dir}, attr)
	if err != nil {
		mine.Close()
		return nil, 0, fmt.Errorf("start guardian: %w", err)
	}
	g := &guardian{proc: p, ctl: mine, lines: make(chan string, 4)}
	guardians.Lock()
	guardians.pids[p.Pid] = true
	guardians.Unlock()
	go func() {
		r := bufio.NewReader(mine)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(g.lines)
				return
			}
			g.lines <- strings.TrimSpace(line)
		}
	}()
	first, ok := <-g.lines
	switch {
	case !ok:
		return g, 0, errors.New("start stage 2: the guardian exited")
	case strings.HasPrefix(first, "E "):
		return g, 0, errors.New(first[2:])
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(first, "P "))
	if err != nil || pid <= 0 {
		return g, 0, fmt.Errorf("start stage 2: guardian said %q", first)
	}
	return g, pid, nil
}

// status waits for the guardian's report of the agent's exit, calling
// onStop for each report that the agent stopped; a guardian gone without
// one means stage 2 was killed with it.
func (g *guardian) status(onStop func(syscall.Signal)) unix.WaitStatus {
	for line := range g.lines {
		if v, ok := strings.CutPrefix(line, "T "); ok {
			if n, err := strconv.Atoi(v); err == nil && onStop != nil {
				onStop(syscall.Signal(n))
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "X "); ok {
			if n, err := strconv.ParseUint(v, 10, 32); err == nil {
				return unix.WaitStatus(n)
			}
		}
	}
	return unix.WaitStatus(unix.SIGKILL)
}

// stop asks the guardian to kill the sandbox and waits for it to be done
// and gone, at most until deadline.
func (g *guardian) stop(deadline time.Time) {
	defer func() {
		guardians.Lock()
		delete(guardians.pids, g.proc.Pid)
		guardians.Unlock()
	}()
	g.ctl.Write([]byte("K\n"))
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case line, ok := <-g.lines:
			if !ok || strings.HasPrefix(line, "D ") {
				g.proc.Wait() // it exits at once; reaped here or by reapChildren
				return
			}
		case <-timer.C:
			// Stuck: kill it; stage 2 dies with it (PDEATHSIG) and the rest
			// of its tree is re-parented to the supervisor, which walks it.
			g.proc.Kill()
			g.proc.Wait()
			return
		}
	}
}
