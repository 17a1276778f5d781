package redact

import "strings"

// renderYAML writes the keys view of a YAML stream. It reads the block
// structure line by line (no third-party parser: a YAML library's work grows
// faster than its input, and the broker must not stall on a crafted file)
// and keeps every line that holds a key or a sequence dash, with its
// indentation; each scalar value, whatever its style (plain, quoted, block
// "|" or ">", flow [..] or {..}, alias), becomes "[redacted]" and the lines
// it spans are dropped. Empty strings stay empty; anchors and tags are
// dropped. A line that is neither structure nor part of a value (a root
// scalar, a complex "?" key, a directive) makes the file unparsable.
func renderYAML(e *emitter, text string, o opts) error {
	e.line("# ", o.header)
	ls := lines(text)
	for i := 0; i < len(ls); i++ {
		last, err := yamlLine(e, ls, i)
		if err != nil {
			return err
		}
		i = last
	}
	return nil
}

// yamlLine writes the keys view of line i and of the value starting there,
// and returns the index of the last line that value spans.
func yamlLine(e *emitter, ls []string, i int) (int, error) {
	raw := ls[i]
	body := strings.TrimLeft(raw, " ")
	ind := len(raw) - len(body)
	trimmed := strings.TrimSpace(body)
	switch {
	case trimmed == "":
		e.line()
		return i, nil
	case body[0] == '\t':
		return 0, errFormat // tabs cannot indent YAML
	case trimmed[0] == '#':
		e.comment(raw[:ind]+"#", trimmed[1:])
		return i, nil
	case ind == 0 && (isYAMLMarker(trimmed, "---") || isYAMLMarker(trimmed, "...")):
		e.line(trimmed[:3])
		return i, nil
	}
	dashes, rest := yamlDashes(body)
	if strings.HasPrefix(rest, "- ") {
		return 0, errFormat // nested deeper than maxDepth on one line
	}
	col := ind + len(body) - len(rest) // column of what follows the dashes
	rest = stripProperties(rest)
	if rest == "" || rest[0] == '#' {
		if dashes == "" {
			return 0, errFormat // a lone anchor or tag
		}
		e.line(raw[:ind], strings.TrimRight(dashes, " "))
		return i, nil
	}
	key, val, isKey, err := yamlSplitKey(rest)
	if err != nil {
		return 0, err
	}
	if !isKey {
		if dashes == "" {
			return 0, errFormat // a root scalar or a stray line
		}
		return yamlScalar(e, ls, i, rest, raw[:ind]+strings.TrimRight(dashes, " "), col-2)
	}
	out := raw[:ind] + dashes + key + ":"
	val = stripProperties(val)
	if val == "" || val[0] == '#' {
		e.line(out) // the value is the block below, or null
		return i, nil
	}
	return yamlScalar(e, ls, i, val, out, col)
}

func isYAMLMarker(l string, m string) bool {
	rest, ok := strings.CutPrefix(l, m)
	return ok && (rest == "" || rest[0] == ' ' && strings.HasPrefix(strings.TrimSpace(rest), "#"))
}

// yamlDashes splits off leading sequence indicators ("- - "), at most
// maxDepth of them.
func yamlDashes(body string) (string, string) {
	n := 0
	for n/2 < maxDepth {
		if strings.HasPrefix(body[n:], "- ") {
			n += 2
			for n < len(body) && body[n] == ' ' {
				n++
			}
			continue
		}
		if body[n:] == "-" {
			return body + " ", ""
		}
		break
	}
	return strings.Repeat("- ", strings.Count(body[:n], "-")), body[n:]
}

// stripProperties removes leading anchors (&a) and tags (!t, !!str).
func stripProperties(s string) string {
	s = strings.TrimSpace(s)
	for len(s) > 0 && (s[0] == '&' || s[0] == '!') {
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			return ""
		}
		s = strings.TrimSpace(s[end:])
	}
	return s
}

// yamlSplitKey splits "key: value" (plain or quoted key). isKey is false
// when s is a scalar, not a mapping entry.
func yamlSplitKey(s string) (key, val string, isKey bool, err error) {
	switch s[0] {
	case '?':
		return "", "", false, errFormat // complex keys are not supported
	case '*', '[', '{', '|', '>':
		return "", "", false, nil
	case '"', '\'':
		end := quotedEnd(s)
		if end < 0 {
			return "", "", false, nil // a quoted scalar spanning lines
		}
		after := strings.TrimLeft(s[end:], " ")
		if v, ok := cutColon(after); ok {
			return s[:end], v, true, nil
		}
		return "", "", false, nil
	}
	limit := len(s)
	if c := strings.Index(s, " #"); c >= 0 {
		limit = c
	}
	for k := 0; k < limit; k++ {
		if s[k] != ':' {
			continue
		}
		if v, ok := cutColon(s[k:limit]); ok {
			key := strings.TrimRight(s[:k], " ")
			if key == "<<" {
				key = `"<<"` // a merge key would need a mapping value
			}
			return key, v + s[limit:], true, nil
		}
	}
	return "", "", false, nil
}

