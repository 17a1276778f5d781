package policy

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// matchKind is how a compiled glob is matched: the common shapes skip the
// general matcher.
type matchKind uint8

const (
	kindExact matchKind = iota // no meta-characters: the path itself
	kindTree                   // "LIT/**": LIT and everything below it
	kindBase                   // "/**/SEG", SEG one segment: the last element matches SEG
	kindGlob                   // anything else: doublestar.Match
)

// matcher is one expanded glob, compiled.
type matcher struct {
	glob string
	kind matchKind
	key  string // the literal directory every match is equal to or below
	lit  string // kindExact: the path; kindTree: the root
	seg  string // kindBase: the segment pattern
}

// compileGlob compiles an absolute, cleaned, valid doublestar pattern.
func compileGlob(g string) matcher {
	m := matcher{glob: g, kind: kindGlob}
	meta := strings.IndexAny(g, `*?[{\`)
	switch {
	case meta < 0:
		m.kind, m.lit, m.key = kindExact, g, g
		return m
	case strings.HasSuffix(g, "/**") && meta == len(g)-2:
		m.kind, m.lit = kindTree, g[:len(g)-3]
		m.key = orDefault(m.lit, "/")
		return m
	}
	m.key = literalDir(g[:meta])
	if tail, ok := strings.CutPrefix(g, "/**/"); ok && !strings.Contains(tail, "/") && !strings.Contains(tail, "**") {
		m.kind, m.seg = kindBase, tail
	}
	return m
}

// literalDir returns the directory part of a literal glob prefix: "/a/b/c"
// → "/a/b", "/x" → "/".
func literalDir(lit string) string {
	i := strings.LastIndexByte(lit, '/')
	if i <= 0 {
		return "/"
	}
	return lit[:i]
}

// match reports whether the canonical absolute path p matches.
func (m *matcher) match(p string) bool {
	switch m.kind {
	case kindExact:
		return p == m.lit
	case kindTree:
		return p == m.lit || m.lit == "" || (strings.HasPrefix(p, m.lit) && len(p) > len(m.lit) && p[len(m.lit)] == '/')
	case kindBase:
		if p == "/" {
			break
		}
		ok, err := doublestar.Match(m.seg, p[strings.LastIndexByte(p, '/')+1:])
		return ok && err == nil
	}
	ok, err := doublestar.Match(m.glob, p)
	return ok && err == nil
}

// ancestors calls fn with "/", then each ancestor directory of the
// canonical absolute path p, then p itself, stopping when fn returns false.
// It does not allocate.
func ancestors(p string, fn func(dir string) bool) {
	if !fn("/") || p == "/" {
		return
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && !fn(p[:i]) {
			return
		}
	}
	fn(p)
}

// isCanonical reports whether p is absolute and clean: no empty, "." or ".."
// segment, no trailing slash, no NUL. Decisions are only taken on such paths.
func isCanonical(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' || strings.IndexByte(p, 0) >= 0 {
		return false
	}
	start := 1
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		seg := p[start:i]
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		start = i + 1
	}
	return true
}
