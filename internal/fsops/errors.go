package fsops

import "errors"

// ErrNotSupported is returned on platforms without the Linux syscalls this
// package is built on (openat2 needs Linux 5.6).
var ErrNotSupported = errors.New("fsops: not supported on this platform (needs Linux >= 5.6)")

// ErrBrokerProc is returned when a path resolves into the broker's own /proc
// entries instead of the target's.
var ErrBrokerProc = errors.New("path resolves into the broker's own /proc entry")

// ErrOutsideRoot is returned when a relative path starts from a directory
// that is not below the target's root (a descriptor opened before chroot):
// the kernel's answer cannot be reproduced safely, so the broker refuses.
var ErrOutsideRoot = errors.New("starting directory is outside the target's root")

// ErrCreds is returned when the broker cannot take on the caller's
// credentials exactly (an unprivileged broker and a caller with other
// groups): the operation is refused rather than run with more rights.
var ErrCreds = errors.New("cannot act with the caller's credentials")
