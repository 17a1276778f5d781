package policy

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// opPolicy has one path per list, so each row of the Decide table can be
// checked for every operation.
const opPolicy = `profile: ops
filesystem:
  allow_read: [/r/**, /x/**] # redact narrows what an allow grants
  allow_write: [/w/**]
  redact: [/x/**]
  deny: [/d/**, {path: /e/**, errno: EACCES}]
`

// TestDecideOperations is the table of Engine.Decide's documentation.
func TestDecideOperations(t *testing.T) {
	e := mustCompile(t, opPolicy)
	type want struct {
		action Action
		errno  Errno
	}
	allow, redact := want{Allow, ""}, want{Redact, ""}
	hide, refuse, redactRefuse := want{Deny, ENOENT}, want{Deny, EACCES}, want{Redact, EACCES}
	tests := []struct {
		op                                      Op
		deny, denyEACCES, red, write, read, non want
	}{
		{OpRead, hide, refuse, redact, allow, allow, hide},
		{OpStat, hide, refuse, redact, allow, allow, hide},
		{OpExec, hide, refuse, refuse, allow, allow, hide},
		{OpWrite, refuse, refuse, redactRefuse, allow, refuse, refuse},
		{OpCreate, refuse, refuse, refuse, allow, refuse, refuse}, // a new name: redact does not decide, allow_read refuses
		{OpUnlink, refuse, refuse, redactRefuse, allow, refuse, refuse},
		{OpRename, refuse, refuse, refuse, allow, refuse, refuse},
		{OpLink, refuse, refuse, refuse, allow, refuse, refuse},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			path string
			want want
		}{{"/d/f", tt.deny}, {"/e/f", tt.denyEACCES}, {"/x/f", tt.red}, {"/w/f", tt.write}, {"/r/f", tt.read}, {"/n/f", tt.non}} {
			d := e.Decide(tt.op, c.path)
			if d.Action != c.want.action || d.Errno != c.want.errno {
				t.Errorf("Decide(%s, %s) = %s %s by %s, want %s %s", tt.op, c.path, d.Action, d.Errno, d.Rule.ID(), c.want.action, c.want.errno)
			}
		}
	}
}

func TestDecideDefaultAllow(t *testing.T) {
	e := mustCompile(t, "profile: open\ndefault: allow\nfilesystem:\n  deny: [/d/**]\n")
	for _, op := range Ops {
		if d := e.Decide(op, "/n/f"); d.Action != Allow || d.Rule.ID() != "default:allow" {
			t.Errorf("Decide(%s, /n/f) = %s by %s, want allow by default:allow", op, d.Action, d.Rule.ID())
		}
		if d := e.Decide(op, "/d/f"); d.Action != Deny && op != OpDatagram { // datagram does not look at the path
			t.Errorf("Decide(%s, /d/f) = %s, want deny", op, d.Action)
		}
	}
}

func TestDecidePrecedence(t *testing.T) {
	e := mustCompile(t, `profile: prec
filesystem:
  allow_read: ['${PROJECT}/**', '/a/**']
  allow_write: ['${PROJECT}/**', '/a/b/**']
  redact: ['**/.env', '/a/b/c/**']
  deny: ['${PROJECT}/secret/**', '/a/b/c/d/**']
`)
	tests := []struct {
		path     string
		want     Action
		wantRule string
	}{
		{"/home/u/proj/main.go", Allow, "allow_write:${PROJECT}/**"},
		{"/home/u/proj/.env", Redact, "redact:**/.env"},
		{"/home/u/proj/secret/.env", Deny, "deny:${PROJECT}/secret/**"},
		{"/home/u/proj/secret", Deny, "deny:${PROJECT}/secret/**"},
		{"/a/x", Allow, "allow_read:/a/**"},
		{"/a/b/x", Allow, "allow_write:/a/b/**"},
		{"/a/b/c/x", Redact, "redact:/a/b/c/**"},
		{"/a/b/c/d/x", Deny, "deny:/a/b/c/d/**"},
		{"/a/b/c/d/.env", Deny, "deny:/a/b/c/d/**"},
		{"/home/u/other/x", Deny, "default:deny"},
	}
	for _, tt := range tests {
		d := e.Decide(OpRead, tt.path)
		if d.Action != tt.want || d.Rule.ID() != tt.wantRule {
			t.Errorf("read %s = %s by %s, want %s by %s", tt.path, d.Action, d.Rule.ID(), tt.want, tt.wantRule)
		}
	}
}

