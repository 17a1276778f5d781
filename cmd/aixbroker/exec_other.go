//go:build !linux && !darwin

package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/aixbroker/aixbroker/notify"
)

// runSandbox refuses: aixbroker enforces on Linux and macOS only.
func runSandbox(context.Context, sandboxRun) (int, error) {
	return 0, fmt.Errorf("%s: %w", runtime.GOOS, notify.ErrNotSupported)
}
