package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// fakeHome points HOME (and TMPDIR) at fresh directories for one test and
// returns the home directory, canonical.
func fakeHome(t *testing.T) string {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("AIXGATE_CONFIG_DIR", "")
	return home
}

// canonicalProject is tempProject with its path canonical, as the engine
// reports paths.
func canonicalProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(tempProject(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// builtinLine returns "builtin:NAME:LINE" for the first line of a built-in
// profile that contains text.
func builtinLine(t *testing.T, name, text string) string {
	t.Helper()
	src, err := policy.ProfileSource(name)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, text) {
			return fmt.Sprintf("builtin:%s:%d", name, i+1)
		}
	}
	t.Fatalf("profile %s has no line with %q", name, text)
	return ""
}

const projectPolicy = `# test project
profile: project
extends: generic
filesystem:
  deny:
    - ${PROJECT}/secret/**
tests:
  - {path: ~/.ssh/id_rsa, want: deny}
  - {path: '${PROJECT}/main.go', op: write, want: allow}
  - {path: '${PROJECT}/secret/k', want: deny}
`

func TestPolicyCheck(t *testing.T) {
	fakeHome(t)
	good := canonicalProject(t, map[string]string{".aixgate.yaml": projectPolicy})
	broken := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: broken\nfilesystem:\n  allow_read:\n    - ${PROJCT}/**\n"})
	unsafe := canonicalProject(t, map[string]string{"p.yaml": "profile: wide\nextends: generic\nfilesystem:\n  allow_read: ['~/**']\n  allow_write: ['/srv/data/**']\n"})
	failing := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: f\nextends: generic\ntests:\n  - {path: ~/.ssh/id_rsa, want: allow}\n"})
	open := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: o\ndefault: allow\nextends: generic\n"})
	tests := []struct {
		name     string
		args     []string
		wantCode int      // 0: success
		want     []string // substrings of the output, in this order
	}{
		{"good project", []string{"--project", good}, 0, []string{"project file " + good, "0 errors, 0 warnings", "ok"}},
		{"broken names file:line:col", []string{"--project", broken}, 1, []string{filepath.Join(broken, ".aixgate.yaml") + ":4:7: error", "PROJCT", "^", "1 errors"}},
		{"unsafe rules", []string{filepath.Join(unsafe, "p.yaml"), "--project", unsafe}, 1, []string{"error: allow_read:~/**: unsafe", "warning: allow_write:/srv/data/**", "1 errors, 1 warnings"}},
		{"failing test", []string{"--project", failing}, 1, []string{":4:5: error: test failed", "want allow, got deny"}},
		{"builtin profile", []string{"--profile", "claude-code", "--project", t.TempDir()}, 0, []string{"profile claude-code (--profile)", "0 errors"}},
		{"no policy anywhere: generic", []string{"--project", t.TempDir()}, 0, []string{"profile generic (default)", "0 errors"}},
		{"missing file", []string{filepath.Join(good, "nope.yaml")}, 1, []string{"nope.yaml", "1 errors"}},
		{"project file over --profile", []string{"--project", good, "--profile", "codex"}, 0, []string{"project file " + good + "/.aixgate.yaml over profile codex (--profile)", "0 errors"}},
		{"project file cannot set default allow", []string{"--project", open}, 1, []string{open + "/.aixgate.yaml:2:10: error: a project file cannot set default: allow; pass --policy FILE"}},
		{"--policy may set default allow", []string{filepath.Join(open, ".aixgate.yaml"), "--project", open}, 0, []string{"warning: default: allow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCLI(t, append([]string{"policy", "check"}, tt.args...)...)
			var ee exitError
			switch {
			case tt.wantCode == 0 && err != nil:
				t.Fatalf("check: %v\n%s", err, out)
			case tt.wantCode != 0 && (!errors.As(err, &ee) || ee.code != tt.wantCode):
				t.Fatalf("check: got error %v, want exit %d\n%s", err, tt.wantCode, out)
			}
			assertInOrder(t, out, tt.want)
		})
	}
}

func TestPolicyCheckJSON(t *testing.T) {
	fakeHome(t)
	dir := canonicalProject(t, map[string]string{".aixgate.yaml": projectPolicy})
	out, _, err := runCLI(t, "policy", "check", "--json", "--project", dir)
	if err != nil {
		t.Fatalf("check --json: %v", err)
	}
	var res checkResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check --json printed %q: %v", out, err)
	}
	if !res.OK || res.Errors != 0 || res.TestsFailed != 0 || res.Tests < 3 {
		t.Errorf("check --json = %+v, want ok with at least 3 passing tests", res)
	}
}

// assertInOrder fails unless every want appears in out, in order.
func assertInOrder(t *testing.T, out string, want []string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("output lacks %q (in order):\n%s", w, out)
		}
		rest = rest[i+len(w):]
	}
}

func TestPolicyExplain(t *testing.T) {
	home := fakeHome(t)
	dir := canonicalProject(t, map[string]string{".aixgate.yaml": projectPolicy, "main.go": "package main\n", ".env": "K=v\n"})
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(dir, "innocent")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	projFile := filepath.Join(dir, ".aixgate.yaml")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"ssh key", []string{"~/.ssh/id_rsa"}, []string{
			"read " + home + "/.ssh/id_rsa: deny ENOENT", "does not exist", "rule:   deny ~/.ssh/id_* at " + builtinLine(t, "generic", "~/.ssh/id_*"),
			"policy: project file " + projFile}},
		{"project file write", []string{"--op", "write", "main.go"}, []string{
			"write " + dir + "/main.go: allow", "allow_write ${PROJECT}/** at " + builtinLine(t, "generic", "${PROJECT}/**")}},
		{"env file redacted", []string{".env"}, []string{
			"read " + dir + "/.env: redact", "key names", "redact **/.env (mode keys) at " + builtinLine(t, "generic", "'**/.env'"), "beats:  allow_write ${PROJECT}/**"}},
		{"env file write refused", []string{"--op", "write", ".env"}, []string{"write " + dir + "/.env: redact EACCES", "never changed"}},
		{"project rule names its line", []string{"secret/k"}, []string{"deny ${PROJECT}/secret/** at " + projFile + ":6", "beats:  allow_write ${PROJECT}/**"}},
		{"symlink resolved", []string{"innocent"}, []string{home + "/.ssh/id_rsa: deny ENOENT", "(resolved from " + dir + "/innocent"}},
		{"dot dot cleaned", []string{dir + "/sub/../main.go"}, []string{"read " + dir + "/main.go: allow"}},
		{"exec list", []string{"--op", "exec", "/usr/bin/sudo"}, []string{"exec /usr/bin/sudo: deny EACCES", "exec.deny sudo at " + builtinLine(t, "generic", "- sudo")}},
		{"redact outside every allow", []string{"/srv/other/.env"}, []string{
			"read /srv/other/.env: deny ENOENT", "default: deny (no rule matched)",
			"beats:  redact **/.env", "not applied: redact only narrows what an allow rule grants"}},
		{"git hook read-only", []string{"--op", "create", ".git/hooks/pre-commit"}, []string{
			"create " + dir + "/.git/hooks/pre-commit: deny EACCES", "read-only", "rule:   read_only ${PROJECT}/.git/hooks/** at " + builtinLine(t, "generic", "${PROJECT}/.git/hooks/**"),
			"beats:  allow_write ${PROJECT}/**"}},
		{"git hook readable", []string{".git/hooks/pre-commit"}, []string{"read " + dir + "/.git/hooks/pre-commit: allow", "it is read-only"}},
		{"guard", []string{"--op", "rename", dir}, []string{"rename " + dir + ": deny EACCES", "cannot be created, moved or removed", "rule:   guard "}},
		{"outside everything", []string{"/srv/x"}, []string{"read /srv/x: deny ENOENT", "default: deny (no rule matched)"}},
		{"env stripped", []string{"--env", "GITHUB_TOKEN"}, []string{"env GITHUB_TOKEN: strip", "env.floor *TOKEN at builtin:floor:1"}},
		{"env stripped by the profile", []string{"--env", "AWS_REGION"}, []string{"env AWS_REGION: strip", "env.strip AWS_* at " + builtinLine(t, "generic", "AWS_*")}},
		{"env passed", []string{"--env", "PATH"}, []string{"env PATH: pass", "env.pass_through PATH"}},
		{"env injected", []string{"--env", "AIXGATE_ACTIVE"}, []string{"env AIXGATE_ACTIVE: inject", `set to "1"`}},
		{"env unlisted", []string{"--env", "RANDOM_THING"}, []string{"env RANDOM_THING: strip", "no rule: not listed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCLI(t, append([]string{"policy", "explain"}, tt.args...)...)
			if err != nil {
				t.Fatalf("explain %v: %v", tt.args, err)
			}
			assertInOrder(t, out, tt.want)
		})
	}
}

