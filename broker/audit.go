package broker

import (
	"sync/atomic"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/policy"
)

// Session is what every record of one `aixbroker exec` shares.
type Session struct {
	ID       string // ULID
	Profile  string
	AgentCmd string // argv[0] of the agent as typed
}

// AuditWriter is the part of *audit.Writer the recorder uses.
type AuditWriter interface {
	Write(audit.Record)
}

// AuditRecorder turns broker events into audit records and keeps the counts
// the exit summary prints.
type AuditRecorder struct {
	session    Session
	w          AuditWriter
	logAllowed bool
	allowed    atomic.Uint64
	denied     atomic.Uint64
}

// NewAuditRecorder writes the events of one session to w. With logAllowed
// false (the policy's audit.on_allow: none) only refusals and redactions are
// written; all are counted.
func NewAuditRecorder(s Session, w AuditWriter, logAllowed bool) *AuditRecorder {
	return &AuditRecorder{session: s, w: w, logAllowed: logAllowed}
}

// Record implements Recorder.
func (a *AuditRecorder) Record(ev Event) {
	switch ev.Decision.Action {
	case policy.Allow:
		a.allowed.Add(1)
		if !a.logAllowed {
			return
		}
	case policy.Deny, policy.Redact:
		a.denied.Add(1)
	}
	a.w.Write(audit.Record{
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
	})
}

// Counts returns how many decisions allowed and how many refused or
// redacted so far.
func (a *AuditRecorder) Counts() (allowed, denied uint64) {
	return a.allowed.Load(), a.denied.Load()
}
