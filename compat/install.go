package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Install puts each agent's pinned npm package under prefix, the way a user
// runs `npm install -g`, with npm's download cache in cache. An agent whose
// pinned version is already there is left alone.
func Install(ctx context.Context, agents []Agent, prefix, cache string) error {
	for _, a := range agents {
		if a.Missing != "" {
			continue
		}
		if InstalledVersion(prefix, a) == a.Version {
			continue
		}
		cmd := exec.CommandContext(ctx, "npm", "install", "-g", "--no-fund", "--no-audit",
			"--prefix", prefix, "--cache", cache, a.Package+"@"+a.Version)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("npm install %s@%s: %w", a.Package, a.Version, err)
		}
		if got := InstalledVersion(prefix, a); got != a.Version {
			return fmt.Errorf("install %s: found version %q after npm install, want %s", a.Package, got, a.Version)
		}
	}
	return nil
}

// InstalledVersion reads the version of a's package under prefix, or "".
func InstalledVersion(prefix string, a Agent) string {
	data, err := os.ReadFile(filepath.Join(prefix, "lib", "node_modules", a.Package, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Version
}
