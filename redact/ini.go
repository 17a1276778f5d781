package redact

import "strings"

// renderINI writes the keys view of an INI file (.ini, .cfg, .pypirc):
// section headers and key names are kept, every non-empty value becomes
// "[redacted]". Keys end at the first '=' or ':'. An indented line continues
// the value above it.
func renderINI(e *emitter, text string, o opts) error {
	return renderKeyValue(e, text, o, iniDialect{seps: "=:"})
}

// renderAWS writes the keys view of ~/.aws/credentials or ~/.aws/config: the
// INI rules, except that an indented "name = value" under a key with an empty
// value is a nested key (the "s3 =" form) and is kept as one.
func renderAWS(e *emitter, text string, o opts) error {
	return renderKeyValue(e, text, o, iniDialect{seps: "=", nested: true})
}

// renderNpmrc writes the keys view of an .npmrc: the INI rules with '=' as the
// only separator, since keys such as "//registry.npmjs.org/:_authToken"
// contain ':'.
func renderNpmrc(e *emitter, text string, o opts) error {
	return renderKeyValue(e, text, o, iniDialect{seps: "="})
}

// iniDialect is what differs between the INI-like formats.
type iniDialect struct {
	seps   string // bytes that end a key
	nested bool   // indented keys under an empty value are keys (AWS)
	strict bool   // sniffed: no continuation lines, keys are plain words
}

type iniKind int

const (
	iniBlank iniKind = iota
	iniComment
	iniSection
	iniKey
	iniSubkey
)

// iniLine is one line of the keys view; text is the comment character, the
// section header or the key.
type iniLine struct {
	kind     iniKind
	text     string
	sep      byte
	hasValue bool
	note     bool // comment with text
}

func renderKeyValue(e *emitter, text string, o opts, d iniDialect) error {
	d.strict = o.sniffed
	out, err := parseKeyValue(text, d)
	if err != nil {
		return err
	}
	e.line("# ", o.header)
	for _, l := range out {
		writeINILine(e, l)
	}
	return nil
}

func parseKeyValue(text string, d iniDialect) ([]iniLine, error) {
	var out []iniLine
	lastKey := -1 // index in out of the key that continuation lines belong to
	for _, raw := range lines(text) {
		l := strings.TrimSpace(raw)
		indented := l != "" && (raw[0] == ' ' || raw[0] == '\t')
		switch {
		case l == "":
			out = append(out, iniLine{kind: iniBlank})
		case l[0] == '#' || l[0] == ';':
			out = append(out, iniLine{kind: iniComment, text: l[:1], note: strings.TrimSpace(l[1:]) != ""})
		case indented && lastKey >= 0 && !d.strict:
			out = continueKey(out, lastKey, l, d)
		case l[0] == '[':
			if !strings.HasSuffix(l, "]") || len(l) < 3 {
				return nil, errFormat
			}
			out = append(out, iniLine{kind: iniSection, text: l})
			lastKey = -1
		default:
			kl, ok := splitKey(l, d.seps)
			if !ok || d.strict && !isWord(kl.text, "_-. ") {
				return nil, errFormat // a bare line: could be a secret
			}
			kl.kind = iniKey
			out = append(out, kl)
			lastKey = len(out) - 1
		}
	}
	return out, nil
}

// continueKey handles an indented line under the key out[k]: in the AWS
// dialect a nested key if that key's value is empty and the line has a
// separator, otherwise more of its value (dropped, but it makes the value
// non-empty).
func continueKey(out []iniLine, k int, l string, d iniDialect) []iniLine {
	if d.nested && !out[k].hasValue && out[k].kind == iniKey {
		if kl, ok := splitKey(l, d.seps); ok {
			kl.kind = iniSubkey
			return append(out, kl)
		}
	}
	out[k].hasValue = true
	return out
}

// splitKey splits "key = value" at the first separator.
func splitKey(l string, seps string) (iniLine, bool) {
	i := strings.IndexAny(l, seps)
	if i <= 0 {
		return iniLine{}, false
	}
	key := strings.TrimSpace(l[:i])
	if key == "" {
		return iniLine{}, false
	}
	return iniLine{text: key, sep: l[i], hasValue: strings.TrimSpace(l[i+1:]) != ""}, true
}

func writeINILine(e *emitter, l iniLine) {
	switch l.kind {
	case iniBlank:
		e.line()
	case iniComment:
		if l.note {
			e.line(l.text, " ", Marker)
		} else {
			e.line(l.text)
		}
	case iniSection:
		e.line(l.text)
	case iniKey, iniSubkey:
		ind := ""
		if l.kind == iniSubkey {
			ind = "  "
		}
		e.line(ind, l.text, sepText(l.sep, l.hasValue))
	}
}

func sepText(sep byte, hasValue bool) string {
	switch {
	case sep == ':' && hasValue:
		return ": " + Marker
	case sep == ':':
		return ":"
	case hasValue:
		return " = " + Marker
	}
	return " ="
}
