package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ResolveOptions say where a session's policy may come from.
type ResolveOptions struct {
	PolicyFile   string // --policy: an explicit file, used as is
	ProjectDir   string // the project; only ProjectDir/.aixgate.yaml is considered
	ProfileName  string // --profile: a built-in or user profile name
	AgentCommand string // argv[0] of the agent, to pick its built-in profile
	ConfigDir    string // ~/.aixgate: user profiles live in ConfigDir/profiles
}

// Resolve finds and loads the policy of a session, first match wins:
//
//  1. PolicyFile (--policy), which must exist: the user's deliberate
//     choice, used as is;
//  2. ProjectDir/.aixgate.yaml, if it exists, merged over a base profile
//     (see below). Only the project directory itself is searched, never its
//     parents: a file in a parent folder is not the project's policy, and
//     searching upwards would let a file planted above the project govern
//     it;
//  3. ProfileName (--profile): a built-in profile, else
//     ConfigDir/profiles/NAME.yaml;
//  4. the built-in profile of AgentCommand (see ProfileForCommand);
//  5. the generic profile.
//
// A project file comes with the code the agent works on, so it is not
// fully trusted. Its extends chain is merged over a base, as if the chain
// ended in it: ProfileName if set, else the profile of AgentCommand, else
// generic (not twice when the chain already holds it). So it can add rules
// but never drop a deny of the base, and `exec -- claude` gets claude-code's
// rules whatever the file extends. A project file (or a file it extends)
// may not set default: allow nor unix.datagram: allow (each reopens
// everything at once); it may list sockets in unix.connect, one by one.
//
// The extends chain is merged (see LoadFile) and Policy.Origin says which
// step chose it, e.g. "project file /p/.aixgate.yaml over profile
// claude-code (from command claude)" or "profile claude-code (from command
// claude)".
func Resolve(opts ResolveOptions) (*Policy, error) {
	p, origin, err := resolve(opts)
	if err != nil {
		return nil, err
	}
	p.Origin = origin
	return p, nil
}

func resolve(opts ResolveOptions) (*Policy, string, error) {
	if opts.PolicyFile != "" {
		p, err := LoadFile(opts.PolicyFile, opts.ConfigDir)
		return p, "policy file " + opts.PolicyFile + " (--policy)", err
	}
	if opts.ProjectDir != "" {
		path, ok, err := projectFile(opts.ProjectDir)
		if err != nil {
			return nil, "", err
		}
		if ok {
			return projectPolicy(path, opts)
		}
	}
	return baseProfile(opts)
}

// baseProfile loads the profile steps 3 to 5 of Resolve choose.
func baseProfile(opts ResolveOptions) (*Policy, string, error) {
	if opts.ProfileName != "" {
		p, err := loadNamedProfile(opts.ProfileName, opts.ConfigDir)
		return p, "profile " + opts.ProfileName + " (--profile)", err
	}
	if name, ok := ProfileForCommand(opts.AgentCommand); ok {
		p, err := LoadProfile(name)
		return p, fmt.Sprintf("profile %s (from command %s)", name, filepath.Base(opts.AgentCommand)), err
	}
	p, err := LoadProfile(GenericProfile)
	return p, "profile " + GenericProfile + " (default)", err
}

// projectPolicy loads the project file at path and merges it over the base
// profile. The chain is the project file's chain, then the base's.
func projectPolicy(path string, opts ResolveOptions) (*Policy, string, error) {
	p, err := LoadFile(path, opts.ConfigDir)
	if err != nil {
		return nil, "", err
	}
	if p.DefaultAction() == Allow {
		s := p.DefaultSource
		return nil, "", &Error{File: s.File, Line: s.Line, Column: s.Column,
			Msg: "a project file cannot set default: allow; pass --policy FILE to use it deliberately"}
	}
	if p.Unix.Datagram == Allow {
		s := p.Unix.DatagramSource
		return nil, "", &Error{File: s.File, Line: s.Line, Column: s.Column,
			Msg: "a project file cannot set unix.datagram: allow; pass --policy FILE to use it deliberately"}
	}
	if p.SysVAllowed() {
		s := p.IPC.SysVSource
		return nil, "", &Error{File: s.File, Line: s.Line, Column: s.Column,
			Msg: "a project file cannot set ipc.sysv: allow; pass --policy FILE to use it deliberately"}
	}
	base, origin, err := baseProfile(opts)
	if err != nil {
		return nil, "", err
	}
	origin = "project file " + path + " over " + origin
	if slices.Contains(p.Chain, base.File) {
		return p, origin, nil
	}
	m := Merge(base, p)
	m.Chain = append(append([]string{}, p.Chain...), base.Chain...)
	return m, origin, nil
}

// loadNamedProfile loads a built-in profile or, failing that, the user's
// ConfigDir/profiles/NAME.yaml. Built-in names cannot be shadowed.
func loadNamedProfile(name, configDir string) (*Policy, error) {
	if _, err := ProfileSource(name); err == nil {
		return LoadProfile(name)
	}
	if isProfileName(name) && configDir != "" {
		path := filepath.Join(configDir, "profiles", name+".yaml")
		if _, err := os.Stat(path); err == nil {
			return LoadFile(path, configDir)
		}
	}
	return nil, fmt.Errorf("load profile %q: %w%s", name, ErrUnknownProfile, suggest(name, ProfileNames()))
}
