package redact

import (
	"encoding/json"
	"path"
	"strings"
)

// The formats the keys view supports, as returned by [Format].
const (
	FormatDotenv = "dotenv" // .env, .env.*, *.env, .envrc
	FormatJSON   = "json"   // *.json
	FormatYAML   = "yaml"   // *.yaml, *.yml
	FormatTOML   = "toml"   // *.toml
	FormatINI    = "ini"    // *.ini, *.cfg, *.properties, .pypirc
	FormatAWS    = "aws"    // ~/.aws/credentials and ~/.aws/config: INI with nested keys
	FormatNpmrc  = "npmrc"  // .npmrc
	FormatNetrc  = "netrc"  // .netrc, _netrc
	FormatPEM    = "pem"    // *.pem, *.key, *.crt, id_rsa and friends
)

// Format names the format Render uses for the file at path with the given
// content: from the file name first, then sniffed from the content. It returns
// "" when it cannot tell, and Render then serves the stub. A name or a sniff
// only picks the parser: content that does not parse as that format is stubbed,
// never tried as another.
func Format(p string, content []byte) string {
	if f := byName(p); f != "" {
		return f
	}
	if len(content) > MaxInput {
		return ""
	}
	return sniff(string(content))
}

var byBase = map[string]string{
	".env":       FormatDotenv,
	".envrc":     FormatDotenv,
	".npmrc":     FormatNpmrc,
	"npmrc":      FormatNpmrc,
	".pypirc":    FormatINI,
	".netrc":     FormatNetrc,
	"_netrc":     FormatNetrc,
	"id_rsa":     FormatPEM,
	"id_dsa":     FormatPEM,
	"id_ecdsa":   FormatPEM,
	"id_ed25519": FormatPEM,
}

var byExt = map[string]string{
	".env":        FormatDotenv,
	".json":       FormatJSON,
	".yaml":       FormatYAML,
	".yml":        FormatYAML,
	".toml":       FormatTOML,
	".ini":        FormatINI,
	".cfg":        FormatINI,
	".properties": FormatINI,
	".pem":        FormatPEM,
	".key":        FormatPEM,
	".crt":        FormatPEM,
	".cer":        FormatPEM,
	".csr":        FormatPEM,
}

func byName(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	base := strings.ToLower(path.Base(p))
	if f, ok := byBase[base]; ok {
		return f
	}
	if strings.HasPrefix(base, ".env.") {
		return FormatDotenv
	}
	switch dir := path.Base(path.Dir(p)); {
	case dir == ".aws" && (base == "credentials" || base == "config"):
		return FormatAWS
	case dir == ".kube" && base == "config":
		return FormatYAML
	}
	return byExt[path.Ext(base)]
}

// sniff guesses a format from the first meaningful line. It is deliberately
// narrow: a wrong guess costs a stub, not a leak, but a stub is less useful.
func sniff(text string) string {
	if hasPEMBlock(text) {
		return FormatPEM
	}
	first := firstLine(text)
	switch {
	case first == "":
		return ""
	case (first[0] == '{' || first[0] == '[') && json.Valid([]byte(text)):
		return FormatJSON
	case strings.HasPrefix(first, "machine ") || first == "default" || strings.HasPrefix(first, "default "):
		return FormatNetrc
	case strings.HasPrefix(first, "[") && strings.HasSuffix(first, "]"):
		return FormatINI
	case isDotenvAssignment(first):
		return FormatDotenv
	case looksYAML(first):
		return FormatYAML
	}
	return ""
}

// firstLine returns the first line that is neither blank nor a comment,
// trimmed.
func firstLine(text string) string {
	for _, l := range lines(text) {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		return l
	}
	return ""
}

func hasPEMBlock(text string) bool {
	for _, l := range lines(text) {
		if strings.HasPrefix(strings.TrimSpace(l), "-----BEGIN ") {
			return true
		}
	}
	return false
}

// looksYAML accepts "key: ..." with a plain key, a "- " list item or a "---"
// document start.
func looksYAML(first string) bool {
	if first == "---" || strings.HasPrefix(first, "- ") {
		return true
	}
	k, _, ok := strings.Cut(first, ":")
	return ok && k != "" && isWord(k, "_-.")
}

// isWord reports whether s is ASCII letters, digits and the extra bytes.
func isWord(s string, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && strings.IndexByte(extra, c) < 0 {
			return false
		}
	}
	return s != ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
