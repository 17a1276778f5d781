package redact

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"
)

// Marker replaces every value in the keys view. It is fixed so that the
// output depends only on the file's structure.
const Marker = "[redacted]"

// The modes a redact rule can ask for. An empty mode means ModeKeys.
const (
	ModeKeys = "keys"
	ModeStub = "stub"
)

// MaxInput is the largest content Render parses; larger files get the stub.
const MaxInput = 1 << 20

// maxOutput bounds the keys view (it grows with indentation and markers).
const maxOutput = 4 << 20

// maxDepth bounds nesting in JSON and YAML.
const maxDepth = 64

// errFormat means "not certain what this is": the caller serves the stub.
var errFormat = errors.New("content does not parse as its format")

// Render returns what an agent reads instead of the file at path, whose real
// content is content, under a redact rule with the given mode ("keys", "stub"
// or "" for keys) and ID (for example "redact:**/.env"). The format is chosen
// from the file name and, failing that, sniffed from the content (see
// [Format]). On any doubt (unknown mode, unknown format, content that does not
// parse, content over [MaxInput]) the result is the stub.
func Render(path string, content []byte, mode string, ruleID string) (out []byte) {
	defer func() {
		// Last resort: the renderers are written not to panic, and the
		// fuzz tests call them without this net.
		if recover() != nil {
			out = Stub(ruleID)
		}
	}()
	return render(path, content, mode, ruleID)
}

func render(path string, content []byte, mode string, ruleID string) []byte {
	if mode != ModeKeys && mode != "" {
		return Stub(ruleID)
	}
	format := Format(path, content)
	r, ok := renderers[format]
	if !ok {
		return Stub(ruleID)
	}
	text, ok := clean(content)
	if !ok {
		return Stub(ruleID)
	}
	e := &emitter{limit: maxOutput, buf: make([]byte, 0, min(2*len(text)+256, maxOutput))}
	o := opts{header: header(ruleID), sniffed: byName(path) == ""}
	if err := r(e, text, o); err != nil || e.err != nil {
		return Stub(ruleID)
	}
	return e.buf
}

// A renderer writes the keys view of text to e.
type renderer func(e *emitter, text string, o opts) error

type opts struct {
	// header is a one-line note naming the rule, written as a comment by
	// formats that have comments.
	header string
	// sniffed is set when the format was guessed from the content. The
	// guess may be wrong, and a multi-line value of the real format could
	// then hold lines that look like keys: renderers refuse multi-line
	// values and unusual keys when it is set.
	sniffed bool
}

var renderers = map[string]renderer{
	FormatDotenv: renderDotenv,
	FormatJSON:   renderJSON,
	FormatYAML:   renderYAML,
	FormatTOML:   renderTOML,
	FormatINI:    renderINI,
	FormatAWS:    renderAWS,
	FormatNpmrc:  renderNpmrc,
	FormatNetrc:  renderNetrc,
	FormatPEM:    renderPEM,
}

// Stub returns the text served in "stub" mode and whenever the keys view is
// not possible.
func Stub(ruleID string) []byte {
	return []byte("This file is redacted by aixbroker (rule " + sanitize(ruleID) +
		"). Its content is not shown.\n")
}

func header(ruleID string) string {
	return "Values redacted by aixbroker (rule " + sanitize(ruleID) + ")."
}

// sanitize keeps a rule ID on one printable line, so that it cannot add
// structure to the output.
func sanitize(ruleID string) string {
	if ruleID == "" {
		return "redact"
	}
	s := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return '?'
		}
		return r
	}, ruleID)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

// clean checks that content is text the renderers accept (size, UTF-8, no
// NUL) and removes a byte-order mark.
func clean(content []byte) (string, bool) {
	if len(content) > MaxInput || !utf8.Valid(content) || bytes.IndexByte(content, 0) >= 0 {
		return "", false
	}
	return string(bytes.TrimPrefix(content, []byte("\ufeff"))), true
}

// lines splits text into lines without their "\n" or "\r\n".
func lines(text string) []string {
	ls := strings.Split(text, "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// emitter accumulates output up to a limit; past it, it records an error and
// drops further writes.
type emitter struct {
	buf   []byte
	limit int
	err   error
}

var errTooLarge = errors.New("redacted view exceeds its size limit")

func (e *emitter) add(parts ...string) {
	if e.err != nil {
		return
	}
	for _, p := range parts {
		if len(e.buf)+len(p) > e.limit {
			e.err = errTooLarge
			return
		}
		e.buf = append(e.buf, p...)
	}
}

// line writes parts followed by a newline.
func (e *emitter) line(parts ...string) {
	e.add(parts...)
	e.add("\n")
}

// comment writes a redacted comment line: the comment character is kept, the
// text is not (comments hold secrets too: "# old key: sk-...").
func (e *emitter) comment(char string, text string) {
	if strings.TrimSpace(text) == "" {
		e.line(char)
		return
	}
	e.line(char, " ", Marker)
}
