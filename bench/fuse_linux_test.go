package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildFusepass compiles bench/cmd/fusepass into a temporary directory.
func buildFusepass(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain to build fusepass")
	}
	bin := filepath.Join(t.TempDir(), "fusepass")
	if out, err := exec.Command(goBin, "build", "-o", bin, "./cmd/fusepass").CombinedOutput(); err != nil {
		t.Fatalf("build fusepass: %v: %s", err, out)
	}
	return bin
}

func TestFuseSideSkips(t *testing.T) {
	tests := []struct {
		name, server string
		wantSkip     bool
	}{
		{"no server", "", true},
		{"a server", "/usr/local/bin/fusepass", os.Geteuid() != 0 && !haveFusermount()},
	}
	for _, tt := range tests {
		side := fuseSide(tt.server, "/tmp/x")
		if tt.server != "" && !canOpenFuse() {
			tt.wantSkip = true // /dev/fuse is missing or not ours (root-only here for other users)
		}
		if (side.Skip != "") != tt.wantSkip {
			t.Errorf("%s: skip %q, want skipped %v", tt.name, side.Skip, tt.wantSkip)
		}
		if side.Project != "/tmp/x/fuse" || !side.NoStartup {
			t.Errorf("%s: project %q, no startup %v; want /tmp/x/fuse, true", tt.name, side.Project, side.NoStartup)
		}
	}
}

// canOpenFuse reports whether this user may open /dev/fuse, as a mount needs.
func canOpenFuse() bool {
	f, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// TestFuseMount mounts the passthrough for real (root only: /dev/fuse is
// root's here and there is no fusermount3), in both modes, writes through
// it, and checks that stop takes the mount down even while it is busy.
func TestFuseMount(t *testing.T) {
	if side := fuseSide("fusepass", t.TempDir()); side.Skip != "" {
		t.Skip(side.Skip)
	}
	server := buildFusepass(t)
	for _, serverReads := range []bool{false, true} {
		t.Run(fmt.Sprintf("server reads %v", serverReads), func(t *testing.T) {
			testFuseMount(t, server, serverReads)
		})
	}
}

func testFuseMount(t *testing.T, server string, serverReads bool) {
	root := t.TempDir()
	side := fuseSide(server, root)
	src := filepath.Join(root, "project")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "a"), []byte("native"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mountFuse(context.Background(), server, src, side.Project, serverReads)
	if err != nil && strings.Contains(err.Error(), "operation not permitted") {
		t.Skipf("no mount(2) here (a container without CAP_SYS_ADMIN?): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			m.stop()
		}
	}()
	if !mounted(side.Project) {
		t.Fatalf("%s is not a mount point after mountFuse", side.Project)
	}
	if b, err := os.ReadFile(filepath.Join(side.Project, "a")); err != nil || string(b) != "native" {
		t.Errorf("native file read through the mount: %q, %v; want %q", b, err, "native")
	}
	if err := os.WriteFile(filepath.Join(side.Project, "b"), []byte("fuse"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(src, "b")); err != nil || string(b) != "fuse" {
		t.Errorf("written through the mount, read natively: %q, %v; want %q", b, err, "fuse")
	}
	if out, err := exec.Command(side.Exec).CombinedOutput(); err != nil {
		t.Errorf("exec %s on the mount: %v: %s", side.Exec, err, out)
	}
	// A process still inside the mount: the unmount must not wait for it.
	busy := exec.Command("sleep", "30")
	busy.Dir = side.Project
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = busy.Process.Kill(); _ = busy.Wait() }()
	kb := m.stop()
	stopped = true
	if mounted(side.Project) {
		t.Errorf("%s still mounted after stop", side.Project)
	}
	if kb <= 0 {
		t.Errorf("server peak RSS %d KiB, want > 0", kb)
	}
}
