package broker

import "github.com/aixbroker/aixbroker/audit"

// RecordHint writes an interposer hint as an event with decision "hint":
// the command line a process said it was about to execute. The broker's
// own exec event is the authority; the hint attributes it.
func (a *AuditRecorder) RecordHint(h Hint) {
	if !a.logAllowed {
		return
	}
	a.w.Write(audit.Record{
		Type:      audit.TypeEvent,
		Profile:   a.session.Profile,
		SessionID: a.session.ID,
		AgentCmd:  a.session.AgentCmd,
		PID:       h.PID,
		Op:        h.Kind,
		Syscall:   "interposer",
		Path:      h.Path,
		Decision:  "hint",
		Cmd:       h.Argv,
	})
}
