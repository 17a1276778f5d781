package notify

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
	"github.com/aixbroker/aixbroker/policy"
)

// Supervisor serves the notifications of one sandbox's listener.
type Supervisor struct {
	listener   int
	broker     *broker.Broker
	runner     *fsops.Runner // started on first use (asCaller), off the startup path
	runnerErr  error
	runnerOnce sync.Once
	// credsChanged is set, before the change takes effect, when a
	// sandboxed thread calls a set*id, setgroups or capset syscall.
	credsChanged atomic.Bool
	denyInodes   *fsops.DenyInodes // inodes of concrete denied files (SetDenyInodes, in fsmut_linux.go)
	hideOPath    bool              // decide OpStat on O_PATH opens (with the stat trap: Config.TrapStat)
	sockets      sessionSockets    // unix sockets bound in the sandbox (socket_linux.go)
	created      createdFiles      // files the broker created under a redacted name, removable (created_linux.go)
	ttys         sessionTTYs       // the session's own terminals (device_linux.go)
	capsReduced  atomic.Bool       // the agent holds fewer capabilities than the supervisor: act as the caller (caps_linux.go)
	agentCaps    uint64            // the agent's effective set while capsReduced and no credential changed
	numbers      map[uint32]string
	now          func() time.Time
	tgids        tgidCache  // thread → process ids for the audit records
	execs        execChecks // exec decisions to verify in the new image (execcheck_linux.go)

	stop      int            // eventfd: written to stop the receiver
	done      atomic.Bool    // Stop was called
	gen       atomic.Uint64  // generation of the goroutine holding the receive role
	busySince atomic.Int64   // the current request's token: when it began (unix ns, unique), 0 when idle
	lastBusy  atomic.Int64   // the last token given (busyToken)
	wg        sync.WaitGroup // the watchdog
	active    atomic.Int32   // receiving goroutines, detached ones included
	drained   chan struct{}  // closed when active drops to zero

	guardian int // the guardian's pid: outside the sandbox (guardian_linux.go)

	// Liveness (watchdog_linux.go): detached counts the requests served
	// off the receive role, at most maxDetached; received counts
	// notifications taken off the listener, the watchdog's measure of
	// progress; failed is set once the session fails closed, onFail is the
	// session's hook that stops the sandbox then.
	detached    atomic.Int32
	maxDetached int32
	received    atomic.Uint64
	failed      atomic.Bool
	onFail      func(reason string)
	stderr      io.Writer                                          // nil: os.Stderr
	stallIdle   time.Duration                                      // pending notifications, no request running, nothing received: fail closed
	stallBusy   time.Duration                                      // the same while the receive role is held by a request that cannot be detached
	poll        func(fds []unix.PollFd, mask *unix.Sigset_t) error // waitPoll; tests inject failures
}

// NewSupervisor returns a supervisor for listener (which it does not own)
// deciding with b.
func NewSupervisor(listener int, b *broker.Broker) (*Supervisor, error) {
	if seccomp.Native == nil {
		return nil, seccomp.ErrNoArch
	}
	if err := seccomp.SetFlags(listener, unix.SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP); err != nil {
		return nil, err
	}
	stop, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("create eventfd: %w", err)
	}
	numbers := make(map[uint32]string, len(handlers))
	for name := range handlers {
		if nr, ok := seccomp.Native.Numbers[name]; ok {
			numbers[nr] = name
		}
	}
	return &Supervisor{
		listener: listener, broker: b, drained: make(chan struct{}),
		numbers: numbers, now: time.Now, stop: stop,
		maxDetached: defaultMaxDetached, stallIdle: defaultStallIdle, stallBusy: defaultStallBusy,
	}, nil
}

// Start begins serving. Stop (or the death of every sandboxed process)
// ends it; Wait waits for the goroutines to return.
func (s *Supervisor) Start() {
	s.active.Add(1)
	s.wg.Add(1)
	go s.receive(0)
	go s.watchdog()
}

