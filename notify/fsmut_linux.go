package notify

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// This file holds what the mutating handlers (rename, link, symlink,
// unlink, mkdir, mknod, truncate, chmod, chown, utimes) share: reading a
// path operand, deciding, and refusing with the policy's errno from inside
// a function run as the caller.

// pathArg says where a syscall keeps one path: path is the index of the
// pointer argument, dir that of its dirfd argument, or -1 when a relative
// path starts from the cwd (the pre-*at syscalls).
type pathArg struct{ dir, path int }

// operand is one path argument read from the target, with the descriptor
// its resolution starts from (AT_FDCWD for an absolute path).
type operand struct {
	path  string
	dirfd int
}

// readOperand reads a path argument and opens the directory it is relative
// to. With emptyOK (AT_EMPTY_PATH) an empty path is allowed and dirfd is
// then the operand itself; without, it is ENOENT, as the kernel answers
// before looking at the dirfd.
func (r *Request) readOperand(a pathArg, emptyOK bool) (operand, error) {
	path, err := r.ReadPath(a.path)
	if err != nil {
		return operand{}, err
	}
	if path == "" && !emptyOK {
		return operand{}, fmt.Errorf("read path: %w", unix.ENOENT)
	}
	return r.operandAt(a, path)
}

func (r *Request) operandAt(a pathArg, path string) (operand, error) {
	if strings.HasPrefix(path, "/") {
		return operand{path: path, dirfd: unix.AT_FDCWD}, nil
	}
	var dirfd int
	var err error
	if a.dir < 0 {
		dirfd, err = r.dirFD(unix.AT_FDCWD)
	} else {
		dirfd, err = r.dirFD(int32(r.Arg(a.dir)))
	}
	if err != nil {
		return operand{}, err
	}
	return operand{path: path, dirfd: dirfd}, nil
}

// refusal is the error a handler returns from inside AsCaller when the
// policy says no; ErrorOf turns it into the errno.
type refusal struct {
	op    policy.Op
	path  string
	errno syscall.Errno
}

func (e *refusal) Error() string {
	return fmt.Sprintf("policy refuses %s on %s: %v", e.op, e.path, e.errno)
}

func (e *refusal) Unwrap() error { return e.errno }

// allow decides op on a canonical path and returns a refusal when the
// policy does not allow it.
func (r *Request) allow(op policy.Op, path string) error {
	d := r.Decide(op, path)
	if d.Allowed() {
		return nil
	}
	return &refusal{op: op, path: path, errno: denyErrno(d, op)}
}

// allowCreate decides OpCreate on a new name. When the policy refuses and
// the kernel would have refused anyway because the name exists (mkdir,
// mknod, symlink, link, rename with RENAME_NOREPLACE), the answer is the
// kernel's EEXIST: "mkdir -p" walks through existing directories it may not
// write. It is EEXIST only for names the policy lets the agent see: stat(2)
// is not trapped, so that reveals nothing new.
func (r *Request) allowCreate(p fsops.Parent, noReplace bool) error {
	return r.allowNew(policy.OpCreate, p, noReplace)
}

// allowNew is allowCreate for op OpCreate or OpMkdir.
func (r *Request) allowNew(op policy.Op, p fsops.Parent, noReplace bool) error {
	err := r.allow(op, p.Path())
	if err == nil || !noReplace || !present(p) {
		return err
	}
	if !r.sup.broker.Decide(policy.OpStat, p.Path()).Allowed() {
		return err
	}
	return unix.EEXIST
}

// allowRemove decides op (OpUnlink, or OpRename for a rename source) on an
// existing name. When the policy refuses and the name does not exist, the
// answer is the kernel's ENOENT ("rm -f" ignores it, not EACCES).
func (r *Request) allowRemove(op policy.Op, p fsops.Parent) error {
	err := r.allow(op, p.Path())
	if err == nil || !missing(p) {
		return err
	}
	return unix.ENOENT
}

// lookupName stats p.Name in p without following a final symlink.
func lookupName(p fsops.Parent) error {
	var st unix.Stat_t
	return unix.Fstatat(p.FD, strings.TrimRight(p.Name, "/"), &st, unix.AT_SYMLINK_NOFOLLOW)
}

// present reports that the name certainly exists; missing that it
// certainly does not. Any other failure (EACCES) is neither: the refusal
// stands.
func present(p fsops.Parent) bool { return lookupName(p) == nil }

func missing(p fsops.Parent) bool { return errors.Is(lookupName(p), unix.ENOENT) }

// allowInode refuses a change to, or a new name for, an inode that is one
// of the policy's denied files under another name (a hard link made before
// the session). The refusal is recorded like a policy decision.
func (r *Request) allowInode(op policy.Op, f fsops.File) error {
	deny := r.sup.denyInodes
	if deny == nil || deny.Len() == 0 {
		return nil
	}
	dev, ino, err := fsops.InodeKey(f.FD)
	if err != nil {
		return err
	}
	return r.allowInodeKey(op, f.Path, dev, ino)
}

