package redact

import (
	"strings"
	"testing"
)

// Every case here is content the keys view must refuse: the output is the
// stub, never the original.
func TestRenderFallsBackToStub(t *testing.T) {
	big := "A=" + strings.Repeat("x", MaxInput) + "\n"
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	tests := []struct {
		name    string
		path    string
		content string
		mode    string
	}{
		{"stub mode", ".env", "A=secretvalue\n", ModeStub},
		{"unknown mode", ".env", "A=secretvalue\n", "values"},
		{"unknown format", "notes.txt", "the password is secretvalue\n", ModeKeys},
		{"binary", "blob", "\x00\x01secretvalue", ModeKeys},
		{"invalid utf-8", ".env", "A=secret\xffvalue\n", ModeKeys},
		{"NUL in text", ".env", "A=secret\x00value\n", ModeKeys},
		{"too large", ".env", big, ModeKeys},
		{"dotenv bare line", ".env", "A=1\nsecretvalue\n", ModeKeys},
		{"dotenv bare word key", ".env", "sk_live_secretvalue\n", ModeKeys},
		{"dotenv unterminated quote", ".env", "A=\"secretvalue\nB=2\n", ModeKeys},
		{"dotenv text after quote", ".env", "A='it''s secretvalue'\n", ModeKeys},
		{"dotenv escaped single quote", ".env", "A='x\\'\nSECRET_LINE=1'\nB='\n", ModeKeys},
		{"dotenv export without value", ".env", "export secretvalue\n", ModeKeys},
		{"dotenv sniffed multi-line", "vars", "A=\"x\nsecretvalue=1\"\n", ModeKeys},
		{"json trailing data", "a.json", `{"a": "secretvalue"} x`, ModeKeys},
		{"json comments", "a.json", "{\"a\": 1 // secretvalue\n}", ModeKeys},
		{"json too deep", "a.json", deep, ModeKeys},
		{"json truncated", "a.json", `{"a": "secretvalue"`, ModeKeys},
		{"yaml complex key", "a.yaml", "? [secretvalue]\n: 1\n", ModeKeys},
		{"yaml too deep", "a.yaml", "a: " + deep + "\n", ModeKeys},
		{"yaml deep dashes", "a.yaml", strings.Repeat("- ", maxDepth+1) + "secretvalue\n", ModeKeys},
		{"yaml root scalar", "a.yaml", "secretvalue\n", ModeKeys},
		{"yaml directive", "a.yaml", "%YAML 1.2\n---\na: secretvalue\n", ModeKeys},
		{"yaml tab indent", "a.yaml", "a:\n\tb: secretvalue\n", ModeKeys},
		{"yaml bad block header", "a.yaml", "a: |x secretvalue\n", ModeKeys},
		{"yaml text after quote", "a.yaml", "a: \"x\" secretvalue\n", ModeKeys},
		{"yaml unclosed flow", "a.yaml", "a: [secretvalue\n", ModeKeys},
		{"yaml value not indented", "a.yaml", "a:\nsecretvalue\n", ModeKeys},
		{"yaml scalar after value", "a.yaml", "a: 1\n  b: 2\nsecretvalue\n", ModeKeys},
		{"yaml syntax error", "a.yaml", "a: \"secretvalue\n", ModeKeys},
		{"toml text after value", "a.toml", "a = \"x\" secretvalue\n", ModeKeys},
		{"toml unterminated string", "a.toml", "a = \"\"\"secretvalue\n", ModeKeys},
		{"toml bare line", "a.toml", "secretvalue\n", ModeKeys},
		{"toml bad bare value", "a.toml", "a = secret\"value\n", ModeKeys},
		{"ini bare line", "a.ini", "[s]\nsecretvalue\n", ModeKeys},
		{"ini broken section", "a.ini", "[secretvalue\n", ModeKeys},
		{"ini sniffed continuation", "conf", "[s]\na = 1\n  secretvalue\n", ModeKeys},
		{"ini sniffed odd key", "conf", "[s]\n\"secretvalue = 1\n", ModeKeys},
		{"npmrc bare token", ".npmrc", "secretvalue\n", ModeKeys},
		{"netrc unknown keyword", ".netrc", "machine h port secretvalue\n", ModeKeys},
		{"netrc login outside entry", ".netrc", "login secretvalue\n", ModeKeys},
		{"netrc missing value", ".netrc", "machine h password", ModeKeys},
		{"netrc unterminated quote", ".netrc", "machine h password \"secretvalue\n", ModeKeys},
		{"pem no block", "a.pem", "secretvalue\n", ModeKeys},
		{"pem unterminated", "a.pem", "-----BEGIN KEY-----\nsecretvalue\n", ModeKeys},
		{"pem mismatched labels", "a.pem", "-----BEGIN KEY-----\nsecretvalue\n-----END CERT-----\n", ModeKeys},
		{"pem stray END", "a.pem", "-----END KEY-----\nsecretvalue\n", ModeKeys},
		{"pem unknown header", "a.pem", "-----BEGIN KEY-----\nsecretvalue: x\n\nAAAA\n-----END KEY-----\n", ModeKeys},
		{"pem odd header", "a.pem", "-----BEGIN KEY-----\nsecret value: x\n\nAAAA\n-----END KEY-----\n", ModeKeys},
	}
	want := string(Stub(testRule))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Render(tt.path, []byte(tt.content), tt.mode, testRule))
			if got != want {
				t.Errorf("Render = %q, want the stub", got)
			}
		})
	}
}

