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
	y := &yamlReader{e: e, ls: lines(text), open: -1}
	for ; y.i < len(y.ls); y.i++ {
		if err := y.line(); err != nil {
			return err
		}
	}
	return nil
}

// yamlReader walks the lines of a YAML stream; i is the current line.
type yamlReader struct {
	e  *emitter
	ls []string
	i  int
	// open is the column of the key or dash whose value has not started yet
	// ("key:" or "-" with nothing after it), or -1. A scalar line indented
	// deeper than open is that value.
	open int
}

// line writes the keys view of line i and of the value starting there, and
// moves i to the last line that value spans.
func (y *yamlReader) line() error {
	raw := y.ls[y.i]
	body := strings.TrimLeft(raw, " ")
	ind := len(raw) - len(body)
	trimmed := strings.TrimSpace(body)
	switch {
	case trimmed == "":
		y.e.line()
		return nil
	case body[0] == '\t':
		return errFormat // tabs cannot indent YAML
	case trimmed[0] == '#':
		y.e.comment(raw[:ind]+"#", trimmed[1:])
		return nil
	case ind == 0 && (isYAMLMarker(trimmed, "---") || isYAMLMarker(trimmed, "...")):
		y.e.line(trimmed[:3])
		y.open = -1
		return nil
	}
	open := y.open
	y.open = -1
	dashes, rest := yamlDashes(body)
	if strings.HasPrefix(rest, "- ") {
		return errFormat // nested deeper than maxDepth on one line
	}
	col := ind + len(body) - len(rest) // column of what follows the dashes
	dashCol := ind + strings.LastIndexByte(body[:len(body)-len(rest)], '-')
	rest = stripProperties(rest)
	if rest == "" || rest[0] == '#' {
		if dashes == "" {
			return errFormat // a lone anchor or tag
		}
		y.e.line(raw[:ind], strings.TrimRight(dashes, " "))
		y.open = dashCol
		return nil
	}
	key, val, isKey, err := yamlSplitKey(rest)
	switch {
	case err != nil:
		return err
	case !isKey && dashes != "":
		return y.scalar(rest, raw[:ind]+dashes, dashCol)
	case !isKey && open >= 0 && ind > open:
		return y.scalar(rest, raw[:ind], open) // the value of "key:" above
	case !isKey:
		return errFormat // a root scalar or a stray line
	}
	out := raw[:ind] + dashes + key + ":"
	if val = stripProperties(val); val == "" || val[0] == '#' {
		y.e.line(out) // the value is below, or null
		y.open = col
		return nil
	}
	return y.scalar(val, out+" ", col)
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

// scalar writes prefix and the redacted value val, which starts on line i,
// and moves i to the last line of the value: the line it closes on, then
// every following line that is blank or indented deeper than col (the column
// of its key or dash), which in YAML can only continue it.
func (y *yamlReader) scalar(val string, prefix string, col int) error {
	empty := false
	switch val[0] {
	case '"', '\'', '[', '{':
		c := &yamlCursor{ls: y.ls, i: y.i, s: val}
		var err error
		if val[0] == '[' || val[0] == '{' {
			err = c.flow()
		} else {
			err = c.quoted()
			empty = c.i == y.i && c.k == 2
		}
		if err != nil {
			return err
		}
		if err := c.endOfValue(); err != nil {
			return err
		}
		y.i = c.i
	case '|', '>':
		if !isBlockHeader(val) {
			return errFormat
		}
	case '@', '`', '%':
		return errFormat // reserved indicators
	}
	if empty {
		y.e.line(prefix, `""`)
	} else {
		y.e.line(prefix, `"`, Marker, `"`)
	}
	for y.i+1 < len(y.ls) && deeper(y.ls[y.i+1], col) {
		y.i++
	}
	return nil
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
