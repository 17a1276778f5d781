package policy

import (
	"go/build"
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports may appear neither in the package nor in anything it
// imports: decisions are pure (DESIGN.md, "Layout").
var forbiddenImports = []string{"os/exec", "golang.org/x/sys/unix", "syscall", "unsafe", "net"}

// TestPackageIsPure parses the package's own files and then walks its
// dependency graph, failing on any forbidden import.
func TestPackageIsPure(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	direct := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := goparser.ParseFile(fset, f, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			direct[path] = true
			if isForbidden(path) {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
	if len(direct) == 0 {
		t.Fatal("found no imports: the test is not looking at the package")
	}
	// The dependency graph, through go/build: a dependency that pulled in
	// os/exec or x/sys/unix would make decisions impure just the same.
	// (syscall, unsafe and net are imported by the standard library's os
	// and sync themselves, so only the first two are checked there.)
	wd, _ := os.Getwd()
	seen := map[string]bool{}
	var walk func(path, from string)
	walk = func(path, from string) {
		if seen[path] || path == "C" {
			return
		}
		seen[path] = true
		if path == "os/exec" || path == "golang.org/x/sys/unix" {
			t.Errorf("dependency %s imports %s", from, path)
			return
		}
		pkg, err := build.Import(path, wd, 0)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			walk(imp, path)
		}
	}
	for path := range direct {
		walk(path, "policy")
	}
	if !seen["github.com/goccy/go-yaml/ast"] || !seen["github.com/bmatcuk/doublestar/v4"] {
		t.Errorf("the dependency walk missed the YAML or glob library: %d packages seen", len(seen))
	}
}

func isForbidden(path string) bool {
	for _, f := range forbiddenImports {
		if path == f {
			return true
		}
	}
	return false
}
