package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Severity grades a Finding.
type Severity string

// Severities. An error means the policy must not be used as is.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Finding is one problem Check found.
type Finding struct {
	Severity Severity
	Message  string
	Source   Source
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s", f.Source, f.Severity, f.Message)
}

// agentWritable are the home-relative name prefixes an agent profile may
// legitimately write: caches and the agents' own configuration. A write
// rule elsewhere in the home directory draws a warning.
var agentWritable = []string{
	".cache", ".npm", "go/pkg/mod", ".cargo/registry", ".cargo/git",
	".claude", ".local/share/claude", ".local/state/claude", ".config/claude",
	".codex", ".gemini", ".cursor", ".config/cursor", ".local/share/cursor-agent",
	".local/share/opencode", ".local/state/opencode", ".config/opencode", ".opencode", ".aider",
}

// Check compiles p with v and reports what is wrong or risky:
//
//   - errors: rules that do not compile; allow_read or allow_write of /,
//     /**, ~ or ~/** (everything, or the whole home directory); failing
//     entries of the policy's tests: list;
//   - warnings: allow_write outside ${PROJECT}, ${TMPDIR}, /tmp, /var/tmp,
//     /dev and the agents' own configuration and cache directories;
//     patterns that can never match (a relative pattern with ".."); rules
//     shadowed by an identical deny; redact and read_only rules no allow
//     rule reaches (they never take effect); default: allow; a chain that does not
//     include the generic profile (a policy file from a cloned repository
//     can leave out every deny).
//
// An empty result means the policy compiled and every test passed.
func Check(p *Policy, v Vars) []Finding {
	e, err := Compile(p, v)
	if err != nil {
		return compileFindings(err)
	}
	var out []Finding
	denied := map[string]Source{}
	for _, r := range e.Rules() {
		out = append(out, e.checkRule(r, denied)...)
	}
	out = append(out, e.unreachableNarrowing()...)
	out = append(out, e.checkUnix()...)
	out = append(out, checkIPC(p)...)
	out = append(out, e.checkDevices()...) // devices.go
	if p.DefaultAction() == Allow {
		out = append(out, Finding{SeverityWarning, "default: allow makes everything not denied visible and writable", p.DefaultSource})
	}
	if !slices.Contains(p.Chain, "builtin:"+GenericProfile) && p.File != "builtin:"+GenericProfile {
		out = append(out, Finding{SeverityWarning, "does not extend generic: the secrets generic denies (ssh keys, cloud credentials, browser profiles, the audit log) are not denied by this policy", Source{File: p.File}})
	}
	return append(out, e.runTests()...)
}

func (e *Engine) checkRule(r Rule, denied map[string]Source) []Finding {
	var out []Finding
	add := func(sev Severity, format string, args ...any) {
		out = append(out, Finding{sev, r.ID() + ": " + fmt.Sprintf(format, args...), r.Source})
	}
	if r.List == "deny" {
		denied[r.Glob] = r.Source
	} else if s, ok := denied[r.Glob]; ok {
		add(SeverityWarning, "never takes effect: the same glob is denied at %s", s)
	}
	if hasDotDot(r.Glob) {
		add(SeverityWarning, "can never match: canonical paths have no .. segments")
	}
	if r.List != "allow_read" && r.List != "allow_write" {
		return out
	}
	home := escapeGlob(e.vars.Home)
	switch r.Glob {
	case "/", "/**", home, home + "/**":
		add(SeverityError, "unsafe: allows %s", map[bool]string{true: "the whole home directory", false: "the whole filesystem"}[home != "" && strings.HasPrefix(r.Glob, home)])
		return out
	}
	if r.List == "allow_write" && !e.expectedWrite(r.Glob) {
		add(SeverityWarning, "allows writing outside the project, the temporary directories and the agents' own directories")
	}
	return out
}

// unreachableNarrowing warns about redact and read_only rules that no
// allow rule can reach: they narrow nothing, so the path they name stays hidden by the
// default. A rule reaches when the literal directories of the two globs
// are nested one in the other (a rule anchored anywhere reaches every
// rule); that over-approximates, so the warning is never wrong. Rules of
// the built-in profiles are exempt: there they guard against a file
// extending the profile that allows more.
func (e *Engine) unreachableNarrowing() []Finding {
	if e.policy.DefaultAction() == Allow {
		return nil
	}
	var out []Finding
	for _, n := range e.rules[:e.allow] {
		r := e.table[n.rule]
		if n.rank == rankDeny || strings.HasPrefix(r.Source.File, "builtin:") {
			continue
		}
		reached := false
		for _, a := range e.rules[e.allow:] {
			if under(n.m.key, a.m.key) || under(a.m.key, n.m.key) {
				reached = true
				break
			}
		}
		if !reached {
			out = append(out, Finding{SeverityWarning, r.ID() + ": never takes effect: no allow rule reaches it, so what it names stays hidden by default: deny; add an allow_read rule for it to narrow", r.Source})
		}
	}
	return out
}

// expectedWrite reports whether a write glob stays where agents write.
func (e *Engine) expectedWrite(glob string) bool {
	lit := glob
	if i := strings.IndexAny(glob, `*?[{\`); i >= 0 {
		lit = glob[:i]
	}
	for _, root := range []string{e.vars.Project, e.vars.TmpDir, "/tmp", "/var/tmp", "/dev"} {
		if root != "" && root != "/" && strings.HasPrefix(lit, escapeGlob(root)+"/") {
			return true
		}
	}
	if e.vars.Home == "" {
		return false
	}
	for _, rel := range agentWritable {
		if strings.HasPrefix(lit, escapeGlob(e.vars.Home)+"/"+rel) {
			return true
		}
	}
	return false
}

// runTests runs the policy's tests: list.
func (e *Engine) runTests() []Finding {
	var out []Finding
	for _, t := range e.policy.Tests {
		p, err := expandPath(t.Path, e.vars)
		if err != nil {
			out = append(out, Finding{SeverityError, fmt.Sprintf("test %s: %v", t.Path, err), t.Source})
			continue
		}
		d := e.Decide(t.Op, p)
		if d.Action != t.Want {
			out = append(out, Finding{SeverityError, fmt.Sprintf("test failed: %s %s: want %s, got %s by %s at %s",
				t.Op, p, t.Want, d.Action, d.Rule.ID(), d.Rule.Source), t.Source})
		}
	}
	return out
}

// compileFindings turns the joined errors of Compile into findings.
func compileFindings(err error) []Finding {
	var out []Finding
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		if pe, ok := err.(*Error); ok {
			out = append(out, Finding{SeverityError, pe.Msg, Source{File: pe.File, Line: pe.Line, Column: pe.Column}})
			return
		}
		if w := errors.Unwrap(err); w != nil {
			walk(w)
			return
		}
		out = append(out, Finding{Severity: SeverityError, Message: err.Error()})
	}
	walk(err)
	return out
}
