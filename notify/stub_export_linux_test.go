package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// TestStubFDNoSymlinks: the interposer's stub answers (issue 14 item 10)
// open the canonical path the broker decided on, and nothing else: a
// symlink anywhere on the way (a planted link to another project's .env,
// a directory link, the broker's own /proc/self) is refused, where it was
// followed with the broker's rights and served the other file's key names.
func TestStubFDNoSymlinks(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other-project")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{other, proj} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(other, ".env"), []byte("OTHER_SECRET_KEY=v\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".env"), []byte("MINE=v\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(other, ".env"), filepath.Join(proj, "link.env"))
	os.Symlink(other, filepath.Join(proj, "dirlink"))
	rule := policy.Rule{List: "redact", Pattern: "**/*.env"}
	for _, p := range []string{
		filepath.Join(proj, "link.env"),
		filepath.Join(proj, "dirlink", ".env"),
		"/proc/self/cwd/" + other + "/.env",
		"/proc/self/root" + other + "/.env",
	} {
		fd, _, err := StubFD(p, rule)
		if err == nil {
			b := make([]byte, 256)
			n, _ := unix.Read(fd, b)
			unix.Close(fd)
			t.Errorf("StubFD(%q) served %q; want an error", p, b[:max(n, 0)])
		}
	}
	fd, _, err := StubFD(filepath.Join(proj, ".env"), rule)
	if err != nil {
		t.Fatalf("StubFD of the canonical path: %v", err)
	}
	defer unix.Close(fd)
	b := make([]byte, 256)
	n, _ := unix.Read(fd, b)
	if !strings.Contains(string(b[:max(n, 0)]), "MINE") {
		t.Errorf("StubFD of the canonical path reads %q, want the view of MINE", b[:max(n, 0)])
	}
}
