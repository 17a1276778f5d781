package fsops

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwappedDirectoryCannotRedirect races a sibling that keeps exchanging
// a directory with a symlink to an outside directory while the broker
// resolves, "decides" (only the inside directory is allowed) and unlinks or
// renames. The outside file must never be touched: the operation acts on
// the parent descriptor that was decided on, never on the path again.
func TestSwappedDirectoryCannotRedirect(t *testing.T) {
	base := t.TempDir()
	real, _ := filepath.EvalSymlinks(base)
	inside, outside := filepath.Join(real, "proj", "dir"), filepath.Join(real, "outside")
	for _, d := range []string{inside, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", filepath.Join(real, "proj", "sym")); err != nil {
		t.Fatal(err)
	}
	var before unix.Stat_t
	if err := unix.Stat(victim, &before); err != nil {
		t.Fatal(err)
	}

	projfd := openDir(t, filepath.Join(real, "proj"))
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			_ = unix.Renameat2(projfd, "dir", projfd, "sym", unix.RENAME_EXCHANGE)
		}
	}()

	tg := hostTarget()
	var acted, refused int
	for i := range 3000 {
		name := "dir/victim"
		// Recreate the victim where "dir" really is now, if it is the directory.
		_ = os.WriteFile(filepath.Join(inside, "victim"), nil, 0o644)
		err := withParent(tg, projfd, name, func(p Parent) error {
			if p.Dir != inside && p.Dir != filepath.Join(real, "proj", "sym") {
				refused++ // the policy would refuse: it is not the project directory
				return nil
			}
			acted++
			if i%2 == 0 {
				return Unlink(p, 0)
			}
			return Rename(p, Parent{FD: p.FD, Name: "renamed", Dir: p.Dir}, 0)
		})
		_ = err
	}
	stop.Store(true)
	<-done

	var after unix.Stat_t
	if err := unix.Stat(victim, &after); err != nil {
		t.Fatalf("the outside file was touched: %v", err)
	}
	if after.Ino != before.Ino {
		t.Fatalf("the outside file was replaced")
	}
	if _, err := os.Stat(filepath.Join(outside, "renamed")); err == nil {
		t.Fatal("a rename landed outside")
	}
	t.Logf("acted %d, refused %d", acted, refused)
	if acted == 0 {
		t.Fatal("the race never let an operation through: the test proved nothing")
	}
}

// TestHardLinkToDeniedFile: a hard link made before the session to a
// denied file is recognised by inode, and so is a symlink's target.
func TestHardLinkToDeniedFile(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	secret := filepath.Join(home, "id_rsa")
	if err := os.WriteFile(secret, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(secret, filepath.Join(proj, "innocent")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "other"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	aliased := filepath.Join(home, "alias")
	if err := os.Symlink("target", aliased); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "target"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	deny, err := NewDenyInodes([]string{secret, aliased, filepath.Join(home, "missing")})
	if err != nil {
		t.Fatal(err)
	}
	if deny.Len() != 3 {
		t.Errorf("deny set has %d inodes, want 3 (secret, symlink, its target)", deny.Len())
	}
	tests := []struct {
		path string
		want bool
	}{
		{filepath.Join(proj, "innocent"), true},
		{filepath.Join(proj, "other"), false},
		{filepath.Join(home, "target"), true},
	}
	for _, tt := range tests {
		f, err := hostTarget().ResolveFile(-1, tt.path, false, false)
		if err != nil {
			t.Fatal(err)
		}
		dev, ino, err := InodeKey(f.FD)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := deny.Contains(dev, ino); got != tt.want {
			t.Errorf("Contains(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestUnprivilegedSuite reruns the kernel-comparison and credential tests
// as the unprivileged user nobody (the common deployment: the broker runs
// as the agent's user).
func TestUnprivilegedSuite(t *testing.T) {
	requireRoot(t)
	if os.Getenv("FSOPS_UNPRIVILEGED") != "" {
		t.Skip("already unprivileged")
	}
	dir, err := os.MkdirTemp("", "fsops-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fsops.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run",
		"TestOpsMatchKernel|TestResolve|TestProcSelf|TestCanonical|TestAsCaller|TestSwapped|TestHardLink|TestRenameCross",
		"-test.count=1", "-test.v")
	cmd.Env = []string{"FSOPS_UNPRIVILEGED=1", "TMPDIR=" + os.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nogroup}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("suite as nobody failed: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
}
