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
	kindBase                   // "LIT/**/SEG", SEG one segment: below LIT, the last element matches SEG
	kindSegs                   // "LIT/S1/S2[/**]" with simple segments: compared segment by segment
	kindGlob                   // anything else: doublestar.Match
)

// segment is a simple pattern segment: a literal, or one "*" between a
// literal prefix and suffix. Other segments go to doublestar.
type segment struct {
	star     bool
	pre, suf string // the whole literal when !star
}

// simpleSegment parses s as a simple segment.
func simpleSegment(s string) (segment, bool) {
	if s == "" || strings.ContainsAny(s, `?[]{}\/`) {
		return segment{}, false
	}
	pre, suf, star := strings.Cut(s, "*")
	if star && strings.Contains(suf, "*") {
		return segment{}, false
	}
	return segment{star: star, pre: pre, suf: suf}, true
}

// match compares one path element; like doublestar, bytes are compared as
// they are (names that are not UTF-8 are matched byte for byte).
func (s segment) match(c string) bool {
	if !s.star {
		return c == s.pre
	}
	return len(c) >= len(s.pre)+len(s.suf) && strings.HasPrefix(c, s.pre) && strings.HasSuffix(c, s.suf)
}

// matcher is one expanded glob, compiled.
type matcher struct {
	glob string
	kind matchKind
	key  string    // the literal directory every match is equal to or below
	lit  string    // kindExact: the path; kindTree: the root
	seg  string    // kindBase: the segment pattern
	segs []segment // kindSegs: the segments after key (kindBase: one, if simple)
	tree bool      // kindSegs: the pattern ends in "/**"
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
	if tail, ok := strings.CutPrefix(g[meta-1:], "/**/"); ok && !strings.Contains(tail, "/") && !strings.Contains(tail, "**") {
		m.kind, m.seg = kindBase, tail
		if s, ok := simpleSegment(tail); ok {
			m.segs = []segment{s}
		}
		return m
	}
	rest := strings.TrimPrefix(g[len(m.key):], "/")
	rest, m.tree = strings.CutSuffix(rest, "/**")
	for part := range strings.SplitSeq(rest, "/") {
		s, ok := simpleSegment(part)
		if !ok {
			m.segs, m.tree = nil, false
			return m
		}
		m.segs = append(m.segs, s)
	}
	m.kind = kindSegs
	return m
}

// matchSegs matches p against key followed by m.segs (and anything below
// when m.tree).
func (m *matcher) matchSegs(p string) bool {
	var r string
	switch {
	case m.key == "/" && p != "/":
		r = p[1:]
	case len(p) > len(m.key) && p[len(m.key)] == '/' && strings.HasPrefix(p, m.key):
		r = p[len(m.key)+1:]
	default:
		return false
	}
	for _, s := range m.segs {
		if r == "" {
			return false
		}
		c, next, _ := strings.Cut(r, "/")
		if !s.match(c) {
			return false
		}
		r = next
	}
	return m.tree || r == ""
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
		if m.key != "/" && !(len(p) > len(m.key) && p[len(m.key)] == '/' && strings.HasPrefix(p, m.key)) {
			return false
		}
		base := p[strings.LastIndexByte(p, '/')+1:]
		if m.segs != nil {
			return m.segs[0].match(base)
		}
		ok, err := doublestar.Match(m.seg, base)
		return ok && err == nil
	case kindSegs:
		if p != "/" { // the root is doublestar's corner case
			return m.matchSegs(p)
		}
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
