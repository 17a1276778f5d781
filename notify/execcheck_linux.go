package notify

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

// The exec check (issue 14 item 8). The broker decides an exec on the file
// it resolved and on the argv it read, then must CONTINUE: only the kernel
// can exec. The kernel then reads the filename and argv again, so a
// sibling thread (or another process sharing the page, or a
// RENAME_EXCHANGE of a symlink on the way) can make it run another file
// or another command line than the one decided. So the decision is
// remembered per process (its thread group): the identities (device,
// inode) the new image may have, the decided file and the interpreters of
// a script, and the argv. What runs is then checked against it:
//
//   - at the new image's first trapped syscall, before that syscall is
//     served (ld.so's first open for any dynamic binary, before main), in
//     Supervisor.serve, and at the first trapped syscall of a child it
//     forked before that;
//   - by an asynchronous watch started after the CONTINUE, polling
//     /proc/<tgid>/exe for 5 s with a backoff from 100 µs to 10 ms: a
//     static binary may make no trapped syscall at all.
//
// A new image whose file is not one decided (or whose command line the
// policy refuses) is killed (SIGKILL by pidfd, and its descendants), and
// the audit records exec_mismatch with the file that really ran. The
// image is known to be the new one when /proc/<tgid>/exe changed; when it
// did not (an exec of the file already running, or an exec that failed),
// the check ends when the exec'ing thread makes its next trapped syscall.
//
// Limits: a denied static image that makes no trapped syscall runs until
// the watch sees it (typically well under a millisecond; it can only use
// the descriptors it inherited meanwhile); an exec the kernel performs
// more than 5 s after the CONTINUE is checked at the image's first trapped
// syscall only. Exec deny by basename stays a convenience: a copy of a
// denied binary under another name is another file.

// OpExecMismatch is the audit operation of a killed exec: the kernel ran
// another file (or command line) than the one the broker decided.
const OpExecMismatch policy.Op = "exec_mismatch"

// fileKey is a file's identity.
type fileKey struct{ dev, ino uint64 }

// execCheck is one exec decision waiting to be verified.
type execCheck struct {
	tid     int       // the exec'ing thread
	syscall string    // execve or execveat
	path    string    // the decided file's canonical path
	argv    []string  // the decided argv
	prefix  int       // cmdline entries the kernel puts before argv[1:]: 1, more for a script
	allowed []fileKey // the decided file and its interpreters
	open    bool      // format unknown (binfmt_misc, unreadable): an exe the policy lets execute is accepted
	prev    fileKey   // the process's image at the decision
}

// execEntry is the checks of one thread group.
type execEntry struct {
	pidfd  int // the process (pidfd_open of its tgid: survives the exec)
	checks []*execCheck
	killed bool
}

// execChecks are the pending checks by thread group.
type execChecks struct {
	n atomic.Int32 // len(m): the request path reads only this
	// sweepUntil (unix ns, 0: none): an image went away unverified, and
	// until then the request path decides each caller's image again
	// (goneUnverified; review R5).
	sweepUntil atomic.Int64
	mu         sync.Mutex
	m          map[int]*execEntry
}

// Check results.
type execState uint8

const (
	execPending  execState = iota // not yet known
	execOK                        // verified (or the process is gone): the entry is dropped
	execMismatch                  // killed
)

// Exec watch timing.
const (
	execWatchFirst = 500 * time.Microsecond
	execWatchMax   = 10 * time.Millisecond
	execWatchFor   = 5 * time.Second
	execWatchSlow  = 50 * time.Millisecond // after execWatchFor
)

