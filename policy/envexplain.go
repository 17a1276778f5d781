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
	Rule   Rule   `json:"rule"`            // List is env.pass_through, env.strip, env.inject or env.default
}

// ExplainEnv explains what Env does with the variable name, following the
// same steps as Env: inject (and AIXGATE_ACTIVE) first, then a literal
// pass_through entry, a strip entry, a pass_through glob, and otherwise the
// default (pass when pass_through is empty, else strip).
func (e *Engine) ExplainEnv(name string) EnvExplanation {
	x := EnvExplanation{Name: name}
	env := e.policy.Env
	if name == ActiveVar {
		x.Action, x.Value = "inject", "1"
		x.Rule = Rule{List: "env.inject", Pattern: name, Comment: "always set in the sandbox"}
		return x
	}
	for i := len(env.Inject) - 1; i >= 0; i-- { // later entries win
		if in := env.Inject[i]; in.Name == name {
			x.Action, x.Value = "inject", in.Value
			x.Rule = Rule{List: "env.inject", Pattern: name, Source: in.Source}
			return x
		}
	}
	for _, r := range env.PassThrough {
		if r.Pattern == name && !strings.ContainsAny(r.Pattern, `*?[{\`) {
			x.Action, x.Rule = "pass", r
			return x
		}
	}
	if r, ok := firstEnvMatch(env.Strip, name); ok {
		x.Action, x.Rule = "strip", r
		return x
	}
	if len(env.PassThrough) == 0 {
		x.Action, x.Rule = "pass", Rule{List: "env.default", Comment: "env.pass_through is empty: every variable not stripped is passed"}
		return x
	}
	if r, ok := firstEnvMatch(env.PassThrough, name); ok {
		x.Action, x.Rule = "pass", r
		return x
	}
	x.Action, x.Rule = "strip", Rule{List: "env.default", Comment: "not listed in env.pass_through"}
	return x
}

func firstEnvMatch(rules []Rule, name string) (Rule, bool) {
	for _, r := range rules {
		if ok, err := doublestar.Match(r.Pattern, name); ok && err == nil {
			return r, true
		}
	}
	return Rule{}, false
}
