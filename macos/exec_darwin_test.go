package macos

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// TestRunOnMacOS runs the real sandbox-exec: a file the policy allows is
// read, one it denies is not, and a write outside allow_write fails. On
// macOS sandbox-exec must exist, so a missing one fails the test.
func TestRunOnMacOS(t *testing.T) {
	if _, err := os.Stat(DefaultSandboxExec); err != nil {
		t.Fatalf("%s: %v (macOS ships it; docs/macos.md)", DefaultSandboxExec, err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ok.txt", "secret.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src := "profile: mac\ndefault: deny\nfilesystem:\n  allow_read: [/usr/**, /bin/**, '" + dir + "/**']\n  deny: ['" + dir + "/secret.txt']\n"
	p, err := policy.Parse("mac.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(p, policy.Vars{Home: "/var/empty", Project: dir, TmpDir: dir, ConfigDir: filepath.Join(dir, ".aixgate")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		argv []string
		want int
	}{
		{argv: []string{"/bin/cat", filepath.Join(dir, "ok.txt")}, want: 0},
		{argv: []string{"/bin/cat", filepath.Join(dir, "secret.txt")}, want: 1},
		{argv: []string{"/usr/bin/touch", filepath.Join(dir, "new.txt")}, want: 1},
	}
	for _, tt := range tests {
		status, err := Run(context.Background(), Config{Argv: tt.argv, Env: []string{"PATH=/usr/bin:/bin"}, Engine: eng})
		if err != nil || status != tt.want {
			t.Errorf("Run(%q) = %d, %v; want status %d", tt.argv, status, err, tt.want)
		}
	}
}
