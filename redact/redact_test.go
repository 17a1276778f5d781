package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

const testRule = "redact:**/fixture"

// Each fixture is a real file of its format; secrets lists every value in it,
// none of which may appear in the keys view.
var fixtures = []struct {
	file    string
	format  string
	keys    []string
	secrets []string
}{
	{
		file:   "proj/.env",
		format: FormatDotenv,
		keys:   []string{"DATABASE_URL=[redacted]", "export STRIPE_KEY=[redacted]", "REDIS_URL=", "EMPTY=\n", "PRIVATE_KEY=", "BACKTICK="},
		secrets: []string{"Local development", "sk-live-0ldS3cretKey99", "pgPassw0rd", "db.internal", "sk_test_51Hx9QwErTy",
			"notacomment", "r3disSecret42", "inline comment", "single-quoted-42", "not a comment", "MIIBOgIBAAJBAKj34GkxFhD9",
			"BEGIN KEY", "hello-escaped-99", "twice", "tick-value-8812"},
	},
	{
		file:    "proj/.env.production",
		format:  FormatDotenv,
		keys:    []string{"API_TOKEN=", "export SENTRY_DSN="},
		secrets: []string{"prodToken-4f9a2c71", "abc123def", "sentry.io"},
	},
	{
		file:   "proj/settings.json",
		format: FormatJSON,
		keys:   []string{`"name"`, `"port"`, `"password"`, `"hosts"`, `"weird key \"quoted\""`, `"nothing": null`, `"empty": ""`},
		secrets: []string{"demo-service-x1", "84431234", "true", "admin", "jsonPassw0rd!42", "h1.internal.example",
			"h2.internal.example", "w3irdValue-123"},
	},
	{
		file:   "proj/config.yaml",
		format: FormatYAML,
		keys:   []string{"server:", "  host:", "database:", "  password:", "  options:", `"<<":`, "certs:", `"8080":`, "second_doc:"},
		secrets: []string{"0.0.0.0", "8080123", "yamlUser-77", "yamlPassw0rd", "with colon", "require-full", "30s", "*db", "&db",
			"replica.internal.example", "CERTIFICATE", "MIIBlockScalarBody42", "plainListItem-99", "numeric-key-value",
			"secondDocSecret-5", "service config"},
	},
	{
		file:   "proj/Cargo.toml",
		format: FormatTOML,
		keys:   []string{"[package]", "name = ", "[registries.private]", `"quoted.key" = `, "dotted.key = ", "inline = ", "list = ", `empty = ""`, "[[servers]]"},
		secrets: []string{"cargo manifest", "demo-crate-x", "0.1.0", "Jane Doe", "jane@example.com", "tomlLiteralTok-88",
			"index.example.com", "multiLineSecret-3", "42424242", "tomlInlineUser-5", "tomlInlinePass-6", "arrayItemSecret-1",
			"comment in array", "arrayItemSecret-2", "1979-05-27", "10.0.0.1"},
	},
	{
		file:    "home/.aws/credentials",
		format:  FormatAWS,
		keys:    []string{"[default]", "aws_access_key_id = [redacted]", "aws_secret_access_key = ", "[profile-work]", "aws_session_token = "},
		secrets: []string{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "EXAMPLEKEY", "AKIAWORKEXAMPLE12345", "workSecretKey", "FwoGZXIvYXdzEBYaDHm3sessiontoken"},
	},
	{
		file:    "home/.aws/config",
		format:  FormatAWS,
		keys:    []string{"[profile dev]", "region = ", "role_arn = ", "s3 =\n", "  max_concurrent_requests = [redacted]", "  addressing_style = "},
		secrets: []string{"eu-west-3", "123456789012", "dev-admin", "path-style-x", "= json", "= default"},
	},
	{
		file:    "home/.netrc",
		format:  FormatNetrc,
		keys:    []string{"machine api.github.com\n  login [redacted]\n  password [redacted]", "machine ftp.example.com", "default\n", "macdef init"},
		secrets: []string{"work", "octocat-user", "ghp_netrcToken1234567890", "anon user", "pass with spaces 9", "anonymous-dflt", "guest-passw0rd", "macroSecretDir", "binary"},
	},
	{
		file:    "home/.npmrc",
		format:  FormatNpmrc,
		keys:    []string{"registry = ", "//registry.npmjs.org/:_authToken = [redacted]", "@myorg:registry = ", "//npm.pkg.github.com/:_authToken = ", "always-auth = "},
		secrets: []string{"npm config", "https://registry.npmjs.org", "npm_T0kenValue1234567890", "npm.pkg.github.com\n", "ghp_npmGithubToken99", "true"},
	},
	{
		file:    "home/.pypirc",
		format:  FormatINI,
		keys:    []string{"[distutils]", "index-servers = [redacted]", "[pypi]", "username = ", "password = ", "[privateIndexName9]", "repository = "},
		secrets: []string{"    pypi", "__token__", "pypi-AgEIcHlwaS5vcmcTokenValue", "pypi.example.com", "pypiUser-42", "pypiPrivatePass-42"},
	},
	{
		file:    "home/id_rsa",
		format:  FormatPEM,
		keys:    []string{"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: [redacted]\nDEK-Info: [redacted]\n\n[redacted]\n-----END RSA PRIVATE KEY-----\n"},
		secrets: []string{"4,ENCRYPTED", "AES-128-CBC", "3F17F5316E2BAC89B4F0CCCE67C21A4A", "MIIEowIBAAKCAQEA0PemBodyLineOne", "PemBodyLineTwo"},
	},
	{
		file:    "home/chain.pem",
		format:  FormatPEM,
		keys:    []string{"-----BEGIN CERTIFICATE-----\n[redacted]\n-----END CERTIFICATE-----\n", "-----BEGIN OPENSSH PRIVATE KEY-----\n[redacted]\n"},
		secrets: []string{"friendlyName-outsideText", "Bag Attributes", "MIIDCertBodyFirstBlock0123456789", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQOpenSSHBody"},
	},
}

func TestRenderFixtures(t *testing.T) {
	for _, tt := range fixtures {
		t.Run(tt.file, func(t *testing.T) {
			p := filepath.Join("testdata", "files", tt.file)
			content, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := Format(p, content); got != tt.format {
				t.Fatalf("Format(%s) = %q, want %q", p, got, tt.format)
			}
			out := string(Render(p, content, ModeKeys, testRule))
			if out == string(Stub(testRule)) {
				t.Fatalf("Render fell back to the stub")
			}
			for _, k := range tt.keys {
				if !strings.Contains(out, k) {
					t.Errorf("output lacks %q:\n%s", k, out)
				}
			}
			for _, s := range tt.secrets {
				if !strings.Contains(string(content), s) {
					t.Fatalf("fixture lacks secret %q: the table is stale", s)
				}
				if strings.Contains(out, s) {
					t.Errorf("output shows %q:\n%s", s, out)
				}
			}
			checkGolden(t, strings.ReplaceAll(tt.file, "/", "_")+".txt", out)
		})
	}
}

// checkGolden compares out with testdata/golden/name (the before/after
// examples of docs/redaction.md come from these files).
func checkGolden(t *testing.T, name string, out string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s:\n%s", p, out)
	}
}

// parseYAMLStream decodes every document of a YAML stream.
func parseYAMLStream(b []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// The keys view of JSON and YAML must still parse as JSON and YAML.
func TestRenderKeepsSyntax(t *testing.T) {
	for _, tt := range []struct {
		file  string
		parse func([]byte) error
	}{
		{"proj/settings.json", func(b []byte) error { var v any; return json.Unmarshal(b, &v) }},
		{"proj/config.yaml", parseYAMLStream},
	} {
		p := filepath.Join("testdata", "files", tt.file)
		content, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := Render(p, content, ModeKeys, testRule)
		if err := tt.parse(out); err != nil {
			t.Errorf("%s: keys view does not parse: %v\n%s", tt.file, err, out)
		}
	}
}
