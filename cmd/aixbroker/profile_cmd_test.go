package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

func TestProfileList(t *testing.T) {
	home := fakeHome(t)
	dir := filepath.Join(home, ".aixgate", "profiles")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"team.yaml":    "# team: our shared rules. More text.\nprofile: team\nextends: generic\n",
		"generic.yaml": "# generic: mine\nprofile: generic\n",
		"notes.txt":    "not a profile",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runCLI(t, "profile", "list")
	if err != nil {
		t.Fatalf("profile list: %v", err)
	}
	for _, name := range policy.ProfileNames() {
		if !strings.Contains(out, name+" ") {
			t.Errorf("profile list lacks built-in %s:\n%s", name, out)
		}
	}
	for _, want := range []string{"claude-code  built-in  Claude Code", "team         user      our shared rules.", "generic      user, unused"} {
		if !strings.Contains(out, want) {
			t.Errorf("profile list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "notes") || strings.Contains(out, "More text") {
		t.Errorf("profile list shows a non-profile or more than one sentence:\n%s", out)
	}

	out, _, err = runCLI(t, "profile", "list", "--json")
	if err != nil {
		t.Fatalf("profile list --json: %v", err)
	}
	var got []profileInfo
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("profile list --json printed %q: %v", out, err)
	}
	if want := len(policy.ProfileNames()) + 2; len(got) != want {
		t.Errorf("profile list --json has %d profiles, want %d", len(got), want)
	}
}

func TestProfileShow(t *testing.T) {
	fakeHome(t)
	out, _, err := runCLI(t, "profile", "show", "claude-code")
	if err != nil {
		t.Fatalf("profile show: %v", err)
	}
	assertInOrder(t, out, []string{
		"profile claude-code: builtin:claude-code extends builtin:generic",
		"filesystem.deny", "~/.ssh/id_*", builtinLine(t, "generic", "~/.ssh/id_*"), "# ssh private keys",
		"filesystem.redact", "**/.env",
		"filesystem.allow_write", "~/.claude/**", builtinLine(t, "claude-code", "~/.claude/**"),
		"filesystem.allow_read", "/usr/**",
		"default", "deny",
		"env.pass_through", "ANTHROPIC_API_KEY",
		"tests",
	})

	out, _, err = runCLI(t, "profile", "show", "generic", "--json")
	if err != nil {
		t.Fatalf("profile show --json: %v", err)
	}
	var v profileView
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("profile show --json printed %q: %v", out, err)
	}
	if len(v.Filesystem.Deny) == 0 || v.Filesystem.Deny[0].Source.File != "builtin:generic" || v.Default.Pattern != "deny" {
		t.Errorf("profile show --json = %+v, want generic's deny rules with their source", v.Filesystem.Deny)
	}
}

func TestProfileShowUnknown(t *testing.T) {
	fakeHome(t)
	_, _, err := runCLI(t, "profile", "show", "clade-code")
	if err == nil || !strings.Contains(err.Error(), "did you mean claude-code") || !strings.Contains(err.Error(), "profile list") {
		t.Fatalf("profile show of an unknown name: got %v, want a suggestion and a pointer to profile list", err)
	}
}
