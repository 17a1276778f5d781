package notify

import (
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
	s := &Supervisor{listener: listener, stop: stop, drained: make(chan struct{}), now: time.Now}
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
