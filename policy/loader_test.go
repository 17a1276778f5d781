package policy

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles creates files (name → content) under a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExtendsChain(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"proj/.aixgate.yaml": "profile: child\nextends: ../base/mid.yaml\ndefault: allow\nfilesystem:\n  allow_read: [/c/**]\n  deny: [/shared]\nenv:\n  inject: {A: child, C: c}\naudit:\n  on_allow: none\n",
		"base/mid.yaml":      "profile: mid\nextends: defaults/generic\nfilesystem:\n  allow_read: [/m/**]\n  deny: [/shared, /m/secret]\nenv:\n  inject: {A: mid, B: b}\naudit:\n  on_deny: prompt\n",
	})
	p, err := LoadFile(filepath.Join(dir, "proj/.aixgate.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	wantChain := []string{filepath.Join(dir, "proj/.aixgate.yaml"), filepath.Join(dir, "base/mid.yaml"), "builtin:generic"}
	if !slices.Equal(p.Chain, wantChain) {
		t.Errorf("chain = %q, want %q", p.Chain, wantChain)
	}
	if p.Name != "child" || p.Default != Allow {
		t.Errorf("scalars: name %q default %q, want child allow", p.Name, p.Default)
	}
	reads := p.Filesystem.AllowRead
	if reads[0].Source.File != "builtin:generic" || reads[len(reads)-1].Pattern != "/c/**" || reads[len(reads)-2].Pattern != "/m/**" {
		t.Errorf("allow_read is not parent first: first %s, last two %s %s", reads[0].Source, reads[len(reads)-2].Pattern, reads[len(reads)-1].Pattern)
	}
	var shared int
	for _, r := range p.Filesystem.Deny {
		if r.Pattern == "/shared" {
			shared++
			if r.Source.File != filepath.Join(dir, "base/mid.yaml") {
				t.Errorf("duplicate deny kept the child's copy %s, want the parent's", r.Source)
			}
		}
	}
	if shared != 1 {
		t.Errorf("deny /shared appears %d times, want 1", shared)
	}
	var inject []string
	for _, in := range p.Env.Inject {
		inject = append(inject, in.Name+"="+in.Value)
	}
	if want := []string{"AIXGATE_ACTIVE=1", "A=child", "B=b", "C=c"}; !slices.Equal(inject, want) {
		t.Errorf("inject = %q, want %q", inject, want)
	}
	if p.Audit.OnDeny != "prompt" || p.Audit.OnAllow != "none" || p.Audit.Log == "" {
		t.Errorf("audit = %+v, want on_deny from mid, on_allow from child, log from generic", p.Audit)
	}
	e, err := Compile(p, testVars)
	if err != nil {
		t.Fatal(err)
	}
	// The child allows everything by default and reads /m/**, but the
	// parents' denies still win.
	for _, path := range []string{"/m/secret", "/home/u/.ssh/id_rsa", "/shared"} {
		if d := e.Decide(OpRead, path); d.Action != Deny {
			t.Errorf("read %s = %s by %s, want the parent's deny", path, d.Action, d.Rule.ID())
		}
	}
	if d := e.Decide(OpRead, "/home/u/.ssh/id_rsa"); !strings.HasPrefix(d.Rule.Source.String(), "builtin:generic:") {
		t.Errorf("deny source = %s, want builtin:generic:N", d.Rule.Source)
	}
}

func TestExtendsErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"cycle", map[string]string{
			"a.yaml": "profile: a\nextends: b.yaml\n",
			"b.yaml": "profile: b\nextends: ./c.yaml\n",
			"c.yaml": "profile: c\nextends: a.yaml\n",
		}, []string{"c.yaml:2:10:", "extends cycle:", "a.yaml → ", "b.yaml → ", "c.yaml → ", "a.yaml"}},
		{"self", map[string]string{"a.yaml": "profile: a\nextends: a.yaml\n"}, []string{"a.yaml:2:10:", "extends cycle"}},
		{"unknown profile", map[string]string{"a.yaml": "profile: a\nextends: generc\n"}, []string{"a.yaml:2:10:", "unknown profile", "did you mean generic?"}},
		{"missing file", map[string]string{"a.yaml": "profile: a\nextends: nope/b.yaml\n"}, []string{"a.yaml:2:10:", "no such file"}},
		{"device", map[string]string{"a.yaml": "profile: a\nextends: /dev/zero\n"}, []string{"a.yaml:2:10:", "not a regular file"}},
		{"directory", map[string]string{"a.yaml": "profile: a\nextends: ./sub/\n", "sub/x": ""}, []string{"a.yaml:2:10:", "not a regular file"}},
		{"parent error", map[string]string{"a.yaml": "profile: a\nextends: b.yaml\n", "b.yaml": "profile: b\nfilesystem:\n  deny: ['[']\n"}, []string{"b.yaml:3:10:", "invalid glob"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			_, err := LoadFile(filepath.Join(dir, "a.yaml"), "")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestUserProfiles(t *testing.T) {
	config := writeFiles(t, map[string]string{
		"profiles/team.yaml":    "profile: team\nextends: claude-code\nfilesystem:\n  allow_read: [/team/**]\n",
		"profiles/generic.yaml": "profile: fake\ndefault: allow\n",
	})
	proj := writeFiles(t, map[string]string{".aixgate.yaml": "profile: proj\nextends: team\n"})
	p, err := LoadFile(filepath.Join(proj, ".aixgate.yaml"), config)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(proj, ".aixgate.yaml"), filepath.Join(config, "profiles/team.yaml"), "builtin:claude-code", "builtin:generic"}
	if !slices.Equal(p.Chain, want) {
		t.Errorf("chain = %q, want %q (built-in names are not shadowed)", p.Chain, want)
	}
	if _, err := LoadFile(filepath.Join(proj, ".aixgate.yaml"), ""); !errors.Is(err, ErrUnknownProfile) {
		t.Errorf("without a config dir: error %v, want unknown profile", err)
	}
}

func TestResolve(t *testing.T) {
	config := writeFiles(t, map[string]string{"profiles/mine.yaml": "profile: mine\n"})
	withFile := writeFiles(t, map[string]string{".aixgate.yaml": "profile: proj\n", "sub/keep": ""})
	explicit := filepath.Join(withFile, "explicit.yaml")
	if err := os.WriteFile(explicit, []byte("profile: explicit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	tests := []struct {
		name       string
		opts       ResolveOptions
		wantName   string
		wantOrigin string
	}{
		{"policy flag wins", ResolveOptions{PolicyFile: explicit, ProjectDir: withFile, ProfileName: "codex", AgentCommand: "claude"}, "explicit", "policy file " + explicit + " (--policy)"},
		{"project file over --profile", ResolveOptions{ProjectDir: withFile, ProfileName: "codex", AgentCommand: "claude"}, "proj", "project file " + filepath.Join(withFile, ".aixgate.yaml") + " over profile codex (--profile)"},
		{"project file over the agent's profile", ResolveOptions{ProjectDir: withFile, AgentCommand: "claude"}, "proj", "project file " + filepath.Join(withFile, ".aixgate.yaml") + " over profile claude-code (from command claude)"},
		{"project file over generic", ResolveOptions{ProjectDir: withFile, AgentCommand: "bash"}, "proj", "project file " + filepath.Join(withFile, ".aixgate.yaml") + " over profile generic (default)"},
		{"parents are not searched", ResolveOptions{ProjectDir: filepath.Join(withFile, "sub"), AgentCommand: "claude"}, "claude-code", "profile claude-code (from command claude)"},
		{"profile flag", ResolveOptions{ProjectDir: plain, ProfileName: "codex", AgentCommand: "claude"}, "codex", "profile codex (--profile)"},
		{"user profile", ResolveOptions{ProjectDir: plain, ProfileName: "mine", ConfigDir: config}, "mine", "profile mine (--profile)"},
		{"defaults prefix", ResolveOptions{ProfileName: "defaults/generic"}, "generic", "profile defaults/generic (--profile)"},
		{"agent path", ResolveOptions{ProjectDir: plain, AgentCommand: "/usr/local/bin/cursor-agent"}, "cursor", "profile cursor (from command cursor-agent)"},
		{"unknown agent", ResolveOptions{ProjectDir: plain, AgentCommand: "bash"}, "generic", "profile generic (default)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Resolve(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tt.wantName || p.Origin != tt.wantOrigin {
				t.Errorf("Resolve = %q (%s), want %q (%s)", p.Name, p.Origin, tt.wantName, tt.wantOrigin)
			}
		})
	}
	for _, opts := range []ResolveOptions{{PolicyFile: filepath.Join(plain, "missing.yaml")}, {ProfileName: "nope"}, {ProfileName: "../etc/passwd"}} {
		if _, err := Resolve(opts); err == nil {
			t.Errorf("Resolve(%+v) succeeded, want an error", opts)
		}
	}
}

