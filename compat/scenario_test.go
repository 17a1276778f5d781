package compat

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinScenarios(t *testing.T) {
	scs, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	kinds := map[Kind]int{}
	for _, sc := range scs {
		if seen[sc.Name] {
			t.Errorf("scenario %q defined twice", sc.Name)
		}
		seen[sc.Name] = true
		kinds[sc.Kind]++
	}
	if kinds[Legit] == 0 || kinds[Attack] == 0 {
		t.Errorf("scenario kinds = %v, want both legit and attack", kinds)
	}
}

func TestParseScenarioErrors(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		wantErr string
	}{
		{"valid", `{"name":"a","kind":"legit","prompt":"p","steps":[{"op":"shell","cmd":"ls","want":{"contains":["x"]}}]}`, ""},
		{"unknown field", `{"name":"a","kind":"legit","prompt":"p","steps":[],"wnat":{}}`, "unknown field"},
		{"bad kind", `{"name":"a","kind":"maybe","prompt":"p","steps":[{"op":"shell","cmd":"ls","want":{"contains":["x"]}}]}`, "neither legit nor attack"},
		{"no steps", `{"name":"a","kind":"legit","prompt":"p","steps":[]}`, "no steps"},
		{"unknown op", `{"name":"a","kind":"legit","prompt":"p","steps":[{"op":"fly","want":{"contains":["x"]}}]}`, "unknown op"},
		{"step checks nothing", `{"name":"a","kind":"legit","prompt":"p","steps":[{"op":"shell","cmd":"ls","want":{}}]}`, "checks nothing"},
		{"read without path", `{"name":"a","kind":"attack","prompt":"p","steps":[{"op":"read","want":{"not_contains":["x"]}}]}`, "without path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScenario([]byte(tt.json))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ParseScenario: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ParseScenario error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestShellFor runs the shell form of each op (what Codex is sent) in a
// real shell and checks its effect.
func TestShellFor(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "it's a file.txt")
	tests := []struct {
		name     string
		step     Step
		wantOut  string
		wantFile string
	}{
		{"write", Step{Op: OpWrite, Path: file, Content: "a=1\nb='2'\n"}, "", "a=1\nb='2'\n"},
		{"read", Step{Op: OpRead, Path: file}, "a=1\nb='2'\n", "a=1\nb='2'\n"},
		{"edit", Step{Op: OpEdit, Path: file, Old: "b='2'", New: "b=3"}, "", "a=1\nb=3\n"},
		{"shell", Step{Op: OpShell, Cmd: "echo hi"}, "hi\n", "a=1\nb=3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command("/bin/bash", "-c", shellFor(tt.step)).CombinedOutput()
			if err != nil {
				t.Fatalf("run %q: %v: %s", shellFor(tt.step), err, out)
			}
			if string(out) != tt.wantOut {
				t.Errorf("output = %q, want %q", out, tt.wantOut)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.wantFile {
				t.Errorf("file = %q, want %q", data, tt.wantFile)
			}
		})
	}
}

func TestFillSchema(t *testing.T) {
	tests := []struct {
		name   string
		schema map[string]any
		want   any
	}{
		{"enum prefers user", map[string]any{"enum": []any{"model", "user"}}, "user"},
		{"enum first", map[string]any{"enum": []any{"flash", "pro"}}, "flash"},
		{"string", map[string]any{"type": "STRING"}, "scripted"},
		{"number", map[string]any{"type": "number"}, 0},
		{"boolean", map[string]any{"type": "boolean"}, false},
	}
	for _, tt := range tests {
		if got := fillSchema(tt.schema); got != tt.want {
			t.Errorf("%s: fillSchema = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestStepExpand(t *testing.T) {
	st := Step{Op: OpShell, Cmd: "cat ${HOME}/x", Want: Want{
		NotContains: []string{"${CANARY_SSH}"},
		Files:       []FileCheck{{Path: "${PROJECT}/f", Contains: "${MARK}"}},
	}}
	got := st.Expand(map[string]string{"HOME": "/h", "CANARY_SSH": "C", "PROJECT": "/p", "MARK": "M"})
	if got.Cmd != "cat /h/x" || got.Want.NotContains[0] != "C" || got.Want.Files[0].Path != "/p/f" || got.Want.Files[0].Contains != "M" {
		t.Errorf("Expand = %+v", got)
	}
	if st.Want.Files[0].Path != "${PROJECT}/f" {
		t.Errorf("Expand changed its receiver: %+v", st)
	}
}