// cutColon accepts ": value", ":" and ":\tvalue" and returns the value.
func cutColon(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, ":")
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// quotedEnd returns the index just past the closing quote of the quoted
// scalar s starts with, or -1 if it does not close on this line.
func quotedEnd(s string) int {
	q := s[0]
	for k := 1; k < len(s); k++ {
		switch {
		case q == '"' && s[k] == '\\':
			k++
		case q == '\'' && s[k] == '\'' && k+1 < len(s) && s[k+1] == '\'':
			k++
		case s[k] == q:
			return k + 1
		}
	}
	return -1
}

// yamlScalar writes out followed by the redacted value val (which starts on
// line i) and returns the last line of the value: the line it closes on,
// then every following line that is blank or indented deeper than col (the
// column of its key or dash), which in YAML can only continue it.
func yamlScalar(e *emitter, ls []string, i int, val string, out string, col int) (int, error) {
	last := i
	empty := false
	switch val[0] {
	case '"', '\'':
		c := &yamlCursor{ls: ls, i: i, s: val}
		if err := c.quoted(); err != nil {
			return 0, err
		}
		empty = c.i == i && c.k == 2
		if err := c.endOfValue(); err != nil {
			return 0, err
		}
		last = c.i
	case '[', '{':
		c := &yamlCursor{ls: ls, i: i, s: val}
		if err := c.flow(); err != nil {
			return 0, err
		}
		if err := c.endOfValue(); err != nil {
			return 0, err
		}
		last = c.i
	case '|', '>':
		if !isBlockHeader(val) {
			return 0, errFormat
		}
	case '@', '`', '%':
		return 0, errFormat // reserved indicators
	}
	if empty {
		e.line(out, ` ""`)
	} else {
		e.line(out, ` "`, Marker, `"`)
	}
	for last+1 < len(ls) && deeper(ls[last+1], col) {
		last++
	}
	return last, nil
}

// deeper reports whether line l is blank or indented more than col.
func deeper(l string, col int) bool {
	body := strings.TrimLeft(l, " ")
	return strings.TrimSpace(body) == "" || len(l)-len(body) > col
}

// isBlockHeader accepts "|", ">", with chomping and indentation indicators
// and a comment.
func isBlockHeader(val string) bool {
	k := 1
	for k < len(val) && k < 3 && strings.IndexByte("+-123456789", val[k]) >= 0 {
		k++
	}
	rest := strings.TrimLeft(val[k:], " \t")
	return rest == "" || rest[0] == '#' && k < len(val) && (val[k] == ' ' || val[k] == '\t')
}

// yamlCursor walks a value that may span lines: s is the unread part of
// line i, k the position in it.
type yamlCursor struct {
	ls []string
	i  int
	s  string
	k  int
}

// next moves to the next line; false at the end of the text.
func (c *yamlCursor) next() bool {
	if c.i+1 >= len(c.ls) {
		return false
	}
	c.i++
	c.s, c.k = c.ls[c.i], 0
	return true
}

// quoted moves past the quoted scalar at c.k, which may span lines.
func (c *yamlCursor) quoted() error {
	q := c.s[c.k]
	c.k++
	for {
		for c.k < len(c.s) {
			switch ch := c.s[c.k]; {
			case q == '"' && ch == '\\':
				c.k += 2
			case q == '\'' && ch == '\'' && c.k+1 < len(c.s) && c.s[c.k+1] == '\'':
				c.k += 2
			case ch == q:
				c.k++
				return nil
			default:
				c.k++
			}
		}
		if !c.next() {
			return errFormat
		}
	}
}

// flow moves past the flow collection at c.k, which may span lines and hold
// quoted scalars, nested collections and comments.
func (c *yamlCursor) flow() error {
	depth := 0
	for {
		for c.k < len(c.s) {
			ch := c.s[c.k]
			start := c.k == 0 || strings.IndexByte(" \t[{,:", c.s[c.k-1]) >= 0
			switch {
			case (ch == '"' || ch == '\'') && start:
				if err := c.quoted(); err != nil {
					return err
				}
				continue
			case ch == '#' && (c.k == 0 || c.s[c.k-1] == ' ' || c.s[c.k-1] == '\t'):
				c.k = len(c.s)
				continue
			case ch == '[' || ch == '{':
				depth++
				if depth > maxDepth {
					return errFormat
				}
			case ch == ']' || ch == '}':
				depth--
				if depth == 0 {
					c.k++
					return nil
				}
			}
			c.k++
		}
		if !c.next() {
			return errFormat
		}
	}
}

// endOfValue accepts only spaces and a comment after a value.
func (c *yamlCursor) endOfValue() error {
	rest := c.s[c.k:]
	trimmed := strings.TrimLeft(rest, " \t")
	if trimmed == "" || trimmed[0] == '#' && len(trimmed) < len(rest) {
		return nil
	}
	return errFormat
}
