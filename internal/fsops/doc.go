// Package fsops performs filesystem operations on behalf of a sandboxed
// thread, the way the kernel would have performed them for that thread.
//
// The seccomp broker (package notify) never lets the kernel continue a
// path-taking syscall it granted: a sibling thread could rewrite the path
// between the check and the kernel's own lookup. Instead it resolves the
// path here, decides on the canonical path of what it resolved, and performs
// the operation on the descriptors it holds. Three pieces make that sound:
//
//   - Resolution. [Target.ResolveParent] opens the parent directory of a path
//     with openat2(2) and RESOLVE_NO_MAGICLINKS, starting from the target's
//     own dirfd or cwd and scoped to the target's root, and returns an
//     O_PATH descriptor plus the last component. The operation then runs on
//     (parent fd, name) with the *at syscalls, which do not follow a final
//     symlink, so nothing swapped in after the check can redirect it.
//     [Target.ResolveFile] resolves a whole path to an O_PATH descriptor for
//     the operations that act on an inode (truncate, chmod, chown, utimes,
//     the source of a hard link). [Canonical] reads back the path the kernel
//     associates with a descriptor; that is what the policy decides on.
//   - Credentials. [Thread.AsCaller] (inline, on a goroutine that called
//     [LockThread]) and [Runner.AsCaller] (a pool of such threads) run a
//     function on an OS thread that has switched, for that thread only, to
//     the caller's fsuid, fsgid, supplementary groups, effective
//     capabilities and umask (read by [ReadCreds] from /proc/<tid>/status),
//     so that the kernel refuses what it would have refused the caller, with
//     the same errno, even when the broker runs as root. The thread has its
//     own fs_struct, so the kernel applies the umask itself, or the parent's
//     default POSIX ACL instead, exactly as for the caller.
//   - Inodes. [InodeKey] and [DenyInodes] let the broker recognise a denied
//     file reached through another hard link.
//
// Every operation returns the kernel's errno (wrapped); [ErrnoOf] extracts it
// for the seccomp reply. Names "." and ".." and trailing slashes are passed
// to the kernel as written, so its own errnos (EEXIST, EBUSY, EINVAL,
// ENOTEMPTY, ENOTDIR, EISDIR) come back unchanged.
//
// Magic links (/proc/<pid>/fd/N, cwd, root, exe) are never followed: where
// the kernel would have followed one, the broker answers ELOOP (callers
// that recognise the target's own /proc/self/fd/N resolve it from the
// target's descriptor table instead). /proc/self and
// /proc/thread-self at the start of an absolute path are rewritten to the
// target's /proc/<tgid> and /proc/<tgid>/task/<tid>; any other way of
// reaching the broker's own /proc entries (a symlink to /proc/self, a
// relative "self" under /proc) is refused with EACCES.
package fsops
