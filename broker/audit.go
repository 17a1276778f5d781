package broker

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/policy"
)

// Session is what every record of one `aixbroker exec` shares.
type Session struct {
	ID       string // ULID
	Profile  string
	AgentCmd string // argv[0] of the agent as typed
}

// AuditWriter is the part of *audit.Writer the recorder uses. A writer
// that also has WriteSync (as *audit.Writer does) gets the refusals
// synchronously; one that also has Failed and Err makes the broker fail
// closed when it fails (see [Failer]).
type AuditWriter interface {
	Write(audit.Record)
}

// syncWriter appends a record before it returns.
type syncWriter interface {
	WriteSync(audit.Record) error
}

// Failer is implemented by a recorder (or audit writer) that can fail for
// good: Failed is closed then, and Err says why.
type Failer interface {
	Failed() <-chan struct{}
	Err() error
}

// The budget of refusals of one kind (operation, decision, rule, syscall)
// written one by one: a burst of suppressBurst, then suppressRate a
// second. Refusals over it are counted into one "suppressed" record per
// kind, written suppressEvery after the first one counted (one record per
// kind and second at most) and when the session ends (Flush).
// The session as a whole has a budget too (sessionBurst, sessionRate), so
// that varying the kind does not multiply the flood.
//
// Over the budget, a refused path is still never hidden:
//   - a refusal by a named rule (deny, read_only, redact, the guards:
//     every list but the default and requests without a decision) of a
//     path the session has not had refused before is written in full,
//     whatever the budget: every distinct path such a rule refuses appears
//     at least once, up to seenMax distinct paths or seenBytes bytes of
//     them per session; past that the set is full and the suppressed
//     records say so (seen_full);
//   - a suppressed record lists the distinct paths it counted that the
//     log does not hold in full elsewhere, up to listMax paths or
//     listBytes bytes, and counts the refusals of the others (unlisted).
//
// The default-deny flood of attack 130 (4 KiB paths, all different) is
// bounded by the second rule: at most listBytes per kind per second.
const (
	suppressBurst = 256
	suppressRate  = 32
	sessionBurst  = 1024
	sessionRate   = 128
	suppressEvery = time.Second

	seenMax   = 1 << 16
	seenBytes = 16 << 20
	listMax   = 32
	listBytes = 64 << 10
)

// AuditRecorder turns broker events into audit records and keeps the counts
// the exit summary prints.
type AuditRecorder struct {
	session    Session
	w          AuditWriter
	sw         syncWriter // nil: refusals are batched like the rest
	logAllowed bool
	allowed    atomic.Uint64
	denied     atomic.Uint64
	now        func() time.Time

	mu        sync.Mutex
	all       bucket // the session's budget
	kinds     map[kind]*bucket
	timer     *time.Timer // pending flush of suppressed counts
	seed      maphash.Seed
	seen      map[uint64]struct{} // hashes of the paths named rules refused and the log holds in full
	seenBytes int                 // their total length
	seenFull  bool                // seen reached seenMax or seenBytes

	allowWin   time.Time                  // start of the current window of allowed events
	allowCount map[allowKey]*allowCounter // identical allowed events seen in it
}

// The budget of identical allowed events (same operation, system call,
// path, rule and result): allowBurst of them per allowWindow are written
// one by one, the rest of the window is counted into one "suppressed"
// record with decision allow (written with the next window, or by Flush).
// A loop reopening one file is a flood, not news; distinct actions are
// all written. allowKeysMax bounds the keys tracked per window (past it,
// events are written, not counted).
const (
	allowBurst   = 16
	allowWindow  = time.Second
	allowKeysMax = 4096
)

type allowKey struct{ op, syscall, path, rule, result string }

type allowCounter struct {
	n     uint64
	first audit.Record // the first event counted (over the burst)
	last  time.Time
}

// kind is what makes two refusals "the same" for the flood budget.
type kind struct{ op, decision, rule, syscall string }

// bucket is one kind's budget and what it has counted over it.
type bucket struct {
	tokens     float64
	last       time.Time
	suppressed uint64
	first      audit.Record // the first refusal counted (its path, time)
	lastPath   string
	paths      []string            // distinct paths counted, not in the log in full (listMax at most)
	listed     map[uint64]struct{} // their hashes
	listedLen  int                 // their total length
	unlisted   uint64              // refusals counted whose path is not in paths
}

