package macos

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

// LogStreamArgs are the arguments of the `log` command Run follows: the
// sandbox's reports, one JSON object per line.
var LogStreamArgs = []string{"stream", "--style", "ndjson", "--predicate",
	`subsystem BEGINSWITH "com.apple.sandbox" OR sender == "Sandbox"`}

// Violation is one sandbox report from the system log.
type Violation struct {
	Time      time.Time // zero when the line carries none
	Process   string    // the process name, as the kernel reports it
	PID       int
	Action    string // "deny" (or "allow" for a rule with report)
	Operation string // the SBPL operation, e.g. file-read-data, mach-lookup
	Argument  string // the path for file operations, else the service, address, ...
}

// reportRe matches the sandbox's message: "Sandbox: cat(4242) deny(1)
// file-read-data /Users/u/.ssh/id_rsa". The process name may itself hold
// spaces and parentheses; the last "(PID) deny" ends it.
var reportRe = regexp.MustCompile(`Sandbox: (.*)\((\d+)\) (deny|allow)(?:\(\d+\))? ([a-z][a-z0-9*-]*)(?: (.*))?$`)

// ParseLogLine reads one line of `log stream` output: the ndjson style
// (LogStreamArgs) or the default text style. ok is false for anything that
// is not a sandbox report (headers, other messages, malformed lines).
func ParseLogLine(line string) (v Violation, ok bool) {
	line = strings.TrimRight(line, "\r\n")
	msg, ts := line, ""
	if strings.HasPrefix(line, "{") {
		var ev struct {
			EventMessage string `json:"eventMessage"`
			Timestamp    string `json:"timestamp"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			return Violation{}, false
		}
		msg, ts = ev.EventMessage, ev.Timestamp
	} else if len(line) >= 31 {
		ts = line[:31]
	}
	m := reportRe.FindStringSubmatch(msg)
	if m == nil {
		return Violation{}, false
	}
	pid, err := strconv.Atoi(m[2])
	if err != nil || pid <= 0 {
		return Violation{}, false
	}
	v = Violation{Process: m[1], PID: pid, Action: m[3], Operation: m[4], Argument: m[5]}
	v.Time = parseLogTime(ts)
	return v, true
}

// parseLogTime reads log's timestamp, "2026-11-30 10:00:00.123456+0100".
func parseLogTime(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05.000000-0700", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

// Op is the policy operation of the report, or "" for one that is not
// about a file (mach-lookup, network-outbound, sysctl-read, ...).
func (v Violation) Op() policy.Op {
	op := v.Operation
	switch {
	case op == "file-read-metadata":
		return policy.OpStat
	case strings.HasPrefix(op, "file-read"):
		return policy.OpRead
	case op == "file-write-create":
		return policy.OpCreate
	case op == "file-write-unlink":
		return policy.OpUnlink
	case strings.HasPrefix(op, "file-write") || op == "file-ioctl":
		return policy.OpWrite
	case strings.HasPrefix(op, "process-exec") || op == "file-map-executable":
		return policy.OpExec
	}
	return ""
}

// Event is the report as a broker event, for the audit log. A file
// operation on an absolute path is attributed to the policy rule the
// engine names for it when the engine refuses it too; otherwise (the
// system table, case folding, an operation that is not about files) to the
// rule "sandbox", whose source is the generated profile. The kernel's
// answer is always EPERM.
func (v Violation) Event(d broker.Decider) broker.Event {
	ev := broker.Event{
		Op:      v.Op(),
		Syscall: "sandbox:" + v.Operation,
		PID:     v.PID,
		Result:  "EPERM",
		Decision: policy.Decision{
			Action: policy.Deny,
			Rule:   policy.Rule{List: "sandbox", Pattern: v.Operation, Comment: "refused by the macOS sandbox profile"},
		},
	}
	if v.Action == "allow" {
		ev.Decision.Action, ev.Result = policy.Allow, "0"
	}
	if ev.Op == "" {
		ev.Op = policy.Op(v.Operation)
		ev.Path = v.Argument
		return ev
	}
	if !strings.HasPrefix(v.Argument, "/") {
		return ev
	}
	ev.Path = v.Argument
	if d == nil {
		return ev
	}
	if pd := d.Decide(ev.Op, v.Argument); !pd.Allowed() && ev.Decision.Action == policy.Deny {
		ev.Decision.Rule = pd.Rule
	}
	return ev
}
