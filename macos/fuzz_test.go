package macos

import (
	"strings"
	"testing"
)

// FuzzParseLogLine: any line either is refused or yields a report with a
// positive pid and an operation name.
func FuzzParseLogLine(f *testing.F) {
	f.Add(`{"eventMessage":"Sandbox: cat(4242) deny(1) file-read-data /Users/u/.ssh/id_rsa"}`)
	f.Add("2026-11-30 10:00:00.123456+0100 0x2a3b Error 0x0 0 0 kernel: (Sandbox) Sandbox: a(b)(7) deny(2) mach-lookup x")
	f.Add(`{"eventMessage":`)
	f.Fuzz(func(t *testing.T, line string) {
		v, ok := ParseLogLine(line)
		if !ok {
			return
		}
		if v.PID <= 0 || v.Operation == "" || strings.ContainsAny(v.Operation, " /") {
			t.Fatalf("ParseLogLine(%q) = %+v", line, v)
		}
		_ = v.Event(nil)
	})
}
