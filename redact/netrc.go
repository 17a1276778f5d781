package redact

import "strings"

// renderNetrc writes the keys view of a .netrc: "machine NAME" and "default"
// entries are kept with the names of their fields, one field per line;
// login, password and account values become "[redacted]"; a macdef keeps its
// name and loses its body. Host names are kept: they are metadata, not
// credentials. Tokens may be double-quoted with backslash escapes.
func renderNetrc(e *emitter, text string, o opts) error {
	e.line("# ", o.header)
	s := &netrcScanner{text: text}
	inEntry := false
	for {
		tok, comment, ok := s.next(true)
		if !ok {
			break
		}
		if comment {
			e.comment("#", tok[1:])
			continue
		}
		switch tok {
		case "machine", "macdef":
			name, _, ok := s.next(false)
			if !ok {
				return errFormat
			}
			e.line(tok, " ", netrcQuote(name))
			inEntry = tok == "machine"
			if tok == "macdef" {
				if o.sniffed {
					return errFormat // a macro body is free text
				}
				s.skipMacro()
				e.line()
			}
		case "default":
			e.line(tok)
			inEntry = true
		case "login", "password", "account":
			if _, _, ok := s.next(false); !ok || !inEntry {
				return errFormat
			}
			e.line("  ", tok, " ", Marker)
		default:
			return errFormat
		}
	}
	if s.bad {
		return errFormat
	}
	return nil
}

type netrcScanner struct {
	text string
	pos  int
	bad  bool
}

func isNetrcSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next returns the next token, unquoted. With comments set, a token starting
// with '#' is a comment running to the end of the line. ok is false at the
// end of the text and on a malformed token (bad is then set).
func (s *netrcScanner) next(comments bool) (tok string, comment bool, ok bool) {
	for s.pos < len(s.text) && isNetrcSpace(s.text[s.pos]) {
		s.pos++
	}
	if s.pos >= len(s.text) {
		return "", false, false
	}
	start := s.pos
	switch s.text[s.pos] {
	case '#':
		if comments {
			for s.pos < len(s.text) && s.text[s.pos] != '\n' {
				s.pos++
			}
			return s.text[start:s.pos], true, true
		}
	case '"':
		return s.quoted()
	}
	for s.pos < len(s.text) && !isNetrcSpace(s.text[s.pos]) {
		s.pos++
	}
	return s.text[start:s.pos], false, true
}

func (s *netrcScanner) quoted() (string, bool, bool) {
	var b strings.Builder
	for s.pos++; s.pos < len(s.text); s.pos++ {
		switch c := s.text[s.pos]; {
		case c == '"':
			s.pos++
			return b.String(), false, true
		case c == '\n':
			s.pos = len(s.text)
		case c == '\\' && s.pos+1 < len(s.text):
			s.pos++
			b.WriteByte(s.text[s.pos])
		default:
			b.WriteByte(c)
		}
	}
	s.bad = true
	return "", false, false
}

// skipMacro skips a macdef body: the rest of the line, then every line up to
// and including the first empty one.
func (s *netrcScanner) skipMacro() {
	i := strings.IndexByte(s.text[s.pos:], '\n')
	if i < 0 {
		s.pos = len(s.text)
		return
	}
	s.pos += i + 1
	for s.pos < len(s.text) {
		i := strings.IndexByte(s.text[s.pos:], '\n')
		if i < 0 {
			s.pos = len(s.text)
			return
		}
		l := strings.TrimSuffix(s.text[s.pos:s.pos+i], "\r")
		s.pos += i + 1
		if l == "" {
			return
		}
	}
}

// netrcQuote writes a name as a token, quoted when it has to be.
func netrcQuote(name string) string {
	if name != "" && !strings.ContainsAny(name, " \t\r\n\"\\#") {
		return name
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(name) + `"`
}
