package sbpl

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.sb")

// macVars are the fixed variables of the golden profiles.
var macVars = policy.Vars{Home: "/Users/u", Project: "/Users/u/proj", TmpDir: "/private/tmp/u", ConfigDir: "/Users/u/.aixgate"}

func compileProfile(t *testing.T, name string) *policy.Engine {
	t.Helper()
	p, err := policy.LoadProfile(name)
	if err != nil {
		t.Fatalf("LoadProfile(%s): %v", name, err)
	}
	e, err := policy.Compile(p, macVars)
	if err != nil {
		t.Fatalf("Compile(%s): %v", name, err)
	}
	return e
}

func compileYAML(t *testing.T, src string) *policy.Engine {
	t.Helper()
	p, err := policy.Parse("prop.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	e, err := policy.Compile(p, macVars)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return e
}

func generate(t *testing.T, e *policy.Engine) []byte {
	t.Helper()
	sb, err := Generate(e, Options{})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return sb
}

// TestGolden keeps the profile of every built-in policy profile in
// testdata/golden; `go test ./sbpl -update` rewrites them after a reviewed
// change.
func TestGolden(t *testing.T) {
	names := policy.ProfileNames()
	if len(names) == 0 {
		t.Fatal("no built-in profiles")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			got := generate(t, compileProfile(t, name))
			file := filepath.Join("testdata", "golden", name+".sb")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("read golden file: %v (run go test ./sbpl -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("profile %s differs from %s (review, then go test ./sbpl -update):\n%s", name, file, firstDiff(string(want), string(got)))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, a, b)
		}
	}
	return ""
}

func TestProfileShape(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		sb := string(generate(t, compileProfile(t, name)))
		if strings.Contains(sb, "(allow default") {
			t.Errorf("%s: profile contains (allow default)", name)
		}
		if !strings.Contains(sb, "(version 1)\n(deny default)\n") {
			t.Errorf("%s: profile does not start with (version 1)(deny default)", name)
		}
		if _, err := NewEvaluator([]byte(sb)); err != nil {
			t.Errorf("%s: the evaluator cannot read the profile: %v", name, err)
		}
	}
}
