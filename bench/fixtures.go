package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Sizes of the generated trees.
const (
	dirEntries  = 10000     // files in the small-file folder (open, stat, readdir)
	repoFiles   = 20000     // files in the git repository
	nodeModules = 2000      // modules node requires
	bigFileSize = 128 << 20 // the sequential-read file
)

// Workspace is the generated data: one project directory the sandboxed runs
// treat as the project. Generation is skipped for parts already present, so
// a second run starts at once.
type Workspace struct {
	Root    string // parent of Project; audit logs and the helper go here
	Project string
}

func (w Workspace) path(parts ...string) string {
	return filepath.Join(append([]string{w.Project}, parts...)...)
}

// Prepare creates what is missing under root.
func Prepare(root string, log func(string)) (Workspace, error) {
	w := Workspace{Root: root, Project: filepath.Join(root, "project")}
	steps := []struct {
		marker string
		what   string
		make   func() error
	}{
		{"small/.done", "10,000 small files", w.makeSmall},
		{"big.bin", "a 128 MiB file", w.makeBig},
		{"repo/.done", "a 20,000-file git repository", w.makeRepo},
		{"node/.done", "2,000 node modules", w.makeNode},
		{"gomod/.done", "a small Go module", w.makeGoMod},
	}
	if err := os.MkdirAll(w.path("scratch"), 0o755); err != nil {
		return w, fmt.Errorf("create workspace: %w", err)
	}
	for _, s := range steps {
		if _, err := os.Stat(w.path(s.marker)); err == nil {
			continue
		}
		log("generating " + s.what)
		if err := s.make(); err != nil {
			return w, fmt.Errorf("generate %s: %w", s.what, err)
		}
	}
	return w, nil
}

func writeFiles(dir string, n int, name func(int) string, content func(int) string) error {
	for i := range n {
		p := filepath.Join(dir, name(i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content(i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func done(path string) error { return os.WriteFile(path, nil, 0o644) }

func (w Workspace) makeSmall() error {
	err := writeFiles(w.path("small"), dirEntries,
		func(i int) string { return "f" + strconv.Itoa(i) },
		func(i int) string { return "small file " + strconv.Itoa(i) + "\n" })
	if err != nil {
		return err
	}
	return done(w.path("small/.done"))
}

func (w Workspace) makeBig() error {
	block := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	f, err := os.Create(w.path("big.bin.tmp"))
	if err != nil {
		return err
	}
	for range bigFileSize / len(block) {
		if _, err := f.Write(block); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(w.path("big.bin.tmp"), w.path("big.bin"))
}

func (w Workspace) makeRepo() error {
	dir := w.path("repo")
	err := writeFiles(dir, repoFiles,
		func(i int) string { return fmt.Sprintf("src/d%03d/file%05d.c", i/100, i) },
		func(i int) string {
			return fmt.Sprintf("/* file %d */\nint f%d(int x) { return x * %d + 1; }\n", i, i, i)
		})
	if err != nil {
		return err
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "."},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "fixture"},
	} {
		if err := run(dir, "git", args...); err != nil {
			return err
		}
	}
	return done(filepath.Join(dir, ".done"))
}

func (w Workspace) makeNode() error {
	dir := w.path("node")
	err := writeFiles(dir, nodeModules,
		func(i int) string { return fmt.Sprintf("node_modules/m%d/package.json", i) },
		func(i int) string { return fmt.Sprintf(`{"name":"m%d","version":"1.0.0","main":"lib/index.js"}`, i) })
	if err != nil {
		return err
	}
	err = writeFiles(dir, nodeModules,
		func(i int) string { return fmt.Sprintf("node_modules/m%d/lib/index.js", i) },
		func(i int) string { return fmt.Sprintf("module.exports = %d;\n", i) })
	if err != nil {
		return err
	}
	var main strings.Builder
	main.WriteString("let s = 0;\n")
	for i := range nodeModules {
		fmt.Fprintf(&main, "s += require('m%d');\n", i)
	}
	main.WriteString("if (s !== " + strconv.Itoa(nodeModules*(nodeModules-1)/2) + ") process.exit(3);\n")
	walk := `const fs = require('fs'), path = require('path');
let n = 0;
function walk(d) {
  for (const e of fs.readdirSync(d, {withFileTypes: true})) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name === 'package.json') { fs.statSync(p); JSON.parse(fs.readFileSync(p, 'utf8')); n++; }
  }
}
walk('node_modules');
if (n !== ` + strconv.Itoa(nodeModules) + `) process.exit(3);
`
	if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte(main.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "walk.js"), []byte(walk), 0o644); err != nil {
		return err
	}
	return done(filepath.Join(dir, ".done"))
}

func (w Workspace) makeGoMod() error {
	dir := w.path("gomod")
	files := map[string]string{
		"go.mod":       "module example.invalid/small\n\ngo 1.22\n",
		"main.go":      "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.invalid/small/calc\"\n)\n\nfunc main() { fmt.Println(strings.ToUpper(calc.Describe(calc.Sum(1, 2, 3)))) }\n",
		"calc/calc.go": "// Package calc is the benchmark's edited package.\npackage calc\n\nimport \"strconv\"\n\n// Sum adds its arguments.\nfunc Sum(xs ...int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t + Edit\n}\n\n// Describe names n.\nfunc Describe(n int) string { return \"sum \" + strconv.Itoa(n) }\n",
	}
	for name, content := range files {
		if err := writeFiles(dir, 1, func(int) string { return name }, func(int) string { return content }); err != nil {
			return err
		}
	}
	if err := w.EditGo(0); err != nil {
		return err
	}
	return done(filepath.Join(dir, ".done"))
}

// EditGo rewrites the module's edit.go so that the next build compiles
// calc and links again, as after an edit.
func (w Workspace) EditGo(n int) error {
	src := fmt.Sprintf("package calc\n\n// Edit changes with every benchmarked build.\nconst Edit = %d\n", n)
	return os.WriteFile(w.path("gomod", "calc", "edit.go"), []byte(src), 0o644)
}

func run(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// removeScratch empties the scratch folder between runs.
func (w Workspace) removeScratch() error {
	entries, err := os.ReadDir(w.path("scratch"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(w.path("scratch", e.Name())); err != nil {
			return err
		}
	}
	return nil
}
