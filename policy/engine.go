package policy

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/bmatcuk/doublestar/v4"
)

// Rank of each filesystem list: lower wins (deny > redact > read_only >
// allow_write > allow_read).
const (
	rankDeny = iota
	rankRedact
	rankReadOnly
	rankWrite
	rankRead
	rankNone
)

var listRank = map[string]int{"deny": rankDeny, "redact": rankRedact, "read_only": rankReadOnly, "allow_write": rankWrite, "allow_read": rankRead}

// compiled is one filesystem rule with its glob compiled.
type compiled struct {
	rank   int
	rule   int32 // index in Engine.table
	m      matcher
	except []matcher // redact: paths the rule does not match after all
}

// match reports whether the rule matches p.
func (c *compiled) match(p string) bool {
	if !c.m.match(p) {
		return false
	}
	for i := range c.except {
		if c.except[i].match(p) {
			return false
		}
	}
	return true
}

// Engine is a compiled policy. It is safe for concurrent use; decisions are
// cached by (op, path).
type Engine struct {
	policy *Policy
	vars   Vars
	table  []Rule           // every rule a decision can name; Decision.Rule is a copy
	rules  []compiled       // filesystem rules in precedence order
	index  ruleIndex        // which rules can match a path
	trav   map[string]int32 // directory → traverse rule (table index)
	// travWrite holds the directories above an allow_write pattern, which
	// OpMkdir may create.
	travWrite  map[string]int32
	guard      map[string]int32 // directory above a read_only path → guard rule (table index)
	allow      int              // index in rules of the first allow_write or allow_read rule
	unredacted int              // index in rules of the first rule below redact (read_only and on)
	def        int32            // the default rule
	bad        int32            // the rule for a path that is not canonical
	exec       execRules        // exec: section
	env        envRules         // env: section
	unix       unixRules        // unix: section
	roots      Roots            // literal prefixes of the allow lists
	cache      *decisionCache   // (op, path) → decision
}

// Compile expands the policy's variables with v, compiles every glob once
// and indexes them by literal prefix. Errors name the rule's file:line:column.
func Compile(p *Policy, v Vars) (*Engine, error) {
	if p == nil {
		return nil, errors.New("compile policy: nil policy")
	}
	e := &Engine{policy: p, vars: v, index: newRuleIndex(), trav: map[string]int32{}, travWrite: map[string]int32{}, guard: map[string]int32{}, cache: newDecisionCache()}
	var errs []*Error
	e.def = e.add(Rule{List: "default", Pattern: string(p.DefaultAction()), Source: p.DefaultSource, Profile: p.Name})
	e.bad = e.add(Rule{List: "invalid-path", Comment: "decisions are only taken on canonical absolute paths"})
	fs := p.Filesystem
	for _, list := range [][]Rule{fs.Deny, fs.Redact, fs.ReadOnly, fs.AllowWrite, fs.AllowRead} {
		for _, r := range list {
			if err := e.addFS(r); err != nil {
				errs = append(errs, err)
			}
		}
	}
	e.allow, e.unredacted = firstRank(e.rules, rankWrite), firstRank(e.rules, rankReadOnly)
	e.exec = compileExec(p.Exec)
	e.env = compileEnv(p.Env)
	errs = append(errs, e.compileUnix(p.Unix)...)
	e.roots = e.computeRoots()
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b *Error) int {
			return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
		joined := make([]error, len(errs))
		for i, err := range errs {
			joined[i] = err
		}
		return nil, fmt.Errorf("compile policy %s: %w", p.File, errors.Join(joined...))
	}
	return e, nil
}

// firstRank returns the index of the first rule of rank at least rank
// (rules are in precedence order), or len(rules).
func firstRank(rules []compiled, rank int) int {
	for i, c := range rules {
		if c.rank >= rank {
			return i
		}
	}
	return len(rules)
}

func (e *Engine) add(r Rule) int32 {
	e.table = append(e.table, r)
	return int32(len(e.table) - 1)
}

