package redact

import "strings"

// renderPEM writes the keys view of PEM text (RFC 7468, and RFC 1421
// encapsulated headers): each block keeps its BEGIN and END lines and the
// names of its headers ("Proc-Type: [redacted]"); the base64 body becomes one
// "[redacted]" line. Text outside blocks is dropped. A file with no block, an
// unterminated block or mismatched labels is unparsable.
func renderPEM(e *emitter, text string, o opts) error {
	e.line(o.header) // RFC 7468 allows explanatory text before a block
	ls := lines(text)
	blocks := 0
	for i := 0; i < len(ls); i++ {
		l := strings.TrimSpace(ls[i])
		if !strings.HasPrefix(l, "-----") {
			continue
		}
		label, ok := pemBoundary(l, "BEGIN")
		if !ok {
			return errFormat
		}
		end, err := pemBlock(e, ls, i, label)
		if err != nil {
			return err
		}
		i = end
		blocks++
	}
	if blocks == 0 {
		return errFormat
	}
	return nil
}

// pemBlock writes the block whose BEGIN line is ls[i] and returns the index of
// its END line.
func pemBlock(e *emitter, ls []string, i int, label string) (int, error) {
	e.line("-----BEGIN ", label, "-----")
	inHeaders, headers, body := true, false, false
	for j := i + 1; j < len(ls); j++ {
		raw := ls[j]
		l := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(l, "-----"):
			end, ok := pemBoundary(l, "END")
			if !ok || end != label {
				return 0, errFormat
			}
			if body {
				e.line(Marker)
			}
			e.line("-----END ", label, "-----")
			return j, nil
		case l == "":
			if inHeaders && headers {
				e.line()
			}
			inHeaders = false
		case inHeaders && (raw[0] == ' ' || raw[0] == '\t'):
			// continuation of a header value
		case inHeaders && strings.Contains(l, ":"):
			name, _, _ := strings.Cut(l, ":")
			if !pemHeaders[name] {
				return 0, errFormat // not a header: free text is not shown as one
			}
			e.line(name, ": ", Marker)
			headers = true
		default:
			inHeaders, body = false, true
		}
	}
	return 0, errFormat
}

// pemBoundary parses "-----BEGIN LABEL-----" (or END) and returns LABEL.
func pemBoundary(l string, kind string) (string, bool) {
	rest, ok := strings.CutPrefix(l, "-----"+kind+" ")
	if !ok {
		return "", false
	}
	label, ok := strings.CutSuffix(rest, "-----")
	if !ok || !isWord(label, " ") {
		return "", false
	}
	return label, true
}

// pemHeaders are the encapsulated header names of RFC 1421 (Proc-Type and
// DEK-Info in OpenSSL's legacy encrypted keys) and RFC 4716 (SSH public
// keys).
var pemHeaders = map[string]bool{
	"Proc-Type": true, "DEK-Info": true, "Content-Domain": true,
	"Originator-ID-Asymmetric": true, "Originator-ID-Symmetric": true,
	"Originator-Certificate": true, "Issuer-Certificate": true,
	"Recipient-ID-Asymmetric": true, "Recipient-ID-Symmetric": true,
	"MIC-Info": true, "Key-Info": true, "CRL": true,
	"Comment": true, "Subject": true,
}
