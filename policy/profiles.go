package policy

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// builtinProfiles are the embedded profiles, one file per profile.
//
//go:embed profiles/*.yaml
var builtinProfiles embed.FS

// GenericProfile is the profile used when nothing else applies.
const GenericProfile = "generic"

// commandProfiles maps an agent command's basename to its built-in profile.
var commandProfiles = map[string]string{
	"claude":       "claude-code",
	"codex":        "codex",
	"gemini":       "gemini",
	"opencode":     "opencode",
	"cursor-agent": "cursor",
	"aider":        "aider",
}

// ProfileNames lists the built-in profiles, sorted.
func ProfileNames() []string {
	entries, err := fs.ReadDir(builtinProfiles, "profiles")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// ProfileSource returns the YAML text of a built-in profile, as embedded.
func ProfileSource(name string) ([]byte, error) {
	name = strings.TrimPrefix(name, "defaults/")
	if !isProfileName(name) {
		return nil, fmt.Errorf("read profile %q: %w", name, ErrUnknownProfile)
	}
	data, err := builtinProfiles.ReadFile(path.Join("profiles", name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("read profile %q: %w%s", name, ErrUnknownProfile, suggest(name, ProfileNames()))
	}
	return data, nil
}

// ProfileForCommand returns the built-in profile for an agent command
// (argv[0], a path or a basename): claude → claude-code, codex, gemini,
// opencode, cursor-agent → cursor, aider. ok is false for anything else.
func ProfileForCommand(argv0 string) (name string, ok bool) {
	name, ok = commandProfiles[path.Base(argv0)]
	return name, ok
}