// prepareExec builds the check for an allowed exec of f (an O_PATH
// descriptor of the decided file, canonical path) with argv. It fails
// closed: an error refuses the exec.
func (r *Request) prepareExec(fd int, path string, argv []string) (*execCheck, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("stat exec file: %w", err)
	}
	c := &execCheck{tid: r.TID(), syscall: r.Syscall, path: path, argv: argv, prefix: 1,
		allowed: []fileKey{{st.Dev, st.Ino}}}
	if k, err := exeKey(r.TID()); err == nil {
		c.prev = k
	}
	// The interpreter chain of a script (the kernel allows 4 levels
	// below the file; binfmt_misc and unreadable files are open).
	cur := fd
	for depth := 0; ; depth++ {
		interp, arg, kind := execFormat(cur)
		if cur != fd {
			unix.Close(cur)
		}
		if kind != formatScript || depth == 5 {
			c.open = kind == formatUnknown || depth == 5
			return c, nil
		}
		c.prefix++
		if arg {
			c.prefix++
		}
		next, err := r.resolveExec(-1, interp, true, false)
		if err != nil {
			c.open = true // the kernel will fail the exec (ENOENT): nothing is lost
			return c, nil
		}
		// The interpreter is a program the kernel runs: decided like one
		// (exec.deny applies to "#!/usr/bin/sudo" too), on about the argv
		// it gets (the #! argument left out).
		iargv := []string{interp, path}
		if len(argv) > 1 {
			iargv = append(iargv, argv[1:]...)
		}
		if d := r.DecideExec(next.Path, iargv); !d.Allowed() {
			next.Close()
			return nil, execDenied{d}
		}
		if err := unix.Fstat(next.FD, &st); err != nil {
			next.Close()
			return nil, fmt.Errorf("stat interpreter: %w", err)
		}
		c.allowed = append(c.allowed, fileKey{st.Dev, st.Ino})
		cur = next.FD
	}
}

// execDenied is prepareExec's refusal of a script whose interpreter the
// policy does not let execute.
type execDenied struct{ d policy.Decision }

func (e execDenied) Error() string { return "exec interpreter denied: " + e.d.Rule.List }

type execKind uint8

const (
	formatNative execKind = iota
	formatScript
	formatUnknown
)

// execFormat reads the head of the file behind O_PATH descriptor fd (the
// kernel reads 256 bytes) and says whether it is a native ELF binary, a
// script (its interpreter and whether the #! line has an argument) or
// something else.
func execFormat(fd int) (interp string, arg bool, kind execKind) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return "", false, formatUnknown
	}
	rfd, err := openRetry("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC)
	if err != nil {
		return "", false, formatUnknown
	}
	defer unix.Close(rfd)
	var buf [256]byte
	n, err := unix.Pread(rfd, buf[:], 0)
	if err != nil || n < 4 {
		return "", false, formatUnknown
	}
	return parseExecHead(buf[:n])
}

// elfMachine is the ELF e_machine of the native architecture.
var elfMachine = map[string]uint16{"amd64": 62, "arm64": 183}[runtime.GOARCH]

// parseExecHead classifies the first bytes of an executable.
func parseExecHead(b []byte) (interp string, arg bool, kind execKind) {
	if bytes.HasPrefix(b, []byte("\x7fELF")) {
		if len(b) >= 20 && b[4] == 2 && uint16(b[18])|uint16(b[19])<<8 == elfMachine {
			return "", false, formatNative
		}
		return "", false, formatUnknown // another architecture: binfmt_misc (qemu)
	}
	if !bytes.HasPrefix(b, []byte("#!")) {
		return "", false, formatUnknown
	}
	line := b[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.Trim(line, " \t")
	if len(line) == 0 {
		return "", false, formatUnknown
	}
	name, rest := line, []byte(nil)
	if i := bytes.IndexAny(line, " \t"); i >= 0 {
		name, rest = line[:i], bytes.Trim(line[i:], " \t")
	}
	return string(name), len(rest) > 0, formatScript
}

// exeKey is the identity of the file process (or thread) id runs.
func exeKey(id int) (fileKey, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/"+strconv.Itoa(id)+"/exe", &st); err != nil {
		return fileKey{}, err
	}
	return fileKey{st.Dev, st.Ino}, nil
}

// watchExec registers c for thread group tgid; called before the
// CONTINUE, it returns the watch to start after it (nil: none).
func (s *Supervisor) watchExec(tgid int, c *execCheck) (func(), error) {
	s.execs.mu.Lock()
	defer s.execs.mu.Unlock()
	e := s.execs.m[tgid]
	if e == nil {
		pidfd, err := unix.PidfdOpen(tgid, 0)
		if err != nil {
			return nil, fmt.Errorf("open exec process: %w", err)
		}
		if s.execs.m == nil {
			s.execs.m = make(map[int]*execEntry)
		}
		e = &execEntry{pidfd: pidfd}
		s.execs.m[tgid] = e
		s.execs.n.Store(int32(len(s.execs.m)))
	}
	e.checks = append(e.checks, c)
	return func() { go s.execWatch(tgid, e) }, nil
}

