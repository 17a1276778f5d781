package sbpl

import (
	"errors"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestTranslateGlob(t *testing.T) {
	tests := []struct {
		glob string
		fold bool
		want []string
	}{
		{glob: "/Users/u/.ssh/id_rsa", want: []string{`(literal "/Users/u/.ssh/id_rsa")`}},
		{glob: "/Users/u/proj/**", want: []string{`(subpath "/Users/u/proj")`}},
		{glob: "/**", want: []string{`(subpath "/")`}},
		{glob: "/tmp/**", want: []string{`(subpath "/tmp")`, `(subpath "/private/tmp")`}},
		{glob: "/etc/hosts", want: []string{`(literal "/etc/hosts")`, `(literal "/private/etc/hosts")`}},
		{glob: "/variable/x", want: []string{`(literal "/variable/x")`}},
		{glob: "/Users/u/.ssh/id_*", want: []string{`(regex #"^/Users/u/\.ssh/id_[^/]*$")`}},
		{glob: "/**/.env", want: []string{`(regex #"^/(.*/)?\.env$")`}},
		{glob: "/**/.env.*", want: []string{`(regex #"^/(.*/)?\.env\.[^/]*$")`}},
		{glob: "/a/**/b/**", want: []string{`(regex #"^/a/(.*/)?b(/.*)?$")`}},
		{glob: "/a/?.txt", want: []string{`(regex #"^/a/[^/]\.txt$")`}},
		{glob: "/a/*.{js,ts}", want: []string{`(regex #"^/a/[^/]*\.(js|ts)$")`}},
		{glob: "/a/[abc]x", want: []string{`(regex #"^/a/[abc]x$")`}},
		{glob: "/a/[!a-c]x", want: []string{`(regex #"^/a/[^a-c]x$")`}},
		{glob: `/a/[\]x-]y`, want: []string{`(regex #"^/a/[]x-]y$")`}},
		{glob: "/a/[-^]y", want: []string{`(regex #"^/a/[-^]y$")`}},
		{glob: "/a/**x", want: []string{`(regex #"^/a/[^/]*x$")`}},
		{glob: `/a+b/c.(d)/$e^|f/**`, want: []string{`(subpath "/a+b/c.(d)/$e^|f")`}},
		{glob: `/a+b/c.(d)/$e^|f/*`, want: []string{`(regex #"^/a\+b/c\.\(d\)/\$e\^\|f/[^/]*$")`}},
		{glob: `/a/\*star\[x\]/**`, want: []string{`(subpath "/a/*star[x]")`}},
		{glob: `/a/\*star/?`, want: []string{`(regex #"^/a/\*star/[^/]$")`}},
		{glob: `/back\\slash`, want: []string{`(literal "/back\\slash")`}},
		{glob: "/a/{b,c/d}", want: []string{`(regex #"^(/a/b|/a/c/d)$")`}},
		{glob: "/a/{,.}x", want: []string{`(regex #"^(/a/x|/a/\.x)$")`}},
		{glob: "/Users/u/.ssh/**", fold: true, want: []string{`(regex #"^/[Uu][Ss][Ee][Rr][Ss]/[Uu]/\.[Ss][Ss][Hh](/.*)?$")`}},
		{glob: "/x/[a-c]", fold: true, want: []string{`(regex #"^/[Xx]/[A-Ca-c]$")`}},
		{glob: "/tmp/k", fold: true, want: []string{`(regex #"^/[Tt][Mm][Pp]/[Kk]$")`, `(regex #"^/[Pp][Rr][Ii][Vv][Aa][Tt][Ee]/[Tt][Mm][Pp]/[Kk]$")`}},
	}
	for _, tt := range tests {
		fs, err := TranslateGlob(tt.glob, tt.fold)
		if err != nil {
			t.Errorf("TranslateGlob(%q) error: %v", tt.glob, err)
			continue
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.String())
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("TranslateGlob(%q, fold=%v)\n got %s\nwant %s", tt.glob, tt.fold, got, tt.want)
		}
	}
}

func TestTranslateGlobRefuses(t *testing.T) {
	tests := []struct {
		glob string
		want string
	}{
		{glob: `/a/"quoted"`, want: "double quote"},
		{glob: "/a/new\nline", want: "control character"},
		{glob: `/a/[\\x]`, want: "backslash"},
		{glob: "/a/[é]", want: "non-ASCII"},
		{glob: `/a/[\[-z]`, want: "range"},
	}
	for _, tt := range tests {
		_, err := TranslateGlob(tt.glob, false)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, errUnsupported) {
			t.Errorf("TranslateGlob(%q) = %v, want an unsupported error mentioning %q", tt.glob, err, tt.want)
		}
	}
}

