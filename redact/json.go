package redact

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// renderJSON writes the keys view of a JSON document, re-indented with two
// spaces. Object keys and array lengths are kept; every string, number and
// boolean becomes the string "[redacted]" (so the output stays valid JSON
// whatever the original type); null and "" stay as they are. JSON has no
// comments, so the header is not written.
func renderJSON(e *emitter, text string, _ opts) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := jsonValue(e, dec, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errFormat
	}
	e.line()
	return nil
}

func jsonValue(e *emitter, dec *json.Decoder, depth int) error {
	tok, err := dec.Token()
	if err != nil || e.err != nil {
		return errFormat
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return errFormat
		}
		if t == '{' {
			return jsonContainer(e, dec, depth+1, "{", "}", true)
		}
		if t == '[' {
			return jsonContainer(e, dec, depth+1, "[", "]", false)
		}
		return errFormat
	case nil:
		e.add("null")
	case string:
		if t == "" {
			e.add(`""`)
			return nil
		}
		e.add(`"`, Marker, `"`)
	default: // json.Number, bool
		e.add(`"`, Marker, `"`)
	}
	return nil
}

// jsonContainer writes the members of an object (keyed) or array after its
// opening delimiter has been read, and consumes the closing one.
func jsonContainer(e *emitter, dec *json.Decoder, depth int, open, shut string, keyed bool) error {
	e.add(open)
	n := 0
	for dec.More() {
		if n > 0 {
			e.add(",")
		}
		e.add("\n", indent(depth))
		if keyed {
			if err := jsonKey(e, dec); err != nil {
				return err
			}
		}
		if err := jsonValue(e, dec, depth); err != nil {
			return err
		}
		n++
	}
	if _, err := dec.Token(); err != nil {
		return errFormat
	}
	if n > 0 {
		e.add("\n", indent(depth-1))
	}
	e.add(shut)
	return nil
}

func jsonKey(e *emitter, dec *json.Decoder) error {
	tok, err := dec.Token()
	key, ok := tok.(string)
	if err != nil || !ok {
		return errFormat
	}
	e.add(quoteJSON(key), ": ")
	return nil
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
