package sbpl

import (
	"sort"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// propPolicy exercises every glob form the translation knows, regex
// meta-characters in names, denies inside allowed trees and redaction.
const propPolicy = `
profile: prop
default: deny
filesystem:
  allow_read:
    - /usr/**
    - ~/.gitconfig
    - ~/ro/**
    - /opt/{a,b}/lib/**
    - /srv/dat?/**
    - /srv/[abc]x/**
    - '/weird/a+b.c(d)$e^f|g/**'
    - /etc/**
  allow_write:
    - ${PROJECT}/**
    - ${TMPDIR}/**
    - /var/tmp/**
    - ~/ro/scratch/**
    - /weird/*.log
    - ~/.cache/tool*/**
  redact:
    - '**/.env'
    - '**/.env.*'
    - '**/*.pem'
  deny:
    - ~/.ssh/id_*
    - ${PROJECT}/secrets/**
    - ~/ro/**/private/**
    - /srv/data/[xyz]*
    - '/weird/a+b.c(d)$e^f|g/no?'
    - ${PROJECT}/{build,dist}/**/cred*
    - /var/tmp/x
    - /etc/shadow
exec:
  allow: [git, node, sh, ls, cat, c++, tool.v2]
  deny: [curl, c++]
`

// propPaths are the queries of the property, chosen around every rule
// above: inside, beside, below, and with meta-characters in names.
var propPaths = []string{
	"/usr/bin/git", "/usr/bin/curl", "/usr/local/bin/c++", "/usr/bin/tool.v2", "/usr/bin/toolxv2",
	"/Users/u/.gitconfig", "/Users/u/.gitconfig2", "/Users/u/ro", "/Users/u/ro/f", "/Users/u/ro/a/b/c",
	"/Users/u/ro/private", "/Users/u/ro/private/k", "/Users/u/ro/x/private/k", "/Users/u/ro/xprivate/k",
	"/Users/u/ro/scratch/out", "/Users/u/ro/scratch/private/k", "/Users/u/ro/.env", "/Users/u/ro/a.pem",
	"/opt/a/lib/x.so", "/opt/b/lib/x.so", "/opt/c/lib/x.so", "/opt/ab/lib/x.so", "/opt/a/libx",
	"/srv/data/f", "/srv/data/x1", "/srv/data/y", "/srv/data/w", "/srv/datb/f", "/srv/dat/f", "/srv/dataa/f",
	"/srv/ax/f", "/srv/bx/f", "/srv/dx/f", "/srv/abx/f",
	"/weird/a+b.c(d)$e^f|g", "/weird/a+b.c(d)$e^f|g/x", "/weird/a+b.c(d)$e^f|g/no1", "/weird/a+b.c(d)$e^f|g/no",
	"/weird/aab.c(d)$e^f|g/x", "/weird/a+bxc(d)$e^f|g/x", "/weird/x.log", "/weird/xlog", "/weird/.log", "/weird/a/x.log",
	"/Users/u/proj", "/Users/u/proj/main.go", "/Users/u/proj/.env", "/Users/u/proj/.env.local", "/Users/u/proj/envx",
	"/Users/u/proj/sub/.env", "/Users/u/proj/k.pem", "/Users/u/proj/secrets", "/Users/u/proj/secrets/a",
	"/Users/u/proj/secretsx", "/Users/u/proj/build/cred.txt", "/Users/u/proj/dist/a/b/credentials",
	"/Users/u/proj/other/cred", "/Users/u/proj/build/x", "/Users/u/proj/tool.v2", "/Users/u/proj/curl",
	"/private/tmp/u/x", "/private/tmp/u", "/private/tmp/v", "/tmp/u/x",
	"/var/tmp/a", "/private/var/tmp/a", "/var/tmp/x", "/private/var/tmp/x",
	"/etc/hosts", "/private/etc/hosts", "/etc/shadow", "/private/etc/shadow",
	"/Users/u/.ssh/id_rsa", "/Users/u/.ssh/id_", "/Users/u/.ssh/known_hosts", "/Users/u/.ssh",
	"/Users/u/.cache/tool", "/Users/u/.cache/tool1/x", "/Users/u/.cache/tools/x/y", "/Users/u/.cache/xtool/a",
	"/Users/u/Documents/a", "/Users/u", "/", "/Users",
}

// darwinPath is where macOS reports path p: /tmp, /var and /etc live under
// /private. The profile is queried with both spellings; the engine with p.
func darwinPath(p string) string {
	for _, r := range privateRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return "/private" + p
		}
	}
	return p
}

