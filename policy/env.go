package policy

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ActiveVar is set to "1" in every sandboxed agent's environment.
const ActiveVar = "AIXGATE_ACTIVE"

// envRules is the compiled env: section.
type envRules struct {
	literal map[string]bool // names listed literally in pass_through
	pass    []string        // pass_through patterns
	strip   []string        // strip patterns
	inject  []Inject
}

func compileEnv(x Env) envRules {
	c := envRules{literal: map[string]bool{}, inject: x.Inject}
	for _, r := range x.PassThrough {
		c.pass = append(c.pass, r.Pattern)
		if !strings.ContainsAny(r.Pattern, `*?[{\`) {
			c.literal[r.Pattern] = true
		}
	}
	for _, r := range x.Strip {
		c.strip = append(c.strip, r.Pattern)
	}
	return c
}

// Env filters an environment ("NAME=value" entries, as os.Environ gives)
// for the agent:
//
//  1. a name listed literally (not as a glob) in pass_through is kept;
//  2. otherwise a name matching strip (a name or a glob like *_TOKEN) is
//     dropped, so strip wins over a pass_through glob;
//  3. otherwise, when pass_through is not empty, only names matching one of
//     its entries (LC_* is allowed) are kept; an empty pass_through keeps
//     everything not stripped;
//  4. env.inject is applied (replacing a kept value), then AIXGATE_ACTIVE=1.
//
// The order of kept entries is preserved; injected ones that were not
// present are appended in the order written. Malformed entries (no "=")
// are dropped.
func (e *Engine) Env(environ []string) []string {
	c := &e.env
	set := map[string]string{}
	for _, in := range c.inject {
		set[in.Name] = in.Value
	}
	set[ActiveVar] = "1"
	out := make([]string, 0, len(environ)+len(set))
	done := map[string]bool{}
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || done[name] || !c.keep(name) {
			continue
		}
		done[name] = true
		if v, ok := set[name]; ok {
			kv = name + "=" + v
		}
		out = append(out, kv)
	}
	for _, in := range c.inject {
		if !done[in.Name] {
			done[in.Name] = true
			out = append(out, in.Name+"="+set[in.Name])
		}
	}
	if !done[ActiveVar] {
		out = append(out, ActiveVar+"=1")
	}
	return out
}

func (c *envRules) keep(name string) bool {
	if c.literal[name] {
		return true
	}
	if matchAny(c.strip, name) {
		return false
	}
	return len(c.pass) == 0 || matchAny(c.pass, name)
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, err := doublestar.Match(p, name); ok && err == nil {
			return true
		}
	}
	return false
}
