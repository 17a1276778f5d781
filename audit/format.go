package audit

import (
	"fmt"
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
		paint(decisionColor(r.Decision), fmt.Sprintf("%-6s", safe(r.Decision)))
		fmt.Fprintf(&b, " %-6s %s", safe(r.Op), safe(r.Path))
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
	case TypeGap:
		paint(ansiBold+ansiRed, "GAP   ")
		fmt.Fprintf(&b, " %d record(s) dropped under pressure before this point", r.Dropped)
	default:
		fmt.Fprintf(&b, "%-6s seq %d", safe(r.Type), r.Seq)
	}
	return b.String()
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
