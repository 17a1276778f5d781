package notify

import (
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReleaseHandsOffOnce: of the receiving goroutine finishing its
// request, the handler detaching and the watchdog, only the first to clear
// the request's token decides; the others find it gone. Two hand-offs for
// one request would leave two goroutines waiting on the listener, one of
// them blocked in RECV with nothing to receive.
func TestReleaseHandsOffOnce(t *testing.T) {
	listener, err := unix.Eventfd(0, unix.EFD_CLOEXEC) // never readable: no notification comes
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(listener)
	stop, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	s := &Supervisor{listener: listener, stop: stop, drained: make(chan struct{}), now: time.Now, maxDetached: defaultMaxDetached}
	tok := s.busyToken()
	s.busySince.Store(tok)

	s.release(tok) // the watchdog, say
	s.release(tok) // then the handler's Detach
	if got := s.gen.Load(); got != 1 {
		t.Errorf("generation %d after two releases of one request, want 1 (one hand-off)", got)
	}
	if s.busySince.CompareAndSwap(tok, 0) {
		t.Errorf("the request's own goroutine could still clear its token after the hand-off")
	}
	s.Stop()
	select {
	case <-s.drained:
	case <-time.After(5 * time.Second):
		t.Fatal("the goroutine the hand-off started did not return after Stop")
	}
	unix.Close(stop)
}

// TestBusyTokensUnique: tokens stay unique when the clock repeats.
func TestBusyTokensUnique(t *testing.T) {
	fixed := time.Unix(1000, 0)
	s := &Supervisor{now: func() time.Time { return fixed }}
	a, b := s.busyToken(), s.busyToken()
	if a == 0 || b <= a {
		t.Errorf("tokens %d then %d from a stopped clock, want increasing and non-zero", a, b)
	}
}

// testSupervisor is a supervisor over listener (an eventfd standing in for
// the seccomp listener: readable = a notification pending) with short
// liveness bounds, and a fail-closed hook that reports on the channel.
func testSupervisor(t *testing.T, listener int) (*Supervisor, chan string) {
	t.Helper()
	stop, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(stop) })
	failed := make(chan string, 1)
	s := &Supervisor{
		listener: listener, stop: stop, drained: make(chan struct{}), now: time.Now,
		maxDetached: defaultMaxDetached, stallIdle: 300 * time.Millisecond, stallBusy: 600 * time.Millisecond,
		stderr: io.Discard,
	}
	s.OnFailClosed(func(reason string) { failed <- reason })
	return s, failed
}

func eventfd(t *testing.T, readable bool) int {
	t.Helper()
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if readable {
		var one [8]byte
		one[0] = 1
		unix.Write(fd, one[:])
	}
	return fd
}

// TestReceiveKeepsRoleOnSpuriousPollErr reproduces the hang of issue 14
// item 14 (../shared/evidence/hang-goroutines.txt: no receive and no
// watchdog goroutine left, the sandbox waiting for good): the kernel's
// seccomp_notify_poll answers EPOLLERR alone when a signal is pending on
// the waiting thread while the listener's lock is contended, and next took
// every revents without POLLIN for "no users left": the one receiving
// goroutine returned and called Stop, so the watchdog returned too, with
// the listener still open. Each injected poll result must leave the role
// held (or, for a real failure, fail the session closed): never a silent
// stop.
func TestReceiveKeepsRoleOnSpuriousPollErr(t *testing.T) {
	cases := []struct {
		name     string
		revents  int16
		err      error
		wantFail bool // the session fails closed (the listener cannot be served)
	}{
		{"EPOLLERR alone (lock interrupted)", unix.POLLERR, nil, false},
		{"EINTR", 0, unix.EINTR, false},
		{"no event", 0, nil, false},
		{"POLLNVAL (listener closed)", unix.POLLNVAL, nil, true},
		{"poll fails (ENOMEM)", 0, unix.ENOMEM, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, failed := testSupervisor(t, eventfd(t, false))
			var calls atomic.Int32
			s.poll = func(fds []unix.PollFd, mask *unix.Sigset_t) error {
				if calls.Add(1) <= 3 { // the injected answer, three times
					fds[0].Revents = c.revents
					return c.err
				}
				return waitPoll(fds, mask) // then the real wait: only Stop ends it
			}
			s.Start()
			deadline := time.Now().Add(5 * time.Second)
			for calls.Load() < 4 && time.Now().Before(deadline) && !s.done.Load() {
				time.Sleep(time.Millisecond)
			}
			if c.wantFail {
				select {
				case reason := <-failed:
					t.Logf("failed closed: %s", reason)
				case <-time.After(5 * time.Second):
					t.Fatalf("the receive role ended on %s without failing the session closed", c.name)
				}
			} else {
				if s.done.Load() {
					t.Fatalf("the receiving goroutine stopped the supervisor on %s: nobody receives any more", c.name)
				}
				select {
				case reason := <-failed:
					t.Fatalf("failed closed on a transient poll result: %s", reason)
				default:
				}
			}
			s.Stop()
			if !s.Wait() {
				t.Fatal("the goroutines did not return after Stop")
			}
		})
	}
}

