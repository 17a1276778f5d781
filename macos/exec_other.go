//go:build !darwin

package macos

import (
	"context"
	"fmt"
)

// Run needs macOS: it returns ErrNotSupported.
func Run(ctx context.Context, cfg Config) (int, error) {
	return exitSetupFailed, fmt.Errorf("run under sandbox-exec: %w", ErrNotSupported)
}
