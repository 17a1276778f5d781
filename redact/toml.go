package redact

import "strings"

// renderTOML writes the keys view of a TOML document: table headers ([a.b],
// [[a.b]]) and keys (bare, quoted, dotted) are kept; every value becomes the
// string "[redacted]", except empty strings, which stay empty. Arrays and inline
// tables are values like any other: their content is not shown.
func renderTOML(e *emitter, text string, o opts) error {
	e.line("# ", o.header)
	s := &tomlScanner{text: text}
	for s.pos < len(s.text) {
		if err := tomlLine(e, s); err != nil {
			return err
		}
	}
	return nil
}

type tomlScanner struct {
	text string
	pos  int
}

func (s *tomlScanner) peek() byte {
	if s.pos >= len(s.text) {
		return 0
	}
	return s.text[s.pos]
}

func (s *tomlScanner) skipSpaces() {
	for s.peek() == ' ' || s.peek() == '\t' {
		s.pos++
	}
}

// restOfLine returns the text up to the end of the line and moves past the
// newline.
func (s *tomlScanner) restOfLine() string {
	end := strings.IndexByte(s.text[s.pos:], '\n')
	if end < 0 {
		end = len(s.text) - s.pos
	}
	l := s.text[s.pos : s.pos+end]
	s.pos = min(s.pos+end+1, len(s.text))
	return strings.TrimSuffix(l, "\r")
}

// endLine accepts only spaces and a comment before the end of the line.
func (s *tomlScanner) endLine() error {
	s.skipSpaces()
	l := s.restOfLine()
	if l != "" && l[0] != '#' {
		return errFormat
	}
	return nil
}

func tomlLine(e *emitter, s *tomlScanner) error {
	s.skipSpaces()
	switch s.peek() {
	case '\n', '\r', 0:
		if s.restOfLine() != "" {
			return errFormat
		}
		e.line()
		return nil
	case '#':
		e.comment("#", s.restOfLine()[1:])
		return nil
	case '[':
		return tomlTable(e, s)
	}
	key, err := tomlKey(s)
	if err != nil || s.peek() != '=' {
		return errFormat
	}
	s.pos++
	s.skipSpaces()
	start := s.pos
	if err := tomlValue(s, 0); err != nil {
		return err
	}
	if v := s.text[start:s.pos]; v == `""` || v == `''` {
		e.line(key, ` = ""`)
	} else {
		e.line(key, ` = "`, Marker, `"`)
	}
	return s.endLine()
}

func tomlTable(e *emitter, s *tomlScanner) error {
	open := "["
	s.pos++
	if s.peek() == '[' {
		open = "[["
		s.pos++
	}
	s.skipSpaces()
	key, err := tomlKey(s)
	if err != nil || !strings.HasPrefix(s.text[s.pos:], strings.Repeat("]", len(open))) {
		return errFormat
	}
	s.pos += len(open)
	e.line(open, key, strings.Repeat("]", len(open)))
	return s.endLine()
}

// tomlKey reads a bare, quoted or dotted key and the spaces after it, and
// returns its text.
func tomlKey(s *tomlScanner) (string, error) {
	start := s.pos
	for {
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			if err := tomlString(s, c); err != nil {
				return "", err
			}
		case isAlnum(c) || c == '_' || c == '-':
			for c := s.peek(); isAlnum(c) || c == '_' || c == '-'; c = s.peek() {
				s.pos++
			}
		default:
			return "", errFormat
		}
		s.skipSpaces()
		if s.peek() != '.' {
			return strings.TrimRight(s.text[start:s.pos], " \t"), nil
		}
		s.pos++
		s.skipSpaces()
	}
}

// tomlValue moves past one value: a string, an array or inline table (which
// may span lines and hold comments), or a bare scalar (number, boolean, date:
// letters, digits, "_+-.:" and spaces). The caller checks what follows.
func tomlValue(s *tomlScanner, depth int) error {
	switch c := s.peek(); c {
	case '"', '\'':
		return tomlString(s, c)
	case '[', '{':
		return tomlCollection(s, depth)
	}
	start := s.pos
	for c := s.peek(); isAlnum(c) || strings.IndexByte("_+-.: \t", c) >= 0 && c != 0; c = s.peek() {
		s.pos++
	}
	if strings.TrimSpace(s.text[start:s.pos]) == "" {
		return errFormat
	}
	return nil
}

func tomlCollection(s *tomlScanner, depth int) error {
	if depth >= maxDepth {
		return errFormat
	}
	shut := byte(']')
	if s.peek() == '{' {
		shut = '}'
	}
	s.pos++
	for {
		switch c := s.peek(); {
		case c == 0:
			return errFormat
		case c == shut:
			s.pos++
			return nil
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '=' || c == '.':
			s.pos++
		case c == '#':
			s.restOfLine()
		case isAlnum(c) || c == '_' || c == '-' || c == '"' || c == '\'' || c == '[' || c == '{' || c == '+':
			if err := tomlValue(s, depth+1); err != nil {
				return err
			}
		default:
			return errFormat
		}
	}
}

// tomlString moves past a basic or literal string, single- or multi-line.
func tomlString(s *tomlScanner, q byte) error {
	triple := strings.Repeat(string(q), 3)
	multi := strings.HasPrefix(s.text[s.pos:], triple)
	if multi {
		s.pos += 3
	} else {
		s.pos++
	}
	for s.pos < len(s.text) {
		c := s.text[s.pos]
		switch {
		case c == '\\' && q == '"':
			s.pos += 2
		case multi && strings.HasPrefix(s.text[s.pos:], triple):
			s.pos += 3
			for i := 0; i < 2 && s.peek() == q; i++ { // up to two quotes end the content
				s.pos++
			}
			return nil
		case !multi && c == q:
			s.pos++
			return nil
		case !multi && c == '\n':
			return errFormat
		default:
			s.pos++
		}
	}
	return errFormat
}