// execImageOK is the request path's part (Supervisor.serve): false when
// the caller's process (or its parent, for a child forked before the new
// image's first trapped syscall) runs what was not decided: it is killed
// and the request refused. It costs one atomic load while no exec is
// pending.
func (s *Supervisor) execImageOK(r *Request) bool {
	if s.execs.n.Load() == 0 && s.execs.sweepUntil.Load() == 0 {
		return true
	}
	tgid, fresh := s.tgids.lookup(r.TID())
	if tgid == 0 {
		return true
	}
	r.tgid = tgid
	s.execs.mu.Lock()
	_, own := s.execs.m[tgid]
	s.execs.mu.Unlock()
	if !own && !fresh {
		// A thread seen before: not a child forked by an image still
		// waiting for its check (those make their first request now), so
		// no /proc read on every request while some exec is pending.
		return s.sweepOne(tgid, "")
	}
	if !own {
		pp := ppidOf(tgid)
		s.execs.mu.Lock()
		_, parent := s.execs.m[pp]
		s.execs.mu.Unlock()
		if !parent {
			return s.sweepOne(tgid, "")
		}
		if s.verifyExec(pp, 0) != execMismatch {
			return true
		}
		unix.Kill(tgid, unix.SIGKILL) // forked by the killed image: killed with it (descendants)
		return false
	}
	return s.verifyExec(tgid, r.TID()) != execMismatch
}

// verifyExec checks thread group tgid's image against its pending checks.
// tid is the thread making a trapped syscall (0: the watch): when it is
// an exec'ing thread and the image did not change, its exec returned.
func (s *Supervisor) verifyExec(tgid, tid int) execState {
	s.execs.mu.Lock()
	e := s.execs.m[tgid]
	if e == nil {
		s.execs.mu.Unlock()
		return execOK
	}
	if e.killed {
		s.execs.mu.Unlock()
		return execMismatch
	}
	checks := slices.Clone(e.checks)
	s.execs.mu.Unlock()

	exe, err := exeKey(tgid)
	if err != nil {
		if exited(e.pidfd) {
			s.goneUnverified(tgid, e)
			return execOK
		}
		if errIs(err, unix.EACCES) || errIs(err, unix.EPERM) {
			// A non-dumpable image (an execute-only file) that an
			// unprivileged broker cannot inspect: it cannot serve its
			// syscalls either (its memory is unreadable), so nothing
			// legitimate is lost by failing closed.
			s.killExec(tgid, e, checks[len(checks)-1], "", "the new image cannot be verified (/proc/<pid>/exe unreadable)")
			return execMismatch
		}
		return execPending // exiting, or a kernel answer we cannot read now
	}
	var returned []*execCheck // checks whose exec is over, the image unchanged
	for _, c := range checks {
		// The exec is over when the image changed, when its thread makes
		// another syscall, or when its thread (not the leader) is gone: a
		// successful exec gives it the leader's id.
		over := exe != c.prev || tid == c.tid || (c.tid != tgid && threadGone(tgid, c.tid))
		if over && slices.Contains(c.allowed, exe) {
			return s.verifyArgv(tgid, e, c)
		}
		if over && exe == c.prev {
			returned = append(returned, c)
		}
	}
	for _, c := range checks {
		if exe == c.prev {
			if len(returned) > 0 {
				s.dropExec(tgid, e, returned)
			}
			return execPending // the exec has not happened (yet), or failed
		}
	}
	exePath, _ := os.Readlink("/proc/" + strconv.Itoa(tgid) + "/exe")
	// An open check accepts an image the policy lets execute, decided on
	// the command line it runs with (exec.deny_args): the agent can make
	// a check open at will (a write lease on the decided file fails the
	// broker's non-blocking read of its head).
	var cmdline []string
	if data, err := os.ReadFile("/proc/" + strconv.Itoa(tgid) + "/cmdline"); err == nil && len(data) > 0 {
		cmdline = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	} else if slices.ContainsFunc(checks, func(c *execCheck) bool { return c.open }) {
		return execPending // an image still being set up, or gone: looked at again
	}
	for _, c := range checks {
		if c.open && s.broker.DecideExec(exePath, cmdline).Allowed() {
			s.dropExec(tgid, e, nil)
			return execOK
		}
	}
	s.killExec(tgid, e, checks[len(checks)-1], exePath, "the kernel executed another file than the one decided")
	return execMismatch
}

