package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxExtendsDepth bounds an extends chain.
const maxExtendsDepth = 16

// ProjectFileName is the project policy file Resolve looks for.
const ProjectFileName = ".aixgate.yaml"

// LoadFile reads the policy file at path and merges its extends chain.
// configDir (normally ~/.aixgate, may be empty) is where user profiles live:
// "extends: NAME" names a built-in profile or configDir/profiles/NAME.yaml.
func LoadFile(path, configDir string) (*Policy, error) {
	l := &loader{configDir: configDir}
	return l.file(path, Source{})
}

// LoadProfile returns the built-in profile name merged with its extends
// chain. A "defaults/" prefix is accepted ("defaults/generic" is "generic").
func LoadProfile(name string) (*Policy, error) {
	l := &loader{}
	return l.builtin(name, Source{})
}

// loader follows extends chains, detecting cycles.
type loader struct {
	configDir string
	stack     []string // identities being loaded, outermost first
}

func (l *loader) builtin(name string, from Source) (*Policy, error) {
	name = strings.TrimPrefix(name, "defaults/")
	data, err := ProfileSource(name)
	if err != nil {
		return nil, locate(from, err)
	}
	return l.load("builtin:"+name, data, "", from)
}

func (l *loader) file(path string, from Source) (*Policy, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, locate(from, fmt.Errorf("load policy %s: %w", path, err))
	}
	data, err := readPolicyFile(abs)
	if err != nil {
		return nil, locate(from, err)
	}
	return l.load(abs, data, filepath.Dir(abs), from)
}

// readPolicyFile reads a regular file of at most MaxPolicySize bytes: a
// policy naming /dev/zero or a FIFO in extends must not hang the loader.
func readPolicyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("load policy %s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxPolicySize+1))
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	return data, nil
}

// load parses one file and merges it over its parent. dir is the directory
// relative extends paths start from ("" for a built-in profile).
func (l *loader) load(id string, data []byte, dir string, from Source) (*Policy, error) {
	for i, s := range l.stack {
		if s == id {
			chain := append(append([]string{}, l.stack[i:]...), id)
			return nil, locate(from, fmt.Errorf("extends cycle: %s", strings.Join(chain, " → ")))
		}
	}
	if len(l.stack) >= maxExtendsDepth {
		return nil, locate(from, fmt.Errorf("extends chain deeper than %d: %s", maxExtendsDepth, strings.Join(l.stack, " → ")))
	}
	p, err := Parse(id, data)
	if err != nil {
		return nil, err
	}
	if p.Extends == "" {
		return p, nil
	}
	l.stack = append(l.stack, id)
	defer func() { l.stack = l.stack[:len(l.stack)-1] }()
	parent, err := l.extends(p.Extends, dir, p.ExtendsSource)
	if err != nil {
		return nil, err
	}
	return Merge(parent, p), nil
}

// extends finds what "extends: ref" names: a profile (built-in first, then
// the user's profile directory) or, when ref contains a slash or ends in
// .yaml, a file relative to the extending file.
func (l *loader) extends(ref, dir string, from Source) (*Policy, error) {
	name := strings.TrimPrefix(ref, "defaults/")
	if isProfileName(name) {
		if _, err := ProfileSource(name); err == nil {
			return l.builtin(name, from)
		}
		if l.configDir != "" {
			p := filepath.Join(l.configDir, "profiles", name+".yaml")
			if _, err := os.Stat(p); err == nil {
				return l.file(p, from)
			}
		}
		return nil, locate(from, fmt.Errorf("extends %s: %w%s", ref, ErrUnknownProfile, suggest(name, ProfileNames())))
	}
	if dir == "" {
		return nil, locate(from, fmt.Errorf("extends %s: a built-in profile can only extend profiles by name", ref))
	}
	if !filepath.IsAbs(ref) {
		ref = filepath.Join(dir, ref)
	}
	return l.file(ref, from)
}

// isProfileName reports whether ref names a profile rather than a file.
func isProfileName(ref string) bool {
	return ref != "" && !strings.ContainsAny(ref, `/\`) && !strings.HasSuffix(ref, ".yaml") &&
		!strings.HasSuffix(ref, ".yml") && ref != "." && ref != ".."
}

// locate attaches the location of the extends: that led to err.
func locate(from Source, err error) error {
	var pe *Error
	if from.File == "" || errors.As(err, &pe) {
		return err
	}
	return &Error{File: from.File, Line: from.Line, Column: from.Column, Msg: err.Error(), err: err}
}

// Merge returns child applied over parent: lists are the union (parent
// first, duplicates dropped), scalars set in the child win, inject maps are
// merged (child wins). Nothing a child writes removes a parent's deny.
func Merge(parent, child *Policy) *Policy {
	m := *child
	if m.Default == "" {
		m.Default, m.DefaultSource = parent.Default, parent.DefaultSource
	}
	m.Filesystem = Filesystem{
		AllowRead:  union(parent.Filesystem.AllowRead, child.Filesystem.AllowRead),
		AllowWrite: union(parent.Filesystem.AllowWrite, child.Filesystem.AllowWrite),
		ReadOnly:   union(parent.Filesystem.ReadOnly, child.Filesystem.ReadOnly),
		Redact:     union(parent.Filesystem.Redact, child.Filesystem.Redact),
		Deny:       union(parent.Filesystem.Deny, child.Filesystem.Deny),
	}
	m.Exec = Exec{
		Allow:    union(parent.Exec.Allow, child.Exec.Allow),
		Deny:     union(parent.Exec.Deny, child.Exec.Deny),
		DenyArgs: union(parent.Exec.DenyArgs, child.Exec.DenyArgs),
	}
	m.Env = Env{
		PassThrough: union(parent.Env.PassThrough, child.Env.PassThrough),
		Strip:       union(parent.Env.Strip, child.Env.Strip),
		Inject:      mergeInject(parent.Env.Inject, child.Env.Inject),
	}
	m.Unix = mergeUnix(parent.Unix, child.Unix)
	m.IPC = mergeIPC(parent.IPC, child.IPC)
	m.Audit = parent.Audit
	if child.Audit.Log != "" {
		m.Audit.Log = child.Audit.Log
	}
	if child.Audit.OnDeny != "" {
		m.Audit.OnDeny = child.Audit.OnDeny
	}
	if child.Audit.OnAllow != "" {
		m.Audit.OnAllow = child.Audit.OnAllow
	}
	m.Tests = append(append([]Test{}, parent.Tests...), child.Tests...)
	m.Chain = append([]string{child.File}, parent.Chain...)
	return &m
}

func union(parent, child []Rule) []Rule {
	out := make([]Rule, 0, len(parent)+len(child))
	seen := map[[5]string]bool{}
	for _, r := range append(append([]Rule{}, parent...), child...) {
		k := [5]string{r.List, r.Command, r.Pattern, r.Mode, string(r.Errno)}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func mergeInject(parent, child []Inject) []Inject {
	out := make([]Inject, 0, len(parent)+len(child))
	for _, in := range append(append([]Inject{}, parent...), child...) {
		replaced := false
		for i := range out {
			if out[i].Name == in.Name {
				out[i], replaced = in, true
			}
		}
		if !replaced {
			out = append(out, in)
		}
	}
	return out
}

// projectFile returns the path of the project's policy file and whether it exists.
func projectFile(dir string) (string, bool, error) {
	p := filepath.Join(dir, ProjectFileName)
	_, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("find project policy: %w", err)
	}
	return p, true, nil
}
