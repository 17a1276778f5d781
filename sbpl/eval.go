package sbpl

import (
	"fmt"
	"regexp"
	"strings"
)

// Evaluator decides operations on paths the way the macOS sandbox decides
// them for the subset of SBPL that Generate writes. It exists to test the
// generator on machines without macOS; the kernel is the authority.
//
// The semantics it relies on (see docs/macos.md):
//   - "(deny default)" or "(allow default)" sets the answer when no rule
//     applies;
//   - a rule applies when one of its operations names the queried operation
//     (an operation ending in '*' names every operation it prefixes:
//     file-read* covers file-read-data and file-read-metadata) and it has no
//     filter or any of its filters matches: the filters of one rule are
//     alternatives;
//   - among the rules that apply, the last one written wins;
//   - (literal P) matches P exactly; (subpath P) matches P and every path
//     below it, by whole path components; (regex R) matches when the POSIX
//     extended regular expression R matches the path (the generator anchors
//     every R with ^ and $); (require-not F), (require-all F…) and
//     (require-any F…) combine filters;
//   - a filter that is not about paths (global-name, target, …) never
//     matches a path query.
type Evaluator struct {
	def   bool // the default answer: true for allow
	rules []evalRule
}

type evalRule struct {
	allow bool
	ops   []string
	match []pathMatcher // empty: every path
	text  string
}

type pathMatcher func(path string) bool

// Verdict is the Evaluator's answer for one query.
type Verdict struct {
	Allow bool
	Rule  string // the winning rule as written, or "(deny default)"
}

// NewEvaluator parses an SBPL profile.
func NewEvaluator(profile []byte) (*Evaluator, error) {
	forms, err := parseSexprs(string(profile))
	if err != nil {
		return nil, err
	}
	e := &Evaluator{}
	for _, f := range forms {
		if err := e.add(f); err != nil {
			return nil, fmt.Errorf("parse profile: %s: %w", render(f), err)
		}
	}
	return e, nil
}

func (e *Evaluator) add(f node) error {
	if !f.isSeq || len(f.list) == 0 || f.list[0].kind != symbol || f.list[0].isSeq {
		return fmt.Errorf("not a rule")
	}
	head := f.list[0].atom
	switch head {
	case "version":
		if len(f.list) != 2 || f.list[1].atom != "1" {
			return fmt.Errorf("only (version 1) is supported")
		}
		return nil
	case "allow", "deny":
	default:
		return fmt.Errorf("unsupported form %s", head)
	}
	r := evalRule{allow: head == "allow", text: render(f)}
	for _, a := range f.list[1:] {
		if !a.isSeq && a.kind == symbol {
			r.ops = append(r.ops, a.atom)
			continue
		}
		if a.isSeq && len(a.list) > 0 && a.list[0].atom == "with" {
			continue // an action modifier such as (with message "..."): no effect on the verdict
		}
		m, err := compileFilter(a)
		if err != nil {
			return err
		}
		r.match = append(r.match, m)
	}
	if len(r.ops) == 1 && r.ops[0] == "default" && len(r.match) == 0 {
		e.def = r.allow
		return nil
	}
	if len(r.ops) == 0 {
		return fmt.Errorf("rule without operation")
	}
	e.rules = append(e.rules, r)
	return nil
}

// compileFilter compiles one filter expression.
func compileFilter(n node) (pathMatcher, error) {
	if !n.isSeq || len(n.list) == 0 || n.list[0].isSeq {
		return nil, fmt.Errorf("bad filter %s", render(n))
	}
	args := n.list[1:]
	switch name := n.list[0].atom; name {
	case "literal", "subpath", "regex":
		if len(args) != 1 || args[0].isSeq || args[0].kind == symbol {
			return nil, fmt.Errorf("%s takes one string", name)
		}
		return pathFilter(name, args[0])
	case "require-not":
		if len(args) != 1 {
			return nil, fmt.Errorf("require-not takes one filter")
		}
		m, err := compileFilter(args[0])
		if err != nil {
			return nil, err
		}
		return func(p string) bool { return !m(p) }, nil
	case "require-all", "require-any":
		ms := make([]pathMatcher, 0, len(args))
		for _, a := range args {
			m, err := compileFilter(a)
			if err != nil {
				return nil, err
			}
			ms = append(ms, m)
		}
		all := name == "require-all"
		return func(p string) bool {
			for _, m := range ms {
				if m(p) != all {
					return !all
				}
			}
			return all
		}, nil
	}
	return func(string) bool { return false }, nil // not a path filter
}

func pathFilter(name string, arg node) (pathMatcher, error) {
	v := arg.atom
	switch name {
	case "literal":
		return func(p string) bool { return p == v }, nil
	case "subpath":
		if v == "/" {
			return func(p string) bool { return strings.HasPrefix(p, "/") }, nil
		}
		return func(p string) bool { return p == v || strings.HasPrefix(p, v+"/") }, nil
	}
	re, err := regexp.Compile("(?s)" + v) // '.' matches any character, newline included
	if err != nil {
		return nil, fmt.Errorf("compile regex %q: %w", v, err)
	}
	return re.MatchString, nil
}

// Decide returns the verdict for op (an SBPL operation name such as
// file-read-data, file-write-data, file-read-metadata or process-exec) on a
// path: the last applicable rule, else the default.
func (e *Evaluator) Decide(op, path string) Verdict {
	v := Verdict{Allow: e.def, Rule: "(deny default)"}
	if e.def {
		v.Rule = "(allow default)"
	}
	for _, r := range e.rules {
		if r.applies(op, path) {
			v = Verdict{Allow: r.allow, Rule: r.text}
		}
	}
	return v
}

func (r *evalRule) applies(op, path string) bool {
	named := false
	for _, o := range r.ops {
		if o == op || (strings.HasSuffix(o, "*") && strings.HasPrefix(op, strings.TrimSuffix(o, "*"))) {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	if len(r.match) == 0 {
		return true
	}
	for _, m := range r.match {
		if m(path) {
			return true
		}
	}
	return false
}

// render writes a node back as compact SBPL text, for messages.
func render(n node) string {
	if !n.isSeq {
		switch n.kind {
		case str:
			return quote(n.atom)
		case rx:
			return `#"` + n.atom + `"`
		}
		return n.atom
	}
	parts := make([]string, len(n.list))
	for i, c := range n.list {
		parts[i] = render(c)
	}
	return "(" + strings.Join(parts, " ") + ")"
}
