package policy

import (
	"fmt"
	"path"
	"strings"
)

// Vars are the values of the policy variables. Each must be a canonical
// absolute path (symlinks resolved: decisions are taken on canonical paths)
// or empty; a pattern that uses an empty variable fails to compile.
type Vars struct {
	Project   string // ${PROJECT}: the directory the agent works in
	Home      string // ${HOME} and ~
	TmpDir    string // ${TMPDIR}
	ConfigDir string // ${AIXGATE_CONFIG_DIR}: normally ~/.aixgate
}

// varNames are the variables a pattern may use, as written after "${".
var varNames = []string{"PROJECT", "HOME", "TMPDIR", "AIXGATE_CONFIG_DIR"}

func (v Vars) lookup(name string) (string, bool) {
	switch name {
	case "PROJECT":
		return v.Project, true
	case "HOME":
		return v.Home, true
	case "TMPDIR":
		return v.TmpDir, true
	case "AIXGATE_CONFIG_DIR":
		return v.ConfigDir, true
	}
	return "", false
}

// checkVars validates the variable references of s without expanding them:
// every "${" closes and names a known variable, and "~" appears only as "~"
// or "~/..." at the start.
func checkVars(s string) error {
	if strings.HasPrefix(s, "~") && s != "~" && !strings.HasPrefix(s, "~/") {
		return fmt.Errorf("%q: only ~ and ~/ are supported, not ~user", s)
	}
	for rest := s; ; {
		i := strings.Index(rest, "${")
		if i < 0 {
			return nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return fmt.Errorf("%q: unterminated ${", s)
		}
		name := rest[i+2 : i+j]
		if _, ok := (Vars{}).lookup(name); !ok {
			return fmt.Errorf("unknown variable ${%s}%s; known: ${PROJECT}, ${HOME}, ${TMPDIR}, ${AIXGATE_CONFIG_DIR}", name, suggest(name, varNames))
		}
		rest = rest[i+j+1:]
	}
}

// substitute replaces ~ and ${NAME}, passing each value through quote.
func substitute(s string, v Vars, quote func(string) string) (string, error) {
	if err := checkVars(s); err != nil {
		return "", err
	}
	var b strings.Builder
	if s == "~" || strings.HasPrefix(s, "~/") {
		s = "${HOME}" + s[1:]
	}
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		name := s[i+2 : i+j]
		val, _ := v.lookup(name)
		if val == "" || !strings.HasPrefix(val, "/") {
			return "", fmt.Errorf("variable ${%s} is %q: it must be set to an absolute path", name, val)
		}
		b.WriteString(s[:i])
		b.WriteString(quote(path.Clean(val)))
		s = s[i+j+1:]
	}
}

// expandGlob turns a pattern as written into the absolute, cleaned glob the
// engine matches: variables substituted (their values escaped so they match
// literally) and a relative pattern anchored anywhere ("x" → "/**/x").
// A pattern with a ".." segment after anchoring is left uncleaned: canonical
// paths never contain "..", so it never matches (Check reports it).
func expandGlob(pattern string, v Vars) (string, error) {
	g, err := substitute(pattern, v, escapeGlob)
	if err != nil {
		return "", err
	}
	rel := !strings.HasPrefix(g, "/")
	switch {
	case g == "**" || strings.HasPrefix(g, "**/"):
		g = "/" + g
	case rel:
		g = "/**/" + g
	}
	if rel && hasDotDot(g) {
		return g, nil
	}
	return path.Clean(g), nil
}

// expandPath substitutes variables in a plain path (tests:, audit.log). A
// relative result is taken relative to ${PROJECT}.
func expandPath(p string, v Vars) (string, error) {
	s, err := substitute(p, v, func(s string) string { return s })
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(s, "/") {
		if v.Project == "" {
			return "", fmt.Errorf("relative path %q needs ${PROJECT}", p)
		}
		s = v.Project + "/" + s
	}
	return path.Clean(s), nil
}

func hasDotDot(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// escapeGlob quotes the doublestar meta-characters of a literal string.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