// engineAllows is the engine's answer for the macOS path q, reduced to what
// macOS can say: allowed or not (redact is a denial on macOS). exec uses
// DecideExec with argv[0] the path itself: the sandbox sees only the
// executed file. For q under /private/{tmp,var,etc}, a rule written for the
// /tmp, /var or /etc spelling applies too (the generator writes both), so
// the engine is asked for both spellings and the decision of the
// higher-precedence rule wins.
func engineAllows(e *policy.Engine, op, q string) (bool, policy.Decision) {
	d := engineDecide(e, op, q)
	if alias, ok := strings.CutPrefix(q, "/private"); ok && darwinPath(alias) == q {
		if d2 := engineDecide(e, op, alias); listRank(d2.Rule.List) < listRank(d.Rule.List) {
			d = d2
		}
	}
	return d.Allowed(), d
}

func engineDecide(e *policy.Engine, op, p string) policy.Decision {
	switch op {
	case "read":
		return e.Decide(policy.OpRead, p)
	case "write":
		return e.Decide(policy.OpWrite, p)
	}
	return e.DecideExec(p, []string{p})
}

// listRank orders rule lists by precedence, lower wins.
func listRank(list string) int {
	switch {
	case strings.HasPrefix(list, "exec."):
		return 0
	case list == "deny":
		return 1
	case list == "redact":
		return 2
	case list == "allow_write":
		return 3
	case list == "allow_read":
		return 4
	}
	return 5
}

// sbplOp is the SBPL operation each property operation is checked on.
var sbplOp = map[string]string{"read": "file-read-data", "write": "file-write-data", "exec": "process-exec"}

// systemAllowed lists the trees the system allowances open whatever the
// policy; the property does not apply there (see TestSystemAllowances).
var systemAllowed = []string{"/usr/lib", "/usr/share", "/System", "/Library/Apple", "/private/var/db/dyld",
	"/private/var/db/timezone", "/private/etc/localtime", "/dev", "/private/var/select", "/private/var/db/xcode_select_link"}

func isSystemAllowed(p string) bool {
	for _, s := range systemAllowed {
		if p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// TestPropertyProfileAgreesWithEngine: for every path and operation (read,
// write, exec; stat is excluded because macOS cannot hide existence), the
// generated profile's verdict equals the Linux engine's decision, redact
// counting as a denial.
func TestPropertyProfileAgreesWithEngine(t *testing.T) {
	e := compileYAML(t, propPolicy)
	checkProperty(t, e, propPaths)
}

// TestPropertyBuiltinProfiles runs the same property on every built-in
// profile, on paths derived from its own rules.
func TestPropertyBuiltinProfiles(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			e := compileProfile(t, name)
			checkProperty(t, e, append(derivedPaths(e), propPaths...))
		})
	}
}

func checkProperty(t *testing.T, e *policy.Engine, paths []string) {
	t.Helper()
	ev, err := NewEvaluator(generate(t, e))
	if err != nil {
		t.Fatalf("NewEvaluator: %v", err)
	}
	checked := 0
	for _, p := range paths {
		q := darwinPath(p) // the kernel reports the /private spelling
		if isSystemAllowed(q) {
			continue
		}
		for _, op := range []string{"read", "write", "exec"} {
			want, d := engineAllows(e, op, q)
			checked++
			if got := ev.Decide(sbplOp[op], q); got.Allow != want {
				t.Errorf("%s %s: profile allow=%v by %s; engine %s by %s", op, q, got.Allow, got.Rule, d.Action, d.Rule.ID())
			}
		}
	}
	if checked < len(paths) {
		t.Fatalf("only %d queries checked", checked)
	}
}

