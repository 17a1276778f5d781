package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the root command in-process with args and returns what it
// printed on stdout and stderr, and its error.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.Execute()
	return out.String(), errOut.String(), err
}

// tempProject makes a project directory holding the given files (name →
// content) and returns its path.
func tempProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestInitPerProjectType(t *testing.T) {
	tests := []struct {
		name      string
		markers   []string
		wantKinds string
		wantLines []string // each must appear in the written file
		notLines  []string // none may appear
	}{
		{"go", []string{"go.mod"}, "Go", []string{"- ~/go/pkg/mod/**", "- ~/.cache/go-build/**"}, []string{"~/.npm"}},
		{"node", []string{"package.json"}, "Node.js", []string{"- ~/.npm/**"}, []string{"go-build"}},
		{"python pyproject", []string{"pyproject.toml"}, "Python", []string{"- ~/.cache/pip/**"}, []string{"~/.npm"}},
		{"python requirements", []string{"requirements.txt"}, "Python", []string{"- ~/.cache/pip/**"}, nil},
		{"rust", []string{"Cargo.toml"}, "Rust", []string{"- ~/.cargo/registry/**"}, []string{"~/.cache/pip"}},
		{"none", nil, "no language detected", []string{"extends: generic"}, []string{"~/.npm", "go-build", "pip", "cargo"}},
		{"go and node", []string{"go.mod", "package.json"}, "Go, Node.js", []string{"- ~/.cache/go-build/**", "- ~/.npm/**"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for _, m := range tt.markers {
				files[m] = ""
			}
			dir := tempProject(t, files)
			out, _, err := runCLI(t, "init", "--project", dir)
			if err != nil {
				t.Fatalf("init: %v", err)
			}
			path := filepath.Join(dir, ".aixgate.yaml")
			if !strings.Contains(out, "wrote "+path) || !strings.Contains(out, "aixbroker policy check") || !strings.Contains(out, "aixbroker exec -- claude") {
				t.Errorf("init output lacks the path or the next steps:\n%s", out)
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(body)
			for _, want := range append([]string{"extends: generic", "# tests:", "(" + tt.wantKinds + ")"}, tt.wantLines...) {
				if !strings.Contains(text, want) {
					t.Errorf("starter lacks %q:\n%s", want, text)
				}
			}
			for _, not := range tt.notLines {
				if strings.Contains(text, not) {
					t.Errorf("starter has %q but should not:\n%s", not, text)
				}
			}
		})
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	dir := tempProject(t, map[string]string{".aixgate.yaml": "mine\n", "go.mod": ""})
	_, _, err := runCLI(t, "init", "--project", dir)
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("init over an existing file: got %v, want an error naming --force", err)
	}
	body, _ := os.ReadFile(filepath.Join(dir, ".aixgate.yaml"))
	if string(body) != "mine\n" {
		t.Fatalf("init changed the existing file to %q", body)
	}

	out, _, err := runCLI(t, "init", "--project", dir, "--force", "--json")
	if err != nil {
		t.Fatalf("init --force: %v", err)
	}
	var res initResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("init --json printed %q: %v", out, err)
	}
	if !res.Overwritten || len(res.Kinds) != 1 || res.Kinds[0] != "Go" {
		t.Errorf("init --force --json = %+v, want overwritten Go", res)
	}
	body, _ = os.ReadFile(filepath.Join(dir, ".aixgate.yaml"))
	if !strings.Contains(string(body), "extends: generic") {
		t.Errorf("init --force did not replace the file: %q", body)
	}
}

func TestInitDoesNotFollowSymlink(t *testing.T) {
	dir := tempProject(t, nil)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, ".aixgate.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "init", "--project", dir); err == nil {
		t.Fatal("init over a symlink without --force succeeded")
	}
	if _, _, err := runCLI(t, "init", "--project", dir, "--force"); err != nil {
		t.Fatalf("init --force over a symlink: %v", err)
	}
	if body, _ := os.ReadFile(victim); string(body) != "keep\n" {
		t.Errorf("init --force wrote through the symlink: victim is now %q", body)
	}
}

func TestInitBadProject(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		if _, _, err := runCLI(t, "init", "--project", dir); err == nil || !strings.Contains(err.Error(), "--project") {
			t.Errorf("init --project %s: got %v, want an error naming --project", dir, err)
		}
	}
}

// TestInitStarterChecks uncomments the starter's tests: and runs policy
// check on it: what init writes must pass its own examples.
func TestInitStarterChecks(t *testing.T) {
	for _, markers := range [][]string{nil, {"go.mod"}, {"package.json"}, {"requirements.txt"}, {"Cargo.toml"}} {
		t.Run(strings.Join(markers, "+"), func(t *testing.T) {
			fakeHome(t)
			files := map[string]string{}
			for _, m := range markers {
				files[m] = ""
			}
			dir := canonicalProject(t, files)
			if _, _, err := runCLI(t, "init", "--project", dir); err != nil {
				t.Fatalf("init: %v", err)
			}
			path := filepath.Join(dir, ".aixgate.yaml")
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Turn every commented example into a rule.
			text := string(body)
			for _, r := range [][2]string{
				{"# tests:", "tests:"}, {"#   - {", "  - {"}, {"    # - ", "    - "},
				{"# exec:", "exec:"}, {"#   deny", "  deny"}, {"#     git:", "    git:"},
			} {
				text = strings.ReplaceAll(text, r[0], r[1])
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, err := runCLI(t, "policy", "check", "--project", dir)
			if err != nil {
				t.Fatalf("check of the starter with its tests on: %v\n%s\n%s", err, out, text)
			}
			if !strings.Contains(out, "0 errors, 0 warnings") {
				t.Errorf("check of the starter:\n%s", out)
			}
		})
	}
}

func TestInitExtends(t *testing.T) {
	fakeHome(t)
	dir := canonicalProject(t, nil)
	if _, _, err := runCLI(t, "init", "--project", dir, "--extends", "nope"); err == nil || !strings.Contains(err.Error(), "profile list") {
		t.Fatalf("init --extends nope: got %v, want an error pointing to profile list", err)
	}
	if _, _, err := runCLI(t, "init", "--project", dir, "--extends", "claude-code"); err != nil {
		t.Fatalf("init --extends claude-code: %v", err)
	}
	out, _, err := runCLI(t, "policy", "explain", "--project", dir, "--op", "write", "~/.claude/settings.json")
	if err != nil || !strings.Contains(out, ": allow") {
		t.Errorf("after init --extends claude-code, writing ~/.claude is not allowed: %v\n%s", err, out)
	}
}
