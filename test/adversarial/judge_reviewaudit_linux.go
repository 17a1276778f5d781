package adversarial

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/aixbroker/aixbroker/audit"
)

// mustLogRe matches the "must-log PATH" lines an audit case prints: a path
// the agent was refused (or touched) that the log must name, in an event
// record or as the first or last path of a suppressed record of its session.
var mustLogRe = regexp.MustCompile(`(?m)^must-log (.+)$`)

// keepSessionRe matches "keep-session-start" : the earlier, seeded
// session's session_start must still be in the log (not only named by a
// rotated record).
var keepSessionRe = regexp.MustCompile(`(?m)^keep-session-start$`)

// reachedRe matches what case 133 got hold of: "reached WHAT" (an audit
// file opened, planted or listed from inside).
var reachedRe = regexp.MustCompile(`(?m)^reached ([^0-9].*)$`)

// judgeReviewAudit (review of h-audit) checks what an audit case says the
// log must still hold.
func judgeReviewAudit(c Case, w *World, out string) []string {
	if !auditCase(c) {
		return nil
	}
	var bad []string
	for _, m := range reachedRe.FindAllStringSubmatch(out, -1) {
		bad = append(bad, "the agent reached the audit files: "+m[1])
	}
	want := mustLogRe.FindAllStringSubmatch(out, -1)
	keep := keepSessionRe.MatchString(out)
	single := strings.Contains(out, "single-session\n")
	if len(want) == 0 && !keep && !single {
		return bad
	}
	v, _ := seeded.Load(w.Root)
	seed, _ := v.(string)
	files, err := audit.Files(w.auditLog())
	if err != nil {
		return []string{"audit log unreadable: " + err.Error()}
	}
	named := map[string]bool{}
	seedStart := false
	ids := map[string]bool{}
	ends := map[string]int{}
	for e, err := range audit.Scan(files) {
		if err != nil {
			if errors.Is(err, audit.ErrBadLine) {
				continue
			}
			return []string{"audit log unreadable: " + err.Error()}
		}
		r := &e.Record
		if r.SessionID != "" {
			ids[r.SessionID] = true
		}
		if r.Type == audit.TypeSessionEnd {
			ends[r.SessionID]++
		}
		if r.Type == audit.TypeSessionStart && r.SessionID == seed {
			seedStart = true
		}
		if r.SessionID == seed {
			continue
		}
		named[r.Path] = true
		named[r.LastPath] = true
	}
	for _, m := range want {
		p := strings.TrimSpace(m[1])
		if !named[p] {
			bad = append(bad, fmt.Sprintf("the log of the session never names %s (hidden in a suppressed or gap count)", p))
		}
	}
	if single {
		if len(ids) != 2 {
			bad = append(bad, fmt.Sprintf("the log holds %d session ids, want 2 (the seeded one and this one): a record was forged through a path", len(ids)))
		}
		for id, n := range ends {
			if n != 1 {
				bad = append(bad, fmt.Sprintf("session %s has %d session_end records", id, n))
			}
		}
	}
	if keep && seed != "" && !seedStart {
		bad = append(bad, "the earlier session's session_start was rotated away by this session")
	}
	return bad
}
