package policy

import (
	"strings"
	"testing"
)

func TestExpandGlob(t *testing.T) {
	tests := []struct {
		pattern string
		vars    Vars
		want    string
		wantErr string
	}{
		{"${PROJECT}/**", testVars, "/home/u/proj/**", ""},
		{"~", testVars, "/home/u", ""},
		{"~/.ssh/id_*", testVars, "/home/u/.ssh/id_*", ""},
		{"${HOME}/x", testVars, "/home/u/x", ""},
		{"${TMPDIR}/a-*/**", testVars, "/tmp/u/a-*/**", ""},
		{"${AIXGATE_CONFIG_DIR}/audit.jsonl", testVars, "/home/u/.aixgate/audit.jsonl", ""},
		{"**/.env", testVars, "/**/.env", ""},
		{".env", testVars, "/**/.env", ""},
		{"src/*.go", testVars, "/**/src/*.go", ""},
		{"**", testVars, "/**", ""},
		{"/a//b/./c/", testVars, "/a/b/c", ""},
		{"${PROJECT}/../shared/**", testVars, "/home/u/shared/**", ""},
		{"../x", testVars, "/**/../x", ""}, // never matches; Check reports it
		{"${PROJECT}/**", Vars{Project: "/p[1]/{a}"}, `/p\[1\]/\{a\}/**`, ""},
		{"${PROJECT}/**", Vars{Project: "/p/"}, "/p/**", ""},
		{"${PROJECT}/**", Vars{Project: "/p/${HOME}/~"}, `/p/$\{HOME\}/~/**`, ""},
		{"${PROJECT}/**", Vars{}, "", "must be set to an absolute path"},
		{"${HOME}/**", Vars{Home: "relative"}, "", "must be set to an absolute path"},
		{"${NOPE}/x", testVars, "", "unknown variable ${NOPE}"},
		{"~bob/x", testVars, "", "not ~user"},
	}
	for _, tt := range tests {
		got, err := expandGlob(tt.pattern, tt.vars)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("expandGlob(%q) error = %v, want %q", tt.pattern, err, tt.wantErr)
		case tt.wantErr == "" && err != nil:
			t.Errorf("expandGlob(%q) error = %v", tt.pattern, err)
		case got != tt.want:
			t.Errorf("expandGlob(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func TestVariableValuesMatchLiterally(t *testing.T) {
	p, err := Parse("t.yaml", []byte("profile: x\nfilesystem:\n  allow_read: ['${PROJECT}/**']\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Compile(p, Vars{Project: "/w/p*"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want Action
	}{
		{"/w/p*/file", Allow},
		{"/w/pother/file", Deny}, // the * in the project name is not a wildcard
	}
	for _, tt := range tests {
		if got := e.Decide(OpRead, tt.path).Action; got != tt.want {
			t.Errorf("read %s = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestCompileErrorNamesRule(t *testing.T) {
	p, err := Parse("t.yaml", []byte("profile: x\nfilesystem:\n  allow_read:\n    - ${PROJECT}/**\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(p, Vars{Home: "/h"})
	if err == nil || !strings.Contains(err.Error(), "t.yaml:4:7:") || !strings.Contains(err.Error(), "${PROJECT}") {
		t.Errorf("Compile without PROJECT: error %v, want one naming t.yaml:4:7 and ${PROJECT}", err)
	}
}
