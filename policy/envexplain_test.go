package policy

import (
	"strings"
	"testing"
)

func TestExplainEnvAgreesWithEnv(t *testing.T) {
	p, err := Parse("t.yaml", []byte(`profile: t
env:
  pass_through: [PATH, HOME, LC_*, GH_TOKEN]
  strip: ['*_TOKEN', LC_SECRET, LC_PRIVATE]
  inject: {EDITOR: vi}
`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Compile(p, Vars{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, wantAction, wantList, wantPattern string
	}{
		{"PATH", "pass", "env.pass_through", "PATH"},
		{"GH_TOKEN", "pass", "env.pass_through", "GH_TOKEN"},
		{"NPM_TOKEN", "strip", "env.floor", "*TOKEN"},
		{"LC_ALL", "pass", "env.pass_through", "LC_*"},
		{"LC_SECRET", "strip", "env.floor", "*SECRET*"},
		{"LC_PRIVATE", "strip", "env.strip", "LC_PRIVATE"},
		{"AWS_SECRET_ACCESS_KEY", "strip", "env.floor", "*SECRET*"},
		{"FOO", "strip", "env.default", ""},
		{"EDITOR", "inject", "env.inject", "EDITOR"},
		{ActiveVar, "inject", "env.inject", ActiveVar},
	}
	for _, tt := range tests {
		x := e.ExplainEnv(tt.name)
		if x.Action != tt.wantAction || x.Rule.List != tt.wantList || x.Rule.Pattern != tt.wantPattern {
			t.Errorf("ExplainEnv(%s) = %s by %s %q, want %s by %s %q", tt.name, x.Action, x.Rule.List, x.Rule.Pattern, tt.wantAction, tt.wantList, tt.wantPattern)
		}
		kept := false
		for _, kv := range e.Env([]string{tt.name + "=v"}) {
			kept = kept || strings.HasPrefix(kv, tt.name+"=")
		}
		if kept != (x.Action != "strip") {
			t.Errorf("ExplainEnv(%s) says %s but Env kept=%v", tt.name, x.Action, kept)
		}
	}
}

// TestCredentialFloor: a policy with no env: section (it extends no
// profile) still strips credential-shaped names, whatever their case, and
// passes tool settings; a literal pass_through name or PassEnv lifts it.
func TestCredentialFloor(t *testing.T) {
	p, err := Parse("t.yaml", []byte("profile: t\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Compile(p, Vars{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	e.PassEnv("OPENROUTER_API_KEY")
	tests := []struct {
		name string
		keep bool
	}{
		{"GITHUB_TOKEN", false},
		{"AWS_SECRET_ACCESS_KEY", false},
		{"AWS_ACCESS_KEY_ID", false},
		{"npm_config__authToken", false},
		{"npm_config_//registry.example/:_authToken", false},
		{"PIP_INDEX_URL", true},
		{"npm_config_registry", true},
		{"GOPRIVATE", true},
		{"CFLAGS", true},
		{"SSH_AUTH_SOCK", false},
		{"PGPASSWORD", false},
		{"GOOGLE_APPLICATION_CREDENTIALS", false},
		{"AZURE_OPENAI_API_KEY", false},
		{"OPENROUTER_API_KEY", true}, // PassEnv
	}
	for _, tt := range tests {
		kept, stripped := e.FilterEnv([]string{tt.name + "=v"})
		got := len(kept) == 2 // the variable and AIXGATE_ACTIVE
		if got != tt.keep {
			t.Errorf("%s: kept %v, want %v (kept %q, stripped %q)", tt.name, got, tt.keep, kept, stripped)
		}
		if x := e.ExplainEnv(tt.name); (x.Action == "pass") != tt.keep {
			t.Errorf("%s: ExplainEnv says %s by %s", tt.name, x.Action, x.Rule.List)
		}
	}
}
