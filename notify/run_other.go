//go:build !linux

package notify

import "context"

// MaybeStage2 does nothing: there is no stage 2 outside Linux.
func MaybeStage2() {}

// Run fails with ErrNotSupported outside Linux.
func Run(ctx context.Context, cfg Config) (int, error) { return 0, ErrNotSupported }
