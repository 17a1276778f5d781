package notify

import (
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// createAttempts bounds the retries when a name appears or vanishes between
// the broker's lookup and its O_EXCL creation.
const createAttempts = 4

// openCreate serves an open with O_CREAT. An existing file is opened like
// any other (O_EXCL: EEXIST once the write is allowed); a new one is
// created by the broker on the parent it resolved.
func (r *Request) openCreate(o openReq) Reply {
	for range createAttempts {
		f, err := r.resolveOpen(o, false)
		switch {
		case err == nil:
			if reply, done := r.createExisting(o, f); done {
				return reply
			}
		case errIs(err, unix.ENOENT):
			if reply, done := r.createNew(o); done {
				return reply
			}
		default:
			return ErrorOf(err)
		}
	}
	return Errno(syscall.EAGAIN)
}

// createExisting handles O_CREAT on a name that exists (f, not followed).
// It reports done=false when the name vanished and creation should retry.
func (r *Request) createExisting(o openReq, f fsops.File) (Reply, bool) {
	if !isSymlink(f.FD) {
		if o.flags&unix.O_EXCL != 0 {
			return r.existsReply(f), true
		}
		return r.openExisting(f, o.flags&^unix.O_CREAT), true
	}
	if o.flags&unix.O_EXCL != 0 {
		return r.existsReply(f), true
	}
	f.Close()
	if o.flags&unix.O_NOFOLLOW != 0 {
		return Errno(syscall.ELOOP), true
	}
	target, err := r.resolveOpen(o, true)
	if errIs(err, unix.ENOENT) {
		// TODO(dangling): creating through a dangling symlink would need
		// the link's target resolved as a parent+name; refused for now.
		return Errno(syscall.EACCES), true
	}
	if err != nil {
		return ErrorOf(err), true
	}
	return r.openExisting(target, o.flags&^unix.O_CREAT), true
}

// existsReply answers O_CREAT|O_EXCL on an existing name: EEXIST, unless
// creating there is denied, so a hidden file is not revealed by it.
func (r *Request) existsReply(f fsops.File) Reply {
	defer f.Close()
	if d := r.Decide(policy.OpCreate, f.Path); !d.Allowed() {
		return Denied(d, policy.OpCreate)
	}
	return Errno(syscall.EEXIST)
}

// createNew creates a file that did not exist. done=false: retry (the name
// appeared meanwhile).
func (r *Request) createNew(o openReq) (Reply, bool) {
	dirfd, err := r.dirFor(o)
	if err != nil {
		return ErrorOf(err), true
	}
	t, err := r.Target(o.path)
	if err != nil {
		return ErrorOf(err), true
	}
	var p fsops.Parent
	err = r.AsCaller(func() error { // every directory on the way searched as the caller
		var err error
		p, err = t.ResolveParent(dirfd, o.path)
		return err
	})
	if err != nil {
		return ErrorOf(err), true
	}
	defer p.Close()
	if strings.HasSuffix(p.Name, "/") || p.Name == "." || p.Name == ".." {
		return Errno(syscall.EISDIR), true
	}
	if err := r.Valid(); err != nil {
		return ErrorOf(err), true
	}
	path := p.Path()
	if d := r.Decide(policy.OpCreate, path); !d.Allowed() {
		return Denied(d, policy.OpCreate), true
	}
	const drop = unix.O_CLOEXEC | unix.O_NOFOLLOW
	flags := o.flags&^drop | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NOCTTY
	var fd int
	err = r.AsCallerCreate(func() error {
		var err error
		fd, err = openatRetry(p.FD, p.Name, flags, stripSetid(o.mode, false)) // setid_linux.go
		return err
	})
	if errIs(err, unix.EEXIST) && o.flags&unix.O_EXCL == 0 {
		return Reply{}, false
	}
	if err != nil {
		return ErrorOf(fmt.Errorf("create %s: %w", path, err)), true
	}
	r.noteCreatedFD(path, fd)
	return InjectFD(fd, o.flags&unix.O_CLOEXEC != 0), true
}

func openatRetry(dirfd int, name string, flags int, mode uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, mode)
		if !errIs(err, unix.EINTR) {
			return fd, err
		}
	}
}
