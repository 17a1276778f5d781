package redact

import (
	"fmt"
	"strings"
	"testing"
)

// env2K is a 2 KB .env of the usual shape: comments, quoted and bare values.
func env2K() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 2048; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "# setting group %d\n", i)
		case 1:
			fmt.Fprintf(&b, "SERVICE_%d_URL=https://svc%d.internal.example:8443/api/v1\n", i, i)
		case 2:
			fmt.Fprintf(&b, "export SERVICE_%d_TOKEN=\"tok_%08x_%s\"\n", i, i*2654435761, strings.Repeat("z", 12))
		default:
			fmt.Fprintf(&b, "SERVICE_%d_DEBUG='false'\n", i)
		}
	}
	return []byte(b.String())
}

func BenchmarkRenderDotenv2K(b *testing.B) {
	content := env2K()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		Render("/home/u/proj/.env", content, ModeKeys, "redact:**/.env")
	}
}

func BenchmarkRenderStub(b *testing.B) {
	content := env2K()
	for b.Loop() {
		Render("/home/u/proj/.env", content, ModeStub, "redact:**/.env")
	}
}

// jsonYAML2K is the same data as a JSON object, which is also YAML.
func jsonYAML2K() []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; b.Len() < 2000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  \"service_%d\": {\"url\": \"https://svc%d.internal.example\", \"token\": \"tok_%08x\", \"debug\": false}", i, i, i*2654435761)
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

func BenchmarkRenderJSON2K(b *testing.B) {
	content := jsonYAML2K()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		Render("settings.json", content, ModeKeys, "redact:x")
	}
}

func BenchmarkRenderYAML2K(b *testing.B) {
	content := jsonYAML2K()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		Render("settings.yaml", content, ModeKeys, "redact:x")
	}
}
