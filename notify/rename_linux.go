package notify

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() { register(handleRename, "rename", "renameat", "renameat2") }

const renameFlags = unix.RENAME_NOREPLACE | unix.RENAME_EXCHANGE | unix.RENAME_WHITEOUT

// handleRename serves rename(old, new), renameat(olddirfd, old, newdirfd,
// new) and renameat2(..., flags). The source is decided as OpRename and the
// destination as OpCreate, and a file the destination would replace as
// OpUnlink (renameNoClobber); with RENAME_EXCHANGE both ends are sources
// and destinations. Neither final component is followed.
func handleRename(r *Request) Reply {
	from, to, flags := pathArg{-1, 0}, pathArg{-1, 1}, uint(0)
	if r.Syscall != "rename" {
		from, to = pathArg{0, 1}, pathArg{2, 3}
	}
	if r.Syscall == "renameat2" {
		flags = uint(uint32(r.Arg(4)))
		if flags&^renameFlags != 0 {
			return Errno(unix.EINVAL)
		}
	}
	src, err := r.readOperand(from, false)
	if err != nil {
		return ErrorOf(err)
	}
	dst, err := r.readOperand(to, false)
	if err != nil {
		return ErrorOf(err)
	}
	tg, err := r.Target(src.path + "\x00" + dst.path)
	if err != nil {
		return ErrorOf(err)
	}
	return ErrorOf(r.AsCaller(func() error {
		op, err := tg.ResolveParent(src.dirfd, src.path)
		if err != nil {
			return err
		}
		defer op.Close()
		np, err := tg.ResolveParent(dst.dirfd, dst.path)
		if err != nil {
			return err
		}
		defer np.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		if err := r.allowRename(op, np, flags); err != nil {
			return err
		}
		if err := r.guardShmRename(op, np); err != nil {
			return err
		}
		if err := r.allowSubtree(op, flags); err != nil {
			return err
		}
		if flags&unix.RENAME_EXCHANGE != 0 {
			if err := r.allowSubtree(np, flags); err != nil {
				return err
			}
		}
		return r.renameNoClobber(op, np, flags)
	}))
}

// renameNoClobber performs the rename decided by allowRename. OpCreate
// allowed the destination as a new name, which says nothing about a file
// already there: a redact rule allows creating .env but never replacing
// the user's. So unless the caller asked for RENAME_NOREPLACE or
// RENAME_EXCHANGE (decided as a rename of both ends), the destination is
// also decided as OpUnlink, the fate of a file it replaces. When that is
// refused, the rename is performed with RENAME_NOREPLACE on the resolved
// parent: a file there, or one a sibling thread puts there after the
// decision, makes the kernel answer EEXIST, which becomes the refusal. No
// lookup, so no window between checking and renaming. (A filesystem
// without RENAME_NOREPLACE answers EINVAL there: refused, safely.)
func (r *Request) renameNoClobber(from, to fsops.Parent, flags uint) error {
	if flags&(unix.RENAME_NOREPLACE|unix.RENAME_EXCHANGE) != 0 || kernelRefuses(to.Name) {
		return fsops.Rename(from, to, flags)
	}
	path := to.Path()
	d := r.sup.broker.Decide(policy.OpUnlink, path)
	if d.Allowed() {
		return fsops.Rename(from, to, flags)
	}
	err := fsops.Rename(from, to, flags|unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EEXIST) {
		return err
	}
	r.note(policy.OpUnlink, path, d)
	return &refusal{op: policy.OpUnlink, path: path, errno: denyErrno(d, policy.OpUnlink)}
}

// allowRename decides a rename: the source as OpRename (missing: ENOENT),
// the destination as OpCreate (existing with RENAME_NOREPLACE: EEXIST). An
// exchange moves both names both ways: each end is a source and a
// destination.
func (r *Request) allowRename(from, to fsops.Parent, flags uint) error {
	if kernelRefuses(from.Name) || kernelRefuses(to.Name) {
		return nil // EBUSY or the like, from the kernel
	}
	if err := r.allowRemove(policy.OpRename, from); err != nil {
		return err
	}
	if flags&unix.RENAME_EXCHANGE == 0 {
		return r.allowCreate(to, flags&unix.RENAME_NOREPLACE != 0)
	}
	if err := r.allowRemove(policy.OpRename, to); err != nil {
		return err
	}
	if err := r.allow(policy.OpCreate, to.Path()); err != nil {
		return err
	}
	return r.allow(policy.OpCreate, from.Path())
}

// maxRenameWalk is how many names below a renamed directory the broker
// checks; a larger tree is answered EXDEV, so that mv falls back to copying
// and removing file by file, each step decided on its own.
const maxRenameWalk = 20000

// allowSubtree refuses to rename a directory when anything below it may
// not be renamed: moving the directory would give a denied or redacted
// file a new path the policy might allow (mv secrets public). The refused
// descendant is recorded as the decision.
func (r *Request) allowSubtree(dir fsops.Parent, flags uint) error {
	if kernelRefuses(dir.Name) {
		return nil
	}
	base := dir.Path()
	err := fsops.Walk(dir, maxRenameWalk, func(rel string) error {
		path := base + "/" + rel
		d := r.sup.broker.Decide(policy.OpRename, path)
		if d.Allowed() {
			return nil
		}
		r.note(policy.OpRename, path, d)
		return &refusal{op: policy.OpRename, path: path, errno: unix.EACCES}
	})
	if errors.Is(err, fsops.ErrTooMany) {
		return fmt.Errorf("rename %s: %w", base, unix.EXDEV)
	}
	return err
}
