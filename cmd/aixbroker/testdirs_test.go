package main

import (
	"os"
	"path/filepath"
	"testing"
)

// e2eParent is where fake homes go: not under /tmp or /var/tmp, which the
// profiles allow, or the fake home would be reachable through that rule.
func e2eParent(t *testing.T) string {
	t.Helper()
	dir := "/srv"
	if os.Geteuid() != 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
