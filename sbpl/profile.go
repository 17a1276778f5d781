package sbpl

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
)

// Options adjust a generated profile beyond the policy.
type Options struct {
	// PrivateDirs are directories the agent may neither read nor write,
	// whatever the policy: the launcher's directory holding the profile.
	PrivateDirs []string
	// Interposer is the absolute path of the interposer library, made
	// readable and mappable when set. Empty: no interposer (the default
	// until the library exists).
	Interposer string
	// LogTag, when set, is attached to the default deny with
	// (with message ...), so the launcher can pick this session's
	// denials out of the system log. Letters, digits, '-', '_' and ':'.
	LogTag string
}

// The operations of each kind of rule. exec is allowed by both allow lists
// (policy.Engine.Decide allows exec on allow_read), and refused by redact
// and deny. A redacted file stays visible to stat, as on Linux.
const (
	opsAllowRead  = "file-read* file-map-executable process-exec*"
	opsAllowWrite = "file-read* file-write* file-map-executable process-exec*"
	opsRedact     = "file-read-data file-read-xattr file-write* file-map-executable process-exec*"
	opsDeny       = "file-read* file-write* file-map-executable process-exec*"
	opsAllowAll   = "file-read* file-write* file-map-executable process-exec*"
)

// Generate writes the SBPL profile of a compiled policy. In order (later
// rules win, so each section can only be overridden by the sections after
// it):
//
//  1. (version 1) and (deny default): there is no (allow default);
//  2. the system allowances (systemRules), each with its reason;
//  3. traverse: file-read-metadata on the directories above what the
//     policy allows, as the engine's traverse rule does for stat;
//  4. default: allow policies only: files become readable, writable and
//     executable, never anything else;
//  5. allow_read, then allow_write, then read_only (deny file-write*: it
//     narrows, so it grants no read of its own);
//  6. redact, then deny, both matching letters in either case;
//  7. exec.allow (anything else refused) and exec.deny, by basename;
//  8. guards: no write to the aixbroker config dir (audit log, profiles)
//     and no access to Options.PrivateDirs, whatever the policy says.
//
// Every glob is translated by TranslateGlob; a glob it refuses is an error
// naming the rule, so a policy is never enforced partly.
func Generate(e *policy.Engine, opts Options) ([]byte, error) {
	if e == nil {
		return nil, errors.New("generate profile: nil engine")
	}
	g := &gen{opts: opts}
	p := e.Policy()
	g.header(p, e.Vars())
	g.system()
	rules := e.Rules()
	g.traverse(rules)
	if p.DefaultAction() == policy.Allow {
		g.section("default: allow (files only)")
		g.line(nil, fmt.Sprintf("(allow %s (subpath \"/\"))", opsAllowAll))
	}
	g.fsRules(rules, p.DefaultAction())
	g.exec(p.Exec)
	g.guards(e.Vars())
	if err := errors.Join(g.errs...); err != nil {
		return nil, fmt.Errorf("generate profile for %s: %w", p.File, err)
	}
	return []byte(g.b.String()), nil
}

// gen accumulates the profile text and the rules it could not translate.
type gen struct {
	opts Options
	b    strings.Builder
	errs []error
}

func (g *gen) header(p *policy.Policy, v policy.Vars) {
	fmt.Fprintf(&g.b, "; aixbroker sandbox profile for policy %s (%s), generated: do not edit.\n", clean(p.Name), clean(p.File))
	fmt.Fprintf(&g.b, "; HOME=%s PROJECT=%s TMPDIR=%s AIXGATE_CONFIG_DIR=%s\n", clean(v.Home), clean(v.Project), clean(v.TmpDir), clean(v.ConfigDir))
	g.b.WriteString("; Later rules win over earlier ones: allows come first, denies after them.\n")
	g.b.WriteString("(version 1)\n")
	if g.opts.LogTag != "" && validTag(g.opts.LogTag) {
		fmt.Fprintf(&g.b, "(deny default (with message %s))\n", quote(g.opts.LogTag))
		return
	}
	g.b.WriteString("(deny default)\n")
}

