package policy

import "testing"

// testVars is the fake host of the tests.
var testVars = Vars{Project: "/home/u/proj", Home: "/home/u", TmpDir: "/tmp/u", ConfigDir: "/home/u/.aixgate"}

// mustCompile parses and compiles a policy written in a test.
func mustCompile(t testing.TB, src string) *Engine {
	t.Helper()
	p, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	e, err := Compile(p, testVars)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return e
}
