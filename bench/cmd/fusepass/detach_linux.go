package main

import "golang.org/x/sys/unix"

// detach unmounts mnt lazily: it leaves the namespace at once and goes
// away when its last user does.
func detach(mnt string) error { return unix.Unmount(mnt, unix.MNT_DETACH) }
