package fsops

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDenyInodesStale: a recorded file replaced by rename frees its inode
// number; a new file that gets the number is not denied, while the
// recorded file (and a hard link to it) still is.
func TestDenyInodesStale(t *testing.T) {
	dir := t.TempDir()
	secret, head := filepath.Join(dir, "secret"), filepath.Join(dir, "head")
	for _, p := range []string{secret, head} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d, err := NewDenyInodes([]string{secret, head})
	if err != nil {
		t.Fatal(err)
	}
	key := func(p string) (uint64, uint64) {
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil {
			t.Fatal(err)
		}
		return st.Dev, st.Ino
	}
	oldDev, oldIno := key(head)
	tmp := filepath.Join(dir, "head.tmp")
	if err := os.WriteFile(tmp, []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, head); err != nil {
		t.Fatal(err)
	}
	if d.Contains(oldDev, oldIno) {
		t.Error("the replaced file's old inode is still denied")
	}
	if err := os.Link(secret, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if !d.Contains(key(filepath.Join(dir, "link"))) {
		t.Error("a hard link to the recorded secret is not denied")
	}
}
