package policy

import (
	"fmt"
	"os"
	"path/filepath"
)

// ConfigDirName is the name of aixbroker's directory in the home directory.
const ConfigDirName = ".aixgate"

// HostVars returns the variables for a session in project on this host:
// the home directory, os.TempDir() and ~/.aixgate, each made absolute and
// canonical (symlinks resolved where the path exists), as decisions are
// taken on canonical paths. Unlike the rest of the package it reads the
// environment and the filesystem; it is meant for the CLI.
func HostVars(project string) (Vars, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Vars{}, fmt.Errorf("find home directory: %w", err)
	}
	v := Vars{Project: project, Home: home, TmpDir: os.TempDir(), ConfigDir: filepath.Join(home, ConfigDirName)}
	for _, p := range []*string{&v.Project, &v.Home, &v.TmpDir, &v.ConfigDir} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return Vars{}, fmt.Errorf("resolve %s: %w", *p, err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		*p = abs
	}
	return v, nil
}
