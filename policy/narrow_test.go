package policy

import (
	"strings"
	"testing"
)

// TestRedactNeverWidens: a redact rule narrows what an allow rule (or
// default: allow) grants; it never makes a path outside every allow rule
// visible. The attack: redact '**/.env' used to reveal ~/other-client/.env
// (its existence, and its key names in keys mode) although nothing allowed
// reading ~/other-client.
func TestRedactNeverWidens(t *testing.T) {
	deny := mustCompile(t, `profile: t
filesystem:
  allow_read: ['~/.aws/config']
  allow_write: ['${PROJECT}/**']
  redact: ['**/.env', '~/.aws/credentials', '~/.aws/config', {path: '**/*.pem', mode: stub}]
  deny: ['${PROJECT}/secret/**']
`)
	open := mustCompile(t, "profile: t\ndefault: allow\nfilesystem:\n  redact: ['**/.env']\n")
	tests := []struct {
		name      string
		e         *Engine
		op        Op
		path      string
		want      Action
		wantErrno Errno
		wantRule  string
	}{
		{"other project's .env is hidden", deny, OpRead, "/home/u/other-client/.env", Deny, ENOENT, "default:deny"},
		{"its existence too", deny, OpStat, "/home/u/other-client/.env", Deny, ENOENT, "default:deny"},
		{"a .env at the root", deny, OpRead, "/.env", Deny, ENOENT, "default:deny"},
		{"a pem outside the project", deny, OpRead, "/home/u/certs/x.pem", Deny, ENOENT, "default:deny"},
		{"writing it is refused by the default", deny, OpWrite, "/home/u/other-client/.env", Deny, EACCES, "default:deny"},
		{"explicit redact without allow hides", deny, OpRead, "/home/u/.aws/credentials", Deny, ENOENT, "default:deny"},
		{"explicit redact with allow_read redacts", deny, OpRead, "/home/u/.aws/config", Redact, "", "redact:~/.aws/config"},
		{"the project's .env is redacted", deny, OpRead, "/home/u/proj/.env", Redact, "", "redact:**/.env"},
		{"and its write refused as redacted", deny, OpWrite, "/home/u/proj/.env", Redact, EACCES, "redact:**/.env"},
		{"and visible to stat", deny, OpStat, "/home/u/proj/sub/.env", Redact, "", "redact:**/.env"},
		{"deny still beats redact", deny, OpRead, "/home/u/proj/secret/.env", Deny, ENOENT, "deny:${PROJECT}/secret/**"},
		{"default allow: redact applies", open, OpRead, "/srv/x/.env", Redact, "", "redact:**/.env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.e.Decide(tt.op, tt.path)
			if d.Action != tt.want || d.Errno != tt.wantErrno || d.Rule.ID() != tt.wantRule {
				t.Errorf("Decide(%s, %s) = %s %s by %s, want %s %s by %s", tt.op, tt.path, d.Action, d.Errno, d.Rule.ID(), tt.want, tt.wantErrno, tt.wantRule)
			}
		})
	}
}

// TestExplainUnreachedRedact: explain names the redact rule that matched
// but did not apply, and why.
func TestExplainUnreachedRedact(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: ['**/.env']\n")
	x := e.Explain(OpRead, "/home/u/other/.env")
	if x.Decision.Rule.ID() != "default:deny" {
		t.Fatalf("decision by %s, want default:deny", x.Decision.Rule.ID())
	}
	if len(x.Beaten) != 1 || x.Beaten[0].ID() != "redact:**/.env" {
		t.Fatalf("beaten = %+v, want redact:**/.env", x.Beaten)
	}
	if why := x.Why(x.Beaten[0]); !strings.Contains(why, "no allow rule") {
		t.Errorf("Why(redact) = %q, want it to say no allow rule reaches the path", why)
	}
	x = e.Explain(OpRead, "/home/u/proj/.env")
	if len(x.Beaten) != 1 || x.Why(x.Beaten[0]) != "" {
		t.Errorf("in the project: beaten %+v with why %q, want the allow rule with no note", x.Beaten, x.Why(x.Beaten[0]))
	}
}

// TestCheckUnreachableNarrowing: Check warns about a redact rule no allow
// rule can reach.
func TestCheckUnreachableNarrowing(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool // a "never takes effect" warning about the redact rule
	}{
		{"outside every allow", "filesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: ['~/.aws/credentials']\n", true},
		{"under an allow", "filesystem:\n  allow_read: ['~/.aws/**']\n  redact: ['~/.aws/credentials']\n", false},
		{"an allow under it", "filesystem:\n  allow_read: ['~/.aws/config']\n  redact: ['~/.aws/**']\n", false},
		{"anchored anywhere", "filesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: ['**/.env']\n", false},
		{"default allow", "default: allow\nfilesystem:\n  redact: ['~/.aws/credentials']\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustCompile(t, "profile: t\n"+tt.src)
			got := false
			for _, f := range Check(e.Policy(), testVars) {
				if strings.Contains(f.Message, "redact:") && strings.Contains(f.Message, "no allow rule reaches") {
					got = true
				}
			}
			if got != tt.want {
				t.Errorf("warning = %v, want %v (findings %v)", got, tt.want, Check(e.Policy(), testVars))
			}
		})
	}
}