// globCases are globs and paths on which a translation must agree with
// doublestar.Match, the engine's matcher.
var globCases = struct{ globs, paths []string }{
	globs: []string{
		"/a", "/a/**", "/a/*", "/a/**/b", "/a/**/b/**", "/**/.env", "/**/.env.*", "/**",
		"/a/?", "/a/?b", "/a/[bc]", "/a/[!b]", "/a/[^b]c", "/a/{b,c}", "/a/{b,c}/**",
		"/a/{b,c/d}", "/a/{,b}", "/a/{b,{c,d}}e", "/a/*.{js,ts}", "/a/**x", "/a/x**",
		"/a/**/**", "/**/b/*", "/a+b/**", "/a.b/c", "/a(b)/$", "/a|b/^x", `/a/\*`,
		`/a/[\]b]`, "/a/[a-c]*", "/a/*/**", "/tmp/**", "/a/b*/**/c?",
	},
	paths: []string{
		"/", "/a", "/b", "/ab", "/a/b", "/a/c", "/a/d", "/a/bc", "/a/b/c", "/a/c/d", "/a/x/b",
		"/a/x/y/b", "/a/b/x", "/.env", "/p/.env", "/p/q/.env", "/p/.env.local", "/p/.envx",
		"/a/x", "/a/yx", "/a/b/x", "/a/e", "/a/be", "/a/ce", "/a/de", "/a/m.js", "/a/m.ts",
		"/a/m.go", "/a+b", "/a+b/c", "/aab/c", "/a.b/c", "/axb/c", "/a(b)/$", "/a|b/^x",
		"/a/*", "/a/q", "/a/]", "/a/b/c/q", "/a/bz/c/cx", "/a/bz/cx", "/tmp", "/tmp/x",
		"/a//", "/a/.", "/q/b/x",
	},
}

func TestTranslateGlobAgreesWithDoublestar(t *testing.T) {
	for _, g := range globCases.globs {
		for _, fold := range []bool{false, true} {
			m := filterMatcher(t, g, fold)
			for _, p := range globCases.paths {
				want, _ := doublestar.Match(g, p)
				if fold {
					want = foldedMatch(g, p)
				}
				if got := m(p); got != want && canonicalOrAlias(p) {
					t.Errorf("glob %q fold=%v path %q: profile matches=%v, doublestar=%v", g, fold, p, got, want)
				}
			}
		}
	}
}

// foldedMatch reports whether p matches g ignoring ASCII case, the
// way a folded (deny) translation must.
func foldedMatch(g, p string) bool {
	ok, _ := doublestar.Match(strings.ToLower(g), strings.ToLower(p))
	return ok
}

func canonicalOrAlias(p string) bool { return p == "/" || (path.Clean(p) == p) }

// filterMatcher translates g and returns a function reporting whether any
// of its filters matches, using the Evaluator's filter semantics.
func filterMatcher(t testing.TB, g string, fold bool) func(string) bool {
	t.Helper()
	fs, err := TranslateGlob(g, fold)
	if err != nil {
		t.Fatalf("TranslateGlob(%q): %v", g, err)
	}
	var ms []pathMatcher
	for _, f := range fs {
		forms, err := parseSexprs(f.String())
		if err != nil || len(forms) != 1 {
			t.Fatalf("filter %s does not parse: %v", f, err)
		}
		m, err := compileFilter(forms[0])
		if err != nil {
			t.Fatalf("filter %s does not compile: %v", f, err)
		}
		ms = append(ms, m)
	}
	return func(p string) bool {
		for _, m := range ms {
			if m(p) {
				return true
			}
		}
		return false
	}
}

// FuzzTranslateGlob checks, for any valid glob and canonical path made of
// a small alphabet, that the translation matches exactly when doublestar
// does (aliases under /private aside).
func FuzzTranslateGlob(f *testing.F) {
	for i, g := range globCases.globs {
		f.Add(g, globCases.paths[i%len(globCases.paths)])
	}
	f.Fuzz(func(t *testing.T, g, p string) {
		g = path.Clean("/" + g)
		if !doublestar.ValidatePattern(g) || !isSmall(g) || !isSmall(p) || path.Clean(p) != p || !strings.HasPrefix(p, "/") {
			return
		}
		if strings.HasPrefix(g, "/private") || strings.HasPrefix(p, "/private") {
			return
		}
		if _, err := TranslateGlob(g, false); errors.Is(err, errUnsupported) {
			return
		} else if err != nil {
			t.Fatalf("TranslateGlob(%q): %v", g, err)
		}
		want, _ := doublestar.Match(g, p)
		if got := filterMatcher(t, g, false)(p); got != want && !(got && emptyTailQuirk(g, p)) {
			t.Fatalf("glob %q path %q: profile matches=%v, doublestar=%v", g, p, got, want)
		}
	})
}

// isSmall keeps fuzzed strings to printable ASCII and a bounded length.
func isSmall(s string) bool {
	if len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' {
			return false
		}
	}
	return true
}

// emptyTailQuirk reports whether doublestar refuses p only because p ends
// where the rest of g could match the empty string in a form doublestar
// does not accept there (it accepts "", "*", "**", "/**"): "/a*/**" does
// not match "/a" for doublestar, and does in SBPL. docs/macos.md lists this
// difference; the profile is then wider than the engine by the directory
// itself.
func emptyTailQuirk(g, p string) bool {
	for k := 1; k < len(g); k++ {
		prefix, tail := g[:k], g[k:]
		if !doublestar.ValidatePattern(prefix) || !doublestar.ValidatePattern(tail) {
			continue
		}
		if ok, _ := doublestar.Match(prefix, p); !ok {
			continue
		}
		body, err := regexBody(tail, false, 0)
		if err != nil {
			continue
		}
		if re, err := regexp.Compile("^(" + body + ")$"); err == nil && re.MatchString("") {
			return true
		}
	}
	return false
}
