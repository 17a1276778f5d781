package audit

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// ANSI colours for the human-readable form.
const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiDim    = "\x1b[2m"
	ansiBold   = "\x1b[1m"
)

// Format renders a record as one human-readable line, in the local time
// zone, coloured with ANSI escapes when color is set. Control characters
// from the record (a path can hold any byte) are shown escaped, so that a
// log line cannot drive the terminal.
func Format(r *Record, color bool) string {
	var b strings.Builder
	paint := func(c, s string) {
		if color && c != "" {
			b.WriteString(c + s + ansiReset)
			return
		}
		b.WriteString(s)
	}
	paint(ansiDim, r.TS.Local().Format("2006-01-02 15:04:05.000"))
	b.WriteByte(' ')
	switch r.Type {
	case TypeEvent:
		paint(decisionColor(r.Decision), fmt.Sprintf("%-6s", orDash(safe(r.Decision))))
		fmt.Fprintf(&b, " %-6s %s", orDash(safe(r.Op)), orDash(safe(r.Path)))
		if r.Rule != "" {
			b.WriteByte(' ')
			paint(ansiDim, "by "+safe(r.Rule)+src(r.RuleSrc))
		}
		fmt.Fprintf(&b, " [%s pid %d", safe(r.Syscall), r.PID)
		if r.Result != "" {
			fmt.Fprintf(&b, " → %s", safe(r.Result))
		}
		fmt.Fprintf(&b, " %dµs]", r.LatencyUS)
	case TypeSessionStart:
		paint(ansiBold+ansiCyan, "start ")
		fmt.Fprintf(&b, " session %s profile %s: %s (in %s, policy %s)", safe(r.SessionID), safe(r.Profile),
			safe(strings.Join(r.Cmd, " ")), safe(r.Cwd), safe(r.Policy))
	case TypeSessionEnd:
		paint(ansiBold+ansiCyan, "end   ")
		fmt.Fprintf(&b, " session %s exit status %d", safe(r.SessionID), r.ExitStatus)
	case TypeSuppressed:
		paint(ansiBold+ansiYellow, "FLOOD ")
		fmt.Fprintf(&b, " %d %s of %s by %s [%s] counted, not written one by one (first %s, last %s)", r.Dropped, orDash(safe(r.Decision)),
			orDash(safe(r.Op)), orDash(safe(r.Rule)), safe(r.Syscall), orDash(safe(r.Path)), orDash(safe(r.LastPath)))
		if len(r.Paths) > 0 {
			fmt.Fprintf(&b, "; paths: %s", safe(strings.Join(r.Paths, " ")))
		}
		if r.Unlisted > 0 {
			fmt.Fprintf(&b, "; %d of them of paths not listed", r.Unlisted)
		}
		if r.SeenFull {
			b.WriteString("; the session's set of distinct refused paths is full")
		}
	case TypeRotated:
		paint(ansiBold+ansiYellow, "ROTATE")
		fmt.Fprintf(&b, " seq %d..%d (%d records) rotated away; sessions with records in them: %s", r.FromSeq, r.ToSeq, r.Dropped, safe(strings.Join(r.Sessions, " ")))
	case TypeGap:
		paint(ansiBold+ansiRed, "GAP   ")
		fmt.Fprintf(&b, " %d record(s) dropped under pressure before this point", r.Dropped)
	default:
		fmt.Fprintf(&b, "%-6s seq %d", safe(r.Type), r.Seq)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func src(s string) string {
	if s == "" {
		return ""
	}
	return " (" + safe(s) + ")"
}

func decisionColor(d string) string {
	switch d {
	case "deny":
		return ansiRed
	case "redact", "prompt":
		return ansiYellow
	case "allow":
		return ansiGreen
	}
	return ""
}

// safe escapes control characters.
func safe(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// FormatDuration renders a session length for summaries.
func FormatDuration(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// MarshalLine returns the record as the writer writes it: the canonical
// JSON followed by its hash member. For a record read from a log written by
// [Writer] this is the original line, byte for byte.
func MarshalLine(r *Record) []byte {
	b := appendBody(make([]byte, 0, 512), r)
	b = append(b, hashSuffix...)
	b = append(b, r.Hash...)
	return append(b, '"', '}')
}

// FormatSession renders one session as one line.
func FormatSession(s *Session, color bool) string {
	var b strings.Builder
	b.WriteString(s.Start.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "  %s  %-12s ", s.ID, safe(s.Profile))
	cmd := strings.Join(s.Cmd, " ")
	if cmd == "" {
		cmd = s.AgentCmd
	}
	if len(cmd) > 40 {
		cmd = cmd[:37] + "..."
	}
	fmt.Fprintf(&b, "%-40s ", safe(cmd))
	fmt.Fprintf(&b, "events %d  denied %d  redacted %d  ", s.Events, s.Denied, s.Redacted)
	if s.Repeated > 0 {
		fmt.Fprintf(&b, "repeated %d  ", s.Repeated)
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(&b, "suppressed %d  ", s.Suppressed)
	}
	if s.Lost > 0 {
		paintIf(&b, color, ansiRed, fmt.Sprintf("LOST %d (dropped under pressure)", s.Lost))
		b.WriteString("  ")
	}
	switch {
	case s.Status == StatusRunning:
		paintIf(&b, color, ansiYellow, "running")
	case s.Status == StatusPartial:
		b.WriteString("partial: its start and end are not in the files read")
	case !s.Ended:
		paintIf(&b, color, ansiRed, fmt.Sprintf("ABNORMAL: no end record, last seq %d at %s (killed, or its audit failed)",
			s.LastSeq, s.LastTS.Local().Format("15:04:05")))
	default:
		fmt.Fprintf(&b, "ended %s, exit %d", FormatDuration(s.End.Sub(s.Start)), s.ExitStatus)
		if s.EndResult != "" {
			b.WriteString(" (")
			paintIf(&b, color, ansiRed, safe(s.EndResult))
			b.WriteString(")")
		}
	}
	return b.String()
}

func paintIf(b *strings.Builder, color bool, c, s string) {
	if color {
		s = c + s + ansiReset
	}
	b.WriteString(s)
}

// WriteSummary renders a summary as a small report.
func WriteSummary(w io.Writer, s *Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d events in %d session(s)\n", s.Events, s.SessionIDs)
	if s.Gaps > 0 {
		fmt.Fprintf(&b, "%d record(s) dropped under pressure, in %d gap record(s)\n", s.Dropped, s.Gaps)
	}
	if s.BadLines > 0 {
		fmt.Fprintf(&b, "%d line(s) are not records: run `aixbroker audit verify`\n", s.BadLines)
	}
	decisions := []string{"allow", "deny", "redact", "prompt"}
	fmt.Fprintf(&b, "\n%-8s %10s %10s %10s %10s\n", "op", decisions[0], decisions[1], decisions[2], decisions[3])
	ops := make([]string, 0, len(s.ByOp))
	for op := range s.ByOp {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	for _, op := range ops {
		fmt.Fprintf(&b, "%-8s", safe(op))
		for _, d := range decisions {
			fmt.Fprintf(&b, " %10d", s.ByOp[op][d])
		}
		b.WriteByte('\n')
	}
	if len(s.TopDenied) > 0 {
		b.WriteString("\ntop denied paths\n")
		for _, p := range s.TopDenied {
			fmt.Fprintf(&b, "%8d  %s\n", p.Count, safe(p.Path))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
