package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/internal/doctor"
	"github.com/aixbroker/aixbroker/interposer"
)

// The seccomp probe child: `aixbroker __aixbroker_doctor_probe__` installs a
// filter it cannot remove, so doctor runs it as a separate process.
func init() { doctor.MaybeProbe() }

func platformChecks() []doctor.Check {
	return doctor.Linux(doctor.Env{AuditPath: defaultAuditPath(), Interposer: loadInterposer})
}

// defaultAuditPath is where exec writes the log without --audit or a
// policy's audit.log.
func defaultAuditPath() string {
	dir, err := audit.DefaultConfigDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "aixgate-unknown", "audit.jsonl")
	}
	cfg, err := audit.LoadConfig(dir)
	if err != nil || cfg.Path == "" {
		return filepath.Join(dir, "audit.jsonl")
	}
	return cfg.Path
}

// loadInterposer writes the embedded library and preloads it into
// /bin/true: the dynamic loader says so on stderr when it cannot.
func loadInterposer() error {
	in, err := interposer.New("")
	if err != nil {
		if errors.Is(err, interposer.ErrUnavailable) {
			return doctor.ErrNotBuilt
		}
		return err
	}
	defer in.Remove()
	var stderr bytes.Buffer
	cmd := exec.Command("/bin/true")
	cmd.Env = []string{"LD_PRELOAD=" + in.Lib, "PATH=/usr/bin:/bin"}
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("run /bin/true with the library: %w", err)
	}
	if msg := strings.TrimSpace(stderr.String()); strings.Contains(msg, "LD_PRELOAD") || strings.Contains(msg, "ld.so") {
		return fmt.Errorf("preload the library: %s", msg)
	}
	return nil
}
