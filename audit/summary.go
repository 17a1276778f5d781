package audit

import (
	"cmp"
	"errors"
	"slices"
	"time"
)

// Session summarises one `aixbroker exec` from its records.
type Session struct {
	ID         string
	Profile    string
	AgentCmd   string
	Cmd        []string
	Cwd        string
	Policy     string
	Start, End time.Time // End is zero without a session_end record
	Ended      bool      // a session_end record was seen
	ExitStatus int
	Events     uint64
	Denied     uint64
	Redacted   uint64
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
		out[i] = *s
	}
	slices.SortStableFunc(out, func(a, b Session) int { return a.Start.Compare(b.Start) })
	return out, nil
}

func (s *Session) add(r *Record) {
	switch r.Type {
	case TypeSessionStart:
		s.Start, s.Cmd, s.Cwd, s.Policy = r.TS, r.Cmd, r.Cwd, r.Policy
	case TypeSessionEnd:
		s.End, s.Ended, s.ExitStatus = r.TS, true, r.ExitStatus
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
	Events     uint64
	ByOp       map[string]map[string]uint64 // op -> decision -> count
	TopDenied  []PathCount                  // most denied paths, most first
	Gaps       uint64                       // gap records
	Dropped    uint64                       // records they say were dropped
	BadLines   uint64                       // lines that are not records
	SessionIDs int
}

// PathCount is a path and how often it was denied.
type PathCount struct {
	Path  string
	Count uint64
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
