package audit

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsNothingFromTheProject keeps the audit package independent: the
// broker converts its decisions into Records, not the other way round.
func TestImportsNothingFromTheProject(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, "github.com/aixbroker/aixbroker") {
			t.Errorf("audit imports %s", imp)
		}
	}
}
