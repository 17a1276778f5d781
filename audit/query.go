package audit

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// Filter selects records. The zero Filter selects every record except file
// headers. Op, Path and Decision only match events.
type Filter struct {
	Since, Until time.Time // inclusive bounds on ts; zero means open
	DeniedOnly   bool      // events whose decision is deny
	Path         string    // doublestar glob on the canonical path, e.g. "**/.env*"
	SessionID    string
	Op           string
	Decision     string
	Profile      string
	Type         string // record type; "" means all but file_start
}

// Match reports whether r passes the filter.
func (f *Filter) Match(r *Record) bool {
	if f.Type != "" && r.Type != f.Type || f.Type == "" && r.Type == TypeFileStart {
		return false
	}
	if !f.Since.IsZero() && r.TS.Before(f.Since) || !f.Until.IsZero() && r.TS.After(f.Until) {
		return false
	}
	if f.SessionID != "" && r.SessionID != f.SessionID || f.Profile != "" && r.Profile != f.Profile {
		return false
	}
	if (f.DeniedOnly || f.Op != "" || f.Path != "" || f.Decision != "") && r.Type != TypeEvent {
		return r.Type == TypeGap // a gap may hide matching records: always show it
	}
	if f.DeniedOnly && r.Decision != "deny" || f.Op != "" && r.Op != f.Op || f.Decision != "" && r.Decision != f.Decision {
		return false
	}
	return f.Path == "" || matchPath(f.Path, r.Path)
}

// matchPath matches a glob against a canonical path; a relative glob
// ("*.pem") matches at any depth.
func matchPath(glob, path string) bool {
	if ok, _ := doublestar.Match(glob, path); ok {
		return true
	}
	if !strings.HasPrefix(glob, "/") {
		ok, _ := doublestar.Match("/**/"+strings.TrimPrefix(glob, "**/"), path)
		return ok
	}
	return false
}

// ValidateGlob reports a malformed path glob.
func ValidateGlob(glob string) error {
	if !doublestar.ValidatePattern(glob) {
		return fmt.Errorf("parse --path %q: not a valid glob (use * ** ? [..] {a,b})", glob)
	}
	return nil
}

// Query yields the records of the files that pass the filter, in order, and
// the lines that are not records as errors wrapping [ErrBadLine].
func Query(paths []string, f Filter) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for e, err := range Scan(paths) {
			if err != nil || f.Match(&e.Record) {
				if !yield(e, err) {
					return
				}
			}
		}
	}
}

// ParseTime reads a --since/--until value: a duration back from now
// ("24h", "90m", "7d"), an RFC 3339 time, or a date ("2026-04-20", UTC).
func ParseTime(s string, now time.Time) (time.Time, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("parse time %q: want a duration (24h, 7d), an RFC 3339 time or a date (2026-04-20)", s)
}
