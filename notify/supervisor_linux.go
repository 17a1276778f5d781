package notify

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
)

// maxWorkers bounds the goroutines serving notifications at once; each
// blocked one (a FIFO open) holds an OS thread.
const maxWorkers = 64

// Supervisor serves the notifications of one sandbox's listener.
type Supervisor struct {
	listener int
	broker   *broker.Broker
	runner   *fsops.Runner
	// credsChanged is set, before the change takes effect, when a
	// sandboxed thread calls a set*id, setgroups or capset syscall.
	credsChanged atomic.Bool
	denyInodes   *fsops.DenyInodes // inodes of concrete denied files (SetDenyInodes, in fsmut_linux.go)
	numbers      map[uint32]string
	now          func() time.Time

	recvMu  sync.Mutex // one worker polls and receives at a time
	stop    int        // eventfd: written to stop the workers
	done    atomic.Bool
	idle    atomic.Int32
	workers atomic.Int32
	wg      sync.WaitGroup
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
	runner, err := fsops.NewRunner(2)
	if err != nil {
		return nil, fmt.Errorf("start caller-credential threads: %w", err)
	}
	stop, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		runner.Close()
		return nil, fmt.Errorf("create eventfd: %w", err)
	}
	numbers := make(map[uint32]string, len(handlers))
	for name := range handlers {
		if nr, ok := seccomp.Native.Numbers[name]; ok {
			numbers[nr] = name
		}
	}
	return &Supervisor{
		listener: listener, broker: b, runner: runner,
		numbers: numbers, now: time.Now, stop: stop,
	}, nil
}

// Start begins serving. Stop (or the death of every sandboxed process)
// ends it; Wait waits for the workers to return.
func (s *Supervisor) Start() { s.spawn() }

// Stop asks the workers to return. Requests being handled finish.
func (s *Supervisor) Stop() {
	if s.done.CompareAndSwap(false, true) {
		var one [8]byte
		one[0] = 1
		unix.Write(s.stop, one[:])
	}
}

// Wait waits for the workers and releases the supervisor's resources.
func (s *Supervisor) Wait() {
	s.wg.Wait()
	s.runner.Close()
	unix.Close(s.stop)
}

func (s *Supervisor) spawn() {
	if s.workers.Add(1) > maxWorkers {
		s.workers.Add(-1)
		return
	}
	s.idle.Add(1)
	s.wg.Add(1)
	go s.work()
}

func (s *Supervisor) work() {
	defer s.wg.Done()
	defer s.workers.Add(-1)
	for {
		s.recvMu.Lock()
		n, ok := s.next()
		s.recvMu.Unlock()
		if !ok {
			s.idle.Add(-1)
			return
		}
		if s.idle.Add(-1) == 0 {
			s.spawn() // keep one worker receiving while this one handles
		}
		s.serve(n)
		s.idle.Add(1)
	}
}

// next waits for a notification and receives it. It reports false when the
// supervisor is stopped or no sandboxed process is left.
func (s *Supervisor) next() (seccomp.SeccompNotif, bool) {
	var n seccomp.SeccompNotif
	fds := []unix.PollFd{{Fd: int32(s.listener), Events: unix.POLLIN}, {Fd: int32(s.stop), Events: unix.POLLIN}}
	for !s.done.Load() {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return n, false
		}
		if fds[1].Revents != 0 {
			return n, false
		}
		if fds[0].Revents&unix.POLLIN == 0 {
			return n, false // POLLHUP: the filter has no users left
		}
		// Only the worker holding recvMu receives, and it saw POLLIN: RECV
		// does not block (a target killed meanwhile makes it ENOENT).
		if err := seccomp.NotifRecv(s.listener, &n); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue
			}
			return n, false
		}
		return n, true
	}
	return n, false
}

// serve handles one notification and answers it.
func (s *Supervisor) serve(n seccomp.SeccompNotif) {
	r := &Request{Notif: n, sup: s, start: s.now()}
	r.Syscall = s.numbers[uint32(n.Data.Nr)]
	h := handlers[r.Syscall]
	var reply Reply
	if h == nil {
		reply = Errno(syscall.ENOSYS) // trapped without a handler: a bug; refuse
	} else {
		reply = h(r)
	}
	result := s.send(r, reply)
	r.finish()
	s.record(r, result)
}

// send delivers reply and returns the result for the audit record.
func (s *Supervisor) send(r *Request, reply Reply) string {
	resp := seccomp.SeccompNotifResp{ID: r.Notif.ID}
	switch reply.kind {
	case replyFD:
		var flags uint32
		if reply.cloexec {
			flags = unix.O_CLOEXEC
		}
		n, err := seccomp.AddFD(s.listener, r.Notif.ID, reply.fd, unix.SECCOMP_ADDFD_FLAG_SEND, flags)
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
	if r.tgid == 0 {
		r.tgid = tgidOf(r.TID()) // after the reply: off the target's path
	}
	if len(r.events) == 0 {
		r.events = append(r.events, broker.Event{Syscall: r.Syscall, PID: r.tgid, TID: r.TID()})
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

// tgidOf reads the process id of thread tid (0 if it is gone).
func tgidOf(tid int) int {
	data, err := os.ReadFile("/proc/" + itoa(tid) + "/status")
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
