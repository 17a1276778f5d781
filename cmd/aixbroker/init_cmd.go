package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newInitCmd) }

// policyFileName is the project-local policy that exec, check and explain
// pick up from the project directory.
const policyFileName = ".aixgate.yaml"

//go:embed templates/*.yaml
var templateFS embed.FS

// projectKind is one language ecosystem init knows about: the files that
// mark it and what its tool chain needs outside the project.
type projectKind struct {
	Name    string   // shown to the user: "Go", "Node.js"
	Markers []string // any of these in the project dir selects the kind
	Read    []string // caches the agent may read
	Write   []string // caches the agent may read and write
	Exec    []string // commands the tool chain runs
	Tests   []string // extra commented tests: entries
}

// projectKinds is checked in order; every kind whose marker exists is
// merged into the starter, so a Go service with a JS front end gets both.
var projectKinds = []projectKind{
	{
		Name:    "Go",
		Markers: []string{"go.mod"},
		Read:    []string{"~/go/pkg/mod/**"},
		Write:   []string{"~/.cache/go-build/**"},
		Exec:    []string{"go", "gofmt"},
		Tests:   []string{"{ path: ~/go/pkg/mod/cache/x, op: write, want: deny }"},
	},
	{
		Name:    "Node.js",
		Markers: []string{"package.json"},
		Write:   []string{"~/.npm/**"},
		Exec:    []string{"node", "npm", "npx"},
		Tests:   []string{"{ path: ~/.npmrc, op: read, want: deny }"},
	},
	{
		Name:    "Python",
		Markers: []string{"pyproject.toml", "requirements.txt", "setup.py"},
		Write:   []string{"~/.cache/pip/**"},
		Exec:    []string{"python3", "python", "pip", "pip3"},
		Tests:   []string{"{ path: ~/.cache/pip/http/x, op: write, want: allow }"},
	},
	{
		Name:    "Rust",
		Markers: []string{"Cargo.toml"},
		Write:   []string{"~/.cargo/registry/**", "~/.cargo/git/**"},
		Exec:    []string{"cargo", "rustc"},
		Tests:   []string{"{ path: ~/.cargo/credentials.toml, op: read, want: deny }"},
	},
}

// starter is what the template is rendered with.
type starter struct {
	Name  string // the profile name written in the file
	Kinds string // "Go, Node.js" or "no language detected"
	Read  []string
	Write []string
	Exec  string // comma-separated, or empty
	Tests []string
}

// detectKinds returns the kinds whose marker file exists in dir.
func detectKinds(dir string) []projectKind {
	var found []projectKind
	for _, k := range projectKinds {
		for _, m := range k.Markers {
			if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
				found = append(found, k)
				break
			}
		}
	}
	return found
}

// renderStarter renders the starter policy for the given kinds.
func renderStarter(kinds []projectKind) ([]byte, error) {
	s := starter{Name: "project", Kinds: "no language detected"}
	var names, exec []string
	for _, k := range kinds {
		names = append(names, k.Name)
		s.Read = append(s.Read, k.Read...)
		s.Write = append(s.Write, k.Write...)
		s.Tests = append(s.Tests, k.Tests...)
		exec = append(exec, k.Exec...)
	}
	if len(names) > 0 {
		s.Kinds = strings.Join(names, ", ")
	}
	if len(exec) > 0 {
		s.Exec = strings.Join(append([]string{"git", "make"}, exec...), ", ")
	}
	tmpl, err := template.ParseFS(templateFS, "templates/starter.yaml")
	if err != nil {
		return nil, fmt.Errorf("parse starter template: %w", err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, s); err != nil {
		return nil, fmt.Errorf("render starter template: %w", err)
	}
	return buf.Bytes(), nil
}

func newInitCmd() *cobra.Command {
	var project string
	var force, asJSON bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a starter .aixgate.yaml for this project",
		Long: `init writes a starter policy, .aixgate.yaml, into the project directory.

It looks for go.mod, package.json, pyproject.toml / requirements.txt / setup.py
and Cargo.toml, and lets the agent use the matching caches (~/go/pkg/mod,
~/.cache/go-build, ~/.npm, ~/.cache/pip, ~/.cargo/registry). The starter
extends the built-in profile "generic", keeps .env files redacted, and carries
a commented tests: section you can turn on.

An existing .aixgate.yaml is never overwritten unless you pass --force.`,
		Example: `  aixbroker init                      # in the project root
  aixbroker init --project ~/src/api  # somewhere else
  aixbroker init --force              # replace an existing .aixgate.yaml
  aixbroker policy check              # then check what init wrote`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runInit(cmd, project, force, asJSON)
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "project directory (default: the current directory)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing .aixgate.yaml")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// initResult is what init reports, as text or JSON.
type initResult struct {
	Path        string   `json:"path"`
	Kinds       []string `json:"kinds"`
	Overwritten bool     `json:"overwritten"`
}

func runInit(cmd *cobra.Command, project string, force, asJSON bool) error {
	dir, err := projectDir(project)
	if err != nil {
		return err
	}
	kinds := detectKinds(dir)
	body, err := renderStarter(kinds)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, policyFileName)
	existed, err := writePolicyFile(path, body, force)
	if err != nil {
		return err
	}
	res := initResult{Path: path, Kinds: []string{}, Overwritten: existed}
	for _, k := range kinds {
		res.Kinds = append(res.Kinds, k.Name)
	}
	if asJSON {
		return printJSON(cmd, res)
	}
	return printInit(cmd, res)
}

// writePolicyFile writes body to path. It refuses to replace an existing
// file unless force is set. A new file is created with O_EXCL and a
// replacement is renamed into place, so a symlink planted at path is never
// followed.
func writePolicyFile(path string, body []byte, force bool) (existed bool, err error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && !force:
		return true, fmt.Errorf("write %s: it already exists; keep it and run `aixbroker policy check`, or pass --force to replace it", path)
	case err == nil && fi.IsDir():
		return true, fmt.Errorf("write %s: it is a directory; remove it first", path)
	case err == nil:
		return true, replaceFile(path, body)
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return false, nil
}

// replaceFile writes body to a temporary file beside path and renames it
// over path.
func replaceFile(path string, body []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	_, err = f.Write(body)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func printInit(cmd *cobra.Command, res initResult) error {
	kinds := "no language detected: generic starter"
	if len(res.Kinds) > 0 {
		kinds = "detected " + strings.Join(res.Kinds, ", ")
	}
	verb := "wrote"
	if res.Overwritten {
		verb = "overwrote"
	}
	_, err := fmt.Fprintf(cmd.OutOrStdout(), `%s %s (%s)

Next:
  1. read it and adapt it: it extends the built-in profile "generic"
     (see it with: aixbroker profile show generic)
  2. aixbroker policy check       validate it and run its tests:
  3. aixbroker exec -- claude     run your agent under it
`, verb, res.Path, kinds)
	return err
}
