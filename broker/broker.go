// Package broker is the decision service between the kernel-facing
// supervisor (package notify) and the policy: it takes a canonical path and an
// operation, asks the policy, and records every decision in the audit log.
// It performs no syscalls itself; the supervisor acts on its answers.
package broker

import (
	"time"

	"github.com/aixbroker/aixbroker/policy"
)

// Decider is the part of the compiled policy the broker needs.
type Decider interface {
	Decide(op policy.Op, path string) policy.Decision
	DecideExec(path string, argv []string) policy.Decision
}

// Event is one decision as the supervisor saw it, for the audit log.
type Event struct {
	Op       policy.Op
	Path     string // canonical absolute path the decision was taken on
	Syscall  string // "openat", "execve", ...
	PID, TID int
	Decision policy.Decision
	Result   string // "fd", "0", "ENOENT", ...
	Latency  time.Duration
}

// Recorder receives every event; the audit writer implements it. A
// recorder that also implements [Failer] makes the broker fail closed when
// it fails: from then on every decision is a refusal.
type Recorder interface {
	Record(Event)
}

// auditFailed is the rule of the refusals the broker answers once its
// audit has failed.
var auditFailed = policy.Rule{List: "audit-failed"}

// Broker decides and records. It is safe for concurrent use when its
// Decider and Recorder are.
type Broker struct {
	policy   Decider
	recorder Recorder
	failer   Failer // the recorder, when it can fail
	guard    *auditGuard
}

// New returns a broker over a compiled policy and a recorder. A nil recorder
// discards events.
func New(p Decider, r Recorder) *Broker {
	b := &Broker{policy: p, recorder: r}
	b.failer, _ = r.(Failer)
	return b
}

// Failed is closed when the audit failed (a record could not be written):
// the session must end, and every decision is a refusal meanwhile. nil (never
// ready) when the recorder cannot fail.
func (b *Broker) Failed() <-chan struct{} {
	if b.failer == nil {
		return nil
	}
	return b.failer.Failed()
}

// Err says why the audit failed, or nil.
func (b *Broker) Err() error {
	if b.failer == nil {
		return nil
	}
	return b.failer.Err()
}

// auditDown reports whether the audit failed.
func (b *Broker) auditDown() bool {
	if b.failer == nil {
		return false
	}
	select {
	case <-b.failer.Failed():
		return true
	default:
		return false
	}
}

// Decide returns the policy's answer for op on a canonical absolute path,
// or a refusal once the audit has failed.
func (b *Broker) Decide(op policy.Op, path string) policy.Decision {
	if b.auditDown() {
		return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: auditFailed}
	}
	if b.guard.refuses(op, path) {
		return b.guard.deny()
	}
	return b.policy.Decide(op, path)
}

// DecideExec returns the policy's answer for executing path with argv, or
// a refusal once the audit has failed.
func (b *Broker) DecideExec(path string, argv []string) policy.Decision {
	if b.auditDown() {
		return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: auditFailed}
	}
	if b.guard.refuses(policy.OpExec, path) {
		return b.guard.deny()
	}
	return b.policy.DecideExec(path, argv)
}

// Record sends one event to the audit log.
func (b *Broker) Record(ev Event) {
	if b.recorder != nil {
		b.recorder.Record(ev)
	}
}
