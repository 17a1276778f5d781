package policy

import "strings"

// ActiveVar is set to "1" in every sandboxed agent's environment.
const ActiveVar = "AIXGATE_ACTIVE"

// credentialFloor is stripped under every policy, including one that
// extends no profile and has no env: section: only a name listed literally
// in env.pass_through (or given to exec --pass-env) lifts it. Patterns are
// matched against the upper-cased name, so npm_config__authToken and
// NPM_CONFIG__AUTH both match.
var credentialFloor = []Rule{
	{Pattern: "*TOKEN", Comment: "access tokens (GITHUB_TOKEN, NPM_TOKEN, CARGO_REGISTRY_TOKEN)"},
	{Pattern: "*_TOKEN_*", Comment: "tokens with a suffix (ACTIONS_ID_TOKEN_REQUEST_URL)"},
	{Pattern: "*AUTHTOKEN*", Comment: "npm_config_//host/:_authToken"},
	{Pattern: "*_AUTH*", Comment: "auth settings and sockets (npm_config__auth, SSH_AUTH_SOCK, PIP_*_AUTH)"},
	{Pattern: "*SECRET*", Comment: "client secrets (AWS_SECRET_ACCESS_KEY)"},
	{Pattern: "*PASSWORD*", Comment: "passwords (PGPASSWORD)"},
	{Pattern: "*PASSWD*", Comment: "passwords"},
	{Pattern: "*_KEY", Comment: "API keys (OPENAI_API_KEY): each agent profile passes its own by name"},
	{Pattern: "*APIKEY*", Comment: "API keys spelt without an underscore"},
	{Pattern: "*_KEY_ID", Comment: "access key ids (AWS_ACCESS_KEY_ID)"},
	{Pattern: "*CREDENTIAL*", Comment: "credential files and blobs (GOOGLE_APPLICATION_CREDENTIALS)"},
	{Pattern: "*_PAT", Comment: "personal access tokens"},
	{Pattern: "DATABASE_URL", Comment: "database URLs carry passwords"},
}

func init() {
	for i := range credentialFloor {
		credentialFloor[i].List, credentialFloor[i].Source = "env.floor", Source{File: "builtin:floor", Line: i + 1}
	}
}

// envRules is the compiled env: section.
type envRules struct {
	literal map[string]Rule // names listed literally in pass_through
	pass    []Rule          // pass_through entries
	strip   []Rule          // strip entries
	inject  []Inject
}

func compileEnv(x Env) envRules {
	c := envRules{literal: map[string]Rule{}, inject: x.Inject, pass: x.PassThrough, strip: x.Strip}
	for _, r := range x.PassThrough {
		if !strings.ContainsAny(r.Pattern, `*?[{\`) {
			c.literal[r.Pattern] = r
		}
	}
	return c
}

// PassEnv lets the named variables through for this engine's session, as
// literal pass_through entries would (exec --pass-env): they lift the
// credential floor and the strip list.
func (e *Engine) PassEnv(names ...string) {
	for _, n := range names {
		r := Rule{List: "env.pass_through", Pattern: n, Source: Source{File: "exec --pass-env"}}
		e.env.literal[n] = r // not a pass_through entry: an empty list still passes the rest
	}
}

// Env filters an environment ("NAME=value" entries, as os.Environ gives)
// for the agent, each name decided by ExplainEnv: inject first, then a
// literal pass_through name, the credential floor, strip, and pass_through
// globs (an empty pass_through keeps everything not stripped). The order of
// kept entries is preserved; injected ones that were not present are
// appended in the order written, then AIXGATE_ACTIVE=1. Malformed entries
// (no "=") are dropped.
func (e *Engine) Env(environ []string) []string {
	out, _ := e.FilterEnv(environ)
	return out
}

// FilterEnv is Env, and also returns the names stripped, in order.
func (e *Engine) FilterEnv(environ []string) (kept, stripped []string) {
	c := &e.env
	set := map[string]string{}
	for _, in := range c.inject {
		set[in.Name] = in.Value
	}
	set[ActiveVar] = "1"
	kept = make([]string, 0, len(environ)+len(set))
	done := map[string]bool{}
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || done[name] {
			continue
		}
		if e.explainInherited(name).Action == "strip" {
			if _, injected := set[name]; !injected {
				stripped = append(stripped, name)
			}
			continue // an injected one is appended below
		}
		done[name] = true
		if v, ok := set[name]; ok {
			kv = name + "=" + v
		}
		kept = append(kept, kv)
	}
	for _, in := range c.inject {
		if !done[in.Name] {
			done[in.Name] = true
			kept = append(kept, in.Name+"="+set[in.Name])
		}
	}
	if !done[ActiveVar] {
		kept = append(kept, ActiveVar+"=1")
	}
	return kept, stripped
}