// derivedPaths returns, for each filesystem rule, its literal directory,
// a file in it, a file below it and dotfiles there.
func derivedPaths(e *policy.Engine) []string {
	set := map[string]bool{}
	for _, r := range e.Rules() {
		dir, ok := traverseDir(r.Glob)
		if !ok {
			continue
		}
		lit := r.Glob
		if i := strings.IndexAny(lit, `*?[{\`); i >= 0 {
			lit = strings.TrimSuffix(lit[:i], "/")
		}
		for _, p := range []string{dir, lit, lit + "/f", lit + "/a/b", lit + "x", dir + "/.env", lit + "/k.pem", dir + "/id_rsa"} {
			if p != "" && !strings.Contains(p, "//") {
				set[p] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestSystemAllowances: the system table opens files the engine may not
// allow (dyld must read /usr/lib), but a policy deny still wins over it.
func TestSystemAllowances(t *testing.T) {
	e := compileYAML(t, "profile: s\ndefault: deny\nfilesystem:\n  deny:\n    - /usr/lib/secret\n")
	ev, err := NewEvaluator(generate(t, e))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op, path string
		want     bool
	}{
		{op: "file-read-data", path: "/usr/lib/libSystem.B.dylib", want: true},
		{op: "file-map-executable", path: "/usr/lib/libSystem.B.dylib", want: true},
		{op: "file-write-data", path: "/usr/lib/libSystem.B.dylib", want: false},
		{op: "process-exec", path: "/usr/lib/x", want: false},
		{op: "file-read-data", path: "/usr/lib/secret", want: false},
		{op: "file-write-data", path: "/dev/null", want: true},
		{op: "file-write-data", path: "/dev/ttys003", want: true},
		{op: "file-write-data", path: "/dev/ttys003x", want: false},
		{op: "file-read-metadata", path: "/", want: true},
		{op: "file-read-data", path: "/Users/u/x", want: false},
		{op: "mach-lookup", path: "", want: false},
	}
	for _, tt := range tests {
		if got := ev.Decide(tt.op, tt.path); got.Allow != tt.want {
			t.Errorf("%s %s = %v by %s, want %v", tt.op, tt.path, got.Allow, got.Rule, tt.want)
		}
	}
}

// TestCaseFolding: on a case-insensitive volume ~/.SSH/ID_RSA is the
// same file as ~/.ssh/id_rsa; deny and redact rules match it in any case.
// This is the one place the profile deliberately denies more than the
// engine, which compares paths exactly.
func TestCaseFolding(t *testing.T) {
	e := compileYAML(t, propPolicy)
	ev, err := NewEvaluator(generate(t, e))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op, path string
		want     bool
	}{
		{op: "file-read-data", path: "/Users/u/.SSH/ID_RSA", want: false},
		{op: "file-read-data", path: "/Users/u/proj/.ENV", want: false},
		{op: "file-write-data", path: "/Users/u/PROJ/main.go", want: false}, // allows are exact: not allowed
		{op: "file-read-data", path: "/Users/u/proj/Main.go", want: true},
		{op: "process-exec", path: "/usr/bin/CURL", want: false},
	}
	for _, tt := range tests {
		if got := ev.Decide(tt.op, tt.path); got.Allow != tt.want {
			t.Errorf("%s %s = %v by %s, want %v", tt.op, tt.path, got.Allow, got.Rule, tt.want)
		}
	}
}

// TestDefaultAllow: a default: allow policy opens files, and only files,
// without (allow default); allow_read still means read-only.
func TestDefaultAllow(t *testing.T) {
	src := "profile: open\ndefault: allow\nfilesystem:\n  allow_read: [/ro/**]\n  allow_write: [/ro/w/**]\n  deny: [/ro/secret]\n"
	e := compileYAML(t, src)
	sb := generate(t, e)
	if strings.Contains(string(sb), "(allow default") {
		t.Fatal("profile contains (allow default)")
	}
	checkProperty(t, e, []string{"/x", "/ro/a", "/ro/w/a", "/ro/secret", "/Users/u/proj/a", "/tmp/a"})
	ev, _ := NewEvaluator(sb)
	if ev.Decide("mach-lookup", "").Allow {
		t.Error("default: allow opened mach-lookup")
	}
}