func TestRenderDotenvConstructs(t *testing.T) {
	const h = "# Values redacted by aixbroker (rule r).\n"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"escape in single quotes", "A='x\\'\nSECRET_LINE=1'\nB=2\n", "A=[redacted]\nB=[redacted]\n"},
		{"multi-line double", "A=\"one\nSECRET_LINE=two\"\n", "A=[redacted]\n"},
		{"spaces and comment", "  export  A = 'v' # c\n\t# \n", "export A=[redacted]\n#\n"},
		{"crlf", "A=1\r\nB=\r\n", "A=[redacted]\nB=\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Render(".env", []byte(tt.in), ModeKeys, "r")); got != h+tt.want {
				t.Errorf("Render =\n%s\nwant\n%s", got, h+tt.want)
			}
		})
	}
}

func TestStub(t *testing.T) {
	tests := []struct {
		rule string
		want string
	}{
		{"redact:**/.env", "This file is redacted by aixbroker (rule redact:**/.env). Its content is not shown.\n"},
		{"", "This file is redacted by aixbroker (rule redact). Its content is not shown.\n"},
		{"redact:a\nb\x7f", "This file is redacted by aixbroker (rule redact:a?b?). Its content is not shown.\n"},
	}
	for _, tt := range tests {
		if got := string(Stub(tt.rule)); got != tt.want {
			t.Errorf("Stub(%q) = %q, want %q", tt.rule, got, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		path    string
		content string
		want    string
	}{
		{"/p/.env", "", FormatDotenv},
		{"/p/.env.local", "", FormatDotenv},
		{"/p/prod.env", "", FormatDotenv},
		{"/p/.ENV", "", FormatDotenv},
		{"/p/.envrc", "", FormatDotenv},
		{"/p/a.json", "", FormatJSON},
		{"/p/a.yml", "", FormatYAML},
		{"/p/a.YAML", "", FormatYAML},
		{"/home/u/.kube/config", "", FormatYAML},
		{"/p/pyproject.toml", "", FormatTOML},
		{"/p/setup.cfg", "", FormatINI},
		{"/home/u/.pypirc", "", FormatINI},
		{"/home/u/.aws/credentials", "", FormatAWS},
		{"/home/u/.aws/config", "", FormatAWS},
		{"/home/u/.npmrc", "", FormatNpmrc},
		{"/home/u/.netrc", "", FormatNetrc},
		{"/home/u/.ssh/id_ed25519", "", FormatPEM},
		{"/etc/ssl/a.key", "", FormatPEM},
		{`C:\Users\u\.npmrc`, "", FormatNpmrc},
		// the name wins over the content
		{"/p/a.json", "A=1\n", FormatJSON},
		// sniffed
		{"/p/x", "-----BEGIN CERTIFICATE-----\n", FormatPEM},
		{"/p/x", " {\"a\": 1}\n", FormatJSON},
		{"/p/x", "{\"a\": 1\n", ""},
		{"/p/x", "# c\nmachine h login l\n", FormatNetrc},
		{"/p/x", "; c\n[section]\na=1\n", FormatINI},
		{"/p/x", "export A=1\n", FormatDotenv},
		{"/p/x", "apiVersion: v1\nclusters:\n", FormatYAML},
		{"/p/x", "just some text\n", ""},
		{"/p/x", "", ""},
		{"/home/u/.config/config", "[a]\n", FormatINI},
	}
	for _, tt := range tests {
		if got := Format(tt.path, []byte(tt.content)); got != tt.want {
			t.Errorf("Format(%q, %q) = %q, want %q", tt.path, tt.content, got, tt.want)
		}
	}
}

func TestRenderEmptyModeIsKeys(t *testing.T) {
	got := string(Render(".env", []byte("A=secretvalue\n"), "", "redact:.env"))
	want := "# Values redacted by aixbroker (rule redact:.env).\nA=[redacted]\n"
	if got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}
