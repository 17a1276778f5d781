package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

func TestInsideSandboxRefuses(t *testing.T) {
	t.Setenv("AIXGATE_ACTIVE", "1")
	for _, args := range [][]string{{"exec", "--", "true"}, {"audit", "verify"}, {"audit", "tail"}} {
		root := newRootCmd()
		root.SetArgs(args)
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), "inside an aixbroker sandbox") || !strings.Contains(err.Error(), "outside the sandbox") {
			t.Errorf("%v: error %v, want the inside-a-sandbox sentence", args, err)
		}
	}
	root := newRootCmd()
	root.SetArgs([]string{"version"})
	root.SetOut(&bytes.Buffer{})
	if err := root.Execute(); err != nil {
		t.Errorf("version inside a sandbox: %v", err)
	}
}

func TestStrictCommandLine(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the error; "" means success
	}{
		{[]string{"audit", "taill"}, `unknown command "taill" for "aixbroker audit"; did you mean tail?`},
		{[]string{"policy", "explan"}, "did you mean explain?"},
		{[]string{"frob"}, `unknown command "frob" for "aixbroker"`},
		{[]string{"profile", "show"}, "profile show: wrong number of arguments (0 given); usage: aixbroker profile show NAME"},
		{[]string{"exec"}, "for example: aixbroker exec -- claude"},
		{[]string{"--version"}, ""},
		{[]string{"audit"}, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			root := newRootCmd()
			var out bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&out)
			root.SetArgs(tt.args)
			err := root.Execute()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v, want success", err)
			case tt.want != "" && err == nil:
				t.Fatalf("success, want an error with %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestStartLine: exec's start line names the variables a strip rule or
// the credential floor took, never their values, and counts the rest.
func TestStartLine(t *testing.T) {
	p, err := policy.Parse("t.yaml", []byte("profile: t\nenv:\n  pass_through: [PATH]\n"))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(p, policy.Vars{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	_, stripped := eng.FilterEnv([]string{"PATH=/bin", "GITHUB_TOKEN=secret-value", "FOO=bar"})
	line := startLine(eng, p, "/a.jsonl", stripped)
	for _, want := range []string{"profile t", "audit /a.jsonl", "stripped GITHUB_TOKEN", "1 variables not in the profile's env.pass_through", "--pass-env NAME"} {
		if !strings.Contains(line, want) {
			t.Errorf("start line %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "secret-value") {
		t.Errorf("start line shows a value: %q", line)
	}
}
