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
		want bool // a "never takes effect" warning about the redact or read_only rule
	}{
		{"outside every allow", "filesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: ['~/.aws/credentials']\n", true},
		{"read_only outside every allow", "filesystem:\n  allow_write: ['${PROJECT}/**']\n  read_only: ['~/.bashrc']\n", true},
		{"read_only inside an allow", "filesystem:\n  allow_write: ['${PROJECT}/**']\n  read_only: ['${PROJECT}/.git/config']\n", false},
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
				if strings.Contains(f.Message, "no allow rule reaches") {
					got = true
				}
			}
			if got != tt.want {
				t.Errorf("warning = %v, want %v (findings %v)", got, tt.want, Check(e.Policy(), testVars))
			}
		})
	}
}

// TestReadOnly: read_only carves read-only paths out of a writable tree,
// and, like redact, grants nothing no allow rule grants. The attacks: an
// agent plants a git hook or a subdirectory's .aixgate.yaml (which governs a
// later exec run from there), or moves the directory holding them away and
// back to write them under another name.
func TestReadOnly(t *testing.T) {
	e := mustCompile(t, `profile: t
filesystem:
  allow_write: ['${PROJECT}/**', /tmp/**]
  read_only: ['${PROJECT}/.git', '${PROJECT}/.git/config', '${PROJECT}/.git/hooks/**', '${PROJECT}/**/.aixgate*.yaml', '~/.bashrc', '${PROJECT}/**/.env']
  redact: ['**/.env']
  deny: ['${PROJECT}/.git/hooks/secret']
`)
	open := mustCompile(t, "profile: t\ndefault: allow\nfilesystem:\n  read_only: ['/etc/**']\n")
	tests := []struct {
		name      string
		e         *Engine
		op        Op
		path      string
		want      Action
		wantErrno Errno
		wantRule  string
	}{
		{"plant a hook", e, OpCreate, "/home/u/proj/.git/hooks/pre-commit", Deny, EACCES, "read_only:${PROJECT}/.git/hooks/**"},
		{"rewrite a hook", e, OpWrite, "/home/u/proj/.git/hooks/pre-commit", Deny, EACCES, "read_only:${PROJECT}/.git/hooks/**"},
		{"delete a hook", e, OpUnlink, "/home/u/proj/.git/hooks/pre-commit", Deny, EACCES, "read_only:${PROJECT}/.git/hooks/**"},
		{"replace the hooks directory", e, OpRename, "/home/u/proj/.git/hooks", Deny, EACCES, "read_only:${PROJECT}/.git/hooks/**"},
		{"hard link a hook elsewhere", e, OpLink, "/home/u/proj/.git/hooks/pre-commit", Deny, EACCES, "read_only:${PROJECT}/.git/hooks/**"},
		{"git config: core.hooksPath", e, OpWrite, "/home/u/proj/.git/config", Deny, EACCES, "read_only:${PROJECT}/.git/config"},
		{"move .git away", e, OpRename, "/home/u/proj/.git", Deny, EACCES, "read_only:${PROJECT}/.git"},
		{"a commondir pointing elsewhere", compileProfile(t, GenericProfile), OpCreate, "/home/u/proj/.git/commondir", Deny, EACCES, "read_only:${PROJECT}/.git/commondir"},
		{"a .git file pointing elsewhere", e, OpWrite, "/home/u/proj/.git", Deny, EACCES, "read_only:${PROJECT}/.git"},
		{"plant a subdirectory policy", e, OpCreate, "/home/u/proj/sub/.aixgate.yaml", Deny, EACCES, "read_only:${PROJECT}/**/.aixgate*.yaml"},
		{"or a variant name", e, OpCreate, "/home/u/proj/a/b/.aixgate.local.yaml", Deny, EACCES, "read_only:${PROJECT}/**/.aixgate*.yaml"},
		{"the hook stays readable", e, OpRead, "/home/u/proj/.git/hooks/pre-commit", Allow, "", "read_only:${PROJECT}/.git/hooks/**"},
		{"and runnable in the sandbox", e, OpExec, "/home/u/proj/.git/hooks/pre-commit", Allow, "", "read_only:${PROJECT}/.git/hooks/**"},
		{"and visible", e, OpStat, "/home/u/proj/.git/config", Allow, "", "read_only:${PROJECT}/.git/config"},
		{"other git files stay writable", e, OpWrite, "/home/u/proj/.git/index", Allow, "", "allow_write:${PROJECT}/**"},
		{"deny beats read_only", e, OpRead, "/home/u/proj/.git/hooks/secret", Deny, ENOENT, "deny:${PROJECT}/.git/hooks/secret"},
		{"redact beats read_only", e, OpWrite, "/home/u/proj/.env", Redact, EACCES, "redact:**/.env"},
		{"read_only never widens", e, OpRead, "/home/u/.bashrc", Deny, ENOENT, "default:deny"},
		{"nor reveals existence", e, OpStat, "/home/u/.bashrc", Deny, ENOENT, "default:deny"},
		{"default allow: read_only applies", open, OpWrite, "/etc/passwd", Deny, EACCES, "read_only:/etc/**"},
		{"default allow: readable", open, OpRead, "/etc/passwd", Allow, "", "read_only:/etc/**"},
		// The directories above a read_only path cannot be created, moved
		// or removed: mv .git .x; write .x/hooks/pre-commit; mv .x .git.
		{"guard: rename the parent of hooks", e, OpRename, "/home/u/proj/.git", Deny, EACCES, "read_only:${PROJECT}/.git"},
		{"guard: rename the project", e, OpRename, "/home/u/proj", Deny, EACCES, "guard:${PROJECT}/.git"},
		{"guard: remove the project", e, OpUnlink, "/home/u/proj", Deny, EACCES, "guard:${PROJECT}/.git"},
		{"guard: directories elsewhere are free", e, OpRename, "/home/u/proj/src", Allow, "", "allow_write:${PROJECT}/**"},
		{"guard: creating them too", e, OpCreate, "/home/u/proj/sub", Allow, "", "allow_write:${PROJECT}/**"},
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

// TestReadOnlyGuardsAncestors: moving a directory that holds a read_only
// path away, writing the path under the new name and moving it back must
// fail at the first or last step.
func TestReadOnlyGuardsAncestors(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_write: ['${PROJECT}/**', '~/.cache/**']\n  read_only: ['${PROJECT}/a/b/c/hook']\n")
	for _, dir := range []string{"/home/u/proj/a/b/c", "/home/u/proj/a/b", "/home/u/proj/a", "/home/u/proj"} {
		for _, op := range []Op{OpRename, OpCreate, OpUnlink} {
			if d := e.Decide(op, dir); d.Action != Deny || d.Errno != EACCES || d.Rule.List != "guard" {
				t.Errorf("Decide(%s, %s) = %s %s by %s, want deny EACCES by the guard", op, dir, d.Action, d.Errno, d.Rule.ID())
			}
		}
		if d := e.Decide(OpRead, dir); d.Action != Allow {
			t.Errorf("Decide(read, %s) = %s by %s, want allow", dir, d.Action, d.Rule.ID())
		}
	}
	if d := e.Decide(OpCreate, "/home/u/proj/a/b/x"); d.Action != Allow {
		t.Errorf("create a sibling = %s by %s, want allow", d.Action, d.Rule.ID())
	}
}