func validTag(s string) bool {
	for _, r := range s {
		if !isLetter(r) && !('0' <= r && r <= '9') && !strings.ContainsRune("-_:", r) {
			return false
		}
	}
	return true
}

func (g *gen) section(name string) { fmt.Fprintf(&g.b, "\n;; %s\n", name) }

// line writes one rule, preceded by its comment lines.
func (g *gen) line(comments []string, rule string) {
	for _, c := range comments {
		g.b.WriteString("; " + clean(c) + "\n")
	}
	g.b.WriteString(rule + "\n")
}

func (g *gen) system() {
	g.section("system allowances: what a process needs to start")
	for _, r := range systemRules {
		rule := "(allow " + r.ops
		if len(r.filters) > 0 {
			rule += " " + strings.Join(r.filters, " ")
		}
		g.line([]string{r.reason}, rule+")")
	}
	if g.opts.Interposer != "" {
		fs, err := TranslateGlob(escapeLiteral(g.opts.Interposer), false)
		if err != nil {
			g.errs = append(g.errs, fmt.Errorf("interposer %s: %w", g.opts.Interposer, err))
			return
		}
		g.line([]string{"the aixbroker interposer, injected with DYLD_INSERT_LIBRARIES"},
			"(allow file-read* file-map-executable "+joinFilters(fs)+")")
	}
}