// NewAuditRecorder writes the events of one session to w. With logAllowed
// false (the policy's audit.on_allow: none) only refusals and redactions are
// written; all are counted.
func NewAuditRecorder(s Session, w AuditWriter, logAllowed bool) *AuditRecorder {
	a := &AuditRecorder{session: s, w: w, logAllowed: logAllowed, now: time.Now, kinds: map[kind]*bucket{},
		seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
	a.all = bucket{tokens: sessionBurst, last: a.now()}
	a.sw, _ = w.(syncWriter)
	return a
}

// Record implements Recorder. Allowed events are batched. Refusals,
// redactions and events without a decision are in the log when it returns
// (with a writer that has WriteSync), unless the session is over its flood
// budget for that kind: they are counted then (see suppressBurst).
func (a *AuditRecorder) Record(ev Event) {
	switch ev.Decision.Action {
	case policy.Allow:
		a.allowed.Add(1)
		if !a.logAllowed {
			return
		}
		a.allowedEvent(a.record(ev))
		return
	case policy.Deny, policy.Redact:
		a.denied.Add(1)
	}
	// Refusals, redactions and requests that failed before a decision
	// (a path that does not resolve, ...) are what a flood is made of.
	a.refusal(a.record(ev), named(ev.Decision.Rule))
}

// allowedEvent writes an allowed event (batched), or counts it when it
// is over the burst of identical events in the current window.
func (a *AuditRecorder) allowedEvent(r audit.Record) {
	now := a.now()
	k := allowKey{r.Op, r.Syscall, r.Path, r.Rule, r.Result}
	a.mu.Lock()
	var pending []audit.Record
	if now.Sub(a.allowWin) >= allowWindow || now.Before(a.allowWin) {
		pending = a.takeAllowed()
		a.allowWin = now
	}
	c := a.allowCount[k]
	if c == nil {
		if len(a.allowCount) >= allowKeysMax {
			a.mu.Unlock()
			a.w.Write(r)
			return
		}
		if a.allowCount == nil {
			a.allowCount = map[allowKey]*allowCounter{}
		}
		c = &allowCounter{}
		a.allowCount[k] = c
	}
	c.n++
	over := c.n > allowBurst
	if over {
		if c.n == allowBurst+1 {
			r.TS = now
			c.first = r
			if a.timer == nil {
				a.timer = time.AfterFunc(suppressEvery, a.Flush)
			}
		}
		c.last = now
	}
	a.mu.Unlock()
	for _, p := range pending {
		a.w.Write(p)
	}
	if !over {
		a.w.Write(r)
	}
}

// takeAllowed returns the suppressed records of the allowed events
// counted in the window that ends, and starts a new one.
func (a *AuditRecorder) takeAllowed() []audit.Record {
	var out []audit.Record
	for _, c := range a.allowCount {
		if c.n <= allowBurst {
			continue
		}
		r := c.first
		r.Type, r.Dropped, r.LastPath = audit.TypeSuppressed, c.n-allowBurst, r.Path
		r.PID, r.TID, r.LatencyUS = 0, 0, 0
		out = append(out, r)
	}
	clear(a.allowCount)
	return out
}

// named reports whether a rule is one a policy or a guard names, whose
// every distinct refused path must reach the log (see suppressBurst).
func named(r policy.Rule) bool {
	switch r.List {
	case "", "default", auditFailed.List:
		return false
	}
	return true
}

func (a *AuditRecorder) record(ev Event) audit.Record {
	return audit.Record{
		Type:      audit.TypeEvent,
		Profile:   a.session.Profile,
		SessionID: a.session.ID,
		AgentCmd:  a.session.AgentCmd,
		PID:       ev.PID,
		TID:       ev.TID,
		Op:        string(ev.Op),
		Syscall:   ev.Syscall,
		Path:      ev.Path,
		Decision:  string(ev.Decision.Action),
		Rule:      ev.Decision.Rule.ID(),
		RuleSrc:   ev.Decision.Rule.Source.String(),
		Result:    ev.Result,
		LatencyUS: ev.Latency.Microseconds(),
	}
}

// refusal writes r, or counts it when its kind is over budget (but see
// suppressBurst: a path a named rule refuses for the first time is
// written).
func (a *AuditRecorder) refusal(r audit.Record, named bool) {
	now := a.now()
	r.TS = now
	k := kind{r.Op, r.Decision, r.Rule, r.Syscall}
	h := maphash.String(a.seed, r.Path)
	a.mu.Lock()
	b := a.kinds[k]
	if b == nil {
		b = &bucket{tokens: suppressBurst, last: now}
		a.kinds[k] = b
	}
	b.refill(now, suppressBurst, suppressRate)
	a.all.refill(now, sessionBurst, sessionRate)
	_, known := a.seen[h]
	first := named && !known && !a.seenFull
	if (b.tokens < 1 || a.all.tokens < 1) && !first {
		if b.suppressed == 0 {
			b.first = r
			if a.timer == nil {
				a.timer = time.AfterFunc(suppressEvery, a.Flush)
			}
		}
		b.suppressed++
		b.lastPath = r.Path
		if !known {
			b.list(h, r.Path)
		}
		a.mu.Unlock()
		return
	}
	b.tokens = max(b.tokens-1, 0)
	a.all.tokens = max(a.all.tokens-1, 0)
	if named && !known {
		a.remember(h, r.Path)
	}
	a.mu.Unlock()
	a.write(r)
}

// remember adds a path written in full to the session's set, or marks the
// set full.
func (a *AuditRecorder) remember(h uint64, path string) {
	if a.seenFull {
		return
	}
	if len(a.seen) >= seenMax || a.seenBytes+len(path) > seenBytes {
		a.seenFull = true
		return
	}
	a.seen[h] = struct{}{}
	a.seenBytes += len(path)
}

// list adds a counted path to the bucket's list, or to its unlisted count.
func (b *bucket) list(h uint64, path string) {
	if _, ok := b.listed[h]; ok {
		return
	}
	if len(b.paths) >= listMax || b.listedLen+len(path) > listBytes {
		b.unlisted++
		return
	}
	if b.listed == nil {
		b.listed = map[uint64]struct{}{}
	}
	b.listed[h] = struct{}{}
	b.paths = append(b.paths, path)
	b.listedLen += len(path)
}

// refill adds the tokens earned since the last refill.
func (b *bucket) refill(now time.Time, burst, rate float64) {
	if d := now.Sub(b.last); d > 0 { // a clock stepped back earns nothing
		b.tokens = min(burst, b.tokens+d.Seconds()*rate)
	}
	b.last = now
}

// take returns the suppressed record of a bucket and resets its count.
func (b *bucket) take(seenFull bool) audit.Record {
	r := b.first
	r.Type, r.Dropped, r.LastPath = audit.TypeSuppressed, b.suppressed, b.lastPath
	r.Paths, r.Unlisted, r.SeenFull = b.paths, b.unlisted, seenFull
	r.PID, r.TID, r.Result, r.LatencyUS = 0, 0, "", 0
	b.suppressed, b.first, b.lastPath = 0, audit.Record{}, ""
	b.paths, b.listed, b.listedLen, b.unlisted = nil, nil, 0, 0
	return r
}

// Flush writes the counts of refusals suppressed so far. Call it before the
// session_end record.
func (a *AuditRecorder) Flush() {
	a.mu.Lock()
	var pending []audit.Record
	for _, b := range a.kinds {
		if b.suppressed > 0 {
			pending = append(pending, b.take(a.seenFull))
		}
	}
	allowed := a.takeAllowed()
	if a.timer != nil {
		a.timer.Stop()
		a.timer = nil
	}
	a.mu.Unlock()
	a.write(pending...)
	for _, r := range allowed {
		a.w.Write(r)
	}
}

// write appends refusal records, synchronously when the writer can.
func (a *AuditRecorder) write(recs ...audit.Record) {
	for _, r := range recs {
		if a.sw != nil {
			a.sw.WriteSync(r) // an error fails the writer: see Failed
			continue
		}
		a.w.Write(r)
	}
}

// Failed is the writer's Failed when it has one, else nil (never ready).
func (a *AuditRecorder) Failed() <-chan struct{} {
	if f, ok := a.w.(Failer); ok {
		return f.Failed()
	}
	return nil
}

// Err is the writer's error when it failed, else nil.
func (a *AuditRecorder) Err() error {
	if f, ok := a.w.(Failer); ok {
		return f.Err()
	}
	return nil
}

// Counts returns how many decisions allowed and how many refused or
// redacted so far.
func (a *AuditRecorder) Counts() (allowed, denied uint64) {
	return a.allowed.Load(), a.denied.Load()
}
