package policy

import (
	"strings"
	"testing"
)

// TestRedactDoesNotDecideCreate: creating a new name a redact rule matches
// is decided by the rules below redact; changing an existing one is not.
func TestRedactDoesNotDecideCreate(t *testing.T) {
	e := mustCompile(t, `profile: t
filesystem:
  allow_read: ['~/ro/**']
  allow_write: ['${PROJECT}/**', /tmp/**]
  read_only: ['${PROJECT}/locked/**']
  redact: ['**/.env', '**/.env.*', '~/ro/.env', {path: '${PROJECT}/**/*.pem', mode: stub}]
  deny: ['${PROJECT}/secret/**']
`)
	tests := []struct {
		name      string
		op        Op
		path      string
		want      Action
		wantErrno Errno
		wantRule  string
	}{
		{"create .env.local in the project", OpCreate, "/home/u/proj/.env.local", Allow, "", "allow_write:${PROJECT}/**"},
		{"create .env in /tmp", OpCreate, "/tmp/d/.env", Allow, "", "allow_write:/tmp/**"},
		{"create a pem in the project", OpCreate, "/home/u/proj/tools/k.pem", Allow, "", "allow_write:${PROJECT}/**"},
		{"mkdir a redact name", OpMkdir, "/home/u/proj/.env.d", Allow, "", "allow_write:${PROJECT}/**"},
		{"create where only reading is allowed", OpCreate, "/home/u/ro/.env", Deny, EACCES, "allow_read:~/ro/**"},
		{"create under read_only", OpCreate, "/home/u/proj/locked/.env", Deny, EACCES, "read_only:${PROJECT}/locked/**"},
		{"create where nothing allows", OpCreate, "/home/u/other/.env", Deny, EACCES, "default:deny"},
		{"create under deny", OpCreate, "/home/u/proj/secret/.env", Deny, EACCES, "deny:${PROJECT}/secret/**"},
		{"write stays refused", OpWrite, "/home/u/proj/.env", Redact, EACCES, "redact:**/.env"},
		{"unlink (replace) stays refused", OpUnlink, "/tmp/d/.env", Redact, EACCES, "redact:**/.env"},
		{"rename stays refused", OpRename, "/home/u/proj/.env.local", Deny, EACCES, "redact:**/.env.*"},
		{"link stays refused", OpLink, "/home/u/proj/.env", Deny, EACCES, "redact:**/.env"},
		{"read stays redacted", OpRead, "/home/u/proj/.env.local", Redact, "", "redact:**/.env.*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(tt.op, tt.path)
			if d.Action != tt.want || d.Errno != tt.wantErrno || d.Rule.ID() != tt.wantRule {
				t.Errorf("Decide(%s, %s) = %s %s by %s, want %s %s by %s", tt.op, tt.path, d.Action, d.Errno, d.Rule.ID(), tt.want, tt.wantErrno, tt.wantRule)
			}
		})
	}
}

// TestExplainRedactCreate: explain says why the redact rule did not decide
// a create.
func TestExplainRedactCreate(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: ['**/.env']\n")
	x := e.Explain(OpCreate, "/home/u/proj/.env")
	if x.Decision.Rule.ID() != "allow_write:${PROJECT}/**" || len(x.Beaten) != 1 {
		t.Fatalf("decision by %s, beaten %+v; want allow_write with redact beaten", x.Decision.Rule.ID(), x.Beaten)
	}
	if why := x.Why(x.Beaten[0]); !strings.Contains(why, "new name") {
		t.Errorf("Why(redact) = %q, want it to say a new name is not redacted", why)
	}
	if why := e.Explain(OpWrite, "/home/u/proj/.env"); why.Decision.Rule.ID() != "redact:**/.env" {
		t.Errorf("write decided by %s, want the redact rule", why.Decision.Rule.ID())
	}
}