// Stop asks the receiver to return. Requests being handled finish.
func (s *Supervisor) Stop() {
	if s.done.CompareAndSwap(false, true) {
		var one [8]byte
		one[0] = 1
		unix.Write(s.stop, one[:])
	}
}

// drainGrace is how long Wait gives detached requests to finish.
const drainGrace = 200 * time.Millisecond

// Wait waits for the goroutines and releases the supervisor's resources.
// It reports false when a detached request is still blocked (a FIFO open
// whose target was killed): the listener must then stay open, since that
// goroutine still answers on it, and its resources are left to process
// exit rather than hanging the caller.
func (s *Supervisor) Wait() bool {
	s.wg.Wait()
	select {
	case <-s.drained:
	case <-time.After(drainGrace):
		return false
	}
	if s.runner != nil {
		s.runner.Close()
	}
	unix.Close(s.stop)
	return true
}

// exit records that a receiving goroutine returned.
func (s *Supervisor) exit() {
	if s.active.Add(-1) == 0 {
		close(s.drained)
	}
}

// receive holds the receive role of generation gen: it receives a
// notification and serves it inline, with no goroutine hand-off on the
// way (each one costs a wake-up on the target's critical path). When a
// request blocks (a FIFO, a slow filesystem), the role passes to a new
// goroutine (handOff) and this one returns after its request.
//
// The goroutine keeps its thread for good (the thread ends with it). The
// thread acts as the caller itself (fsops.Thread: its own umask and, after
// a credential change in the sandbox, the caller's ids), so creating a
// file costs no hand-off to another thread. Its asynchronous signals stay
// blocked except while it waits in poll: ADDFD|SEND must not be
// interrupted (see seccomp.AddFD), and blocking once spares two
// sigprocmask calls per request.
func (s *Supervisor) receive(gen uint64) {
	defer s.exit()
	defer func() {
		// A bug outside the handlers (they have call's recover): the role
		// is this goroutine's, so the sandbox must not wait for an answer
		// that never comes.
		if p := recover(); p != nil {
			s.failClosed(fmt.Sprintf("receive goroutine panicked: %v", p))
		}
	}()
	thread, err := fsops.LockThread() // locks the goroutine to its thread, never unlocked
	if err != nil {
		runtime.LockOSThread()
		thread = nil // creation goes to the runner's threads
	}
	var waitMask *unix.Sigset_t
	if old, err := seccomp.BlockAsyncSignals(); err == nil {
		waitMask = &old
	}
	for s.gen.Load() == gen {
		n, err := s.next(waitMask)
		if err != nil {
			// The one goroutine holding the role returns: unless the
			// session is over, nobody would receive again and every
			// sandboxed thread would wait in its trapped syscall for good
			// (the hang of issue 14 item 14): fail closed instead.
			if !errors.Is(err, errStopped) {
				s.failClosed(err.Error())
			}
			s.Stop()
			return
		}
		busy := s.busyToken()
		s.busySince.Store(busy)
		if thread != nil && s.credsChanged.Load() {
			// A root session's thread keeps the agent's lowered set between
			// requests (fsops.Thread.WithEffective); once a sandboxed thread
			// changed its ids, requests need the broker's own set again
			// first (reading a setuid'd target's memory needs CAP_SYS_PTRACE).
			thread.RestoreCaps() // an error taints the thread: handed off below
		}
		s.serve(n, busy, thread, waitMask != nil)
		// Exactly one of this goroutine (here), the handler (Detach) and
		// the watchdog clears the request's token, and only the one that
		// does decides what happens to the receive role: so two
		// goroutines never wait on the listener at once (the loser's RECV
		// would block, in a raw syscall, with nothing to receive).
		if !s.busySince.CompareAndSwap(busy, 0) {
			s.detached.Add(-1) // handed off (release) while this request ran: its slot
			return
		}
		if thread != nil && thread.Tainted() {
			s.handOff(gen) // this thread could not drop the caller's credentials: end it
			return
		}
	}
}

