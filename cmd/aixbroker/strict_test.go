package main

import (
	"bytes"
	"strings"
	"testing"
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
