//go:build unix

package audit

import "golang.org/x/sys/unix"

// errFileTooLarge is the error of a write past RLIMIT_FSIZE.
var errFileTooLarge error = unix.EFBIG

// raiseFileSizeLimit raises this process's soft RLIMIT_FSIZE to its hard
// limit and reports whether it was lower (a process may always do this).
func raiseFileSizeLimit() bool {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_FSIZE, &lim) != nil || lim.Cur >= lim.Max {
		return false
	}
	lim.Cur = lim.Max
	return unix.Setrlimit(unix.RLIMIT_FSIZE, &lim) == nil
}
