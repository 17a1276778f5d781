package audit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var errENOSPC = unix.ENOSPC

func platformFailCases() []failCase {
	return []failCase{
		{"full tmpfs (ENOSPC, root)", func(t *testing.T, cfg *Config) (func(), error) {
			if os.Geteuid() != 0 {
				t.Skip("mounting a tmpfs needs root")
			}
			dir := t.TempDir()
			if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
				t.Skipf("mount tmpfs: %v", err)
			}
			t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
			cfg.Path = filepath.Join(dir, "audit.jsonl")
			return func() {}, unix.ENOSPC
		}},
	}
}

// TestWriterFileSizeLimit: under RLIMIT_FSIZE the writer gets EFBIG (Go's
// runtime catches SIGXFSZ and does nothing, so the write fails instead of
// the process dying) and fails closed. The limit applies to the whole
// process, so the test runs in a child.
func TestWriterFileSizeLimit(t *testing.T) {
	if os.Getenv("AUDIT_FSIZE_CHILD") != "" {
		lim := unix.Rlimit{Cur: 16 << 10, Max: 16 << 10}
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		checkFailsClosed(t, failCase{"rlimit", func(t *testing.T, cfg *Config) (func(), error) {
			return func() {}, unix.EFBIG
		}})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterFileSizeLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "AUDIT_FSIZE_CHILD=1")
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("child hung")
	}
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
