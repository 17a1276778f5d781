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

// Recorder receives every event; the audit writer implements it.
type Recorder interface {
	Record(Event)
}

// Broker decides and records. It is safe for concurrent use when its
// Decider and Recorder are.
type Broker struct {
	policy   Decider
	recorder Recorder
}

// New returns a broker over a compiled policy and a recorder. A nil recorder
// discards events.
func New(p Decider, r Recorder) *Broker {
	return &Broker{policy: p, recorder: r}
}

// Decide returns the policy's answer for op on a canonical absolute path.
func (b *Broker) Decide(op policy.Op, path string) policy.Decision {
	return b.policy.Decide(op, path)
}

// DecideExec returns the policy's answer for executing path with argv.
func (b *Broker) DecideExec(path string, argv []string) policy.Decision {
	return b.policy.DecideExec(path, argv)
}

// Record sends one event to the audit log.
func (b *Broker) Record(ev Event) {
	if b.recorder != nil {
		b.recorder.Record(ev)
	}
}
