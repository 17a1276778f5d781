//go:build unix && !linux

package audit

import (
	"errors"
	"syscall"
)

// SelfIdentity is unknown here (see the Linux version).
func SelfIdentity() (pidStart uint64, bootID string) { return 0, "" }

// processRunning reports whether pid is alive (the start time cannot be
// checked here: a reused pid counts as running).
func processRunning(pid int, _ uint64, _ string) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
