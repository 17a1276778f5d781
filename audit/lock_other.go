//go:build !unix

package audit

import (
	"errors"
	"fmt"
	"os"
)

// ErrNotSupported is returned where the platform has no flock(2).
var ErrNotSupported = errors.New("not supported on this platform")

func flock(f *os.File, _ bool) error {
	return fmt.Errorf("lock audit log %s: flock: %w (needs a unix system)", f.Name(), ErrNotSupported)
}

func funlock(*os.File) error { return nil }