// traverse lets stat see the directories above every allowed pattern's
// literal prefix, like the engine's traverse rule.
func (g *gen) traverse(rules []policy.Rule) {
	set := map[string]bool{}
	for _, r := range rules {
		if r.List != "allow_read" && r.List != "allow_write" {
			continue
		}
		dir, ok := traverseDir(r.Glob)
		if !ok {
			continue
		}
		for d := dir; ; d = parentDir(d) {
			for _, a := range withPrivate(d) {
				set[a] = true
			}
			if d == "/" {
				break
			}
		}
	}
	dirs := make([]string, 0, len(set))
	for d := range set {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var fs []string
	for _, d := range dirs {
		fs = append(fs, Filter{Kind: Literal, Value: d}.String())
	}
	if len(fs) == 0 {
		return
	}
	g.section("traverse: stat may see the directories leading to what is allowed")
	g.line(nil, "(allow file-read-metadata\n  "+strings.Join(fs, "\n  ")+")")
}

// traverseDir is the literal directory an allowed glob lies in: the engine's
// compileGlob key ("DIR/**" → DIR, "/a/b" → /a, "/a/x*" → /a). Patterns
// anchored anywhere have none.
func traverseDir(glob string) (string, bool) {
	meta := strings.IndexAny(glob, `*?[{\`)
	switch {
	case meta < 0:
		return parentDir(glob), true
	case strings.HasSuffix(glob, "/**") && meta == len(glob)-2:
		d := glob[:len(glob)-3]
		return orRoot(d), d != ""
	}
	d := parentDir(glob[:meta])
	return d, d != "/"
}

func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// fsRules writes the five filesystem lists, allows first.
func (g *gen) fsRules(rules []policy.Rule, def policy.Action) {
	byList := map[string][]policy.Rule{}
	for _, r := range rules {
		byList[r.List] = append(byList[r.List], r)
	}
	readOps, readAction := opsAllowRead, "allow"
	if def == policy.Allow {
		readOps, readAction = "file-write*", "deny" // reads are allowed already; allow_read means read-only
	}
	g.fsList("allow_read", byList["allow_read"], readAction, readOps, false)
	g.fsList("allow_write", byList["allow_write"], "allow", opsAllowWrite, false)
	g.fsList("read_only (readable where allowed above, never written)", byList["read_only"], "deny", "file-write*", true)
	g.fsList("redact (macOS cannot serve a stub: denied, visible to stat)", byList["redact"], "deny", opsRedact, true)
	g.fsList("deny", byList["deny"], "deny", opsDeny, true)
}

func (g *gen) fsList(title string, rules []policy.Rule, action, ops string, fold bool) {
	if len(rules) == 0 {
		return
	}
	g.section(title)
	for _, r := range rules {
		fs, err := TranslateGlob(r.Glob, fold)
		if err != nil {
			g.errs = append(g.errs, fmt.Errorf("%s (%s): %w", r.ID(), r.Source, err))
			continue
		}
		filter := joinFilters(fs)
		if len(r.ExceptGlobs) > 0 {
			ex, err := exceptFilter(r.ExceptGlobs)
			if err != nil {
				g.errs = append(g.errs, fmt.Errorf("%s (%s): %w", r.ID(), r.Source, err))
				continue
			}
			filter = "(require-all (require-any " + filter + ") " + ex + ")"
		}
		g.line([]string{r.ID()}, "("+action+" "+ops+" "+filter+")")
	}
}

// exceptFilter is the filter leaving out a redact rule's except globs. They
// match in the exact case only: an exception takes a path out of a
// redaction, so on a case-insensitive disk it narrows, never widens.
func exceptFilter(globs []string) (string, error) {
	var all []Filter
	for _, x := range globs {
		fs, err := TranslateGlob(x, false)
		if err != nil {
			return "", fmt.Errorf("except %s: %w", x, err)
		}
		all = append(all, fs...)
	}
	return "(require-not (require-any " + joinFilters(all) + "))", nil
}

// exec writes the exec lists. Names match the basename of the executed
// file; argv[0] and exec.deny_args cannot be seen by the sandbox.
func (g *gen) exec(x policy.Exec) {
	if len(x.Allow) == 0 && len(x.Deny) == 0 {
		return
	}
	g.section("exec lists, by basename of the executed file")
	if len(x.Allow) > 0 {
		re, err := basenameRegex(x.Allow, false)
		if err != nil {
			g.errs = append(g.errs, err)
		} else {
			g.line([]string{"exec.allow: only these commands run"}, `(deny process-exec* (require-not (regex #"`+re+`")))`)
		}
	}
	if len(x.Deny) > 0 {
		re, err := basenameRegex(x.Deny, true)
		if err != nil {
			g.errs = append(g.errs, err)
		} else {
			g.line([]string{"exec.deny"}, `(deny process-exec* (regex #"`+re+`"))`)
		}
	}
}

// basenameRegex matches paths whose last element is one of the rules' names.
func basenameRegex(rules []policy.Rule, fold bool) (string, error) {
	var names []string
	for _, r := range rules {
		if err := checkText(r.Pattern); err != nil {
			return "", fmt.Errorf("%s (%s): %w", r.ID(), r.Source, err)
		}
		t := &translator{fold: fold}
		for _, c := range r.Pattern {
			t.literal(c)
		}
		names = append(names, t.b.String())
	}
	return "/(" + strings.Join(names, "|") + ")$", nil
}

// guards are written last, so no policy rule can undo them.
func (g *gen) guards(v policy.Vars) {
	var lines []string
	if v.ConfigDir != "" {
		fs, err := TranslateGlob(escapeLiteral(v.ConfigDir)+"/**", true)
		if err != nil {
			g.errs = append(g.errs, fmt.Errorf("config dir %s: %w", v.ConfigDir, err))
		} else {
			lines = append(lines, "; the audit log and profiles: never writable from inside\n(deny file-write* "+joinFilters(fs)+")")
		}
	}
	for _, d := range g.opts.PrivateDirs {
		fs, err := TranslateGlob(escapeLiteral(d)+"/**", true)
		if err != nil {
			g.errs = append(g.errs, fmt.Errorf("private dir %s: %w", d, err))
			continue
		}
		lines = append(lines, "; the launcher's private directory (this profile)\n(deny file-read* file-write* "+joinFilters(fs)+")")
	}
	if len(lines) == 0 {
		return
	}
	g.section("guards: whatever the policy says")
	for _, l := range lines {
		g.b.WriteString(l + "\n")
	}
}

func joinFilters(fs []Filter) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, " ")
}

// escapeLiteral quotes the glob meta-characters of a plain path.
func escapeLiteral(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clean makes s safe inside a ; comment: one line, no control characters.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
