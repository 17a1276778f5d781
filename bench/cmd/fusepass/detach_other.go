//go:build !linux

package main

import "golang.org/x/sys/unix"

// detach forces the unmount (there is no lazy unmount here).
func detach(mnt string) error { return unix.Unmount(mnt, unix.MNT_FORCE) }