// addFS expands and indexes one filesystem rule.
func (e *Engine) addFS(r Rule) *Error {
	rank, ok := listRank[r.List]
	if !ok {
		return &Error{File: r.Source.File, Line: r.Source.Line, Column: r.Source.Column, Msg: "unknown rule list " + r.List}
	}
	g, err := expandGlob(r.Pattern, e.vars)
	if err == nil && !doublestar.ValidatePattern(g) {
		err = fmt.Errorf("invalid glob %q", g)
	}
	if err != nil {
		return &Error{File: r.Source.File, Line: r.Source.Line, Column: r.Source.Column, Msg: fmt.Sprintf("%s %q: %v", r.List, r.Pattern, err)}
	}
	r.Glob = g
	var except []matcher
	r.ExceptGlobs = nil
	for _, x := range r.Except {
		xg, err := expandGlob(x, e.vars)
		if err == nil && !doublestar.ValidatePattern(xg) {
			err = fmt.Errorf("invalid glob %q", xg)
		}
		if err != nil {
			return &Error{File: r.Source.File, Line: r.Source.Line, Column: r.Source.Column, Msg: fmt.Sprintf("%s %q: except %q: %v", r.List, r.Pattern, x, err)}
		}
		r.ExceptGlobs = append(r.ExceptGlobs, xg)
		except = append(except, compileGlob(xg))
	}
	c := compiled{rank: rank, rule: e.add(r), m: compileGlob(g), except: except}
	e.rules = append(e.rules, c)
	e.index.add(len(e.rules)-1, &c.m)
	if rank == rankWrite || rank == rankRead {
		e.addTraverse(c, e.trav)
	}
	if rank == rankWrite {
		e.addTraverse(c, e.travWrite)
	}
	if rank == rankReadOnly {
		e.addGuard(c)
	}
	return nil
}

// addGuard protects the directories above a read_only path (and the
// literal directory of a pattern): they cannot be created, renamed or
// removed, or the agent could move the directory away, write the path
// under the new name and move it back.
func (e *Engine) addGuard(c compiled) {
	dir := c.m.key
	if c.m.kind == kindExact {
		dir = literalDir(dir)
	}
	r := e.table[c.rule]
	r.List = "guard"
	r.Comment = "holds a read_only path: it cannot be created, moved or removed"
	var gi int32 = -1
	ancestors(dir, func(d string) bool {
		if _, ok := e.guard[d]; !ok {
			if gi < 0 {
				gi = e.add(r)
			}
			e.guard[d] = gi
		}
		return true
	})
}

// addTraverse makes the directories above an allowed pattern's literal
// prefix visible to OpStat, so the agent can walk down to what it may use.
func (e *Engine) addTraverse(c compiled, into map[string]int32) {
	dir := c.m.key
	if c.m.kind == kindExact {
		dir = literalDir(dir)
	}
	if dir == "/" && c.m.kind != kindExact && c.m.key == "/" {
		return // a pattern anchored anywhere makes nothing traversable
	}
	r := e.table[c.rule]
	r.List = "traverse"
	var ti int32 = -1
	ancestors(dir, func(d string) bool {
		if _, ok := into[d]; !ok {
			if ti < 0 {
				ti = e.add(r)
			}
			into[d] = ti
		}
		return true
	})
}

// best returns the index (in e.rules) of the highest-precedence rule
// matching p, or -1.
func (e *Engine) best(p string) int { return e.first(p, 0) }

// reachable reports whether p is readable before the narrowing lists
// (redact, read_only) apply: an allow_write or allow_read rule matches it, or the
// default is allow.
func (e *Engine) reachable(p string) bool {
	return e.policy.DefaultAction() == Allow || e.first(p, e.allow) >= 0
}

// first returns the index (in e.rules) of the first rule at or after from
// matching p, or -1.
func (e *Engine) first(p string, from int) int {
	best := len(e.rules)
	e.index.visit(p, func(bucket []int) {
		for _, i := range bucket {
			if i >= best {
				break
			}
			if i >= from && e.rules[i].match(p) {
				best = i
				break
			}
		}
	})
	if best == len(e.rules) {
		return -1
	}
	return best
}

// matches returns the indexes (in e.rules) of every rule whose glob
// matches p, in precedence order, including rules an except: glob takes p
// out of (for Explain).
func (e *Engine) matches(p string) []int {
	var out []int
	e.index.visit(p, func(bucket []int) {
		for _, i := range bucket {
			if e.rules[i].m.match(p) {
				out = append(out, i)
			}
		}
	})
	slices.Sort(out)
	return out
}

// Policy returns the policy the engine was compiled from.
func (e *Engine) Policy() *Policy { return e.policy }

// Vars returns the variables the engine was compiled with.
func (e *Engine) Vars() Vars { return e.vars }

// Rules returns every filesystem rule with its expanded Glob, in
// precedence order (deny, redact, read_only, allow_write, allow_read).
func (e *Engine) Rules() []Rule {
	out := make([]Rule, len(e.rules))
	for i, c := range e.rules {
		out[i] = e.table[c.rule]
	}
	return out
}

// baseName is path.Base for the basename comparisons of exec rules.
func baseName(p string) string {
	if p == "" {
		return ""
	}
	return path.Base(p)
}
