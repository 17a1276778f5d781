package policy

import "strings"

// ruleIndex finds the rules that can match a path without trying them all.
// Every rule is in exactly one bucket: the literal directory its matches
// lie at or below, or, for a pattern "LIT/**/NAME" (anchored anywhere when
// LIT is empty) whose last element
// is a plain name (.env) or "*" plus an extension (*.pem), that name or
// extension. Buckets hold rule indexes in ascending (precedence) order.
type ruleIndex struct {
	byDir   map[string][]int
	dirLens []bool // dirLens[n]: some byDir key is n bytes long
	byName  map[string][]int
	byExt   map[string][]int // keyed by the extension with its dot
}

func newRuleIndex() ruleIndex {
	return ruleIndex{byDir: map[string][]int{}, byName: map[string][]int{}, byExt: map[string][]int{}}
}

func (x *ruleIndex) add(i int, m *matcher) {
	if m.kind == kindBase && len(m.segs) == 1 {
		s := m.segs[0]
		switch {
		case !s.star:
			x.byName[s.pre] = append(x.byName[s.pre], i)
			return
		case s.pre == "" && strings.LastIndexByte(s.suf, '.') == 0:
			x.byExt[s.suf] = append(x.byExt[s.suf], i)
			return
		}
	}
	x.byDir[m.key] = append(x.byDir[m.key], i)
	for len(x.dirLens) <= len(m.key) {
		x.dirLens = append(x.dirLens, false)
	}
	x.dirLens[len(m.key)] = true
}

// visit calls fn with each bucket that may hold rules matching the
// canonical path p.
func (x *ruleIndex) visit(p string, fn func(bucket []int)) {
	ancestors(p, func(dir string) bool {
		if len(dir) < len(x.dirLens) && x.dirLens[len(dir)] {
			if b := x.byDir[dir]; b != nil {
				fn(b)
			}
		}
		return len(dir) < len(x.dirLens)
	})
	if p == "/" {
		return
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	if b := x.byName[base]; b != nil {
		fn(b)
	}
	if dot := strings.LastIndexByte(base, '.'); dot >= 0 {
		if b := x.byExt[base[dot:]]; b != nil {
			fn(b)
		}
	}
}