// TestRedactExcept: a redact rule's except globs take paths out of that
// rule only; other rules still apply, and except is a redact key only.
func TestRedactExcept(t *testing.T) {
	e := mustCompile(t, `profile: t
filesystem:
  allow_write: ['${PROJECT}/**']
  redact:
    - {path: '**/.env.*', except: ['**/.env.example', '${PROJECT}/keep/.env.sample']}
    - '**/secret/.env.example'
  deny: ['${PROJECT}/private/**']
`)
	tests := []struct {
		path     string
		want     Action
		wantRule string
	}{
		{"/home/u/proj/.env.example", Allow, "allow_write:${PROJECT}/**"},
		{"/home/u/proj/sub/.env.example", Allow, "allow_write:${PROJECT}/**"},
		{"/home/u/proj/.env.local", Redact, "redact:**/.env.*"},
		{"/home/u/proj/.env.example.local", Redact, "redact:**/.env.*"},
		{"/home/u/proj/keep/.env.sample", Allow, "allow_write:${PROJECT}/**"},
		{"/home/u/proj/other/.env.sample", Redact, "redact:**/.env.*"},
		{"/home/u/proj/secret/.env.example", Redact, "redact:**/secret/.env.example"},
		{"/home/u/proj/private/.env.example", Deny, "deny:${PROJECT}/private/**"},
	}
	for _, tt := range tests {
		if d := e.Decide(OpRead, tt.path); d.Action != tt.want || d.Rule.ID() != tt.wantRule {
			t.Errorf("Decide(read, %s) = %s by %s, want %s by %s", tt.path, d.Action, d.Rule.ID(), tt.want, tt.wantRule)
		}
	}
	if d := e.Decide(OpWrite, "/home/u/proj/.env.example"); !d.Allowed() {
		t.Errorf("write .env.example = %s by %s, want allow", d.Action, d.Rule.ID())
	}
	r := e.Rules()[1]
	if want := []string{"/home/u/proj/keep/.env.sample"}; len(r.ExceptGlobs) != 2 || r.ExceptGlobs[1] != want[0] {
		t.Errorf("rule %s: except globs %q, want the expanded patterns", r.ID(), r.ExceptGlobs)
	}
}

func TestRedactExceptParse(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"except on deny", "profile: t\nfilesystem:\n  deny: [{path: /a/**, except: [/a/b]}]\n", "except"},
		{"except not a list", "profile: t\nfilesystem:\n  redact: [{path: /a/**, except: {x: 1}}]\n", "must be a list"},
		{"empty except glob", "profile: t\nfilesystem:\n  redact: [{path: /a/**, except: ['']}]\n", "empty pattern"},
		{"unknown variable", "profile: t\nfilesystem:\n  redact: [{path: /a/**, except: ['${NOPE}/x']}]\n", "NOPE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				_, err = Compile(p, testVars)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// TestGenericRedactedNames: what generic lets the agent do with redacted
// names (FP2, FP3) and ~/.gitconfig (FP4). Allowances are checked here,
// not in the profile's tests:, which every child policy inherits and may
// rightly narrow.
func TestGenericRedactedNames(t *testing.T) {
	e := compileProfile(t, "generic")
	tests := []struct {
		op   Op
		path string
		want Action
	}{
		{OpCreate, "/home/u/proj/.env.local", Allow},
		{OpCreate, "/home/u/proj/.env", Allow},
		{OpCreate, "/home/u/proj/tools/new.pem", Allow},
		{OpCreate, "/tmp/d/.env", Allow},
		{OpCreate, "/home/u/other/.env", Deny},
		{OpCreate, "/home/u/.gitconfig.lock", Deny},
		{OpWrite, "/home/u/proj/.env", Redact},
		{OpUnlink, "/home/u/proj/.env.local", Redact},
		{OpRead, "/home/u/proj/.env.example", Allow},
		{OpRead, "/home/u/proj/web/.env.sample", Allow},
		{OpRead, "/home/u/proj/.env.template", Allow},
		{OpRead, "/home/u/proj/.env.dist", Allow},
		{OpRead, "/home/u/proj/.env.example.local", Redact},
		{OpRead, "/home/u/proj/.env.production", Redact},
		{OpRead, "/home/u/.gitconfig", Allow},
		{OpWrite, "/home/u/.gitconfig", Deny},
	}
	for _, tt := range tests {
		if d := e.Decide(tt.op, tt.path); d.Action != tt.want {
			t.Errorf("Decide(%s, %s) = %s by %s, want %s", tt.op, tt.path, d.Action, d.Rule.ID(), tt.want)
		}
	}
	if d := e.DecideExec("/usr/bin/git", []string{"git", "config", "--global", "user.name"}); !d.Allowed() {
		t.Errorf("git config --global user.name: %s by %s, want allow", d.Action, d.Rule.ID())
	}
}

// TestExplainExcept: explain lists a redact rule whose except glob takes
// the path out of it, and says so.
func TestExplainExcept(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: [{path: '**/.env.*', except: ['**/.env.example']}]\n")
	x := e.Explain(OpRead, "/home/u/proj/.env.example")
	if x.Decision.Rule.ID() != "allow_write:${PROJECT}/**" || len(x.Beaten) != 1 || x.Beaten[0].ID() != "redact:**/.env.*" {
		t.Fatalf("decision by %s, beaten %+v; want allow_write beating the excepted redact rule", x.Decision.Rule.ID(), x.Beaten)
	}
	if why := x.Why(x.Beaten[0]); !strings.Contains(why, "except **/.env.example") {
		t.Errorf("Why = %q, want it to name the except glob", why)
	}
	if x := e.Explain(OpRead, "/home/u/proj/.env.local"); x.Decision.Rule.ID() != "redact:**/.env.*" {
		t.Errorf(".env.local decided by %s, want the redact rule", x.Decision.Rule.ID())
	}
}
