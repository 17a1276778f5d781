package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// TestPolicyDocExamples runs `policy check` on every YAML block of
// docs/policy.md, so the reference and the cookbook cannot drift from what
// the parser accepts and what the policy decides. A fragment without
// `profile:` is checked as a file extending generic.
func TestPolicyDocExamples(t *testing.T) {
	for _, tt := range []struct {
		doc       string
		minBlocks int
	}{
		{"../../docs/policy.md", 8},
		{"../../docs/profiles/README.md", 1},
	} {
		t.Run(filepath.Base(tt.doc), func(t *testing.T) { checkDocExamples(t, tt.doc, tt.minBlocks) })
	}
}

func checkDocExamples(t *testing.T, path string, minBlocks int) {
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < minBlocks {
		t.Fatalf("found %d yaml blocks in %s, want at least %d", len(blocks), path, minBlocks)
	}
	// Home and projects live outside the temporary directories, which
	// generic makes writable: recipes test that paths are not writable.
	// (e2eParent reads the real HOME, so before fakeHome replaces it.)
	parent := e2eParent(t)
	fakeHome(t)
	root, err := os.MkdirTemp(parent, ".doctest-")
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
		dir, err := filepath.Abs(filepath.Join(root, "p"+string(rune('a'+i)), "project"))
		if err != nil {
			t.Fatal(err)
		}
		body = strings.ReplaceAll(body, "/home/you/src/api/", dir+"/")
		if !strings.Contains(body, "profile:") {
			body = "profile: doc\nextends: generic\n" + body
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
			t.Errorf("%s: yaml block %d does not check: %v\n%s\n%s", path, i+1, err, body, out)
		}
	}
}

// TestProfileDocsCoverEveryRule keeps docs/profiles/NAME.md in step with the
// built-in profiles: every rule a profile writes itself appears on its page.
func TestProfileDocsCoverEveryRule(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join("../../docs/profiles", name+".md"))
			if err != nil {
				t.Fatalf("built-in profile %s has no page: %v", name, err)
			}
			src, err := policy.ProfileSource(name)
			if err != nil {
				t.Fatal(err)
			}
			p, err := policy.Parse("builtin:"+name, src)
			if err != nil {
				t.Fatal(err)
			}
			var rules []policy.Rule
			for _, list := range [][]policy.Rule{p.Filesystem.Deny, p.Filesystem.Redact, p.Filesystem.ReadOnly, p.Filesystem.AllowWrite,
				p.Filesystem.AllowRead, p.Exec.Allow, p.Exec.Deny, p.Exec.DenyArgs, p.Env.PassThrough, p.Env.Strip} {
				rules = append(rules, list...)
			}
			for _, r := range rules {
				want := r.Pattern
				if r.Command != "" {
					want = r.Command + " " + r.Pattern
				}
				if !strings.Contains(string(doc), "`"+strings.ReplaceAll(want, "|", `\|`)+"`") {
					t.Errorf("docs/profiles/%s.md does not mention rule %s (%s)", name, r.ID(), r.Source)
				}
			}
		})
	}
}
