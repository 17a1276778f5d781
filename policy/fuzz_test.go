package policy

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// FuzzParsePolicy feeds arbitrary bytes to the parser and, when they parse,
// to Compile, Check and the decisions: nothing may panic, and every error
// is located. `go test` replays testdata/fuzz/FuzzParsePolicy.
func FuzzParsePolicy(f *testing.F) {
	for _, name := range ProfileNames() {
		src, _ := ProfileSource(name)
		f.Add(src)
	}
	f.Add([]byte("profile: x\nfilesystem:\n  deny: [{path: '**/.env', errno: EACCES}]\n"))
	f.Add([]byte("profile: x\nfilesystem:\n  allow_write: ['${PROJECT}/**']\n  redact: [{path: '**/.env.*', except: ['**/.env.example', '${PROJECT}/x']}]\n"))
	f.Add([]byte("profile: x\nunix:\n  connect: [/run/a.sock, '~/b/*.sock']\n  datagram: allow\ntests:\n  - {path: /run/a.sock, op: connect, want: allow}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error without location: %v", err)
			}
			return
		}
		for _, r := range p.Filesystem.Deny {
			if r.Source.Line == 0 {
				t.Errorf("rule %s has no line", r.ID())
			}
		}
		Check(p, testVars)
		e, err := Compile(p, testVars)
		if err != nil {
			return
		}
		for _, path := range []string{"/", "/home/u/proj/.env", "/home/u/.ssh/id_rsa", "/usr/bin/git"} {
			for _, op := range Ops {
				e.Decide(op, path)
			}
			e.Explain(OpRead, path)
		}
		e.DecideExec("/usr/bin/git", []string{"git", "push", "--force"})
		e.Env([]string{"PATH=/bin", "X_TOKEN=1"})
		e.Roots()
	})
}

// FuzzMatch compares the engine (prefix index and fast paths) with
// doublestar.Match on the expanded glob, for any valid pattern and any
// canonical path. `go test` replays testdata/fuzz/FuzzMatch. Names that are
// not UTF-8 are skipped: the engine compares them byte for byte, while
// doublestar decodes every invalid byte to the same U+FFFD.
func FuzzMatch(f *testing.F) {
	f.Add("${PROJECT}/**", "/home/u/proj/a/b")
	f.Add("**/.env", "/x/.env")
	f.Add("~/.ssh/id_*", "/home/u/.ssh/id_rsa")
	f.Add("/a/{b,c/d}/**", "/a/c/d/e")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if validGlob(pattern) != "" || !isCanonical(path) || !utf8.ValidString(pattern) || !utf8.ValidString(path) {
			return
		}
		p := &Policy{Name: "fuzz", Filesystem: Filesystem{AllowRead: []Rule{{List: "allow_read", Pattern: pattern}}}}
		e, err := Compile(p, testVars)
		if err != nil {
			return
		}
		glob := e.Rules()[0].Glob
		want, err := doublestar.Match(glob, path)
		if err != nil {
			return
		}
		got := e.Decide(OpRead, path).Action == Allow
		if got != want {
			t.Errorf("pattern %q (glob %q) on %q: engine says %v, doublestar %v", pattern, glob, path, got, want)
		}
	})
}