// busyToken returns a start time for a request's busySince token, unique
// within the supervisor (the wall clock may repeat or step back).
func (s *Supervisor) busyToken() int64 {
	t := s.now().UnixNano()
	for {
		last := s.lastBusy.Load()
		if t <= last {
			t = last + 1
		}
		if s.lastBusy.CompareAndSwap(last, t) {
			return t
		}
	}
}

// release gives the receive role away for the request whose token is busy,
// unless the request finished or was handed off already (nil then too). The
// detached request holds one of maxDetached slots until it returns: with
// none free it returns errBusy and the request keeps the role.
func (s *Supervisor) release(busy int64) error {
	if busy == 0 {
		return nil
	}
	if s.detached.Add(1) > s.maxDetached {
		s.detached.Add(-1)
		if s.busySince.Load() != busy {
			return nil // finished, or detached already
		}
		return errBusy
	}
	if s.busySince.CompareAndSwap(busy, 0) {
		s.handOff(s.gen.Load()) // the token was the holder's: gen is still its own
		return nil
	}
	s.detached.Add(-1)
	return nil
}

// handOff gives the receive role to a new goroutine if generation gen still
// holds it. Callers have cleared the request's busySince token first.
func (s *Supervisor) handOff(gen uint64) {
	if !s.gen.CompareAndSwap(gen, gen+1) {
		return
	}
	s.active.Add(1)
	go s.receive(gen + 1)
}

// next waits for a notification and receives it, with the thread's signal
// mask set to waitMask during the wait (nil: unchanged). It returns
// errStopped when the supervisor is stopped or no sandboxed process is
// left, and any other error when the listener cannot be served: the caller
// then fails closed.
func (s *Supervisor) next(waitMask *unix.Sigset_t) (seccomp.SeccompNotif, error) {
	var n seccomp.SeccompNotif
	poll := s.poll
	if poll == nil {
		poll = waitPoll
	}
	fds := []unix.PollFd{{Fd: int32(s.listener), Events: unix.POLLIN}, {Fd: int32(s.stop), Events: unix.POLLIN}}
	spurious := 0
	for !s.done.Load() {
		fds[0].Revents, fds[1].Revents = 0, 0
		if err := poll(fds, waitMask); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return n, fmt.Errorf("wait for notifications: %w", err)
		}
		if fds[1].Revents != 0 {
			return n, errStopped
		}
		ev := fds[0].Revents
		switch {
		case ev&unix.POLLIN != 0:
		case ev&unix.POLLNVAL != 0:
			return n, fmt.Errorf("wait for notifications: listener: %w", unix.EBADF)
		case ev&unix.POLLHUP != 0:
			return n, errStopped // the filter has no users left
		case ev&unix.POLLERR != 0:
			// The kernel's seccomp_notify_poll answers EPOLLERR alone
			// when a signal is pending on this thread while it waits for
			// the listener's lock (mutex_lock_interruptible): transient.
			// Returning here lost the receive role (item 14's hang).
			if spurious++; spurious > 100 {
				time.Sleep(time.Millisecond)
			}
			continue
		default:
			continue
		}
		spurious = 0
		// Only the goroutine holding the receive role receives, and it saw
		// POLLIN: RECV does not block (a target killed meanwhile makes it
		// ENOENT).
		if err := seccomp.NotifRecv(s.listener, &n); err != nil {
			if errors.Is(err, unix.ENOENT) {
				s.received.Add(1)
				continue
			}
			return n, err
		}
		s.received.Add(1)
		return n, nil
	}
	return n, errStopped
}

