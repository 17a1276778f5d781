package broker

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/policy"
)

// fakeWriter records what the recorder writes, synchronously or not, and
// fails on demand.
type fakeWriter struct {
	mu      sync.Mutex
	batched []audit.Record
	synced  []audit.Record
	failed  chan struct{}
	err     error
}

func newFakeWriter() *fakeWriter { return &fakeWriter{failed: make(chan struct{})} }

func (f *fakeWriter) Write(r audit.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batched = append(f.batched, r)
}

func (f *fakeWriter) WriteSync(r audit.Record) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.synced = append(f.synced, r)
	return nil
}

func (f *fakeWriter) Failed() <-chan struct{} { return f.failed }

func (f *fakeWriter) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func (f *fakeWriter) fail(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
	close(f.failed)
}

// accounted is how many refusals the records stand for: one per event,
// Dropped per suppressed record.
func accounted(recs []audit.Record) (events, suppressed uint64) {
	for _, r := range recs {
		switch r.Type {
		case audit.TypeEvent:
			events++
		case audit.TypeSuppressed:
			suppressed += r.Dropped
		}
	}
	return events, suppressed
}

// TestRecorderFlood: a flood of refusals is aggregated, never dropped: the
// events written one by one stay within the budget, and those plus the
// counts of the suppressed records are all the refusals.
func TestRecorderFlood(t *testing.T) {
	deny := policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "default"}}
	cases := []struct {
		name     string
		n        int
		ev       func(i int) Event
		maxWrite uint64
	}{
		{"one kind, distinct paths", 100000, func(i int) Event {
			return Event{Op: policy.OpRead, Syscall: "openat", Path: fmt.Sprintf("/outside/%d", i), Decision: deny}
		}, suppressBurst},
		{"many kinds", 100000, func(i int) Event {
			return Event{Op: policy.OpRead, Syscall: fmt.Sprintf("sys%d", i%500), Path: fmt.Sprintf("/outside/%d", i), Decision: deny}
		}, sessionBurst},
		{"no decision (unresolvable paths)", 50000, func(i int) Event {
			return Event{Op: policy.OpRead, Syscall: "openat", Path: fmt.Sprintf("/nonexistent/%d", i), Result: "ENOENT"}
		}, suppressBurst},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newFakeWriter()
			a := NewAuditRecorder(Session{ID: "S"}, w, true)
			clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			a.now = func() time.Time { return clock } // the flood takes no time at all
			for i := range c.n {
				a.Record(c.ev(i))
			}
			a.Flush()
			events, suppressed := accounted(w.synced)
			if len(w.batched) != 0 {
				t.Errorf("%d refusal(s) batched, want all written synchronously", len(w.batched))
			}
			if events > c.maxWrite || events < suppressBurst {
				t.Errorf("%d refusals written one by one, want %d to %d", events, suppressBurst, c.maxWrite)
			}
			if events+suppressed != uint64(c.n) {
				t.Errorf("%d written + %d suppressed, want %d: refusals were lost", events, suppressed, c.n)
			}
		})
	}
}

// TestRecorderSuppressedThenBudget: a kind back under budget is written
// one by one again; what was counted meanwhile comes in one suppressed
// record at the flush.
func TestRecorderSuppressedThenBudget(t *testing.T) {
	w := newFakeWriter()
	a := NewAuditRecorder(Session{ID: "S"}, w, true)
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a.now = func() time.Time { return clock }
	ev := Event{Op: policy.OpRead, Syscall: "openat", Path: "/x", Decision: policy.Decision{Action: policy.Deny}}
	for range suppressBurst + 10 {
		a.Record(ev)
	}
	clock = clock.Add(time.Second)
	a.Record(ev)
	if n := len(w.synced); n != suppressBurst+1 || w.synced[n-1].Type != audit.TypeEvent {
		t.Fatalf("%d records, want the burst and the event after the refill", n)
	}
	a.Flush()
	last := w.synced[len(w.synced)-1]
	if last.Type != audit.TypeSuppressed || last.Dropped != 10 || last.Path != "/x" {
		t.Fatalf("after Flush: %+v, want a suppressed record of 10", last)
	}
}

// TestBrokerFailsClosed: once the audit writer fails, every decision is a
// refusal and Failed is ready.
func TestBrokerFailsClosed(t *testing.T) {
	w := newFakeWriter()
	b := New(allowAll{}, NewAuditRecorder(Session{ID: "S"}, w, true))
	if d := b.Decide(policy.OpRead, "/p"); d.Action != policy.Allow {
		t.Fatalf("before the failure: %v", d.Action)
	}
	w.fail(errors.New("append audit log: file too large"))
	select {
	case <-b.Failed():
	default:
		t.Fatal("Failed not ready after the writer failed")
	}
	if d := b.Decide(policy.OpRead, "/p"); d.Action != policy.Deny {
		t.Errorf("Decide after the failure = %v, want deny", d.Action)
	}
	if d := b.DecideExec("/bin/true", nil); d.Action != policy.Deny {
		t.Errorf("DecideExec after the failure = %v, want deny", d.Action)
	}
	if b.Err() == nil {
		t.Error("Err() = nil")
	}
	if New(allowAll{}, nil).Failed() != nil {
		t.Error("a broker without recorder has a Failed channel")
	}
}

type allowAll struct{}

