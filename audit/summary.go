package audit

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"
)

// Session summarises one `aixbroker exec` from its records.
type Session struct {
	ID         string    `json:"id"`
	Profile    string    `json:"profile"`
	AgentCmd   string    `json:"agent_cmd"`
	Cmd        []string  `json:"cmd"`
	Cwd        string    `json:"cwd"`
	Policy     string    `json:"policy"`
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`   // zero without a session_end record
	Ended      bool      `json:"ended"` // a session_end record was seen
	ExitStatus int       `json:"exit_status"`
	EndResult  string    `json:"end_result,omitempty"` // the session_end's result: why it failed, e.g. "audit failed: …"
	Events     uint64    `json:"events"`
	Denied     uint64    `json:"denied"`
	Redacted   uint64    `json:"redacted"`
	Suppressed uint64    `json:"suppressed,omitempty"` // refusals counted in suppressed records
	Lost       uint64    `json:"lost,omitempty"`       // records dropped under pressure, counted in this session's gap records
	Repeated   uint64    `json:"repeated,omitempty"`   // identical allowed events counted in suppressed records (decision allow)
	PID        int       `json:"pid,omitempty"`        // the supervisor's, from session_start
	LastSeq    uint64    `json:"last_seq"`             // the session's last record in the log
	LastTS     time.Time `json:"last_ts"`
	Status     string    `json:"status"` // StatusEnded, StatusRunning, StatusAbnormal, StatusPartial

	started  bool   // its session_start was read
	pidStart uint64 // the supervisor's start time and boot id from session_start
	bootID   string
}

// Session statuses.
const (
	StatusEnded    = "ended"    // a session_end record was seen
	StatusRunning  = "running"  // no session_end yet, and its supervisor is alive
	StatusAbnormal = "abnormal" // no session_end and its supervisor is gone: killed, or its audit failed
	StatusPartial  = "partial"  // neither its session_start nor its session_end is in the files read

	// StatusAuditFailed: the session_end says the audit failed (a full
	// disk, an I/O error): the session was stopped, and the records of
	// the write that failed are not in the log.
	StatusAuditFailed = "audit-failed"

	// StatusLost: the session ended, but gap records of its writer count
	// records dropped under pressure (the batch stayed full for longer
	// than max_block): they are not in the log.
	StatusLost = "lost-records"
)

// auditFailedPrefix starts the result of the session_end of a session
// whose audit failed (cmd/aixbroker writes it).
const auditFailedPrefix = "audit failed: "

// Abnormal lists the sessions that ended without a session_end record, or
// whose session_end says their audit failed.
func Abnormal(sessions []Session) []Session {
	var out []Session
	for _, s := range sessions {
		if s.Status == StatusAbnormal || s.Status == StatusAuditFailed || s.Status == StatusLost {
			out = append(out, s)
		}
	}
	return out
}

// Sessions summarises every session found in the files, oldest first.
// Unreadable lines are skipped; they are verify's business.
func Sessions(paths []string) ([]Session, error) {
	byID := map[string]*Session{}
	var order []*Session
	for e, err := range Scan(paths) {
		if err != nil {
			if errors.Is(err, ErrBadLine) {
				continue
			}
			return nil, err
		}
		r := &e.Record
		if r.SessionID == "" {
			continue
		}
		s := byID[r.SessionID]
		if s == nil {
			s = &Session{ID: r.SessionID, Start: r.TS, Profile: r.Profile, AgentCmd: r.AgentCmd}
			byID[r.SessionID] = s
			order = append(order, s)
		}
		s.add(r)
	}
	out := make([]Session, len(order))
	for i, s := range order {
		switch {
		case s.Ended && strings.HasPrefix(s.EndResult, auditFailedPrefix):
			s.Status = StatusAuditFailed
		case s.Ended && s.Lost > 0:
			s.Status = StatusLost
		case s.Ended:
			s.Status = StatusEnded
		case !s.started:
			s.Status = StatusPartial
		case s.PID != 0 && processRunning(s.PID, s.pidStart, s.bootID):
			s.Status = StatusRunning
		default:
			s.Status = StatusAbnormal
		}
		out[i] = *s
	}
	slices.SortStableFunc(out, func(a, b Session) int { return a.Start.Compare(b.Start) })
	return out, nil
}

func (s *Session) add(r *Record) {
	s.LastSeq, s.LastTS = r.Seq, r.TS
	switch r.Type {
	case TypeGap:
		s.Lost += r.Dropped
	case TypeSuppressed:
		if r.Decision == "allow" {
			s.Repeated += r.Dropped
			break
		}
		s.Suppressed += r.Dropped
	case TypeSessionStart:
		s.Start, s.Cmd, s.Cwd, s.Policy, s.PID, s.started = r.TS, r.Cmd, r.Cwd, r.Policy, r.PID, true
		s.pidStart, s.bootID = r.PIDStart, r.BootID
	case TypeSessionEnd:
		s.End, s.Ended, s.ExitStatus, s.EndResult = r.TS, true, r.ExitStatus, r.Result
	case TypeEvent:
		s.Events++
		switch r.Decision {
		case "deny":
			s.Denied++
		case "redact":
			s.Redacted++
		}
	}
}

// Summary counts events by operation and decision.
type Summary struct {
	Events     uint64                       `json:"events"`
	ByOp       map[string]map[string]uint64 `json:"by_op"`      // op -> decision -> count
	TopDenied  []PathCount                  `json:"top_denied"` // most denied paths, most first
	Gaps       uint64                       `json:"gaps"`       // gap records
	Dropped    uint64                       `json:"dropped"`    // records they say were dropped
	BadLines   uint64                       `json:"bad_lines"`  // lines that are not records
	SessionIDs int                          `json:"sessions"`
}

// PathCount is a path and how often it was denied.
type PathCount struct {
	Path  string `json:"path"`
	Count uint64 `json:"count"`
}

// Stats summarises the records that pass the filter; top is how many
// denied paths to keep.
func Stats(paths []string, f Filter, top int) (Summary, error) {
	s := Summary{ByOp: map[string]map[string]uint64{}}
	denied := map[string]uint64{}
	sessions := map[string]bool{}
	for e, err := range Query(paths, f) {
		if err != nil {
			if errors.Is(err, ErrBadLine) {
				s.BadLines++
				continue
			}
			return s, err
		}
		r := &e.Record
		if r.SessionID != "" {
			sessions[r.SessionID] = true
		}
		switch r.Type {
		case TypeGap:
			s.Gaps++
			s.Dropped += r.Dropped
		case TypeEvent:
			s.Events++
			if s.ByOp[r.Op] == nil {
				s.ByOp[r.Op] = map[string]uint64{}
			}
			s.ByOp[r.Op][r.Decision]++
			if r.Decision == "deny" {
				denied[r.Path]++
			}
		}
	}
	s.SessionIDs = len(sessions)
	for p, n := range denied {
		s.TopDenied = append(s.TopDenied, PathCount{Path: p, Count: n})
	}
	slices.SortFunc(s.TopDenied, func(a, b PathCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Path, b.Path))
	})
	if len(s.TopDenied) > top {
		s.TopDenied = s.TopDenied[:top]
	}
	return s, nil
}
