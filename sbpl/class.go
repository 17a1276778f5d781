package sbpl

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// runeRange is one member of a character class: lo..hi inclusive.
type runeRange struct{ lo, hi rune }

// class translates the doublestar character class starting at g[i] ('[')
// and returns its length. Like doublestar, a class may match '/': "[!a]"
// matches any character but 'a'.
func (t *translator) class(i int) (int, error) {
	members, neg, n, err := parseClass(t.g, i)
	if err != nil {
		return 0, err
	}
	if t.fold {
		members = foldRanges(members)
	}
	s, err := renderClass(members, neg)
	if err != nil {
		return 0, err
	}
	t.b.WriteString(s)
	return n, nil
}

// parseClass reads a class the way doublestar matches it: an optional '!'
// or '^' negates; '\c' is c; "lo-hi" is a range unless '-' comes last.
func parseClass(g string, i int) ([]runeRange, bool, int, error) {
	j := i + 1
	neg := j < len(g) && (g[j] == '!' || g[j] == '^')
	if neg {
		j++
	}
	if j >= len(g) || g[j] == ']' {
		return nil, false, 0, errors.New("empty or unterminated character class")
	}
	var out []runeRange
	for j < len(g) && g[j] != ']' {
		lo, n := classRune(g, j)
		j += n
		if j+1 < len(g) && g[j] == '-' && g[j+1] != ']' {
			hi, m := classRune(g, j+1)
			j += 1 + m
			if hi < lo {
				// doublestar tries lo alone before the range: an
				// inverted range matches lo only.
				out = append(out, runeRange{lo, lo})
				continue
			}
			out = append(out, runeRange{lo, hi})
			continue
		}
		out = append(out, runeRange{lo, lo})
	}
	if j >= len(g) {
		return nil, false, 0, errors.New("unterminated character class")
	}
	return out, neg, j + 1 - i, nil
}

// classRune decodes one possibly escaped rune of a class at g[j].
func classRune(g string, j int) (rune, int) {
	if g[j] == '\\' && j+1 < len(g) {
		r, n := utf8.DecodeRuneInString(g[j+1:])
		return r, 1 + n
	}
	r, n := utf8.DecodeRuneInString(g[j:])
	return r, n
}

// foldRanges adds the other case of every ASCII letter in ranges.
func foldRanges(rs []runeRange) []runeRange {
	out := append([]runeRange{}, rs...)
	for _, r := range rs {
		if lo, hi := max(r.lo, 'a'), min(r.hi, 'z'); lo <= hi {
			out = append(out, runeRange{upper(lo), upper(hi)})
		}
		if lo, hi := max(r.lo, 'A'), min(r.hi, 'Z'); lo <= hi {
			out = append(out, runeRange{lower(lo), lower(hi)})
		}
	}
	return out
}

// classSpecial are the characters whose place in a bracket expression
// matters; they are written only where POSIX and Go agree: ']' first, '^'
// not first, '[' and '-' last.
const classSpecial = `]^[-`

// renderClass writes a bracket expression that POSIX extended regular
// expressions (the macOS sandbox) and Go's regexp (the evaluator) read the
// same way, or refuses.
func renderClass(rs []runeRange, neg bool) (string, error) {
	if len(rs) == 0 {
		return "", fmt.Errorf("character class with only empty ranges: %w", errUnsupported)
	}
	var singles []rune
	var ranges []string
	for _, r := range rs {
		if r.lo >= utf8.RuneSelf || r.hi >= utf8.RuneSelf || r.lo == '\\' || r.hi == '\\' {
			return "", fmt.Errorf("character class with a backslash or non-ASCII character: %w", errUnsupported)
		}
		if r.lo == r.hi {
			singles = append(singles, r.lo)
			continue
		}
		if strings.ContainsRune(classSpecial, r.lo) || strings.ContainsRune(classSpecial, r.hi) {
			return "", fmt.Errorf("character range %c-%c: %w", r.lo, r.hi, errUnsupported)
		}
		ranges = append(ranges, string(r.lo)+"-"+string(r.hi))
	}
	sort.Slice(singles, func(a, b int) bool { return singles[a] < singles[b] })
	singles = dedupe(singles)
	sort.Strings(ranges)
	if !neg && len(ranges) == 0 && len(singles) == 1 && singles[0] == '^' {
		return `\^`, nil
	}
	var b strings.Builder
	b.WriteByte('[')
	if neg {
		b.WriteByte('^')
	}
	has := func(r rune) bool { return containsRune(singles, r) }
	if has(']') {
		b.WriteByte(']')
	}
	for _, r := range singles {
		if !strings.ContainsRune(classSpecial, r) {
			b.WriteRune(r)
		}
	}
	b.WriteString(strings.Join(ranges, ""))
	tail := []rune{'^', '[', '-'}
	if !neg && b.Len() == 1 {
		tail = []rune{'-', '[', '^'} // '^' must not come first; '-' first is literal too
	}
	for _, r := range tail {
		if has(r) {
			b.WriteRune(r)
		}
	}
	b.WriteByte(']')
	return b.String(), nil
}

func dedupe(rs []rune) []rune {
	var out []rune
	for i, r := range rs {
		if i == 0 || r != rs[i-1] {
			out = append(out, r)
		}
	}
	return out
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}
