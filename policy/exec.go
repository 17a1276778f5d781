package policy

import "strings"

// execRules is the compiled exec: section.
type execRules struct {
	allow    map[string]Rule
	first    Rule // the first exec.allow rule, named when a command is missing
	deny     map[string]Rule
	denyArgs map[string][]argRule
}

type argRule struct {
	tokens []string
	rule   Rule
}

func compileExec(x Exec) execRules {
	c := execRules{allow: map[string]Rule{}, deny: map[string]Rule{}, denyArgs: map[string][]argRule{}}
	for _, r := range x.Allow {
		if len(c.allow) == 0 {
			c.first = r
		}
		if _, ok := c.allow[r.Pattern]; !ok {
			c.allow[r.Pattern] = r
		}
	}
	for _, r := range x.Deny {
		if _, ok := c.deny[r.Pattern]; !ok {
			c.deny[r.Pattern] = r
		}
	}
	for _, r := range x.DenyArgs {
		c.denyArgs[r.Command] = append(c.denyArgs[r.Command], argRule{tokens: strings.Fields(r.Pattern), rule: r})
	}
	return c
}

func (c *execRules) denied(names ...string) (Rule, bool) {
	for _, n := range names {
		if r, ok := c.deny[n]; ok && n != "" {
			return r, true
		}
	}
	return Rule{}, false
}

// notAllowed returns a rule naming exec.allow when the list is not empty
// and base is not in it.
func (c *execRules) notAllowed(base string) (Rule, bool) {
	if len(c.allow) == 0 {
		return Rule{}, false
	}
	if _, ok := c.allow[base]; ok {
		return Rule{}, false
	}
	r := c.first
	r.Pattern, r.Comment = "", "command not listed in exec.allow"
	return r, true
}

func (c *execRules) deniedArgs(base, arg0 string, args []string) (Rule, bool) {
	for _, name := range []string{base, arg0} {
		for _, ar := range c.denyArgs[name] {
			if containsRun(args, ar.tokens) {
				return ar.rule, true
			}
		}
		if arg0 == base {
			break
		}
	}
	return Rule{}, false
}
