package notify

import (
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() {
	register(handleLink, "link", "linkat")
	register(handleSymlink, "symlink", "symlinkat")
}

const capDACReadSearch = 2

// handleLink serves link(old, new) and linkat(olddirfd, old, newdirfd, new,
// flags). The source inode is resolved (its final symlink followed only
// with AT_SYMLINK_FOLLOW) and decided as OpLink on its canonical path and
// by inode; the new name is decided as OpCreate. The inode decided on is
// the one linked (fsops.Link).
//
// AT_EMPTY_PATH links the caller's descriptor itself; it needs
// CAP_DAC_READ_SEARCH, as the kernel required before Linux 6.10. A source
// given as /proc/self/fd/N with AT_SYMLINK_FOLLOW is the file behind the
// target's own descriptor N; a file without a name (unlinked) cannot be
// decided on and is refused with ENOENT. Any other magic link in a path is
// ELOOP.
func handleLink(r *Request) Reply {
	from, to, flags := pathArg{-1, 0}, pathArg{-1, 1}, 0
	if r.Syscall == "linkat" {
		from, to, flags = pathArg{0, 1}, pathArg{2, 3}, int(int32(r.Arg(4)))
		if flags&^(unix.AT_SYMLINK_FOLLOW|unix.AT_EMPTY_PATH) != 0 {
			return Errno(unix.EINVAL)
		}
	}
	emptyPath := flags&unix.AT_EMPTY_PATH != 0
	src, err := r.readOperand(from, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	if src.path == "" {
		c, err := r.Creds()
		if err != nil {
			return ErrorOf(err)
		}
		if c.CapEff&(1<<capDACReadSearch) == 0 {
			return Errno(unix.ENOENT)
		}
	}
	if follow := flags&unix.AT_SYMLINK_FOLLOW != 0; follow && !emptyPath {
		own, ok, err := r.ownOperand(src)
		if err != nil {
			return ErrorOf(err)
		}
		if ok {
			src, emptyPath = own, true
		}
	}
	dst, err := r.readOperand(to, false)
	if err != nil {
		return ErrorOf(err)
	}
	tg, err := r.Target(src.path + "\x00" + dst.path)
	if err != nil {
		return ErrorOf(err)
	}
	follow := flags&unix.AT_SYMLINK_FOLLOW != 0
	return ErrorOf(r.AsCaller(func() error {
		f, err := tg.ResolveFile(src.dirfd, src.path, follow, emptyPath)
		if err != nil {
			return err
		}
		defer f.Close()
		np, err := tg.ResolveParent(dst.dirfd, dst.path)
		if err != nil {
			return err
		}
		defer np.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		if !kernelRefuses(np.Name) {
			if err := r.allowLink(f, np); err != nil {
				return err
			}
		}
		return fsops.Link(f, np)
	}))
}

func (r *Request) allowLink(src fsops.File, dst fsops.Parent) error {
	if err := r.allow(policy.OpLink, src.Path); err != nil {
		return err
	}
	if err := r.allowInode(policy.OpLink, src); err != nil {
		return err
	}
	if err := r.guardShm(policy.OpLink, src.FD, "", unix.AT_EMPTY_PATH, src.Path, unix.EACCES); err != nil {
		return err
	}
	return r.allowCreate(dst, true)
}

// handleSymlink serves symlink(target, path) and symlinkat(target,
// newdirfd, path). The new name is decided as OpCreate; the target string
// is data, not resolved: opening through the link is decided when it
// happens, on where the link leads.
func handleSymlink(r *Request) Reply {
	at := pathArg{-1, 1}
	if r.Syscall == "symlinkat" {
		at = pathArg{1, 2}
	}
	target, err := r.ReadPath(0)
	if err != nil {
		return ErrorOf(err)
	}
	if target == "" {
		return Errno(unix.ENOENT)
	}
	o, err := r.readOperand(at, false)
	if err != nil {
		return ErrorOf(err)
	}
	return r.parentAction(o, policy.OpCreate, false, func(p fsops.Parent) error {
		if err := fsops.Symlink(target, p); err != nil {
			return err
		}
		r.noteCreatedName(p) // removable although redacted (created_linux.go)
		return nil
	})
}
