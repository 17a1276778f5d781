package notify

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

// Hand-off thresholds: a request served longer than stallAfter releases
// the receive role; the watchdog checks every stallCheck.
const (
	stallAfter = 20 * time.Millisecond
	stallCheck = 10 * time.Millisecond
)

// Liveness bounds.
//
// defaultMaxDetached bounds the requests served off the receive role at
// once (FIFO opens without a peer, blocking connects, opens waiting for a
// lease break, a slow filesystem): each holds a locked OS thread and a few
// descriptors until it ends, and the Go runtime aborts the whole broker at
// 10,000 threads (before that, the descriptor limit makes every request
// fail). 128 is far above what agents run in parallel (npm keeps 15
// sockets, make -j a few dozen jobs) and far below both limits.
//
// When every slot is taken, a request that knows it may block (Detach)
// fails with EAGAIN instead of blocking: "resource temporarily unavailable"
// is what the caller would get for the same open or connect made
// non-blocking, it is documented for open (O_NONBLOCK on a lease) and
// connect, and callers treat it as a failure of that one call, not of the
// process (EMFILE would make some close descriptors or abort; EINTR would
// make most retry at once, a busy loop of trapped calls). A request the
// watchdog finds slow keeps the receive role until a slot frees.
//
// defaultStallIdle: notifications pending, no request being served and
// nothing received for this long means no goroutine holds the receive role
// any more (a bug: the goroutine dump of item 14): the session fails
// closed. An idle receiver wakes within microseconds of a notification,
// so seconds are a wide margin even on a loaded machine.
//
// defaultStallBusy: the same while the receive role is held by a request
// that runs on and cannot be detached (every slot taken): the sandbox is
// wedged on requests that do not end (an NFS server gone, a flood of
// blocking opens the agent made against itself), and fails closed.
const (
	defaultMaxDetached = 128
	defaultStallIdle   = 3 * time.Second
	defaultStallBusy   = 60 * time.Second
	// pendingCheck is how often the watchdog polls the listener; stallGap is
	// the longest pause between two checks still counted as waiting (a
	// stopped broker, Ctrl-Z, resumes with a long gap: not a stall).
	pendingCheck = 100 * time.Millisecond
	stallGap     = time.Second
)

// errBusy is Detach's answer when every slot is taken.
var errBusy = fmt.Errorf("detach request: every slot for blocking requests is taken: %w", unix.EAGAIN)

// errStopped ends the receive role normally: Stop was called or no
// sandboxed process is left.
var errStopped = errors.New("supervisor stopped")

// OnFailClosed sets the function that stops the sandbox when the
// supervisor fails closed (it cannot serve the listener any more, or the
// receive role stalled). Call it before Start. reason is what went wrong.
func (s *Supervisor) OnFailClosed(f func(reason string)) { s.onFail = f }

// Failed reports whether the supervisor failed closed.
func (s *Supervisor) Failed() bool { return s.failed.Load() }

// failClosed stops the session: one line on stderr, a record in the audit,
// and the session's hook, which kills the sandbox. Only the first call
// acts.
func (s *Supervisor) failClosed(reason string) {
	if !s.failed.CompareAndSwap(false, true) {
		return
	}
	// The sandbox is stopped first: the message and the record come after,
	// so that a stderr that blocks (Ctrl-S on the terminal, a full pipe) or
	// a slow log cannot keep the session wedged (review finding R5).
	if s.onFail != nil {
		s.onFail(reason)
	}
	var w io.Writer = os.Stderr
	if s.stderr != nil {
		w = s.stderr
	}
	go fmt.Fprintf(w, "aixbroker: supervisor stalled (%s); the sandbox is being stopped\n", reason)
	if s.broker != nil {
		s.broker.Record(broker.Event{
			Op: "supervisor", Syscall: "-", Result: "failed closed: " + reason,
			Decision: policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "liveness"}},
		})
	}
}

// watchdog hands the receive role off when a request takes too long, so
// one blocked handler never stalls the rest of the sandbox, and is the
// safety net of the receive role: notifications pending on the listener
// with nobody receiving them fail the session closed. It returns only when
// the supervisor stops.
func (s *Supervisor) watchdog() {
	defer s.wg.Done()
	t := time.NewTicker(stallCheck)
	defer t.Stop()
	lastCheck := time.Now()
	lastRecv := s.received.Load()
	var waited time.Duration
	for range t.C {
		if s.done.Load() {
			return
		}
		since := s.busySince.Load()
		if since != 0 && s.now().UnixNano()-since > int64(stallAfter) {
			s.release(since) // errBusy: no slot, the request keeps the role
		}
		now := time.Now()
		gap := now.Sub(lastCheck)
		if gap < pendingCheck {
			continue
		}
		lastCheck = now
		recv := s.received.Load()
		if recv != lastRecv || gap > stallGap || !s.pending() {
			lastRecv, waited = recv, 0
			continue
		}
		waited += gap
		bound, what := s.stallIdle, "no goroutine is receiving"
		if s.busySince.Load() != 0 {
			bound, what = s.stallBusy, fmt.Sprintf("the receiving goroutine is blocked in a request, %d detached requests are too (no slot left)", s.detached.Load())
		}
		if waited >= bound {
			s.failClosed(fmt.Sprintf("notifications pending for %s, %s", waited.Round(100*time.Millisecond), what))
			return
		}
	}
}

// pending reports whether a notification waits on the listener, not yet
// received. A spurious EPOLLERR (see next) counts as not pending.
func (s *Supervisor) pending() bool {
	fds := []unix.PollFd{{Fd: int32(s.listener), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
}