// TestResolveProjectFileOverBase: a project's .aixgate.yaml comes with the
// code and is not fully trusted. It is merged over a base profile, so it
// cannot drop a deny of the base, and it cannot set default: allow.
func TestResolveProjectFileOverBase(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		opts      ResolveOptions
		wantChain []string // after the project file
		wantDeny  string   // a path Decide(read) must deny
		wantAllow string   // a path Decide(write) must allow
		wantErr   string
	}{
		{"no extends still gets generic", "profile: evil\nfilesystem:\n  allow_read: ['~/**']\n",
			ResolveOptions{AgentCommand: "bash"}, []string{"builtin:generic"}, "/home/u/.ssh/id_rsa", "/home/u/proj/x", ""},
		{"extends generic, run with claude: claude-code rules apply", "profile: p\nextends: generic\n",
			ResolveOptions{AgentCommand: "claude"}, []string{"builtin:generic", "builtin:claude-code", "builtin:generic"}, "/home/u/.aws/credentials", "/home/u/.claude/settings.local.json", ""},
		{"chain already holds the base: applied once", "profile: p\nextends: claude-code\n",
			ResolveOptions{AgentCommand: "claude"}, []string{"builtin:claude-code", "builtin:generic"}, "/home/u/.ssh/id_rsa", "/home/u/.claude/todos/x", ""},
		{"--profile is the base", "profile: p\n", ResolveOptions{ProfileName: "codex", AgentCommand: "claude"},
			[]string{"builtin:codex", "builtin:generic"}, "/home/u/.ssh/id_rsa", "/home/u/.codex/sessions/x", ""},
		{"default: allow is refused", "profile: p\ndefault: allow\n", ResolveOptions{AgentCommand: "claude"},
			nil, "", "", ".aixgate.yaml:2:10: a project file cannot set default: allow; pass --policy FILE to use it deliberately"},
		{"default: allow from an extended file too", "profile: p\nextends: ./more.yaml\n", ResolveOptions{},
			nil, "", "", "more.yaml:2:10: a project file cannot set default: allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{".aixgate.yaml": tt.file, "more.yaml": "profile: more\ndefault: allow\n"})
			tt.opts.ProjectDir = dir
			p, err := Resolve(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Resolve error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Chain[1:]; !slices.Equal(got, tt.wantChain) {
				t.Errorf("chain = %q, want the project file then %q", p.Chain, tt.wantChain)
			}
			e, err := Compile(p, testVars)
			if err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(OpRead, tt.wantDeny); d.Action != Deny {
				t.Errorf("read %s = %s by %s, want deny", tt.wantDeny, d.Action, d.Rule.ID())
			}
			if d := e.Decide(OpWrite, tt.wantAllow); d.Action != Allow {
				t.Errorf("write %s = %s by %s, want allow", tt.wantAllow, d.Action, d.Rule.ID())
			}
		})
	}
}

// TestResolvePolicyFlagIsTrusted: --policy is the user's choice: no base is
// merged and default: allow is accepted.
func TestResolvePolicyFlagIsTrusted(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mine.yaml": "profile: mine\ndefault: allow\n"})
	p, err := Resolve(ResolveOptions{PolicyFile: filepath.Join(dir, "mine.yaml"), ProjectDir: dir, AgentCommand: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Chain) != 1 || p.DefaultAction() != Allow {
		t.Errorf("Resolve(--policy) chain %q default %s, want the file alone with default allow", p.Chain, p.DefaultAction())
	}
}

func TestProfileForCommand(t *testing.T) {
	tests := []struct {
		argv0  string
		want   string
		wantOK bool
	}{
		{"claude", "claude-code", true},
		{"/home/u/.local/bin/claude", "claude-code", true},
		{"codex", "codex", true},
		{"gemini", "gemini", true},
		{"opencode", "opencode", true},
		{"cursor-agent", "cursor", true},
		{"aider", "aider", true},
		{"vim", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := ProfileForCommand(tt.argv0)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ProfileForCommand(%q) = %q, %v, want %q, %v", tt.argv0, got, ok, tt.want, tt.wantOK)
		}
	}
}
