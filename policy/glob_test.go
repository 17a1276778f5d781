package policy

import (
	"slices"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestCompileGlobKinds(t *testing.T) {
	tests := []struct {
		glob     string
		wantKind matchKind
		wantKey  string
	}{
		{"/etc/passwd", kindExact, "/etc/passwd"},
		{"/home/u/proj/**", kindTree, "/home/u/proj"},
		{"/**", kindTree, "/"},
		{"/**/.env", kindBase, "/"},
		{"/**/*.pem", kindBase, "/"},
		{"/**/src/*.go", kindGlob, "/"},
		{"/home/u/proj/**/.envrc", kindBase, "/home/u/proj"},
		{"/home/u/proj/**/.aixgate*.yaml", kindBase, "/home/u/proj"},
		{"/a/**/b/**/c", kindGlob, "/a"},
		{"/home/u/.ssh/id_*", kindSegs, "/home/u/.ssh"},
		{"/home/u/.claude.json*", kindSegs, "/home/u"},
		{"/proc/*/environ", kindSegs, "/proc"},
		{"/tmp/u/job-*/**", kindSegs, "/tmp/u"},
		{"/*", kindSegs, "/"},
		{"/a/*/b/**/c", kindGlob, "/a"},
		{"/a/x*y*z", kindGlob, "/a"},
		{`/p\[1\]/**`, kindGlob, "/"},
	}
	for _, tt := range tests {
		m := compileGlob(tt.glob)
		if m.kind != tt.wantKind || m.key != tt.wantKey {
			t.Errorf("compileGlob(%q) = kind %d key %q, want kind %d key %q", tt.glob, m.kind, m.key, tt.wantKind, tt.wantKey)
		}
	}
}

// TestMatchAgreesWithDoublestar checks every fast path against the
// reference matcher, and the doublestar semantics the policy promises.
func TestMatchAgreesWithDoublestar(t *testing.T) {
	globs := []string{"/a/**", "/**", "/**/.env", "/**/.env.*", "/**/*", "/a/b", "/a/*/c", "/**/{x,y}", "/a/b*", "/**/[ab]",
		"/*", "/a/*", "/a/*/**", "/a/b*c/**", "/*/c", "/**/*.pem", "/a/x*", "/a/**/c", "/a/**/b*", "/a/b/**/*.pem", "/a/**/{c,x}"}
	paths := []string{"/", "/a", "/a/b", "/a/b/c", "/ab", "/x", "/q/.env", "/.env", "/a/.env.local", "/a/bcd", "/b", "/y/z/x",
		"/a/bc", "/a/bxc/d", "/a/x", "/k.pem", "/a/.pem", "/a/b/c/d", "/a/c", "/c", "/ac", "/ab/c", "/a/b/k.pem", "/a/bk.pem", "/a/b/x/y.pem"}
	for _, g := range globs {
		m := compileGlob(g)
		for _, p := range paths {
			want, _ := doublestar.Match(g, p)
			if got := m.match(p); got != want {
				t.Errorf("match(%q, %q) = %v, doublestar says %v", g, p, got, want)
			}
		}
	}
	if ok, _ := doublestar.Match("/a/**", "/a"); !ok {
		t.Error(`doublestar no longer matches "dir/**" against "dir"; the policy relies on it`)
	}
}

func TestAncestors(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"/"}},
		{"/a", []string{"/", "/a"}},
		{"/a/b/c", []string{"/", "/a", "/a/b", "/a/b/c"}},
	}
	for _, tt := range tests {
		var got []string
		ancestors(tt.path, func(d string) bool { got = append(got, d); return true })
		if !slices.Equal(got, tt.want) {
			t.Errorf("ancestors(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestIsCanonical(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/", true},
		{"/a/b", true},
		{"/a/.b", true},
		{"/a/..b", true},
		{"", false},
		{"a/b", false},
		{"/a/", false},
		{"//a", false},
		{"/a//b", false},
		{"/a/./b", false},
		{"/a/../b", false},
		{"/a/..", false},
		{"/.", false},
		{"/a\x00b", false},
	}
	for _, tt := range tests {
		if got := isCanonical(tt.path); got != tt.want {
			t.Errorf("isCanonical(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