func TestDecideTraverse(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_read: ['${PROJECT}/**', '~/.gitconfig', '~/.claude.json*']\n  deny: [/home/u/.ssh/**]\n")
	tests := []struct {
		op   Op
		path string
		want Action
	}{
		{OpStat, "/", Allow},
		{OpStat, "/home", Allow},
		{OpStat, "/home/u", Allow},
		{OpRead, "/home/u", Deny}, // listing the home directory stays hidden
		{OpStat, "/home/u/other", Deny},
		{OpStat, "/home/u/.ssh", Deny},
		{OpStat, "/home/u/proj", Allow},
		{OpStat, "/home/u/.claude.json.lock", Allow},
		{OpWrite, "/home", Deny},
	}
	for _, tt := range tests {
		if d := e.Decide(tt.op, tt.path); d.Action != tt.want {
			t.Errorf("Decide(%s, %s) = %s by %s, want %s", tt.op, tt.path, d.Action, d.Rule.ID(), tt.want)
		}
	}
	if d := e.Decide(OpStat, "/home"); d.Rule.List != "traverse" || d.Rule.Pattern != "${PROJECT}/**" {
		t.Errorf("stat /home rule = %s, want traverse:${PROJECT}/**", d.Rule.ID())
	}
}

func TestDecideRejectsNonCanonicalPaths(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  allow_write: ['${PROJECT}/**']\n")
	for _, p := range []string{"/home/u/proj/../.ssh/id_rsa", "home/u/proj/x", "/home/u/proj/", "/home/u/proj//x", "", "/home/u/proj/a\x00"} {
		for _, op := range []Op{OpRead, OpWrite} {
			if d := e.Decide(op, p); d.Action != Deny || d.Rule.List != "invalid-path" {
				t.Errorf("Decide(%s, %q) = %s by %s, want deny by invalid-path", op, p, d.Action, d.Rule.ID())
			}
		}
	}
	if d := e.Decide(Op("chmod"), "/home/u/proj/x"); d.Action != Deny {
		t.Errorf("unknown op decided %s, want deny", d.Action)
	}
}

func TestDecideRuleSource(t *testing.T) {
	e := mustCompile(t, "profile: t\nfilesystem:\n  deny:\n    - ~/.ssh/id_* # keys\n")
	d := e.Decide(OpRead, "/home/u/.ssh/id_rsa")
	want := Rule{List: "deny", Pattern: "~/.ssh/id_*", Glob: "/home/u/.ssh/id_*", Source: Source{File: "t.yaml", Line: 4, Column: 7}, Profile: "t", Comment: "keys"}
	if !reflect.DeepEqual(d.Rule, want) {
		t.Errorf("rule = %+v, want %+v", d.Rule, want)
	}
}

func TestDecideExec(t *testing.T) {
	e := mustCompile(t, `profile: x
filesystem:
  allow_read: [/usr/**]
  redact: [/usr/bin/secret]
exec:
  deny: [sudo]
  deny_args:
    git: ['push --force', 'config --global']
`)
	tests := []struct {
		path     string
		argv     []string
		want     Action
		wantRule string
	}{
		{"/usr/bin/git", []string{"git", "status"}, Allow, "allow_read:/usr/**"},
		{"/usr/bin/git", []string{"git", "push", "--force", "origin"}, Deny, "exec.deny_args:git push --force"},
		{"/usr/bin/git", []string{"git", "push", "origin", "--force"}, Allow, "allow_read:/usr/**"}, // contiguous runs only
		{"/usr/bin/git", []string{"git", "-C", "x", "config", "--global", "a", "b"}, Deny, "exec.deny_args:git config --global"},
		{"/usr/bin/git", []string{"git", "push", "-f"}, Allow, "allow_read:/usr/**"}, // a convenience, not a boundary
		{"/usr/bin/git", []string{"git"}, Allow, "allow_read:/usr/**"},
		{"/usr/bin/git", nil, Allow, "allow_read:/usr/**"},
		{"/usr/bin/sudo", []string{"sudo", "id"}, Deny, "exec.deny:sudo"},
		{"/usr/bin/env", []string{"sudo"}, Deny, "exec.deny:sudo"}, // argv[0] is checked for deny too
		{"/usr/bin/secret", []string{"secret"}, Deny, "redact:/usr/bin/secret"},
		{"/home/u/x", []string{"x"}, Deny, "default:deny"},
	}
	for _, tt := range tests {
		d := e.DecideExec(tt.path, tt.argv)
		if d.Action != tt.want || d.Rule.ID() != tt.wantRule {
			t.Errorf("DecideExec(%s, %q) = %s by %s, want %s by %s", tt.path, tt.argv, d.Action, d.Rule.ID(), tt.want, tt.wantRule)
		}
	}
}

func TestDecideExecAllowList(t *testing.T) {
	e := mustCompile(t, "profile: x\nfilesystem:\n  allow_read: [/usr/**]\nexec:\n  allow: [git, go]\n")
	tests := []struct {
		path string
		argv []string
		want Action
	}{
		{"/usr/bin/git", []string{"git"}, Allow},
		{"/usr/bin/go", []string{"go", "build"}, Allow},
		{"/usr/bin/curl", []string{"git"}, Deny}, // argv[0] proves nothing
		{"/usr/bin/curl", []string{"curl"}, Deny},
	}
	for _, tt := range tests {
		d := e.DecideExec(tt.path, tt.argv)
		if d.Action != tt.want {
			t.Errorf("DecideExec(%s, %q) = %s by %s, want %s", tt.path, tt.argv, d.Action, d.Rule.ID(), tt.want)
		}
		if d.Action == Deny && (d.Errno != EACCES || d.Rule.List != "exec.allow") {
			t.Errorf("DecideExec(%s) denial = %s by %s, want EACCES by exec.allow", tt.path, d.Errno, d.Rule.ID())
		}
	}
}

func TestExplain(t *testing.T) {
	e := mustCompile(t, `profile: x
filesystem:
  allow_read: ['${PROJECT}/**']
  allow_write: ['${PROJECT}/**']
  redact: ['**/.env']
  deny: ['${PROJECT}/.env']
`)
	x := e.Explain(OpRead, "/home/u/proj/.env")
	if x.Decision.Action != Deny || x.Decision.Rule.ID() != "deny:${PROJECT}/.env" {
		t.Errorf("Explain decision = %s by %s", x.Decision.Action, x.Decision.Rule.ID())
	}
	var beaten []string
	for _, r := range x.Beaten {
		beaten = append(beaten, r.ID())
	}
	want := []string{"redact:**/.env", "allow_write:${PROJECT}/**", "allow_read:${PROJECT}/**"}
	if !slices.Equal(beaten, want) {
		t.Errorf("Explain beaten = %q, want %q", beaten, want)
	}
	if x := e.Explain(OpRead, "/elsewhere"); len(x.Beaten) != 0 || x.Decision.Rule.List != "default" {
		t.Errorf("Explain(/elsewhere) = %+v, want the default and nothing beaten", x)
	}
}

func TestEnv(t *testing.T) {
	e := mustCompile(t, `profile: x
env:
  pass_through: [PATH, HOME, LC_*, ANTHROPIC_API_KEY, 'CLAUDE_*', FOO_TOKEN_HINT]
  strip: ['*_TOKEN', '*_KEY', 'LC_SECRET', FOO_TOKEN_HINT]
  inject:
    HOME: /sandbox/home
    EXTRA: '1'
`)
	in := []string{"PATH=/bin", "HOME=/home/u", "LC_ALL=C", "LC_SECRET=x", "ANTHROPIC_API_KEY=k", "CLAUDE_API_KEY=k2",
		"CLAUDE_CONFIG_DIR=/c", "GITHUB_TOKEN=t", "FOO_TOKEN_HINT=h", "EDITOR=vi", "AIXGATE_ACTIVE=0", "broken", "PATH=/dup"}
	got := e.Env(in)
	want := []string{"PATH=/bin", "HOME=/sandbox/home", "LC_ALL=C", "ANTHROPIC_API_KEY=k", "CLAUDE_CONFIG_DIR=/c", "FOO_TOKEN_HINT=h", "EXTRA=1", "AIXGATE_ACTIVE=1"}
	if !slices.Equal(got, want) {
		t.Errorf("Env =\n %q\nwant\n %q", got, want)
	}
	open := mustCompile(t, "profile: y\nenv:\n  strip: [SECRET]\n")
	if got, want := open.Env([]string{"A=1", "SECRET=2"}), []string{"A=1", "AIXGATE_ACTIVE=1"}; !slices.Equal(got, want) {
		t.Errorf("Env with empty pass_through = %q, want %q", got, want)
	}
}

func TestRoots(t *testing.T) {
	e := mustCompile(t, `profile: x
filesystem:
  allow_read: [/usr/**, /usr/lib/**, /usr-local/**, /dev/null, '~/.claude.json*', /etc/**]
  allow_write: ['${PROJECT}/**', '${PROJECT}/sub/**', /tmp/**]
  deny: [/etc/shadow]
`)
	r := e.Roots()
	wantRead := []string{"/dev/null", "/etc", "/home/u", "/usr", "/usr-local"}
	wantWrite := []string{"/home/u/proj", "/tmp"}
	if !slices.Equal(r.ReadDirs, wantRead) || !slices.Equal(r.WriteDirs, wantWrite) {
		t.Errorf("Roots = %q / %q, want %q / %q", r.ReadDirs, r.WriteDirs, wantRead, wantWrite)
	}
}

// TestDecideConcurrent runs decisions from many goroutines (go test -race
// finds unsynchronised cache access) and checks they agree with the
// uncached answer.
func TestDecideConcurrent(t *testing.T) {
	e := mustCompile(t, opPolicy)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3000 {
				p := fmt.Sprintf("/%c/f%d", "drwxn"[(g+i)%5], i%700)
				op := Ops[i%len(Ops)]
				got, want := e.Decide(op, p), e.decision(e.decide(op, p))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("Decide(%s, %s) = %+v, uncached %+v", op, p, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCacheIsBounded(t *testing.T) {
	c := newDecisionCache()
	for i := range cacheShards * cachePerShard * 3 {
		c.put(OpRead, fmt.Sprintf("/p/%d", i), cached{action: Allow})
	}
	total := 0
	for i := range c.shards {
		total += len(c.shards[i].m)
	}
	if total > cacheShards*cachePerShard {
		t.Errorf("cache holds %d entries, bound is %d", total, cacheShards*cachePerShard)
	}
}
