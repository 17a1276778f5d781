package notify

import (
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() { register(handleUnlink, "unlink", "unlinkat", "rmdir") }

// handleUnlink serves unlink(path), rmdir(path) and unlinkat(dirfd, path,
// flags), deciding OpUnlink on the canonical path of the name removed. A
// final symlink is removed, never followed. A file the broker created under
// a redacted name in this session may be removed although the redact rule
// refuses (created_linux.go).
func handleUnlink(r *Request) Reply {
	at, flags := pathArg{-1, 0}, 0
	switch r.Syscall {
	case "rmdir":
		flags = unix.AT_REMOVEDIR
	case "unlinkat":
		at, flags = pathArg{0, 1}, int(int32(r.Arg(2)))
		if flags&^unix.AT_REMOVEDIR != 0 {
			return Errno(unix.EINVAL)
		}
	}
	o, err := r.readOperand(at, false)
	if err != nil {
		return ErrorOf(err)
	}
	if flags != 0 {
		return r.parentAction(o, policy.OpUnlink, false, func(p fsops.Parent) error {
			return fsops.Unlink(p, flags)
		})
	}
	tg, err := r.Target(o.path)
	if err != nil {
		return ErrorOf(err)
	}
	return ErrorOf(r.AsCaller(func() error {
		p, err := tg.ResolveParent(o.dirfd, o.path)
		if err != nil {
			return err
		}
		defer p.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		return r.unlinkFile(p)
	}))
}

// unlinkFile removes a name that is not a directory, after the policy, or
// the broker's record of what it created, allowed it.
func (r *Request) unlinkFile(p fsops.Parent) error {
	if kernelRefuses(p.Name) {
		return fsops.Unlink(p, 0)
	}
	if id, ok := r.ownCreated(p); ok {
		err := fsops.Unlink(p, 0)
		if err == nil {
			r.sup.created.forget(id)
		}
		return err
	}
	if err := r.allowRemove(policy.OpUnlink, p); err != nil {
		return err
	}
	obj, shm, err := r.guardShmObject(policy.OpUnlink, p.FD, p.Name, 0, p.Path(), unix.EACCES)
	if err != nil {
		return err
	}
	err = fsops.Unlink(p, 0)
	if err == nil && shm {
		r.forgetShmLast(obj) // a session object without a name left
	}
	return err
}
