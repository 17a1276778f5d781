//go:build linux

package notify

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// statBytes returns st as the kernel lays out struct stat for this
// architecture (x/sys defines Stat_t with that layout), to be written into
// the target's buffer.
func statBytes(st *unix.Stat_t) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(st)), unsafe.Sizeof(*st))...)
}

// statfsBytes returns st as the kernel lays out struct statfs.
func statfsBytes(st *unix.Statfs_t) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(st)), unsafe.Sizeof(*st))...)
}

// statxBytes returns st as the kernel lays out struct statx.
func statxBytes(st *unix.Statx_t) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(st)), unsafe.Sizeof(*st))...)
}