// TestWatchdogFailsClosedWhenNobodyReceives: the watchdog is the safety
// net of the receive role. With a notification pending (the listener
// readable) and no goroutine receiving (the role lost, whatever the bug),
// it fails the session closed within its bound; it must not while a
// notification is being received, nor with nothing pending.
func TestWatchdogFailsClosedWhenNobodyReceives(t *testing.T) {
	cases := []struct {
		name     string
		pending  bool
		busy     bool // a request holds the role, with no slot left to detach it
		wantFail bool
	}{
		{"pending, nobody receiving", true, false, true},
		{"pending, receiver blocked in a request, no slot", true, true, true},
		{"nothing pending", false, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, failed := testSupervisor(t, eventfd(t, c.pending))
			if c.busy {
				s.maxDetached = 0
				s.busySince.Store(s.busyToken())
			}
			s.wg.Add(1)
			go s.watchdog() // the watchdog alone: no receiving goroutine
			select {
			case reason := <-failed:
				if !c.wantFail {
					t.Fatalf("failed closed with nothing pending: %s", reason)
				}
				if !s.Failed() {
					t.Error("Failed() is false after failing closed")
				}
				t.Logf("failed closed: %s", reason)
			case <-time.After(2 * time.Second):
				if c.wantFail {
					t.Fatal("a notification pending with nobody receiving went unnoticed")
				}
			}
			s.Stop()
			s.wg.Wait()
		})
	}
}

// TestDetachBounded: at most maxDetached requests are detached at once (each
// holds an OS thread: the Go runtime aborts at 10,000); beyond, Detach
// answers EAGAIN and the request keeps the role, and a slot frees when a
// detached request ends.
func TestDetachBounded(t *testing.T) {
	s, _ := testSupervisor(t, eventfd(t, false))
	s.maxDetached = 3
	for i := range 3 {
		tok := s.busyToken()
		s.busySince.Store(tok)
		if err := s.release(tok); err != nil {
			t.Fatalf("detach %d of 3: %v", i+1, err)
		}
	}
	tok := s.busyToken()
	s.busySince.Store(tok)
	err := s.release(tok)
	if !errors.Is(err, unix.EAGAIN) {
		t.Fatalf("the 4th detach with 3 slots: %v, want EAGAIN", err)
	}
	if s.busySince.Load() != tok {
		t.Fatal("a refused detach gave the request's role away")
	}
	if err := s.release(tok - 1000); err != nil {
		t.Errorf("detach of a request no longer running: %v, want nil (nothing to do)", err)
	}
	s.detached.Add(-1) // a detached request ended (receive does this)
	if err := s.release(tok); err != nil {
		t.Fatalf("detach after a slot freed: %v", err)
	}
	if got := s.detached.Load(); got != 3 {
		t.Errorf("%d slots taken, want 3", got)
	}
	s.Stop()
	s.Wait()
}