// verifyArgv checks the command line of the new image of check c: the
// kernel read argv again too. An empty cmdline is an image still being
// set up.
func (s *Supervisor) verifyArgv(tgid int, e *execEntry, c *execCheck) execState {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(tgid) + "/cmdline")
	if err != nil || len(data) == 0 {
		if exited(e.pidfd) {
			s.goneUnverified(tgid, e)
			return execOK
		}
		return execPending
	}
	cmdline := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	var tail []string
	if len(cmdline) > c.prefix {
		tail = cmdline[c.prefix:]
	}
	var want []string
	if len(c.argv) > 1 {
		want = c.argv[1:]
	}
	if !slices.Equal(tail, want) {
		arg0 := ""
		if len(c.argv) > 0 {
			arg0 = c.argv[0]
		}
		if d := s.broker.DecideExec(c.path, append([]string{arg0}, tail...)); !d.Allowed() {
			s.killExec(tgid, e, c, c.path, "the kernel executed a command line the policy refuses: "+shortArgv(tail))
			return execMismatch
		}
	}
	s.dropExec(tgid, e, nil)
	return execOK
}

func shortArgv(a []string) string {
	s := strings.Join(a, " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// dropExec removes checks from tgid's entry (nil: all of them, and the
// entry).
func (s *Supervisor) dropExec(tgid int, e *execEntry, checks []*execCheck) {
	s.execs.mu.Lock()
	defer s.execs.mu.Unlock()
	if s.execs.m[tgid] != e {
		return
	}
	if checks != nil {
		e.checks = slices.DeleteFunc(e.checks, func(c *execCheck) bool { return slices.Contains(checks, c) })
	}
	if checks == nil || len(e.checks) == 0 {
		delete(s.execs.m, tgid)
		s.execs.n.Store(int32(len(s.execs.m)))
		unix.Close(e.pidfd)
	}
}

// killExec kills thread group tgid (by its pidfd: no reused pid is hit)
// and its descendants, and records what ran.
func (s *Supervisor) killExec(tgid int, e *execEntry, c *execCheck, ran, why string) {
	s.execs.mu.Lock()
	if e.killed || s.execs.m[tgid] != e {
		s.execs.mu.Unlock()
		return
	}
	e.killed = true
	s.execs.mu.Unlock()
	kids := descendants(tgid, nil, false)
	unix.PidfdSendSignal(e.pidfd, unix.SIGKILL, nil, 0)
	for _, k := range kids {
		unix.Kill(k, unix.SIGKILL)
	}
	if ran == "" {
		ran = "(unknown)"
	}
	s.broker.Record(broker.Event{
		Op: OpExecMismatch, Path: ran, Syscall: c.syscall, PID: tgid, TID: c.tid,
		Decision: policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "exec check", Pattern: c.path, Comment: why}},
		Result:   "killed",
	})
	// The entry stays (killed) until the process is gone, so that its
	// remaining requests are refused.
	go func() {
		waitExit(e.pidfd, time.Second)
		s.dropExec(tgid, e, nil)
		s.sweepOrphans(c) // children forked after the descendant walk
	}()
}

// goneUnverified drops the checks of thread group tgid, gone before its
// image was verified: it may have run another file and forked children
// that run it (they are orphans now, and no parent link leads to a check;
// review R5), so every sandboxed process is decided again.
func (s *Supervisor) goneUnverified(tgid int, e *execEntry) {
	s.execs.mu.Lock()
	var c *execCheck
	if s.execs.m[tgid] == e && len(e.checks) > 0 {
		c = e.checks[len(e.checks)-1]
	}
	s.execs.mu.Unlock()
	s.dropExec(tgid, e, nil)
	if c != nil {
		s.sweepOrphans(c)
	}
}

