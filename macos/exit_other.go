//go:build !unix

package macos

import "os"

// exitStatus is the process's exit code.
func exitStatus(ps *os.ProcessState) int { return ps.ExitCode() }
