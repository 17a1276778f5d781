package policy

import (
	"errors"
	"fmt"
	"strings"
)

// Error is a problem in a policy file, located at file:line:column. Parse,
// the loader and Compile return it (several are joined with errors.Join);
// use errors.As to get the location.
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
	err    error // the wrapped cause, if any
}

// Unwrap returns the cause, so errors.Is(err, ErrUnknownProfile) and
// errors.Is(err, fs.ErrNotExist) see through the location.
func (e *Error) Unwrap() error { return e.err }

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// ErrUnknownProfile is returned (wrapped) for a profile name that is neither
// built in nor found in the user's profile directory.
var ErrUnknownProfile = errors.New("unknown profile")

// maxErrors bounds how many problems one file reports.
const maxErrors = 20

// errList collects located errors while walking one file.
type errList struct {
	file string
	errs []error
}

func (l *errList) add(src Source, format string, args ...any) {
	if len(l.errs) >= maxErrors {
		return
	}
	l.errs = append(l.errs, &Error{File: l.file, Line: src.Line, Column: src.Column, Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) err() error { return errors.Join(l.errs...) }

// suggest returns " (did you mean X?)" for the valid word nearest to got, or
// "" when nothing is close.
func suggest(got string, valid []string) string {
	best, bestDist := "", len(got)/2+2
	g := strings.ToLower(got)
	for _, v := range valid {
		lv := strings.ToLower(v)
		d := editDistance(g, lv)
		if g != "" && (strings.Contains(lv, g) || strings.Contains(g, lv)) {
			d = min(d, 2)
		}
		if d < bestDist {
			best, bestDist = v, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// editDistance is the Levenshtein distance between a and b, bounded in
// cost by the short inputs it is used on (keys are capped before calling).
func editDistance(a, b string) int {
	if len(a) > 64 {
		a = a[:64]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