// serve handles one notification and answers it, on thread when it is
// not nil. masked says the thread blocks asynchronous signals already.
func (s *Supervisor) serve(n seccomp.SeccompNotif, busy int64, thread *fsops.Thread, masked bool) {
	r := &Request{Notif: n, sup: s, start: s.now(), busy: busy, thread: thread}
	r.Syscall = s.numbers[uint32(n.Data.Nr)]
	h := handlers[r.Syscall]
	var reply Reply
	if !s.execImageOK(r) {
		reply = Errno(syscall.EPERM) // killed: an exec ran what was not decided (execcheck_linux.go)
	} else if h == nil {
		reply = Errno(syscall.ENOSYS) // trapped without a handler: a bug; refuse
	} else {
		reply = call(h, r)
	}
	if r.tgid == 0 {
		// Before the reply: afterwards the target may already have exited
		// and its process id could not be found for the audit record.
		r.tgid = s.tgids.get(r.TID())
	}
	// A refusal is in the audit log before the target learns of it (the
	// broker's recorder writes refusals synchronously); the rest is
	// recorded after the reply, off the target's path.
	early := refused(r)
	if early {
		s.record(r, reply.result())
	}
	result := s.send(r, reply, masked)
	if r.afterReply != nil {
		r.afterReply()
	}
	r.finish()
	if !early {
		s.record(r, result)
	}
}

// refused reports whether a decision of the request refused or redacted.
func refused(r *Request) bool {
	for _, ev := range r.events {
		if ev.Decision.Action == policy.Deny || ev.Decision.Action == policy.Redact {
			return true
		}
	}
	return false
}

// result is what send will report for a reply delivered, as far as it is
// known before it is (an injected fd's number is not).
func (reply Reply) result() string {
	switch reply.kind {
	case replyFD:
		return "fd"
	case replyErrno:
		return errnoName(reply.errno)
	case replyContinue:
		return "continue"
	}
	return itoa(int(reply.val))
}

// asCaller runs fn on a thread holding creds, starting the threads on first
// use: most sessions never need them (see Request.AsCaller).
func (s *Supervisor) asCaller(c fsops.Creds, fn func() error) error {
	s.runnerOnce.Do(func() {
		s.runner, s.runnerErr = fsops.NewRunner(2)
	})
	if s.runnerErr != nil {
		return fmt.Errorf("start caller-credential threads: %w", s.runnerErr)
	}
	return s.runner.AsCaller(c, fn)
}

// call runs a handler; a panic (a bug) becomes a refusal instead of taking
// the supervisor, and with it the whole sandbox, down.
func call(h Handler, r *Request) (reply Reply) {
	defer func() {
		if p := recover(); p != nil {
			r.note("", fmt.Sprintf("handler panic: %v", p), policy.Decision{Action: policy.Deny})
			reply = Errno(syscall.EACCES)
		}
	}()
	return h(r)
}

// send delivers reply and returns the result for the audit record.
func (s *Supervisor) send(r *Request, reply Reply, masked bool) string {
	resp := seccomp.SeccompNotifResp{ID: r.Notif.ID}
	switch reply.kind {
	case replyFD:
		var flags uint32
		if reply.cloexec {
			flags = unix.O_CLOEXEC
		}
		addFD := seccomp.AddFD
		if masked {
			addFD = seccomp.AddFDMasked
		}
		n, err := addFD(s.listener, r.Notif.ID, reply.fd, unix.SECCOMP_ADDFD_FLAG_SEND, flags)
		unix.Close(reply.fd)
		if err == nil {
			return "fd " + itoa(n)
		}
		if errors.Is(err, unix.ENOENT) {
			return "gone"
		}
		// The fd could not be installed (EMFILE in the target, ...):
		// answer with the error rather than leave the target waiting.
		reply = Errno(errnoOf(err))
	case replyErrno:
		resp.Error = -int32(reply.errno)
	case replyContinue:
		resp.Flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
	default:
		resp.Val = reply.val
	}
	if err := seccomp.NotifSend(s.listener, &resp); err != nil {
		return "gone"
	}
	switch reply.kind {
	case replyErrno:
		return errnoName(reply.errno)
	case replyContinue:
		return "continue"
	}
	return itoa(int(reply.val))
}

