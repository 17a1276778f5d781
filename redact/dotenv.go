package redact

import "strings"

// renderDotenv writes the keys view of a dotenv file: "KEY=value" lines with
// an optional "export " prefix, values bare or in single, double or back quotes
// (quoted values may span lines), comment lines and blank lines. Any other
// line makes the file unparsable.
func renderDotenv(e *emitter, text string, o opts) error {
	e.line("# ", o.header)
	ls := lines(text)
	for i := 0; i < len(ls); i++ {
		l := strings.TrimSpace(ls[i])
		switch {
		case l == "":
			e.line()
		case l[0] == '#':
			e.comment("#", l[1:])
		default:
			last, err := dotenvEntry(e, ls, i, o.sniffed)
			if err != nil {
				return err
			}
			i = last
		}
	}
	return nil
}

// dotenvEntry writes the assignment that starts on line i and returns the
// index of its last line. With oneLine set, a value may not span lines.
func dotenvEntry(e *emitter, ls []string, i int, oneLine bool) (int, error) {
	l := strings.TrimSpace(ls[i])
	export := ""
	if rest, ok := cutExport(l); ok {
		export, l = "export ", rest
	}
	key, val, ok := strings.Cut(l, "=")
	key = strings.TrimRight(key, " \t")
	if !ok || !isDotenvKey(key) {
		return 0, errFormat
	}
	val = strings.TrimLeft(val, " \t")
	if val == "" {
		e.line(export, key, "=")
		return i, nil
	}
	last := i
	if q := val[0]; q == '"' || q == '\'' || q == '`' {
		end, empty, err := closeQuote(ls, i, val)
		if err != nil || oneLine && end != i {
			return 0, errFormat
		}
		if empty {
			e.line(export, key, "=")
			return end, nil
		}
		last = end
	}
	e.line(export, key, "=", Marker)
	return last, nil
}

// closeQuote finds the end of the quoted value val that starts on line i. It
// returns the line the value ends on and whether the value is empty. Only
// whitespace or a comment may follow the closing quote. A backslash escapes
// the next character in every quote style: dotenv libraries disagree on
// escapes in single quotes, and reading one where there is none can only
// make a value longer (its lines are dropped), never end it early and show
// its next line as a key.
func closeQuote(ls []string, i int, val string) (int, bool, error) {
	q := val[0]
	rest := val[1:]
	escaped := false
	for j := i; j < len(ls); j++ {
		if j > i {
			rest, escaped = ls[j], false
		}
		for k := 0; k < len(rest); k++ {
			c := rest[k]
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == q:
				after := strings.TrimLeft(rest[k+1:], " \t")
				if after != "" && after[0] != '#' {
					return 0, false, errFormat
				}
				return j, j == i && k == 0, nil
			}
		}
	}
	return 0, false, errFormat
}

func cutExport(l string) (string, bool) {
	rest, ok := strings.CutPrefix(l, "export")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return l, false
	}
	return strings.TrimLeft(rest, " \t"), true
}

// isDotenvKey accepts [A-Za-z_][A-Za-z0-9_.-]*.
func isDotenvKey(k string) bool {
	if k == "" || !(k[0] == '_' || isAlnum(k[0]) && !(k[0] >= '0' && k[0] <= '9')) {
		return false
	}
	return isWord(k, "_.-")
}

// isDotenvAssignment reports whether a trimmed line starts a dotenv entry;
// it is used to sniff the format.
func isDotenvAssignment(l string) bool {
	if rest, ok := cutExport(l); ok {
		l = rest
	}
	key, _, ok := strings.Cut(l, "=")
	return ok && isDotenvKey(strings.TrimRight(key, " \t"))
}
