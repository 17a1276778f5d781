package macos

import (
	"errors"
	"fmt"
	"strings"
)

// Level is how a Check turned out.
type Level string

// Check levels: Fail means exec will not work, Warn that it works with a
// documented loss (no interposer, SIP off).
const (
	OK   Level = "ok"
	Warn Level = "warn"
	Fail Level = "fail"
)

// Check is one line of `aixbroker doctor` on macOS.
type Check struct {
	Name   string
	Level  Level
	Detail string
}

// SIP is the parsed output of `csrutil status`.
type SIP struct {
	Status string          // "enabled", "disabled" or "unknown"
	Custom bool            // "(Custom Configuration)": some protections are off
	Parts  map[string]bool // the custom configuration, e.g. "Filesystem Protections": true
}

// Enabled reports whether SIP is on, including a custom configuration that
// keeps the protections dyld's DYLD_ stripping depends on.
func (s SIP) Enabled() bool { return s.Status == "enabled" }

// ParseCSRUtilStatus reads `csrutil status`:
//
//	System Integrity Protection status: enabled.
//
// or, with a custom configuration,
//
//	System Integrity Protection status: unknown (Custom Configuration).
//
//	Configuration:
//		Apple Internal: disabled
//		Kext Signing: enabled
//		Filesystem Protections: enabled
//		...
func ParseCSRUtilStatus(out string) (SIP, error) {
	const prefix = "System Integrity Protection status:"
	s := SIP{Parts: map[string]bool{}}
	found := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			rest = strings.TrimSuffix(strings.TrimSpace(rest), ".")
			s.Custom = strings.Contains(rest, "(Custom Configuration)")
			s.Status, _, _ = strings.Cut(rest, " ")
			found = true
			continue
		}
		name, val, ok := strings.Cut(line, ":")
		if !ok || !found || name == "Configuration" {
			continue
		}
		switch strings.TrimSpace(val) {
		case "enabled":
			s.Parts[strings.TrimSpace(name)] = true
		case "disabled":
			s.Parts[strings.TrimSpace(name)] = false
		}
	}
	switch {
	case !found:
		return SIP{}, errors.New("parse csrutil status: no status line")
	case s.Status != "enabled" && s.Status != "disabled" && s.Status != "unknown":
		return SIP{}, fmt.Errorf("parse csrutil status: unknown status %q", s.Status)
	}
	return s, nil
}

// host is what the checks need from the machine, so they can be tested
// anywhere.
type host struct {
	executable func(path string) error                           // nil when path is an executable file
	run        func(name string, args ...string) (string, error) // combined output
	interposer string                                            // Config.Interposer
	probe      func() error                                      // runs /usr/bin/true under the policy's profile; nil: no policy
}

// checks runs the doctor's checks against h.
func checks(h host) []Check {
	out := []Check{sandboxExecCheck(h)}
	if h.probe != nil {
		out = append(out, profileCheck(h))
	}
	return append(out, sipCheck(h), interposerCheck(h), logCheck(h))
}

func sandboxExecCheck(h host) Check {
	c := Check{Name: "sandbox-exec"}
	if err := h.executable(DefaultSandboxExec); err != nil {
		c.Level, c.Detail = Fail, fmt.Sprintf("%s: %v; the macOS backend needs it (docs/macos.md: fallback)", DefaultSandboxExec, err)
		return c
	}
	c.Level, c.Detail = OK, DefaultSandboxExec
	return c
}

func profileCheck(h host) Check {
	c := Check{Name: "generated profile"}
	if err := h.probe(); err != nil {
		c.Level, c.Detail = Fail, "the policy's profile does not run /usr/bin/true: "+err.Error()
		return c
	}
	c.Level, c.Detail = OK, "the policy's profile loads and runs /usr/bin/true"
	return c
}

func sipCheck(h host) Check {
	c := Check{Name: "System Integrity Protection"}
	out, err := h.run("/usr/bin/csrutil", "status")
	if err != nil && out == "" {
		c.Level, c.Detail = Warn, "csrutil status: "+err.Error()
		return c
	}
	s, err := ParseCSRUtilStatus(out)
	switch {
	case err != nil:
		c.Level, c.Detail = Warn, err.Error()
	case s.Enabled():
		c.Level, c.Detail = OK, "enabled: Apple's binaries drop DYLD_ variables, so no redaction or per-operation audit for them; the sandbox still applies"
	case s.Custom:
		c.Level, c.Detail = Warn, "custom configuration: DYLD_ stripping may be off; the sandbox still applies"
	default:
		c.Level, c.Detail = Warn, "disabled: the sandbox still applies; other system protections are off"
	}
	return c
}

func interposerCheck(h host) Check {
	c := Check{Name: "interposer"}
	if h.interposer == "" {
		c.Level, c.Detail = Warn, "not built yet: kernel enforcement only (redacted files are denied, not stubbed)"
		return c
	}
	if err := h.executable(h.interposer); err != nil {
		c.Level, c.Detail = Fail, h.interposer+": "+err.Error()
		return c
	}
	c.Level, c.Detail = OK, h.interposer
	return c
}

func logCheck(h host) Check {
	c := Check{Name: "sandbox log"}
	if err := h.executable("/usr/bin/log"); err != nil {
		c.Level, c.Detail = Warn, "/usr/bin/log: "+err.Error()+"; kernel denials will not reach the audit log"
		return c
	}
	c.Level, c.Detail = OK, "denials are read with log "+strings.Join(LogStreamArgs[:3], " ")
	return c
}