// TestExplainProjectFileOverAgentProfile: a project file that extends
// generic still gets the agent's profile underneath (Claude Code can write
// ~/.claude), and cannot drop its denies.
func TestExplainProjectFileOverAgentProfile(t *testing.T) {
	home := fakeHome(t)
	dir := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: p\nfilesystem:\n  allow_read: ['~/.ssh/**']\n"})
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--op", "write", "--profile", "claude-code", home + "/.claude/settings.local.json"}, []string{": allow", "allow_write ~/.claude/**", "over profile claude-code (--profile)"}},
		{[]string{home + "/.ssh/id_rsa"}, []string{": deny ENOENT", "deny ~/.ssh/id_*", "over profile generic (default)"}},
	}
	for _, tt := range tests {
		out, _, err := runCLI(t, append([]string{"policy", "explain", "--project", dir}, tt.args...)...)
		if err != nil {
			t.Fatalf("explain %v: %v", tt.args, err)
		}
		assertInOrder(t, out, tt.want)
	}
}

func TestPolicyExplainJSON(t *testing.T) {
	home := fakeHome(t)
	dir := canonicalProject(t, nil)
	out, _, err := runCLI(t, "policy", "explain", "--json", "--project", dir, "--profile", "claude-code", home+"/.ssh/id_rsa")
	if err != nil {
		t.Fatalf("explain --json: %v", err)
	}
	var res explainResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("explain --json printed %q: %v", out, err)
	}
	want := builtinLine(t, "generic", "~/.ssh/id_*")
	if res.Decision != policy.Deny || res.Errno != policy.ENOENT || res.Rule.Pattern != "~/.ssh/id_*" || res.Rule.Source.String() != want {
		t.Errorf("explain --json = %s %s by %s at %s, want deny ENOENT by ~/.ssh/id_* at %s", res.Decision, res.Errno, res.Rule.Pattern, res.Rule.Source, want)
	}
	if !strings.Contains(res.Policy, "claude-code") {
		t.Errorf("explain --json policy = %q, want the claude-code profile", res.Policy)
	}
}

func TestPolicyExplainErrors(t *testing.T) {
	fakeHome(t)
	broken := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: b\nfilesystem:\n  deny: [~/x]\n  allow_red: [~/y]\n"})
	good := canonicalProject(t, nil)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"broken policy", []string{"--project", broken, "/etc/hosts"}, []string{filepath.Join(broken, ".aixgate.yaml") + ":4:3:", "allow_red", "fix the line above, then run `aixbroker policy check`"}},
		{"unknown op", []string{"--project", good, "--op", "delete", "/x"}, []string{`unknown operation "delete"`, "read, stat, write"}},
		{"no path", []string{"--project", good}, []string{"which path?"}},
		{"path and env", []string{"--project", good, "--env", "X", "/x"}, []string{"not both"}},
		{"unknown profile", []string{"--project", good, "--profile", "nope", "/x"}, []string{"unknown profile", "aixbroker profile list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, append([]string{"policy", "explain"}, tt.args...)...)
			if err == nil {
				t.Fatal("explain succeeded, want an error")
			}
			assertInOrder(t, err.Error(), tt.want)
		})
	}
}

func TestSafeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"red \x1b[31mflag", `red \x1b[31mflag`},
		{"bell\a", `bell\x07`},
		{"C1 \u009b31m", `C1 \x9b31m`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"bad utf8 \xff!", `bad utf8 \xff!`},
		{"real replacement char \uFFFD", "real replacement char \uFFFD"},
		{"ünïcödé ok", "ünïcödé ok"},
	}
	for _, tt := range tests {
		if got := safeText(tt.in); got != tt.want {
			t.Errorf("safeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A repository's .aixgate.yaml must not reach the terminal with escape
// sequences through explain, check or error messages.
func TestPolicyTextIsSanitised(t *testing.T) {
	fakeHome(t)
	dir := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: p\nextends: generic\nfilesystem:\n  deny:\n    - \"${PROJECT}/x\\e[2J\" # hide \x1b[8m this\n"})
	broken := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: p\nfilesystem:\n  dny\x1b[2J: [x]\n"})
	runs := [][]string{
		{"policy", "explain", "--project", dir, filepath.Join(dir, "x\x1b[2J")},
		{"policy", "check", "--project", dir},
		{"policy", "check", "--project", broken},
		{"policy", "explain", "--project", broken, "/x"},
	}
	for _, args := range runs {
		out, errOut, err := runCLI(t, args...)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if strings.ContainsRune(out+errOut+msg, '\x1b') {
			t.Errorf("%v printed an escape character:\n%q\n%q", args, out+errOut, msg)
		}
	}
}
