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
// the process dying) and fails closed; with only the soft limit lowered it
// raises it back to the hard one and goes on. The limit applies to the whole
// process, so the test runs in a child.
func TestWriterFileSizeLimit(t *testing.T) {
	if os.Getenv("AUDIT_FSIZE_SOFT_CHILD") != "" {
		// Only the soft limit lowered: the writer raises it back and
		// goes on.
		lim := unix.Rlimit{Cur: 16 << 10, Max: unix.RLIM_INFINITY}
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
		w, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 1000 { // about 300 KB
			if err := w.WriteSync(testEvent("S", i)); err != nil {
				t.Fatalf("WriteSync %d under a lowered soft limit: %v", i, err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := VerifyLog(cfg.Path, nil); err != nil {
			t.Fatal(err)
		}
		return
	}
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
	for _, env := range []string{"AUDIT_FSIZE_CHILD=1", "AUDIT_FSIZE_SOFT_CHILD=1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterFileSizeLimit$", "-test.v")
		cmd.Env = append(os.Environ(), env)
		done := make(chan struct{})
		var out []byte
		var err error
		go func() { out, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: child hung", env)
		}
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%s: child: %v\n%s", env, err, out)
		}
	}
}
