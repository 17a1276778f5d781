//go:build !linux

package fsops

import "fmt"

// NewDenyInodes needs Linux: it returns an empty set and ErrNotSupported
// (on macOS the sandbox profile enforces the deny rules).
func NewDenyInodes(paths []string) (*DenyInodes, error) {
	return &DenyInodes{set: map[Inode]string{}}, fmt.Errorf("record denied inodes: %w", ErrNotSupported)
}

func stillAt(string, uint64, uint64) bool { return true }
