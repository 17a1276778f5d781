package adversarial

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/aixbroker/aixbroker/audit"
)

// The audit cases (13x) run against a small log (3 files of 1 MB) that
// already holds one earlier session, so that a flood reaches rotation in
// seconds and the judge can tell whether the earlier session's records, or
// this session's, were erased without a trace.

// seeded maps a world's root to the id of the session seedAudit ran.
var seeded sync.Map

// auditCase reports whether a case gets the audit checks.
func auditCase(c Case) bool { return strings.HasPrefix(c.Name, "13") }

// seedAudit configures the small log and runs one earlier session in it.
func (r *Runner) seedAudit(c Case, w *World) error {
	if !auditCase(c) {
		return nil
	}
	dir := filepath.Join(w.Home, ".aixgate")
	cfg := "audit:\n  max_size_mb: 1\n  max_files: 3\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
		return fmt.Errorf("seed audit config: %w", err)
	}
	if out, code, err := r.exec(c, w, []string{"/bin/true"}); err != nil || code != 0 {
		return fmt.Errorf("seed audit log: exit %d: %v: %s", code, err, tail(out, 200))
	}
	s, err := logSessions(w)
	if err != nil || len(s) != 1 {
		return fmt.Errorf("seed audit log: %d session(s): %v", len(s), err)
	}
	seeded.Store(w.Root, s[0].ID)
	return nil
}

func logSessions(w *World) ([]audit.Session, error) {
	files, err := audit.Files(w.auditLog())
	if err != nil {
		return nil, err
	}
	return audit.Sessions(files)
}

// refusedRe matches the "refused N" lines an audit case prints.
var refusedRe = regexp.MustCompile(`(?m)^refused (\d+)$`)

// failClosedMsg is what aixbroker prints when the audit can no longer be
// written and it stops the sandbox.
const failClosedMsg = "the sandbox is being stopped"

// judgeAudit checks an audit case's log: the earlier session's start is
// still there or a record says it was removed; this session's start is
// there; the log holds at least as many denials (single or counted in a
// suppressed record) as the case says it was refused, unless the session
// failed closed and said so.
func judgeAudit(c Case, w *World, out string) []string {
	if !auditCase(c) {
		return nil
	}
	v, _ := seeded.Load(w.Root)
	seed, _ := v.(string)
	files, err := audit.Files(w.auditLog())
	if err != nil {
		return []string{"audit log unreadable: " + err.Error()}
	}
	starts := map[string]bool{}
	removed := map[string]bool{}
	var this string
	var denied uint64
	counts := map[string]uint64{}
	for e, err := range audit.Scan(files) {
		if err != nil {
			if errors.Is(err, audit.ErrBadLine) {
				continue
			}
			return []string{"audit log unreadable: " + err.Error()}
		}
		r := &e.Record
		switch {
		case r.Type == audit.TypeSessionStart:
			starts[r.SessionID] = true
			if r.SessionID != seed {
				this = r.SessionID
			}
		case r.Type == "rotated":
			for _, id := range r.Sessions {
				removed[id] = true
			}
		case r.Type == audit.TypeEvent && r.Decision != "allow":
			counts[r.SessionID]++ // refused, redacted, or failed before a decision
		case r.Type == "suppressed":
			counts[r.SessionID] += r.Dropped
		}
	}
	var bad []string
	if seed != "" && !starts[seed] && !removed[seed] {
		bad = append(bad, "the earlier session's records were erased without a trace")
	}
	if this == "" {
		bad = append(bad, "this session's session_start was erased")
	} else {
		denied = counts[this]
	}
	var refused uint64
	for _, m := range refusedRe.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		refused = max(refused, n)
	}
	if denied < refused && !strings.Contains(out, failClosedMsg) {
		bad = append(bad, fmt.Sprintf("the agent was refused %d time(s) but the log holds %d denial(s) of its session, and the session did not fail closed", refused, denied))
	}
	return bad
}
