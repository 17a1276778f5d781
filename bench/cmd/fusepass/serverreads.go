package main

import (
	"context"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// serverReads is a loopback node whose open files refuse the kernel's FUSE
// passthrough, so that every read and write goes through this server: the
// classic FUSE design, and what a FUSE sandbox that must see the data (to
// redact it) pays.
type serverReads struct{ *fs.LoopbackNode }

var (
	_ fs.NodeWrapChilder = (*serverReads)(nil)
	_ fs.NodeOpener      = (*serverReads)(nil)
	_ fs.NodeCreater     = (*serverReads)(nil)
)

// WrapChild makes every node below the root a serverReads too.
func (n *serverReads) WrapChild(_ context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	if lb, ok := ops.(*fs.LoopbackNode); ok {
		return &serverReads{lb}
	}
	return ops
}

func (n *serverReads) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fuseFlags, errno := n.LoopbackNode.Open(ctx, flags)
	return noPassthrough(fh), fuseFlags, errno
}

func (n *serverReads) Create(ctx context.Context, name string, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	inode, fh, fuseFlags, errno := n.LoopbackNode.Create(ctx, name, flags, mode, out)
	return inode, noPassthrough(fh), fuseFlags, errno
}

// serverFile is a loopback file without a backing descriptor for the
// kernel; its other methods are the loopback's.
type serverFile struct{ *fs.LoopbackFile }

// PassthroughFd declines the kernel's passthrough.
func (serverFile) PassthroughFd() (int, bool) { return -1, false }

func noPassthrough(fh fs.FileHandle) fs.FileHandle {
	if lf, ok := fh.(*fs.LoopbackFile); ok {
		return serverFile{lf}
	}
	return fh
}