// record sends the request's audit events: one per decision, or one bare
// event when the handler failed before deciding.
func (s *Supervisor) record(r *Request, result string) {
	latency := s.now().Sub(r.start)
	if len(r.events) == 0 {
		// No decision (Decision empty): the path as the target gave it,
		// not canonical, and the operation the syscall implies.
		op := r.attemptedOp
		if op == "" {
			op = syscallOps[r.Syscall]
		}
		r.events = append(r.events, broker.Event{Op: op, Path: r.attempted, Syscall: r.Syscall, PID: r.tgid, TID: r.TID()})
	}
	for _, ev := range r.events {
		ev.Result = result
		ev.Latency = latency
		if ev.PID == 0 {
			ev.PID = r.tgid
		}
		s.broker.Record(ev)
	}
}

// syscallOps is the operation each trapped syscall implies, for the audit
// record of a request that failed before deciding (the open family's
// depends on its flags: see readOpen).
var syscallOps = map[string]policy.Op{
	"open": policy.OpRead, "openat": policy.OpRead, "openat2": policy.OpRead, "creat": policy.OpCreate,
	"execve": policy.OpExec, "execveat": policy.OpExec,
	"rename": policy.OpRename, "renameat": policy.OpRename, "renameat2": policy.OpRename,
	"link": policy.OpLink, "linkat": policy.OpLink, "symlink": policy.OpCreate, "symlinkat": policy.OpCreate,
	"unlink": policy.OpUnlink, "unlinkat": policy.OpUnlink, "rmdir": policy.OpUnlink,
	"mkdir": policy.OpMkdir, "mkdirat": policy.OpMkdir, "mknod": policy.OpCreate, "mknodat": policy.OpCreate,
	"bind": policy.OpCreate, "connect": OpConnect,
	"truncate": policy.OpWrite, "chmod": policy.OpWrite, "fchmodat": policy.OpWrite, "fchmodat2": policy.OpWrite,
	"chown": policy.OpWrite, "lchown": policy.OpWrite, "fchownat": policy.OpWrite,
	"utime": policy.OpWrite, "utimes": policy.OpWrite, "utimensat": policy.OpWrite, "futimesat": policy.OpWrite,
	"fchmod": policy.OpWrite, "fchown": policy.OpWrite,
}

// tgidOf returns the process id of thread tid (0 if it is gone). A thread
// that pidfd_open accepts without PIDFD_THREAD leads its group, so its id
// is the process id (two syscalls); other threads' status is read.
// tgidCache remembers the process of each thread seen, so the lookup
// (pidfd_open, or /proc/<tid>/status for a non-leader thread) costs once per
// thread, not once per request. A thread id is only reused after the pid
// space wraps; the cache is emptied when it grows past tgidCacheMax.
type tgidCache struct {
	mu sync.Mutex
	m  map[int]int
}

const tgidCacheMax = 1 << 16

func (c *tgidCache) get(tid int) int {
	tgid, _ := c.lookup(tid)
	return tgid
}

// lookup is get, and reports whether tid was not in the cache: the first
// request of a thread (a new process's first trapped syscall, or any
// thread after the cache was emptied at its bound).
func (c *tgidCache) lookup(tid int) (tgid int, fresh bool) {
	c.mu.Lock()
	tgid, ok := c.m[tid]
	c.mu.Unlock()
	if ok {
		return tgid, false
	}
	tgid = tgidOf(tid)
	if tgid == 0 {
		return 0, true
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= tgidCacheMax {
		c.m = make(map[int]int)
	}
	c.m[tid] = tgid
	c.mu.Unlock()
	return tgid, true
}

func tgidOf(tid int) int {
	if fd, err := unix.PidfdOpen(tid, 0); err == nil {
		unix.Close(fd)
		return tid
	}
	data, err := fsops.ReadStatus(tid)
	if err != nil {
		return 0
	}
	return statusTgid(data)
}

func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return syscall.EIO
}

func errnoName(e syscall.Errno) string {
	if name := unix.ErrnoName(e); name != "" {
		return name
	}
	return "errno " + itoa(int(e))
}
