package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPolicyDocExamples runs `policy check` on every YAML block of
// docs/policy.md, so the reference and the cookbook cannot drift from what
// the parser accepts and what the policy decides. A fragment without
// `profile:` is checked as a file extending generic.
func TestPolicyDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 8 {
		t.Fatalf("found %d yaml blocks in docs/policy.md, want at least 8", len(blocks))
	}
	fakeHome(t)
	// Home and projects live outside the temporary directories, which
	// generic makes writable: recipes test that paths are not writable.
	root, err := os.MkdirTemp(".", ".doctest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if root, err = filepath.Abs(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(root, "home"))
	for i, b := range blocks {
		body := b[1]
		if strings.Contains(body, "run: aixbroker") {
			continue // a CI step, not a policy
		}
		if !strings.Contains(body, "profile:") {
			body = "profile: doc\nextends: generic\n" + body
		}
		dir, err := filepath.Abs(filepath.Join(root, "p"+string(rune('a'+i)), "project"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"policy.yaml":   body,
			".aixgate.yaml": "profile: base\nextends: generic\n",
		}
		for name, text := range files {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, _, err := runCLI(t, "policy", "check", filepath.Join(dir, "policy.yaml"), "--project", dir)
		if err != nil {
			t.Errorf("docs/policy.md yaml block %d does not check: %v\n%s\n%s", i+1, err, body, out)
		}
	}
}
