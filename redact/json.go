package redact

import (
	"encoding/json"
	"strings"
)

// renderJSON writes the keys view of a JSON document, re-indented with two
// spaces. Object keys (as written, escapes included) and array lengths are
// kept; every string, number and boolean becomes the string "[redacted]" (so
// the output stays valid JSON whatever the original type); null and "" stay
// as they are. JSON has no comments, so the header is not written.
//
// The document is validated by encoding/json first; the walk below then only
// has to find token boundaries.
func renderJSON(e *emitter, text string, _ opts) error {
	if !json.Valid([]byte(text)) {
		return errFormat
	}
	s := &jsonScanner{text: text}
	if err := s.value(e, 0); err != nil {
		return err
	}
	e.line()
	return nil
}

type jsonScanner struct {
	text string
	pos  int
}

func (s *jsonScanner) skipSpace() {
	for s.pos < len(s.text) && strings.IndexByte(" \t\r\n", s.text[s.pos]) >= 0 {
		s.pos++
	}
}

// value writes the value at pos, which text's validity guarantees exists.
func (s *jsonScanner) value(e *emitter, depth int) error {
	if e.err != nil {
		return e.err
	}
	s.skipSpace()
	switch s.text[s.pos] {
	case '{':
		return s.container(e, depth+1, '}')
	case '[':
		return s.container(e, depth+1, ']')
	case '"':
		if s.str() == `""` {
			e.add(`""`)
			return nil
		}
	default: // number, true, false, null
		start := s.pos
		for s.pos < len(s.text) && strings.IndexByte(",]} \t\r\n", s.text[s.pos]) < 0 {
			s.pos++
		}
		if s.text[start:s.pos] == "null" {
			e.add("null")
			return nil
		}
	}
	e.add(`"`, Marker, `"`)
	return nil
}

// container writes an object or array and moves past its closing byte.
func (s *jsonScanner) container(e *emitter, depth int, shut byte) error {
	if depth > maxDepth {
		return errFormat
	}
	e.add(s.text[s.pos : s.pos+1])
	s.pos++
	n := 0
	for {
		s.skipSpace()
		if s.text[s.pos] == shut {
			break
		}
		if s.text[s.pos] == ',' {
			s.pos++
			e.add(",")
			s.skipSpace()
		}
		e.add("\n", indent(depth))
		if shut == '}' {
			e.add(s.str(), ": ") // the key, as written
			s.skipSpace()
			s.pos++ // ':'
		}
		if err := s.value(e, depth); err != nil {
			return err
		}
		n++
	}
	s.pos++
	if n > 0 {
		e.add("\n", indent(depth-1))
	}
	e.add(string(shut))
	return nil
}

// str moves past the string at pos and returns it with its quotes.
func (s *jsonScanner) str() string {
	start := s.pos
	for s.pos++; s.text[s.pos] != '"'; s.pos++ {
		if s.text[s.pos] == '\\' {
			s.pos++
		}
	}
	s.pos++
	return s.text[start:s.pos]
}

// quoteJSON returns s as a JSON string, without escaping <, > and &. The
// result is also a valid YAML double-quoted scalar.
func quoteJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil { // a string always encodes
		return `"` + Marker + `"`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func indent(depth int) string {
	return strings.Repeat("  ", depth)
}