func (allowAll) Decide(policy.Op, string) policy.Decision {
	return policy.Decision{Action: policy.Allow}
}
func (allowAll) DecideExec(string, []string) policy.Decision {
	return policy.Decision{Action: policy.Allow}
}

// TestRecorderEveryRefusedPathNamed (review R2): over the flood budget,
// a path a named rule refuses is written in full the first time whatever
// the budget (noise of the same rule before and after it does not hide
// it), up to the session's bound on distinct paths, after which the
// suppressed records say so; a default-deny flood lists at most listMax
// distinct paths per suppressed record and counts the rest.
func TestRecorderEveryRefusedPathNamed(t *testing.T) {
	hooks := policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "read_only", Pattern: "${PROJECT}/.git/hooks/**"}}
	dflt := policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "default"}}
	cases := []struct {
		name      string
		n         int
		ev        func(i int) Event
		mustName  []string // paths some record must name
		seenFull  bool     // a suppressed record must say the set is full
		maxEvents int
	}{
		{"target hidden in its kind's noise", 2000, func(i int) Event {
			p := fmt.Sprintf("/p/.git/hooks/noise-%d", i%300)
			if i == 1000 {
				p = "/p/.git/hooks/pre-commit"
			}
			return Event{Op: policy.OpCreate, Syscall: "openat", Path: p, Decision: hooks}
		}, []string{"/p/.git/hooks/pre-commit", "/p/.git/hooks/noise-299"}, false, 301},
		{"distinct set full", seenMax + 5000, func(i int) Event {
			return Event{Op: policy.OpCreate, Syscall: "openat", Path: fmt.Sprintf("/p/.git/hooks/n%d", i), Decision: hooks}
		}, []string{"/p/.git/hooks/n0", fmt.Sprintf("/p/.git/hooks/n%d", seenMax-1)}, true, seenMax + 1},
		{"default deny flood", 100000, func(i int) Event {
			return Event{Op: policy.OpRead, Syscall: "openat", Path: fmt.Sprintf("/outside/%d", i), Decision: dflt}
		}, []string{"/outside/0", fmt.Sprintf("/outside/%d", suppressBurst+listMax-1)}, false, suppressBurst},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newFakeWriter()
			a := NewAuditRecorder(Session{ID: "S"}, w, true)
			clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			a.now = func() time.Time { return clock }
			for i := range c.n {
				a.Record(c.ev(i))
			}
			a.Flush()
			named := map[string]bool{}
			full := false
			var listed, unlisted uint64
			events, suppressed := accounted(w.synced)
			for _, r := range w.synced {
				named[r.Path] = true
				for _, p := range r.Paths {
					named[p] = true
				}
				listed += uint64(len(r.Paths))
				unlisted += r.Unlisted
				full = full || r.SeenFull
			}
			for _, p := range c.mustName {
				if !named[p] {
					t.Errorf("no record names %s", p)
				}
			}
			if full != c.seenFull {
				t.Errorf("seen_full %v, want %v", full, c.seenFull)
			}
			if events > uint64(c.maxEvents) {
				t.Errorf("%d refusals written one by one, want at most %d", events, c.maxEvents)
			}
			if events+suppressed != uint64(c.n) {
				t.Errorf("%d written + %d suppressed, want %d", events, suppressed, c.n)
			}
			t.Logf("%d records, %d events, %d suppressed (%d paths listed, %d unlisted)", len(w.synced), events, suppressed, listed, unlisted)
		})
	}
}

// TestRecorderAllowedRepeats (review R3): identical allowed events over
// allowBurst a window are counted, not written one by one (a loop
// reopening one file cannot fill the log and rotate other sessions'
// records away); distinct allowed events are all written; nothing is lost.
func TestRecorderAllowedRepeats(t *testing.T) {
	allow := policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_read"}}
	cases := []struct {
		name      string
		n         int
		secs      int // the events are spread over this many windows
		path      func(i int) string
		maxEvents uint64
	}{
		{"one file reopened", 100000, 3, func(int) string { return "/p/f" }, 4 * allowBurst}, // 4 windows: the last holds event 99999
		{"distinct files", 5000, 1, func(i int) string { return fmt.Sprintf("/p/f%d", i) }, 5000},
		{"two files, interleaved", 10000, 1, func(i int) string { return fmt.Sprintf("/p/f%d", i%2) }, 2 * allowBurst},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newFakeWriter()
			a := NewAuditRecorder(Session{ID: "S"}, w, true)
			clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			a.now = func() time.Time { return clock }
			for i := range c.n {
				if i > 0 && i%(c.n/c.secs) == 0 {
					clock = clock.Add(allowWindow)
				}
				a.Record(Event{Op: policy.OpRead, Syscall: "openat", Path: c.path(i), Decision: allow, Result: "fd"})
			}
			a.Flush()
			events, suppressed := accounted(w.batched)
			if events+suppressed != uint64(c.n) {
				t.Errorf("%d written + %d counted, want %d", events, suppressed, c.n)
			}
			if events > c.maxEvents {
				t.Errorf("%d allowed events written one by one, want at most %d", events, c.maxEvents)
			}
			for _, r := range w.batched {
				if r.Type == audit.TypeSuppressed && (r.Decision != "allow" || r.Path == "" || r.Result != "fd") {
					t.Errorf("suppressed record %+v: want the allowed event's decision, path and result", r)
				}
			}
		})
	}
}
