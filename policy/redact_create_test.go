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