// allowInodeKey is allowInode for a file whose device and inode the caller
// has already read (fstat), at path.
func (r *Request) allowInodeKey(op policy.Op, path string, dev, ino uint64) error {
	deny := r.sup.denyInodes
	if deny == nil || deny.Len() == 0 {
		return nil
	}
	denied, ok := deny.Lookup(dev, ino)
	if !ok {
		return nil
	}
	// Answer as for the denied file itself: reads of a hidden file say
	// ENOENT, changes EACCES.
	errno, name := syscall.EACCES, policy.EACCES
	switch op {
	case policy.OpRead, policy.OpStat, policy.OpExec:
		errno, name = syscall.ENOENT, policy.ENOENT
	}
	d := policy.Decision{
		Action: policy.Deny, Errno: name,
		Rule: policy.Rule{List: "deny", Pattern: denied + " (same inode)"},
	}
	r.note(op, path, d)
	return &refusal{op: op, path: path, errno: errno}
}

// kernelRefuses reports whether the kernel refuses any creation, removal or
// rename of name whatever the policy says ("." and ".." are never a new or
// removable name, "/" is never replaced): such calls go straight to the
// kernel for its own errno, with nothing to decide.
func kernelRefuses(name string) bool {
	switch strings.TrimRight(name, "/") {
	case "", ".", "..":
		return true
	}
	return false
}

// parentAction runs fn on the resolved parent of o as the caller, after the
// policy allowed op on the name. create selects the caller's umask.
func (r *Request) parentAction(o operand, op policy.Op, create bool, fn func(fsops.Parent) error) Reply {
	tg, err := r.Target(o.path)
	if err != nil {
		return ErrorOf(err)
	}
	run := r.AsCaller
	if create {
		run = r.AsCallerCreate
	}
	return ErrorOf(run(func() error {
		p, err := tg.ResolveParent(o.dirfd, o.path)
		if err != nil {
			return err
		}
		defer p.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		if !kernelRefuses(p.Name) {
			if err := r.allowName(op, p); err != nil {
				return err
			}
		}
		return fn(p)
	}))
}

// allowName decides op on a name that a single-path syscall creates
// (OpCreate, OpMkdir: mkdir, mknod, symlink never replace) or removes.
func (r *Request) allowName(op policy.Op, p fsops.Parent) error {
	if op == policy.OpCreate || op == policy.OpMkdir {
		return r.allowNew(op, p, true)
	}
	return r.allowRemove(op, p)
}

// fileAction runs fn as the caller on the inode o names (following a final
// symlink or not), after the policy allowed op on its canonical path and
// the inode is not a denied file under another name.
func (r *Request) fileAction(o operand, follow, emptyPath bool, op policy.Op, fn func(fsops.File) error) Reply {
	if follow {
		own, ok, err := r.ownOperand(o)
		if err != nil {
			return ErrorOf(err)
		}
		if ok {
			o, emptyPath = own, true
		}
	}
	tg, err := r.Target(o.path)
	if err != nil {
		return ErrorOf(err)
	}
	return ErrorOf(r.AsCaller(func() error {
		f, err := tg.ResolveFile(o.dirfd, o.path, follow, emptyPath)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		if err := r.allowChange(op, f); err != nil {
			return err
		}
		if err := r.CheckProc(f.Path, true); err != nil {
			return err
		}
		if err := r.allowInode(op, f); err != nil {
			return err
		}
		if err := r.guardShm(op, f.FD, "", unix.AT_EMPTY_PATH, f.Path, unix.EACCES); err != nil {
			return err
		}
		return fn(f)
	}))
}

// ownOperand recognises a path naming one of the target's own descriptors
// (/proc/self/fd/N, /dev/fd/N, /dev/stdin...) followed as a magic link:
// glibc's lchmod and futimes fallbacks and x/sys Futimes chmod or utimes
// "/proc/self/fd/N". The broker reopens that descriptor from the target's
// own table and acts on the file it refers to (AT_EMPTY_PATH), deciding on
// its canonical path as for any other.
func (r *Request) ownOperand(o operand) (operand, bool, error) {
	n, ok := ownFD(o.path)
	if !ok {
		return operand{}, false, nil
	}
	fd, err := r.dirFD(int32(n))
	if err != nil {
		return operand{}, false, err
	}
	return operand{path: "", dirfd: fd}, true, nil
}

// SetDenyInodes gives the supervisor the inodes of the policy's concrete
// denied files (fsops.NewDenyInodes), checked by link and the attribute
// and truncate handlers. Call it before Start.
func (s *Supervisor) SetDenyInodes(d *fsops.DenyInodes) { s.denyInodes = d }
