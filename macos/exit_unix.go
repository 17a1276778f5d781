//go:build unix

package macos

import (
	"os"
	"syscall"
)

// exitStatus is the shell's convention: the exit code, or 128+signal.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
