package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRenderNoLeak generates a file of one format from random keys and
// random values (8+ runes, quotes, separators, '#', spaces, newlines,
// non-ASCII), renders its keys view and checks that no value and no comment
// text appears in it, and that every key does. One case in five is served
// under a name that says nothing, so the format is sniffed; a wrong guess may
// then stub the file, but must not leak either.
func FuzzRenderNoLeak(f *testing.F) {
	for k := range generators {
		for _, s := range []string{"", "a", "\x01\x02\x03\x04", "\xff\x00\x7f\x10\x20\x30\x40\x50\x60\x70"} {
			f.Add(uint8(k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, seed []byte) {
		gn := generators[int(kind)%len(generators)]
		g := newGen(seed)
		name := gn.names[g.intn(len(gn.names))]
		sniffed := g.chance(5)
		if sniffed {
			name = "/tmp/data"
		}
		content := gn.gen(g)
		out := string(render(name, []byte(content), ModeKeys, "redact:fuzz"))
		checkNoLeak(t, content, out, g.values)
		if sniffed {
			return
		}
		if out == string(Stub("redact:fuzz")) {
			t.Fatalf("valid %s file fell back to the stub:\n%s", gn.format, content)
		}
		if err := parsesAs(gn.format, out); err != nil {
			t.Fatalf("keys view is not valid %s: %v\n%s\ninput:\n%s", gn.format, err, out, content)
		}
		for _, k := range g.keys {
			if !strings.Contains(out, k) {
				t.Errorf("key %q missing from output:\n%s\ninput:\n%s", k, out, content)
			}
		}
	})
}

// parsesAs checks that a keys view is still valid JSON or YAML.
func parsesAs(format string, out string) error {
	switch format {
	case FormatJSON:
		var v any
		return json.Unmarshal([]byte(out), &v)
	case FormatYAML:
		return parseYAMLStream([]byte(out))
	}
	return nil
}

func checkNoLeak(t *testing.T, content, out string, values []string) {
	t.Helper()
	if i := strings.IndexAny(out, valueOnly); i >= 0 {
		t.Fatalf("output holds value text at byte %d:\n%s\ninput:\n%s", i, out, content)
	}
	for _, v := range values {
		if strings.Contains(out, v) {
			t.Fatalf("output holds value %q:\n%s\ninput:\n%s", v, out, content)
		}
	}
}

// FuzzRender feeds arbitrary content under every kind of name to the
// renderers without Render's recover: nothing may panic, the output is
// deterministic and bounded.
func FuzzRender(f *testing.F) {
	for _, fx := range fixtures {
		content, err := os.ReadFile(filepath.Join("testdata", "files", fx.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(fx.file, content)
		f.Add("unknown", content)
	}
	f.Add("a.yaml", []byte("a: &x [*x, *x]\nb: !!binary aGVsbG8=\n? c\n"))
	f.Add("a.json", []byte(`{"a\"b":[1,{"c":"\\"}],"d":-1.5e+3,"e":[[[]]],"f":{}}`))
	f.Add("a.toml", []byte("a = [[1,2],[\"]\"]] # c\nb = {c = {d = 1}}\n"))
	f.Fuzz(func(t *testing.T, name string, content []byte) {
		out := render(name, content, ModeKeys, "redact:fuzz")
		if again := render(name, content, ModeKeys, "redact:fuzz"); !bytes.Equal(out, again) {
			t.Fatalf("output not deterministic")
		}
		if len(out) > maxOutput {
			t.Fatalf("output of %d bytes", len(out))
		}
	})
}
