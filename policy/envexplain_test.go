package policy

import (
	"strings"
	"testing"
)

func TestExplainEnvAgreesWithEnv(t *testing.T) {
	p, err := Parse("t.yaml", []byte(`profile: t
env:
  pass_through: [PATH, HOME, LC_*, GH_TOKEN]
  strip: ['*_TOKEN', LC_SECRET]
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
		{"NPM_TOKEN", "strip", "env.strip", "*_TOKEN"},
		{"LC_ALL", "pass", "env.pass_through", "LC_*"},
		{"LC_SECRET", "strip", "env.strip", "LC_SECRET"},
		{"AWS_SECRET_ACCESS_KEY", "strip", "env.default", ""},
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
