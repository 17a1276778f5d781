package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	src := `profile: demo
extends: defaults/generic
default: allow
filesystem:
  allow_read: ['${PROJECT}/**', {path: /usr/**}]
  allow_write:
    - ${TMPDIR}/aixgate-*/** # scratch space
  redact:
    - '**/.env'
    - {path: '**/*.pem', mode: stub}
  deny:
    - ~/.ssh/id_*
    - {path: ~/secret, errno: EACCES}
exec:
  allow: [git, go]
  deny: [sudo]
  deny_args:
    git: ['push   --force', 'config --global']
env:
  pass_through: [PATH, LC_*]
  strip: ['*_TOKEN']
  inject:
    FOO: bar
    N: 1
audit:
  log: ~/.aixgate/audit.jsonl
  on_deny: block_silently
  on_allow: none
tests:
  - {path: ~/.ssh/id_rsa, want: deny}
  - {path: .env, op: write, want: redact}
`
	p, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fs := p.Filesystem
	checks := []struct {
		name      string
		got, want any
	}{
		{"name", p.Name, "demo"},
		{"extends", p.Extends, "defaults/generic"},
		{"default", p.Default, Allow},
		{"default line", p.DefaultSource.Line, 3},
		{"allow_read", len(fs.AllowRead), 2},
		{"allow_read[1]", fs.AllowRead[1].Pattern, "/usr/**"},
		{"allow_write comment", fs.AllowWrite[0].Comment, "scratch space"},
		{"allow_write line", fs.AllowWrite[0].Source.Line, 7},
		{"redact mode default", fs.Redact[0].Mode, "keys"},
		{"redact mode stub", fs.Redact[1].Mode, "stub"},
		{"deny errno", fs.Deny[1].Errno, EACCES},
		{"deny plain errno", fs.Deny[0].Errno, Errno("")},
		{"deny line", fs.Deny[1].Source, Source{File: "t.yaml", Line: 13, Column: 14}},
		{"exec allow", len(p.Exec.Allow), 2},
		{"deny_args normalised", p.Exec.DenyArgs[0].Pattern, "push --force"},
		{"deny_args id", p.Exec.DenyArgs[0].ID(), "exec.deny_args:git push --force"},
		{"inject number", p.Env.Inject[1], Inject{Name: "N", Value: "1", Source: Source{File: "t.yaml", Line: 24, Column: 5}}},
		{"audit", [3]string{p.Audit.Log, p.Audit.OnDeny, p.Audit.OnAllow}, [3]string{"~/.aixgate/audit.jsonl", "block_silently", "none"}},
		{"tests", len(p.Tests), 2},
		{"test default op", p.Tests[0].Op, OpRead},
		{"test op", p.Tests[1].Op, OpWrite},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the error
	}{
		{"empty", "", []string{"t.yaml: empty policy"}},
		{"no profile", "default: deny\n", []string{"t.yaml:1:", "missing required key profile"}},
		{"unknown top key", "profile: x\nfilesytem: {}\n", []string{"t.yaml:2:1:", `unknown key "filesytem"`, "did you mean filesystem?"}},
		{"unknown fs key", "profile: x\nfilesystem:\n  alow_read: [a]\n", []string{"t.yaml:3:3:", "did you mean allow_read?"}},
		{"read key", "profile: x\nfilesystem:\n  read: [a]\n", []string{"t.yaml:3:3:", "did you mean allow_read?"}},
		{"bad default", "profile: x\ndefault: denny\n", []string{"t.yaml:2:10:", `invalid value "denny"`, "did you mean deny?"}},
		{"list not map", "profile: x\nfilesystem: [a]\n", []string{"t.yaml:2:13:", "filesystem must be a mapping, got a list"}},
		{"glob not list", "profile: x\nfilesystem:\n  deny: /etc/passwd\n", []string{"t.yaml:3:9:", "filesystem.deny must be a list, got a string"}},
		{"bad glob", "profile: x\nfilesystem:\n  deny: ['/a/[b']\n", []string{"t.yaml:3:10:", "invalid glob"}},
		{"bad brace", "profile: x\nfilesystem:\n  deny:\n    - '/a/{b'\n", []string{"t.yaml:4:7:", "invalid glob"}},
		{"unknown var", "profile: x\nfilesystem:\n  deny:\n    - ${PROJEKT}/x\n", []string{"t.yaml:4:7:", "unknown variable ${PROJEKT}", "did you mean PROJECT?"}},
		{"unterminated var", "profile: x\nfilesystem:\n  deny: ['${HOME']\n", []string{"t.yaml:3:10:", "unterminated ${"}},
		{"tilde user", "profile: x\nfilesystem:\n  deny: [~root/x]\n", []string{"t.yaml:3:10:", "not ~user"}},
		{"bare tilde", "profile: x\nfilesystem:\n  allow_read: [~]\n", []string{"t.yaml:3:16:", "bare ~ is YAML null"}},
		{"null entry", "profile: x\nfilesystem:\n  allow_read:\n    -\n", []string{"t.yaml:4:", "must be a string, got null"}},
		{"redact mode", "profile: x\nfilesystem:\n  redact: [{path: a, mode: stubb}]\n", []string{"t.yaml:3:", "did you mean stub?"}},
		{"deny errno", "profile: x\nfilesystem:\n  deny: [{path: a, errno: EPERM}]\n", []string{"t.yaml:3:", `invalid value "EPERM"`}},
		{"entry key", "profile: x\nfilesystem:\n  deny: [{pth: a}]\n", []string{"t.yaml:3:", "did you mean path?"}},
		{"mode on allow", "profile: x\nfilesystem:\n  allow_read: [{path: a, mode: stub}]\n", []string{"t.yaml:3:", `unknown key "mode"`}},
		{"entry without path", "profile: x\nfilesystem:\n  deny: [{errno: EACCES}]\n", []string{"t.yaml:3:", "missing required key path"}},
		{"exec path", "profile: x\nexec:\n  deny: [/usr/bin/sudo]\n", []string{"t.yaml:3:10:", "must be a command basename"}},
		{"deny_args type", "profile: x\nexec:\n  deny_args: [git]\n", []string{"t.yaml:3:14:", "must be a mapping"}},
		{"deny_args empty", "profile: x\nexec:\n  deny_args:\n    git: ['  ']\n", []string{"t.yaml:4:11:", "empty argument pattern"}},
		{"env name", "profile: x\nenv:\n  strip: ['A=B']\n", []string{"t.yaml:3:11:", "not a variable name"}},
		{"inject type", "profile: x\nenv:\n  inject:\n    A: [1]\n", []string{"t.yaml:4:8:", "must be a string, got a list"}},
		{"on_deny", "profile: x\naudit:\n  on_deny: promt\n", []string{"t.yaml:3:12:", "did you mean prompt?"}},
		{"on_allow", "profile: x\naudit:\n  on_allow: yes\n", []string{"t.yaml:3:13:", "want one of log|none"}},
		{"test want", "profile: x\ntests:\n  - {path: /a, want: allowed}\n", []string{"t.yaml:3:", "did you mean allow?"}},
		{"test op", "profile: x\ntests:\n  - {path: /a, op: open, want: allow}\n", []string{"t.yaml:3:", `invalid value "open"`}},
		{"test not a mapping", "profile: x\ntests:\n  - /a\n", []string{"t.yaml:3:5:", "tests entry must be a mapping"}},
		{"test no want", "profile: x\ntests:\n  - {path: /a}\n", []string{"t.yaml:3:", "missing required key want"}},
		{"syntax", "profile: x\nfilesystem: {deny: [a\n", []string{"t.yaml:2:", "parse policy"}},
		{"alias", "profile: &a x\nextends: *a\n", []string{"t.yaml:2:10:", "aliases are not supported"}},
		{"tag", "profile: !!str x\n", []string{"t.yaml:1:10:", "tags are not supported"}},
		{"two docs", "profile: x\n---\nprofile: y\n", []string{"t.yaml:3:", "one YAML document"}},
		{"duplicate", "profile: x\nprofile: y\n", []string{"t.yaml:2:1:", "already defined"}},
		{"not a mapping", "- a\n", []string{"t.yaml:1:1:", "policy must be a mapping"}},
		{"empty extends", "profile: x\nextends: ''\n", []string{"t.yaml:2:10:", "extends must not be empty"}},
		{"deep flow", "profile: x\nfilesystem: " + strings.Repeat("[", 100000), []string{"t.yaml: parse policy: 2:45: nested too deeply"}},
		{"deep block", "profile: x\nfilesystem:\n" + strings.Repeat("- ", 100000), []string{"t.yaml: parse policy: 3:129: nested too deeply"}},
		{"deep quoted is fine", "profile: x\nfilesystem:\n  deny: ['" + strings.Repeat("[", 100) + "']\n", []string{"t.yaml:3:10:", "invalid glob"}},
		{"too large", "profile: x\n" + strings.Repeat("#", MaxPolicySize), []string{"t.yaml: parse policy: file is larger"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *policy.Error", err)
			}
		})
	}
}

func TestParseCollectsSeveralErrors(t *testing.T) {
	_, err := Parse("t.yaml", []byte("profile: x\nfilesystem:\n  deny: ['/a/[']\n  alow_read: []\n"))
	for _, want := range []string{"t.yaml:3:", "t.yaml:4:"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		got  string
		want string
	}{
		{"alow_read", " (did you mean allow_read?)"},
		{"allowread", " (did you mean allow_read?)"},
		{"redacted", " (did you mean redact?)"},
		{"zzzzzzzzzz", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.got, fsKeys); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
}
