package macos

import (
	"reflect"
	"testing"
	"time"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

func TestParseLogLine(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		want   Violation
		wantOK bool
	}{
		{
			name: "ndjson",
			line: `{"traceID":1,"eventMessage":"Sandbox: cat(4242) deny(1) file-read-data /Users/u/.ssh/id_rsa","eventType":"logEvent","subsystem":"com.apple.sandbox.reporting","timestamp":"2026-11-30 10:00:00.123456+0100","processID":0}`,
			want: Violation{Time: time.Date(2026, 11, 30, 9, 0, 0, 123456000, time.UTC), Process: "cat", PID: 4242, Action: "deny",
				Operation: "file-read-data", Argument: "/Users/u/.ssh/id_rsa"},
			wantOK: true,
		},
		{
			name: "text style",
			line: "2026-11-30 10:00:00.123456+0100 0x2a3b     Error       0x0                  0      0    kernel: (Sandbox) Sandbox: node(77) deny(3) file-write-create /Users/u/Documents/x y.txt",
			want: Violation{Time: time.Date(2026, 11, 30, 9, 0, 0, 123456000, time.UTC), Process: "node", PID: 77, Action: "deny",
				Operation: "file-write-create", Argument: "/Users/u/Documents/x y.txt"},
			wantOK: true,
		},
		{
			name:   "process name with parentheses and spaces",
			line:   `{"eventMessage":"Sandbox: Code Helper (Plugin)(901) deny(1) mach-lookup com.apple.coreservices.launchservicesd"}`,
			want:   Violation{Process: "Code Helper (Plugin)", PID: 901, Action: "deny", Operation: "mach-lookup", Argument: "com.apple.coreservices.launchservicesd"},
			wantOK: true,
		},
		{
			name:   "no argument",
			line:   `{"eventMessage":"Sandbox: sh(5) deny(1) process-fork"}`,
			want:   Violation{Process: "sh", PID: 5, Action: "deny", Operation: "process-fork"},
			wantOK: true,
		},
		{name: "header", line: `Filtering the log data using "subsystem BEGINSWITH \"com.apple.sandbox\""`},
		{name: "column titles", line: "Timestamp                       Thread     Type        Activity             PID    TTL"},
		{name: "other message", line: `{"eventMessage":"Sandbox: profile compiled"}`},
		{name: "malformed json", line: `{"eventMessage": "Sandbox: cat(1) deny(1) file-read-data /x"`},
		{name: "pid zero", line: `{"eventMessage":"Sandbox: cat(0) deny(1) file-read-data /x"}`},
		{name: "empty", line: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseLogLine(tt.line)
			if ok != tt.wantOK || !got.Time.Equal(tt.want.Time) {
				t.Fatalf("ParseLogLine ok=%v time=%v, want ok=%v time=%v", ok, got.Time, tt.wantOK, tt.want.Time)
			}
			got.Time, tt.want.Time = time.Time{}, time.Time{}
			if got != tt.want {
				t.Errorf("ParseLogLine = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// auditSink collects what the broker's recorder writes.
type auditSink struct{ records []audit.Record }

func (s *auditSink) Write(r audit.Record) { s.records = append(s.records, r) }

// TestViolationToAudit follows a log line to the audit record the broker
// writes for it.
func TestViolationToAudit(t *testing.T) {
	eng := testEngine(t, testPolicy)
	tests := []struct {
		line string
		want audit.Record
	}{
		{
			line: `{"eventMessage":"Sandbox: cat(4242) deny(1) file-read-data /Users/u/.ssh/id_rsa"}`,
			want: audit.Record{Op: "read", Syscall: "sandbox:file-read-data", Path: "/Users/u/.ssh/id_rsa", PID: 4242,
				Decision: "deny", Rule: "deny:~/.ssh/**", RuleSrc: "test.yaml:5", Result: "EPERM"},
		},
		{
			line: `{"eventMessage":"Sandbox: sh(9) deny(1) file-write-create /Users/u/x"}`,
			want: audit.Record{Op: "create", Syscall: "sandbox:file-write-create", Path: "/Users/u/x", PID: 9,
				Decision: "deny", Rule: "default:deny", RuleSrc: "test.yaml:2", Result: "EPERM"},
		},
		{
			line: `{"eventMessage":"Sandbox: ls(10) deny(1) file-read-metadata /usr/bin/x"}`,
			want: audit.Record{Op: "stat", Syscall: "sandbox:file-read-metadata", Path: "/usr/bin/x", PID: 10,
				Decision: "deny", Rule: "sandbox:file-read-metadata", RuleSrc: "default", Result: "EPERM"},
		},
		{
			line: `{"eventMessage":"Sandbox: open(11) deny(1) mach-lookup com.apple.coreservices.launchservicesd"}`,
			want: audit.Record{Op: "mach-lookup", Syscall: "sandbox:mach-lookup", Path: "com.apple.coreservices.launchservicesd", PID: 11,
				Decision: "deny", Rule: "sandbox:mach-lookup", RuleSrc: "default", Result: "EPERM"},
		},
	}
	for _, tt := range tests {
		v, ok := ParseLogLine(tt.line)
		if !ok {
			t.Fatalf("ParseLogLine(%s) failed", tt.line)
		}
		sink := &auditSink{}
		s := broker.Session{ID: "S", Profile: "t", AgentCmd: "claude"}
		rec := broker.NewAuditRecorder(s, sink, true)
		broker.New(eng, rec).Record(v.Event(eng))
		if len(sink.records) != 1 {
			t.Fatalf("%d records, want 1", len(sink.records))
		}
		got := sink.records[0]
		if got.TS.IsZero() {
			t.Errorf("%s: no timestamp (the recorder stamps refusals: it counts them per second)", tt.line)
		}
		tt.want.TS = got.TS
		tt.want.Type, tt.want.SessionID, tt.want.Profile, tt.want.AgentCmd = audit.TypeEvent, "S", "t", "claude"
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.line, got, tt.want)
		}
		if _, denied := rec.Counts(); denied != 1 {
			t.Errorf("denied count = %d, want 1", denied)
		}
	}
}

func TestViolationOp(t *testing.T) {
	tests := []struct {
		op   string
		want policy.Op
	}{
		{op: "file-read-data", want: policy.OpRead},
		{op: "file-read-xattr", want: policy.OpRead},
		{op: "file-read-metadata", want: policy.OpStat},
		{op: "file-write-data", want: policy.OpWrite},
		{op: "file-write-create", want: policy.OpCreate},
		{op: "file-write-unlink", want: policy.OpUnlink},
		{op: "file-write-mode", want: policy.OpWrite},
		{op: "process-exec", want: policy.OpExec},
		{op: "process-exec-interpreter", want: policy.OpExec},
		{op: "file-map-executable", want: policy.OpExec},
		{op: "mach-lookup", want: ""},
		{op: "network-outbound", want: ""},
	}
	for _, tt := range tests {
		if got := (Violation{Operation: tt.op}).Op(); got != tt.want {
			t.Errorf("Op(%s) = %q, want %q", tt.op, got, tt.want)
		}
	}
}
