package landlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// childEnv makes the test binary restrict itself (Landlock cannot be undone,
// so it happens in a re-executed child) and report what it could open.
const childEnv = "AIXBROKER_LANDLOCK_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(child(dir))
	}
	os.Exit(m.Run())
}

// child restricts its thread to reading below dir and tries three opens.
func child(dir string) int {
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Println("nnp:", err)
		return 1
	}
	if _, err := Restrict(Roots{Read: []string{dir}}, false); err != nil {
		fmt.Println("restrict:", err)
		return 1
	}
	for _, p := range []string{filepath.Join(dir, "inside"), "/etc/hostname"} {
		fd, err := unix.Open(p, unix.O_RDONLY, 0)
		fmt.Printf("read %s: %v\n", filepath.Base(p), errName(err))
		if err == nil {
			unix.Close(fd)
		}
	}
	fd, err := unix.Open(filepath.Join(dir, "inside"), unix.O_WRONLY, 0)
	fmt.Printf("write inside: %v\n", errName(err))
	if err == nil {
		unix.Close(fd)
	}
	return 0
}

func errName(err error) string {
	var e unix.Errno
	if errors.As(err, &e) {
		return unix.ErrnoName(e)
	}
	if err != nil {
		return err.Error()
	}
	return "ok"
}

func TestABI(t *testing.T) {
	if ABI() < MinABI {
		t.Fatalf("Landlock ABI %d, want at least %d: this kernel (6.18) has it", ABI(), MinABI)
	}
}

func TestRestrictInChild(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "inside"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, want := range []string{"read inside: ok", "read hostname: EACCES", "write inside: EACCES"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("child output %q, want %q", out, want)
		}
	}
}
