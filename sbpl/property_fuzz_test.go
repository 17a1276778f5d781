package sbpl

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/bmatcuk/doublestar/v4"
)

// FuzzProperty is the property test on random policies: three globs as
// allow_read, allow_write and deny (one of them also as redact), a path, and
// the operations read, write, exec. Paths and globs live under /q, away from
// the system allowances and the /private aliases.
func FuzzProperty(f *testing.F) {
	f.Add("/q/**", "/q/w/**", "/q/w/s*", "/q/w/sx")
	f.Add("/q/{a,b}/*", "/q/a/[xy]?", "/q/**/.env", "/q/a/.env")
	f.Add("/q/a+b/**", "/q/a+b/c.d", "/q/a+b/c?d", "/q/a+b/c.d")
	f.Fuzz(func(t *testing.T, read, write, deny, p string) {
		globs := []string{read, write, deny}
		for i, g := range globs {
			g = path.Clean("/q/" + g)
			if !isSmall(g) || strings.ContainsAny(g, "'#:\\") {
				return
			}
			globs[i] = g
		}
		p = path.Clean("/q/" + p)
		if !isSmall(p) || strings.ContainsAny(p, "\\") {
			return
		}
		src := fmt.Sprintf("profile: f\nfilesystem:\n  allow_read: ['%s']\n  allow_write: ['%s']\n  redact: ['%s']\n  deny: ['%s']\n",
			globs[0], globs[1], globs[2]+"/r", globs[2])
		pol, err := policy.Parse("f.yaml", []byte(src))
		if err != nil {
			return
		}
		e, err := policy.Compile(pol, macVars)
		if err != nil {
			return
		}
		for _, r := range e.Rules() {
			if _, err := TranslateGlob(r.Glob, false); err != nil || emptyTailQuirk(r.Glob, p) {
				return // refused, or the documented doublestar difference
			}
			if exact, _ := doublestar.Match(r.Glob, p); !exact && foldedMatch(r.Glob, p) {
				return // deny and redact match either case on macOS (TestCaseFolding)
			}
		}
		sb, err := Generate(e, Options{})
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		ev, err := NewEvaluator(sb)
		if err != nil {
			t.Fatalf("NewEvaluator: %v", err)
		}
		for _, op := range []string{"read", "write", "exec"} {
			want, d := engineAllows(e, op, p)
			if got := ev.Decide(sbplOp[op], p); got.Allow != want {
				t.Fatalf("%s %s: profile allow=%v by %s; engine %s by %s\n%s", op, p, got.Allow, got.Rule, d.Action, d.Rule.ID(), src)
			}
		}
	})
}
