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

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newInitCmd) }

// policyFileName is the project-local policy that exec, check and explain
// pick up from the project directory.
const policyFileName = policy.ProjectFileName

//go:embed templates/*.yaml
var templateFS embed.FS

// projectKind is one language ecosystem init knows about: the files that
// mark it and what its tool chain needs outside the project.
type projectKind struct {
	Name    string   // shown to the user: "Go", "Node.js"
	Markers []string // any of these in the project dir selects the kind
	Read    []string // caches the agent may read
	Write   []string // caches the agent may read and write
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
		Tests:   []string{"{ path: ~/.cache/go-build/00/x, op: write, want: allow }"},
	},
	{
		Name:    "Node.js",
		Markers: []string{"package.json"},
		Write:   []string{"~/.npm/**"},
		Tests:   []string{"{ path: ~/.npmrc, op: read, want: deny }"},
	},
	{
		Name:    "Python",
		Markers: []string{"pyproject.toml", "requirements.txt", "setup.py"},
		Write:   []string{"~/.cache/pip/**"},
		Tests:   []string{"{ path: ~/.cache/pip/http/x, op: write, want: allow }"},
	},
	{
		Name:    "Rust",
		Markers: []string{"Cargo.toml"},
		Write:   []string{"~/.cargo/registry/**", "~/.cargo/git/**"},
		Tests:   []string{"{ path: ~/.cargo/credentials.toml, op: read, want: deny }"},
	},
}

// starter is what the template is rendered with.
type starter struct {
	Name    string // the profile name written in the file
	Extends string // the profile it extends
	ShowPad string // spaces that align the comment after "profile show NAME"
	Kinds   string // "Go, Node.js" or "no language detected"
	Read    []string
	Write   []string
	Tests   []string
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
func renderStarter(kinds []projectKind, extends string) ([]byte, error) {
	s := starter{Name: "project", Extends: extends, Kinds: "no language detected"}
	s.ShowPad = strings.Repeat(" ", max(1, 13-len(extends)))
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
		s.Read = append(s.Read, k.Read...)
		s.Write = append(s.Write, k.Write...)
		s.Tests = append(s.Tests, k.Tests...)
	}
	if len(names) > 0 {
		s.Kinds = strings.Join(names, ", ")
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

// initOptions are the flags of init.
type initOptions struct {
	Project string
	Extends string
	Force   bool
	JSON    bool
}

func newInitCmd() *cobra.Command {
	var o initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a starter .aixgate.yaml for this project",
		Long: `init writes a starter policy, .aixgate.yaml, into the project directory.

It looks for go.mod, package.json, pyproject.toml / requirements.txt / setup.py
and Cargo.toml, and lets the agent use the matching caches (~/go/pkg/mod,
~/.cache/go-build, ~/.npm, ~/.cache/pip, ~/.cargo/registry). The starter
extends the built-in profile "generic" (or the profile given with --extends),
keeps .env files redacted, and carries a commented tests: section to turn on.

"aixbroker exec -- claude" merges the project's .aixgate.yaml over the
agent's built-in profile (claude-code, codex, ...), so the starter need not
name the agent: it extends generic, and Claude Code keeps its ~/.claude.
The file comes with the code, so it cannot drop a rule of that profile, nor
set default: allow.

An existing .aixgate.yaml is never overwritten unless you pass --force.`,
		Example: `  aixbroker init                          # in the project root
  aixbroker init --extends my-team        # build on a profile of ~/.aixgate/profiles
  aixbroker init --project ~/src/api      # somewhere else
  aixbroker init --force                  # replace an existing .aixgate.yaml
  aixbroker policy check                  # then check what init wrote`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runInit(cmd, o) },
	}
	cmd.Flags().StringVar(&o.Project, "project", "", "project `dir`ectory (default: the current directory)")
	cmd.Flags().StringVar(&o.Extends, "extends", policy.GenericProfile, "the profile `name` the starter extends")
	cmd.Flags().BoolVar(&o.Force, "force", false, "overwrite an existing .aixgate.yaml")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the result as JSON")
	return cmd
}

// initResult is what init reports, as text or JSON.
type initResult struct {
	Path        string   `json:"path"`
	Kinds       []string `json:"kinds"`
	Extends     string   `json:"extends"`
	Overwritten bool     `json:"overwritten"`
}

func runInit(cmd *cobra.Command, o initOptions) error {
	dir, err := projectDir(o.Project)
	if err != nil {
		return err
	}
	if err := checkExtends(o.Extends); err != nil {
		return err
	}
	kinds := detectKinds(dir)
	body, err := renderStarter(kinds, o.Extends)
	if err != nil {
		return err
	}
	if _, err := policy.Parse(policyFileName, body); err != nil {
		return fmt.Errorf("render starter policy: %w (a bug: please report it)", err)
	}
	path := filepath.Join(dir, policyFileName)
	existed, err := writePolicyFile(path, body, o.Force)
	if err != nil {
		return err
	}
	res := initResult{Path: path, Kinds: []string{}, Extends: o.Extends, Overwritten: existed}
	for _, k := range kinds {
		res.Kinds = append(res.Kinds, k.Name)
	}
	if o.JSON {
		return printJSON(cmd, res)
	}
	return printInit(cmd, res)
}

// checkExtends accepts the name of a built-in profile or of a user profile
// in the configuration directory.
func checkExtends(name string) error {
	if _, err := policy.ProfileSource(name); err == nil {
		return nil
	}
	if !validProfileName(name) {
		return fmt.Errorf("init --extends %q: not a profile name; see `aixbroker profile list`", name)
	}
	home, err := homeDir()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(configDir(home), "profiles", name+".yaml")); err != nil {
		return fmt.Errorf("init --extends %s: %w; see `aixbroker profile list`", name, policy.ErrUnknownProfile)
	}
	return nil
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
	hint := `
     exec merges it over the agent's own profile (claude-code for claude, ...)`
	verb := "wrote"
	if res.Overwritten {
		verb = "overwrote"
	}
	_, err := fmt.Fprintf(cmd.OutOrStdout(), `%s %s (%s)

Next:
  1. read it and adapt it: it extends the profile %q
     (see it with: aixbroker profile show %s)%s
  2. aixbroker policy check       validate it and run its tests:
  3. aixbroker exec -- claude     run your agent under it
`, verb, res.Path, kinds, res.Extends, res.Extends, hint)
	return err
}
