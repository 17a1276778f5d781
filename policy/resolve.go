package policy

import (
	"fmt"
	"os"
	"path/filepath"
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
//  1. PolicyFile (--policy), which must exist;
//  2. ProjectDir/.aixgate.yaml, if it exists. Only the project directory
//     itself is searched, never its parents: a file in a parent folder is not
//     the project's policy, and searching upwards would let a file planted
//     above the project govern it;
//  3. ProfileName (--profile): a built-in profile, else
//     ConfigDir/profiles/NAME.yaml;
//  4. the built-in profile of AgentCommand (see ProfileForCommand);
//  5. the generic profile.
//
// The extends chain is merged (see LoadFile) and Policy.Origin says which
// step chose it, e.g. "project file /p/.aixgate.yaml" or
// "profile claude-code (from command claude)".
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
			p, err := LoadFile(path, opts.ConfigDir)
			return p, "project file " + path, err
		}
	}
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
