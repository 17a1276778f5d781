package sbpl

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// FilterKind is the kind of an SBPL path filter.
type FilterKind uint8

// The three path filters the generator emits.
const (
	Literal FilterKind = iota // (literal "/a/b"): exactly this path
	Subpath                   // (subpath "/a"): /a and everything below it
	Regex                     // (regex #"^...$"): the whole path matches
)

// Filter is one SBPL path filter. Value is the path (Literal, Subpath) or
// the regular expression, anchored with ^ and $ (Regex).
type Filter struct {
	Kind  FilterKind
	Value string
}

// String returns the filter as SBPL text.
func (f Filter) String() string {
	switch f.Kind {
	case Literal:
		return "(literal " + quote(f.Value) + ")"
	case Subpath:
		return "(subpath " + quote(f.Value) + ")"
	}
	return `(regex #"` + f.Value + `")`
}

// quote writes s as an SBPL (TinyScheme) string literal. s never contains a
// double quote or a control character (checkText refuses them).
func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"`
}

// maxAlternatives bounds the expansion of complex {a,b} groups.
const maxAlternatives = 64

// errUnsupported marks a glob the translation refuses rather than guess.
var errUnsupported = errors.New("not expressible in SBPL")

// TranslateGlob returns the SBPL filters matching exactly the canonical
// paths the doublestar glob g matches (g absolute and cleaned, as
// policy.Engine.Rules gives it). A plain path becomes a literal, "DIR/**" a
// subpath, anything else an anchored regex:
//
//	**/  → (.*/)?      (zero or more directories)
//	/**  → (/.*)?      (at the end: the directory and everything below)
//	*    → [^/]*       ?     → [^/]
//	{a,b} → (a|b)      [abc] → [abc], [!a] → [^a]
//
// Regular-expression meta-characters in literal text are escaped with a
// backslash. A glob under /tmp, /var or /etc also yields the same filter
// under /private, where macOS keeps them (the kernel reports the resolved
// path). With fold, ASCII letters match either case: deny rules are folded
// because the usual macOS file system is case-insensitive, and
// ~/.SSH/id_rsa opens the same file as ~/.ssh/id_rsa.
//
// Refused (an error, never a guess): a double quote or control character,
// which an SBPL regex literal cannot hold, and character classes holding a
// backslash or non-ASCII characters, where POSIX and Go regular expressions
// read brackets differently.
func TranslateGlob(g string, fold bool) ([]Filter, error) {
	if err := checkText(g); err != nil {
		return nil, fmt.Errorf("translate glob %q: %w", g, err)
	}
	var out []Filter
	for _, a := range withPrivate(g) {
		f, err := translateOne(a, fold)
		if err != nil {
			return nil, fmt.Errorf("translate glob %q: %w", g, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// checkText refuses what an SBPL string or regex literal cannot carry.
func checkText(s string) error {
	for _, r := range s {
		switch {
		case r == '"':
			return fmt.Errorf("double quote: %w", errUnsupported)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("control character %U: %w", r, errUnsupported)
		case r == utf8.RuneError:
			return fmt.Errorf("invalid UTF-8: %w", errUnsupported)
		}
	}
	return nil
}

// privateRoots are the macOS top-level symlinks into /private.
var privateRoots = []string{"/tmp", "/var", "/etc"}

// withPrivate returns g and, for a glob under a /private symlink, the same
// glob under /private.
func withPrivate(g string) []string {
	for _, p := range privateRoots {
		if g == p || strings.HasPrefix(g, p+"/") {
			return []string{g, "/private" + g}
		}
	}
	return []string{g}
}

func translateOne(g string, fold bool) (Filter, error) {
	if !fold {
		if lit, ok := unescapeLiteral(g); ok {
			return Filter{Kind: Literal, Value: lit}, nil
		}
		if dir, ok := strings.CutSuffix(g, "/**"); ok {
			if lit, ok := unescapeLiteral(dir); ok && !strings.HasSuffix(dir, `\`) {
				return Filter{Kind: Subpath, Value: orRoot(lit)}, nil
			}
		}
	}
	body, err := regexBody(g, fold, 0)
	if err != nil {
		return Filter{}, err
	}
	return Filter{Kind: Regex, Value: "^" + body + "$"}, nil
}

func orRoot(s string) string {
	if s == "" {
		return "/"
	}
	return s
}

// unescapeLiteral returns g with its escapes removed when g has no
// unescaped meta-character.
func unescapeLiteral(g string) (string, bool) {
	if !strings.ContainsAny(g, `*?[{}\`) {
		return g, true
	}
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteByte(g[i])
		case strings.IndexByte(`*?[{}\`, c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// regexBody translates g (no anchors). A {…} group whose alternatives are
// simple (no '/', '*', '{', not empty) is translated in place; any other
// group is expanded textually, as doublestar itself does, and the
// expansions joined with '|'.
func regexBody(g string, fold bool, depth int) (string, error) {
	open, end, alts, err := firstComplexGroup(g)
	if err != nil {
		return "", err
	}
	if open < 0 {
		return (&translator{g: g, fold: fold}).run()
	}
	if depth > 8 || len(alts) > maxAlternatives {
		return "", fmt.Errorf("too many {…} alternatives: %w", errUnsupported)
	}
	var parts []string
	seen := map[string]bool{}
	for _, a := range alts {
		x := g[:open] + a + g[end+1:]
		if strings.Count(x, "**") != strings.Count(g[:open], "**")+strings.Count(g[end+1:], "**") {
			// doublestar does not treat a "**" made by or inside {…}
			// like one written out (at the end of a name it never
			// matches the empty string): refuse rather than guess.
			return "", fmt.Errorf("** inside or next to {…}: %w", errUnsupported)
		}
		s, err := regexBody(x, fold, depth+1)
		if err != nil {
			return "", err
		}
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
		if len(parts) > maxAlternatives {
			return "", fmt.Errorf("too many {…} alternatives: %w", errUnsupported)
		}
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return "(" + strings.Join(parts, "|") + ")", nil
}

// firstComplexGroup finds the first top-level {…} group that cannot be
// translated in place: its '{' and '}' indexes and its alternatives. open
// is -1 when there is none.
func firstComplexGroup(g string) (open, end int, alts []string, err error) {
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(g, i)
		case '{':
			close, parts, err := splitGroup(g, i)
			if err != nil {
				return -1, -1, nil, err
			}
			if !simpleAlts(parts) {
				return i, close, parts, nil
			}
			i = close
		}
	}
	return -1, -1, nil, nil
}

// skipClass returns the index of the ']' closing the class opened at i (or
// len(g)-1 when it never closes; the translator reports that).
func skipClass(g string, i int) int {
	for i++; i < len(g); i++ {
		if g[i] == '\\' {
			i++
		} else if g[i] == ']' {
			return i
		}
	}
	return len(g) - 1
}

// splitGroup splits the {…} group opened at g[open] into its top-level
// alternatives and returns the index of its closing '}'.
func splitGroup(g string, open int) (int, []string, error) {
	depth, start := 0, open+1
	var parts []string
	for i := open + 1; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(g, i)
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i, append(parts, g[start:i]), nil
			}
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, g[start:i])
				start = i + 1
			}
		}
	}
	return -1, nil, errors.New("unterminated {")
}

func simpleAlts(alts []string) bool {
	for _, a := range alts {
		if a == "" || strings.ContainsAny(a, "/*{") {
			return false
		}
	}
	return true
}

// translator turns a glob without complex groups into a regex body.
type translator struct {
	g    string
	fold bool
	b    strings.Builder
}

func (t *translator) run() (string, error) {
	g := t.g
	for i := 0; i < len(g); i++ {
		n, err := t.term(i)
		if err != nil {
			return "", err
		}
		i += n - 1
	}
	return t.b.String(), nil
}

// term translates the term starting at i and returns its length in bytes.
func (t *translator) term(i int) (int, error) {
	g := t.g
	segStart := i == 0 || g[i-1] == '/'
	switch c := g[i]; {
	case c == '/' && g[i:] == "/**":
		t.b.WriteString("(/.*)?")
		return 3, nil
	case strings.HasPrefix(g[i:], "**") && segStart && i+2 == len(g):
		t.b.WriteString(".*")
		return 2, nil
	case strings.HasPrefix(g[i:], "**/") && segStart:
		t.b.WriteString("(.*/)?")
		return 3, nil
	case strings.HasPrefix(g[i:], "**"):
		t.b.WriteString("[^/]*") // a "**" inside a segment is one "*"
		return 2, nil
	case c == '*':
		t.b.WriteString("[^/]*")
		return 1, nil
	case c == '?':
		t.b.WriteString("[^/]")
		return 1, nil
	case c == '[':
		return t.class(i)
	case c == '{':
		return t.group(i)
	case c == '\\':
		if i+1 >= len(g) {
			return 0, errors.New("trailing backslash")
		}
		r, n := utf8.DecodeRuneInString(g[i+1:])
		t.literal(r)
		return 1 + n, nil
	case c == '}':
		return 0, errors.New("unmatched }")
	}
	r, n := utf8.DecodeRuneInString(g[i:])
	t.literal(r)
	return n, nil
}

// group translates a simple {a,b} group in place as (a|b).
func (t *translator) group(i int) (int, error) {
	end, alts, err := splitGroup(t.g, i)
	if err != nil {
		return 0, err
	}
	t.b.WriteByte('(')
	for k, a := range alts {
		if k > 0 {
			t.b.WriteByte('|')
		}
		s, err := (&translator{g: a, fold: t.fold}).run()
		if err != nil {
			return 0, err
		}
		t.b.WriteString(s)
	}
	t.b.WriteByte(')')
	return end - i + 1, nil
}

// reMeta are the characters escaped in literal text.
const reMeta = `.^$|()[]{}*+?\`

func (t *translator) literal(r rune) {
	switch {
	case t.fold && isLetter(r):
		t.b.WriteString("[" + string(upper(r)) + string(lower(r)) + "]")
	case r < utf8.RuneSelf && strings.ContainsRune(reMeta, r):
		t.b.WriteByte('\\')
		t.b.WriteRune(r)
	default:
		t.b.WriteRune(r)
	}
}

func isLetter(r rune) bool { return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') }

func upper(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r - 'a' + 'A'
	}
	return r
}

func lower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r - 'A' + 'a'
	}
	return r
}
