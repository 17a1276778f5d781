// Package landlock applies aixbroker's Landlock backstop to the calling
// process: read access below the read roots, read-write below the write
// roots, EXECUTE only below the exec roots, device ioctls on the terminal,
// and (ABI 6) scoping of signals and abstract unix sockets so the sandbox
// cannot reach the broker. It wraps go-landlock and checks the kernel's ABI
// itself, because go-landlock's best-effort mode succeeds even with no
// Landlock at all.
//
// Landlock is the backstop, not the decision: descriptors the broker opens
// and injects carry the broker's rights, so the broker's decision is the
// only check on them. Landlock bounds what the agent reaches without the
// broker: exec, and any syscall the filter lets through.
package landlock

import "errors"

// MinABI is the Landlock ABI aixbroker needs: 5 for IOCTL_DEV (so the
// terminal keeps working while other device ioctls are refused) and 6 for
// signal and abstract-socket scoping.
const MinABI = 6

// Roots are the directories (or files) each kind of access is granted
// below. Paths that do not exist are skipped.
type Roots struct {
	Read  []string
	Write []string
	Exec  []string
}

// ErrDegraded means the kernel's Landlock ABI is below MinABI (or Landlock
// is disabled) and degraded mode was not allowed.
var ErrDegraded = errors.New("landlock ABI too old")
