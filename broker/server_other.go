//go:build !linux

package broker

import (
	"errors"
	"os"

	"github.com/aixbroker/aixbroker/policy"
)

// StubFunc returns a descriptor of what a redacted file reads as, and its
// size.
type StubFunc func(path string, rule policy.Rule) (fd int, size int64, err error)

// InterposerServer is Linux-only; elsewhere it cannot be created.
type InterposerServer struct {
	broker *Broker
	snap   *Snapshot
	stub   StubFunc
}

// NewInterposerServer fails outside Linux.
func NewInterposerServer(b *Broker, snap Snapshot, stub StubFunc) (*InterposerServer, *os.File, error) {
	return nil, nil, errors.New("interposer server: Linux only")
}

// Serve does nothing outside Linux.
func (s *InterposerServer) Serve() {}

// Close does nothing outside Linux.
func (s *InterposerServer) Close() error { return nil }
