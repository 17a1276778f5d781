package policy

import (
	"sort"
	"strings"
)

// Roots are the literal prefixes of the allow lists, for a Landlock
// backstop: the kernel must allow at least what the policy can allow.
// Each entry is a directory (the literal part of a glob up to its last
// slash before the first meta-character) or, for a pattern without
// meta-characters, the file or directory it names. Entries nested in
// another entry of the same list are dropped. A pattern anchored anywhere
// (**/x) yields "/". Deny and redact rules have no Landlock equivalent: the
// broker enforces them.
type Roots struct {
	ReadDirs  []string // from allow_read: grant read (and execute) beneath
	WriteDirs []string // from allow_write: grant read and write beneath
}

// Roots returns the Landlock roots of the policy.
func (e *Engine) Roots() Roots {
	return Roots{ReadDirs: append([]string{}, e.roots.ReadDirs...), WriteDirs: append([]string{}, e.roots.WriteDirs...)}
}

func (e *Engine) computeRoots() Roots {
	var read, write []string
	for _, c := range e.rules {
		switch c.rank {
		case rankRead:
			read = append(read, c.m.key)
		case rankWrite:
			write = append(write, c.m.key)
		}
	}
	return Roots{ReadDirs: minimalRoots(read), WriteDirs: minimalRoots(write)}
}

// minimalRoots sorts, deduplicates and drops paths beneath another path.
func minimalRoots(paths []string) []string {
	sort.Strings(paths)
	var out []string
next:
	for _, p := range paths {
		for _, q := range out {
			if under(p, q) {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// under reports whether p is dir or beneath it.
func under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