// sweepOrphans decides every process below the supervisor again on the
// file it runs and its command line, and kills those the policy refuses
// (exec_mismatch). Every sandboxed process was started by an allowed exec,
// so only an image that escaped its check can be refused.
func (s *Supervisor) sweepOrphans(c *execCheck) {
	s.execs.sweepUntil.Store(time.Now().Add(execWatchFor).UnixNano())
	for _, pid := range descendants(os.Getpid(), nil, true) { // sandboxed processes only
		s.redecide(pid, c.path)
	}
}

// sweepOne is the request path's part of a sweep: while one is on, the
// caller's image is decided again (false: refused, killed).
func (s *Supervisor) sweepOne(tgid int, decided string) bool {
	until := s.execs.sweepUntil.Load()
	if until == 0 {
		return true
	}
	if time.Now().UnixNano() >= until {
		s.execs.sweepUntil.CompareAndSwap(until, 0)
		return true
	}
	return s.redecide(tgid, decided)
}

// redecide decides process pid again on the file it runs and its command
// line; a refused one is killed and recorded (false).
func (s *Supervisor) redecide(pid int, decided string) bool {
	proc := "/proc/" + strconv.Itoa(pid)
	exe, err := os.Readlink(proc + "/exe")
	if err != nil {
		return true
	}
	var argv []string
	if data, err := os.ReadFile(proc + "/cmdline"); err == nil && len(data) > 0 {
		argv = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	}
	if s.broker.DecideExec(exe, argv).Allowed() {
		return true
	}
	unix.Kill(pid, unix.SIGKILL)
	s.broker.Record(broker.Event{
		Op: OpExecMismatch, Path: exe, Syscall: "execve", PID: pid, TID: pid,
		Decision: policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "exec check", Pattern: decided,
			Comment: "a process forked by an image that was not verified runs a file the policy refuses"}},
		Result: "killed",
	})
	return false
}

// execWatch polls the image of thread group tgid after the CONTINUE,
// until the check resolves, the process is gone, or execWatchFor.
func (s *Supervisor) execWatch(tgid int, e *execEntry) {
	d, end := execWatchFirst, time.Now().Add(execWatchFor)
	for time.Now().Before(end) && !s.done.Load() {
		if waitExit(e.pidfd, d) {
			s.goneUnverified(tgid, e)
			return
		}
		if st := s.verifyExec(tgid, 0); st != execPending {
			return
		}
		d = min(2*d, execWatchMax)
	}
	// Unresolved (a failed exec whose thread makes no trapped syscall,
	// or an exec the kernel has not finished: its open of the file can be
	// held back at will, a write lease makes it wait up to
	// lease-break-time, 45 s): the request path keeps checking, and so
	// does the watch, less often, until the process ends: an image that
	// makes no trapped syscall is seen within execWatchSlow.
	for !s.done.Load() {
		if waitExit(e.pidfd, execWatchSlow) {
			s.goneUnverified(tgid, e)
			return
		}
		s.execs.mu.Lock()
		gone := s.execs.m[tgid] != e
		s.execs.mu.Unlock()
		if gone || s.verifyExec(tgid, 0) != execPending {
			return
		}
	}
}

// waitExit waits up to d for the process behind pidfd to exit.
func waitExit(pidfd int, d time.Duration) bool {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		n, err := unix.Ppoll(fds, &ts, nil)
		if err == syscall.EINTR {
			continue
		}
		return err != nil || (n == 1 && fds[0].Revents != 0)
	}
}

func exited(pidfd int) bool { return waitExit(pidfd, 0) }

// threadGone reports whether thread tid of process tgid no longer exists.
func threadGone(tgid, tid int) bool {
	var st unix.Stat_t
	return unix.Stat("/proc/"+strconv.Itoa(tgid)+"/task/"+strconv.Itoa(tid), &st) != nil
}

// ppidOf returns the parent process id of process pid (0 if unknown).
func ppidOf(pid int) int {
	st, err := readStat(pid)
	if err != nil {
		return 0
	}
	return st.ppid
}
