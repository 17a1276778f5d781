package policy

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// EnvExplanation says what the sandbox does with one environment variable
// and which rule decided it.
type EnvExplanation struct {
	Name   string `json:"name"`
	Action string `json:"action"`          // "pass", "strip" or "inject"
	Value  string `json:"value,omitempty"` // the injected value
	Rule   Rule   `json:"rule"`            // List is env.pass_through, env.floor, env.strip, env.inject or env.default
}

// ExplainEnv decides what Env does with the variable name, and says which
// rule decided: inject (and AIXGATE_ACTIVE) first, then a literal
// pass_through entry, the built-in credential floor, a strip entry, a
// pass_through glob, and otherwise the default (pass when pass_through is
// empty, else strip). Env calls it for every name, so the two cannot
// disagree.
func (e *Engine) ExplainEnv(name string) EnvExplanation {
	if name == ActiveVar {
		return EnvExplanation{Name: name, Action: "inject", Value: "1", Rule: Rule{List: "env.inject", Pattern: name, Comment: "always set in the sandbox"}}
	}
	for i := len(e.env.inject) - 1; i >= 0; i-- { // later entries win
		if in := e.env.inject[i]; in.Name == name {
			return EnvExplanation{Name: name, Action: "inject", Value: in.Value, Rule: Rule{List: "env.inject", Pattern: name, Source: in.Source}}
		}
	}
	return e.explainInherited(name)
}

// explainInherited decides a variable the agent would inherit, inject
// aside: Env keeps an injected variable in its place when this keeps it.
func (e *Engine) explainInherited(name string) EnvExplanation {
	x := EnvExplanation{Name: name}
	c := &e.env
	if r, ok := c.literal[name]; ok {
		x.Action, x.Rule = "pass", r
		return x
	}
	if r, ok := firstEnvMatch(credentialFloor, strings.ToUpper(name)); ok {
		x.Action, x.Rule = "strip", r
		return x
	}
	if r, ok := firstEnvMatch(c.strip, name); ok {
		x.Action, x.Rule = "strip", r
		return x
	}
	if len(c.pass) == 0 {
		x.Action, x.Rule = "pass", Rule{List: "env.default", Comment: "env.pass_through is empty: every variable not stripped is passed"}
		return x
	}
	if r, ok := firstEnvMatch(c.pass, name); ok {
		x.Action, x.Rule = "pass", r
		return x
	}
	x.Action, x.Rule = "strip", Rule{List: "env.default", Comment: "not listed in env.pass_through"}
	return x
}

// firstEnvMatch returns the first rule whose glob matches name. In a
// variable name '*' matches any characters, '/' included (npm's
// npm_config_//host/:_authToken): the name is matched with its slashes
// spelt as another byte.
func firstEnvMatch(rules []Rule, name string) (Rule, bool) {
	name = strings.ReplaceAll(name, "/", "\x00")
	for _, r := range rules {
		if ok, err := doublestar.Match(r.Pattern, name); ok && err == nil {
			return r, true
		}
	}
	return Rule{}, false
}
