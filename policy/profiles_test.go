package policy

import (
	"slices"
	"strings"
	"testing"
)

var wantProfiles = []string{"aider", "claude-code", "codex", "cursor", "gemini", "generic", "opencode"}

func TestProfileNames(t *testing.T) {
	if got := ProfileNames(); !slices.Equal(got, wantProfiles) {
		t.Errorf("ProfileNames() = %q, want %q", got, wantProfiles)
	}
}

// compileProfile loads and compiles a built-in profile for the fake host
// HOME=/home/u, PROJECT=/home/u/proj.
func compileProfile(t *testing.T, name string) *Engine {
	t.Helper()
	p, err := LoadProfile(name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	e, err := Compile(p, testVars)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return e
}

// TestProfilesHideSecrets checks every required path against every profile.
func TestProfilesHideSecrets(t *testing.T) {
	tests := []struct {
		op   Op
		path string
		want Action
	}{
		{OpRead, "/home/u/.ssh/id_rsa", Deny},
		{OpRead, "/home/u/.ssh/id_ed25519", Deny},
		{OpRead, "/home/u/.ssh/deploy_key", Deny},
		{OpRead, "/home/u/.ssh/work.pem", Deny},
		{OpRead, "/home/u/.ssh/unusual-name", Deny},
		{OpRead, "/home/u/.aws/credentials", Deny},
		{OpRead, "/home/u/.aws/config", Deny},
		{OpRead, "/home/u/.config/gcloud/application_default_credentials.json", Deny},
		{OpRead, "/home/u/.azure/accessTokens.json", Deny},
		{OpRead, "/home/u/.kube/config", Deny},
		{OpRead, "/home/u/.docker/config.json", Deny},
		{OpRead, "/home/u/.netrc", Deny},
		{OpRead, "/home/u/.npmrc", Deny},
		{OpRead, "/home/u/.pypirc", Deny},
		{OpRead, "/home/u/.gnupg/private-keys-v1.d/x.key", Deny},
		{OpRead, "/home/u/.password-store/bank.gpg", Deny},
		{OpRead, "/home/u/.local/share/keyrings/login.keyring", Deny},
		{OpRead, "/home/u/.mozilla/firefox/x.default/logins.json", Deny},
		{OpRead, "/home/u/.config/google-chrome/Default/Cookies", Deny},
		{OpRead, "/home/u/.config/chromium/Default/Login Data", Deny},
		{OpRead, "/home/u/.config/BraveSoftware/Brave-Browser/Default/Cookies", Deny},
		{OpRead, "/home/u/Documents/taxes.pdf", Deny},
		{OpRead, "/home/u/Desktop/notes.txt", Deny},
		{OpRead, "/home/u/Downloads/statement.pdf", Deny},
		{OpRead, "/home/u/.git-credentials", Deny},
		{OpRead, "/home/u/.config/gh/hosts.yml", Deny},
		{OpRead, "/home/u/.bash_history", Deny},
		{OpRead, "/home/u/.aixgate/audit.jsonl", Deny},
		{OpWrite, "/home/u/.aixgate/profiles/x.yaml", Deny},
		{OpWrite, "/home/u/proj/.aixgate.yaml", Deny},
		{OpRead, "/home/u/other-project/main.go", Deny}, // other projects: not allowed, so hidden
		{OpStat, "/home/u/other-project", Deny},
		{OpRead, "/home/u", Deny},
		{OpRead, "/etc/shadow", Deny},
		{OpRead, "/proc/1/environ", Deny},
		{OpRead, "/home/u/proj/.env", Redact},
		{OpRead, "/home/u/proj/config/.env.production", Redact},
		{OpRead, "/home/u/proj/certs/server.pem", Redact},
		{OpRead, "/home/u/proj/certs/server.key", Redact},
		{OpWrite, "/home/u/proj/.env", Redact},
		{OpRename, "/home/u/proj/.env", Deny},
		{OpUnlink, "/home/u/proj/.env", Redact},
		{OpRead, "/home/u/proj/main.go", Allow},
		{OpWrite, "/home/u/proj/main.go", Allow},
		{OpCreate, "/home/u/proj/new.go", Allow},
		{OpRename, "/home/u/proj/main.go", Allow},
		{OpStat, "/home/u", Allow},
		{OpRead, "/usr/lib/x86_64-linux-gnu/libc.so.6", Allow},
		{OpExec, "/usr/bin/git", Allow},
		{OpWrite, "/usr/bin/git", Deny},
		{OpRead, "/etc/resolv.conf", Allow},
		{OpWrite, "/dev/null", Allow},
		{OpWrite, "/dev/pts/3", Allow},
		{OpWrite, "/tmp/u/build-1/out", Allow},
		{OpWrite, "/tmp/x", Allow},
		{OpRead, "/home/u/.gitconfig", Allow},
		{OpRead, "/home/u/.ssh/known_hosts", Allow},
		{OpWrite, "/home/u/.cache/go-build/00/x", Allow},
		{OpWrite, "/home/u/.local/bin/evil", Deny},
		{OpRead, "/home/u/.cargo/credentials.toml", Deny},
		{OpRead, "/home/u/.cargo/bin/cargo", Allow},
	}
	for _, name := range wantProfiles {
		e := compileProfile(t, name)
		for _, tt := range tests {
			if d := e.Decide(tt.op, tt.path); d.Action != tt.want {
				t.Errorf("%s: %s %s = %s by %s at %s, want %s", name, tt.op, tt.path, d.Action, d.Rule.ID(), d.Rule.Source, tt.want)
			}
		}
		if d := e.DecideExec("/usr/bin/sudo", []string{"sudo", "-s"}); d.Action != Deny {
			t.Errorf("%s: exec sudo = %s, want deny", name, d.Action)
		}
	}
}

// TestProfilesLetTheirAgentWork checks each agent's own directories and key.
func TestProfilesLetTheirAgentWork(t *testing.T) {
	tests := []struct {
		profile string
		writes  []string
		keys    []string
	}{
		{"claude-code", []string{"/home/u/.claude/settings.json", "/home/u/.claude.json", "/home/u/.claude.json.backup", "/home/u/.cache/claude-cli-nodejs/x", "/home/u/.local/share/claude/versions/1.0", "/home/u/.local/state/claude/lock"},
			[]string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CLAUDE_CONFIG_DIR"}},
		{"codex", []string{"/home/u/.codex/config.toml", "/home/u/.codex/sessions/1.jsonl"}, []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME"}},
		{"gemini", []string{"/home/u/.gemini/settings.json"}, []string{"GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_API_KEY"}},
		{"opencode", []string{"/home/u/.local/share/opencode/auth.json", "/home/u/.local/state/opencode/x", "/home/u/.cache/opencode/x", "/home/u/.config/opencode/opencode.json"},
			[]string{"OPENAI_API_KEY", "OPENCODE_CONFIG"}},
		{"cursor", []string{"/home/u/.cursor/cli-config.json", "/home/u/.config/cursor/auth.json"}, []string{"CURSOR_API_KEY"}},
		{"aider", []string{"/home/u/.aider.conf.yml", "/home/u/.aider/caches/x"}, []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AIDER_MODEL"}},
	}
	environ := []string{"PATH=/usr/bin", "HOME=/home/u", "GITHUB_TOKEN=t", "AWS_SECRET_ACCESS_KEY=s", "NPM_TOKEN=n", "MY_PASSWORD=p", "LC_ALL=C"}
	for _, tt := range tests {
		e := compileProfile(t, tt.profile)
		for _, w := range tt.writes {
			for _, op := range []Op{OpRead, OpWrite, OpCreate, OpRename} {
				if d := e.Decide(op, w); d.Action != Allow {
					t.Errorf("%s: %s %s = %s by %s, want allow", tt.profile, op, w, d.Action, d.Rule.ID())
				}
			}
		}
		in := append([]string{}, environ...)
		for _, k := range tt.keys {
			in = append(in, k+"=v")
		}
		got := e.Env(in)
		for _, k := range tt.keys {
			if !slices.Contains(got, k+"=v") {
				t.Errorf("%s: Env drops %s: %q", tt.profile, k, got)
			}
		}
		for _, kv := range got {
			for _, secret := range []string{"GITHUB_TOKEN", "AWS_", "NPM_TOKEN", "MY_PASSWORD"} {
				if strings.HasPrefix(kv, secret) {
					t.Errorf("%s: Env keeps %s", tt.profile, kv)
				}
			}
		}
		for _, want := range []string{"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=C", "AIXGATE_ACTIVE=1"} {
			if !slices.Contains(got, want) {
				t.Errorf("%s: Env lacks %s: %q", tt.profile, want, got)
			}
		}
	}
}

// TestProfilesCheckClean: the built-ins pass their own tests and Check has
// nothing to say about them.
func TestProfilesCheckClean(t *testing.T) {
	for _, name := range wantProfiles {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range Check(p, testVars) {
			t.Errorf("%s: %s", name, f)
		}
		if len(p.Tests) == 0 {
			t.Errorf("%s: no tests: entries", name)
		}
	}
}

// TestProfilesExplainEveryRule: docs/profiles is generated from the
// comments, so every rule of every built-in says why it exists, and every
// source is builtin:NAME:LINE.
func TestProfilesExplainEveryRule(t *testing.T) {
	for _, name := range wantProfiles {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		fs, x, env := p.Filesystem, p.Exec, p.Env
		for _, list := range [][]Rule{fs.AllowRead, fs.AllowWrite, fs.ReadOnly, fs.Redact, fs.Deny, x.Allow, x.Deny, x.DenyArgs, env.PassThrough, env.Strip} {
			for _, r := range list {
				if r.Comment == "" {
					t.Errorf("%s: rule %s at %s has no comment", name, r.ID(), r.Source)
				}
				if !strings.HasPrefix(r.Source.File, "builtin:") || r.Source.Line == 0 {
					t.Errorf("%s: rule %s has source %s, want builtin:NAME:LINE", name, r.ID(), r.Source)
				}
			}
		}
		if name != GenericProfile && !slices.Equal(p.Chain, []string{"builtin:" + name, "builtin:generic"}) {
			t.Errorf("%s: chain %q, want it to extend generic", name, p.Chain)
		}
	}
}

func TestProfileSource(t *testing.T) {
	src, err := ProfileSource("defaults/generic")
	if err != nil || !strings.Contains(string(src), "profile: generic") {
		t.Errorf("ProfileSource(defaults/generic) = %.40q, %v", src, err)
	}
	for _, bad := range []string{"nope", "../profiles/generic", "", "generic.yaml"} {
		if _, err := ProfileSource(bad); err == nil {
			t.Errorf("ProfileSource(%q) succeeded", bad)
		}
	}
}
