package sbpl

import "testing"

// TestRedactExceptAgreesWithEngine: a redact rule with except globs leaves
// exactly those paths to the allow rules, in the profile as in the engine.
func TestRedactExceptAgreesWithEngine(t *testing.T) {
	e := compileYAML(t, `profile: ex
filesystem:
  allow_write: ['${PROJECT}/**']
  redact:
    - {path: '**/.env.*', except: ['**/.env.example', '${PROJECT}/keep/.env.sample']}
`)
	checkProperty(t, e, []string{
		"/Users/u/proj/.env.example", "/Users/u/proj/sub/.env.example", "/Users/u/proj/.env.local",
		"/Users/u/proj/.env.example.local", "/Users/u/proj/keep/.env.sample", "/Users/u/proj/other/.env.sample",
	})
	ev, err := NewEvaluator(generate(t, e))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want bool
	}{
		{"/Users/u/proj/.env.example", true},
		{"/Users/u/proj/.env.local", false},
		{"/Users/u/proj/.ENV.EXAMPLE", false}, // the rule folds case, its exception does not
	}
	for _, tt := range tests {
		if got := ev.Decide("file-read-data", tt.path); got.Allow != tt.want {
			t.Errorf("read %s: allow=%v by %s, want %v", tt.path, got.Allow, got.Rule, tt.want)
		}
	}
}
