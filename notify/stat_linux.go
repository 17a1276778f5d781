package notify

import (
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
	"github.com/aixbroker/aixbroker/policy"
)

// The stat family (stat, lstat, newfstatat, statx, statfs) and the access
// family (access, faccessat, faccessat2) are trapped only when
// Config.TrapStat is set: they reveal that a name exists and its metadata,
// never its content, so by default the interposer hides them in
// dynamically linked processes and the kernel answers the rest. readlink
// and readlinkat are trapped in every session: a symlink's target is its
// content (a link in ~/.ssh can name anything), decided here as stat is.
// Trapped, the hiding also holds for static binaries and for a child
// started without LD_PRELOAD, at the cost of a round trip per call
// (docs/PERFORMANCE.md).
//
// Like every other handler they never let the kernel continue on a path (a
// sibling thread could rewrite it after the check): the broker resolves the
// path to a descriptor as the caller, decides OpStat on its canonical path
// (a hidden name is ENOENT, or the rule's errno), performs the call itself
// on that descriptor and writes the result into the target's memory. A
// redacted file reports the device, inode and size of its redacted view,
// what fstat of an opened descriptor of it reports. A call on a
// descriptor the target holds (fstat is newfstatat(fd, "", AT_EMPTY_PATH)
// in glibc) decides nothing: the target already holds the file.
//
// What still tells a hidden name exists with the trap on: listings
// (getdents64, filtered only by the interposer), an O_PATH open (continued
// by the open handler, so its fstat answers), chdir and
// inotify_add_watch. (The xattr getters by path are decided in every
// session: xattr_linux.go.)
func init() {
	register(handleStat, "stat", "lstat", "newfstatat", "statx")
	register(handleStatfs, "statfs")
	register(handleAccess, "access", "faccessat", "faccessat2")
	register(handleReadlink, "readlink", "readlinkat")
}

// statSyscalls are the syscalls trapped only with Config.TrapStat.
var statSyscalls = map[string]bool{
	"stat": true, "lstat": true, "newfstatat": true, "statx": true, "statfs": true,
	"access": true, "faccessat": true, "faccessat2": true,
}

// trapFor returns the syscalls a session traps: every one with a handler,
// the stat family only when stat is set, and the filter's policy switches
// (seccomp.SysVSwitch when sysv is set). The metadata getters (xattr
// getters by path, readlink) are in the default set: they have handlers
// and are not stat syscalls.
func trapFor(stat, sysv bool) []string {
	all := trapList()
	if sysv {
		all = append(all, seccomp.SysVSwitch)
	}
	if stat {
		return all
	}
	out := all[:0]
	for _, name := range all {
		if !statSyscalls[name] {
			out = append(out, name)
		}
	}
	return out
}

// Flags each call accepts; others are EINVAL, as in the kernel.
const (
	statFlags      = unix.AT_SYMLINK_NOFOLLOW | unix.AT_EMPTY_PATH | unix.AT_NO_AUTOMOUNT
	statxFlags     = statFlags | statxSyncType
	accessFlags    = unix.AT_EACCESS | unix.AT_SYMLINK_NOFOLLOW | unix.AT_EMPTY_PATH
	statxReserved  = 0x80000000 // STATX__RESERVED
	statxSyncType  = 0x6000     // AT_STATX_SYNC_TYPE
	readlinkBufMax = 1 << 16
)

// statCall is one stat-family call's arguments, normalised.
type statCall struct {
	at    pathArg
	out   int // argument holding the result buffer
	flags int
	mask  int // statx only
}

func readStatCall(r *Request) (statCall, error) {
	c := statCall{at: pathArg{-1, 0}, out: 1}
	switch r.Syscall {
	case "lstat":
		c.flags = unix.AT_SYMLINK_NOFOLLOW
	case "newfstatat":
		c.at, c.out, c.flags = pathArg{0, 1}, 2, int(int32(r.Arg(3)))
		if c.flags&^statFlags != 0 {
			return c, unix.EINVAL
		}
	case "statx":
		c.at, c.out, c.flags, c.mask = pathArg{0, 1}, 4, int(int32(r.Arg(2))), int(uint32(r.Arg(3)))
		if c.flags&^statxFlags != 0 || c.flags&statxSyncType == statxSyncType ||
			c.mask&statxReserved != 0 {
			return c, unix.EINVAL
		}
	}
	return c, nil
}

// handleStat serves stat(path, buf), lstat, newfstatat(dirfd, path, buf,
// flags) and statx(dirfd, path, flags, mask, buf).
func handleStat(r *Request) Reply {
	r.attemptedOp = policy.OpStat
	c, err := readStatCall(r)
	if err != nil {
		return ErrorOf(err)
	}
	emptyPath := c.flags&unix.AT_EMPTY_PATH != 0
	o, err := r.statOperand(c.at, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	f, d, err := r.resolveStat(o, c.flags&unix.AT_SYMLINK_NOFOLLOW == 0, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	var buf []byte
	if r.Syscall == "statx" {
		var st unix.Statx_t
		sync := c.flags & (statxSyncType | unix.AT_NO_AUTOMOUNT)
		if err := unix.Statx(f.FD, "", unix.AT_EMPTY_PATH|sync, c.mask, &st); err != nil {
			return ErrorOf(err)
		}
		if d.Action == policy.Redact && st.Mode&unix.S_IFMT == unix.S_IFREG {
			v, err := r.stubStat(f, d.Rule)
			if err != nil {
				return ErrorOf(err)
			}
			st.Dev_major, st.Dev_minor = unix.Major(v.Dev), unix.Minor(v.Dev)
			st.Ino, st.Size, st.Blocks = v.Ino, uint64(v.Size), uint64(v.Blocks)
		}
		buf = statxBytes(&st)
	} else {
		var st unix.Stat_t
		if err := unix.Fstat(f.FD, &st); err != nil {
			return ErrorOf(err)
		}
		if d.Action == policy.Redact && st.Mode&unix.S_IFMT == unix.S_IFREG {
			v, err := r.stubStat(f, d.Rule)
			if err != nil {
				return ErrorOf(err)
			}
			st.Dev, st.Ino, st.Size, st.Blocks = v.Dev, v.Ino, v.Size, v.Blocks
		}
		buf = statBytes(&st)
	}
	return ErrorOf(r.WriteMemory(r.Arg(c.out), buf))
}

// handleStatfs serves statfs(path, buf): whether a name exists is what it
// reveals, like stat.
func handleStatfs(r *Request) Reply {
	r.attemptedOp = policy.OpStat
	o, err := r.readOperand(pathArg{-1, 0}, false)
	if err != nil {
		return ErrorOf(err)
	}
	f, _, err := r.resolveStat(o, true, false)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	var st unix.Statfs_t
	if err := unix.Fstatfs(f.FD, &st); err != nil {
		return ErrorOf(err)
	}
	return ErrorOf(r.WriteMemory(r.Arg(1), statfsBytes(&st)))
}

// statOperand reads a stat or access operand. A NULL path with
// AT_EMPTY_PATH names the descriptor itself (Linux 6.11).
func (r *Request) statOperand(a pathArg, emptyPath bool) (operand, error) {
	if emptyPath && a.dir >= 0 && r.Arg(a.path) == 0 {
		return r.operandAt(a, "")
	}
	return r.readOperand(a, emptyPath)
}

// heldDecision is the decision on a descriptor the target already holds.
var heldDecision = policy.Decision{Action: policy.Allow, Rule: heldRule}

// resolveStat resolves o as the caller (following a final symlink or not)
// and decides OpStat on its canonical path: it returns the descriptor (the
// caller closes it) with the decision, Allow or Redact. A descriptor the
// target holds (AT_EMPTY_PATH with an empty path, /proc/self/fd/N
// followed) is not decided on: the target already holds it, and it may
// have no path at all (a pipe, a socket, a deleted file).
func (r *Request) resolveStat(o operand, follow, emptyPath bool) (fsops.File, policy.Decision, error) {
	if follow {
		own, ok, err := r.ownOperand(o)
		if err != nil {
			return fsops.File{}, policy.Decision{}, err
		}
		if ok {
			o, emptyPath = own, true
		}
	}
	if o.path == "" && emptyPath {
		fd, err := unix.FcntlInt(uintptr(o.dirfd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return fsops.File{}, policy.Decision{}, fmt.Errorf("dup held descriptor: %w", err)
		}
		r.note(policy.OpStat, "", heldDecision) // counted as allowed, filtered by audit.on_allow: none
		return fsops.File{FD: fd}, heldDecision, nil
	}
	tg, err := r.Target(o.path)
	if err != nil {
		return fsops.File{}, policy.Decision{}, err
	}
	var f fsops.File
	var d policy.Decision
	err = r.AsCaller(func() error {
		var err error
		if follow && (o.path == "/proc/self/exe" || o.path == "/proc/thread-self/exe") {
			f, err = r.ownExe() // a magic link, refused by ResolveFile; as in handleOpen
		} else {
			f, err = tg.ResolveFile(o.dirfd, o.path, follow, false)
		}
		if err != nil {
			return err
		}
		if err = r.Valid(); err == nil {
			d = r.Decide(policy.OpStat, f.Path)
			if !d.Allowed() && d.Action != policy.Redact {
				err = &refusal{op: policy.OpStat, path: f.Path, errno: denyErrno(d, policy.OpStat)}
			} else {
				err = r.allowInode(policy.OpStat, f)
			}
		}
		if err != nil {
			f.Close()
		}
		return err
	})
	return f, d, err
}

// handleAccess serves access(path, mode), faccessat(dirfd, path, mode) and
// faccessat2(dirfd, path, mode, flags). The answer is the kernel's, asked
// by the broker as the caller on the resolved descriptor, once the name is
// visible.
func handleAccess(r *Request) Reply {
	r.attemptedOp = policy.OpStat
	at, mode, flags := pathArg{-1, 0}, uint32(r.Arg(1)), 0
	switch r.Syscall {
	case "faccessat":
		at, mode = pathArg{0, 1}, uint32(r.Arg(2))
	case "faccessat2":
		at, mode, flags = pathArg{0, 1}, uint32(r.Arg(2)), int(int32(r.Arg(3)))
		if flags&^accessFlags != 0 {
			return Errno(unix.EINVAL)
		}
	}
	if mode&^(unix.R_OK|unix.W_OK|unix.X_OK) != 0 {
		return Errno(unix.EINVAL)
	}
	emptyPath := flags&unix.AT_EMPTY_PATH != 0
	o, err := r.statOperand(at, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	f, _, err := r.resolveStat(o, flags&unix.AT_SYMLINK_NOFOLLOW == 0, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	if mode == unix.F_OK {
		return Value(0) // it resolved: it exists
	}
	return ErrorOf(r.AsCaller(func() error {
		return unix.Faccessat2(f.FD, "", mode, unix.AT_EMPTY_PATH|flags&unix.AT_EACCESS)
	}))
}

// handleReadlink serves readlink(path, buf, size) and readlinkat(dirfd,
// path, buf, size): the broker reads the link in the resolved parent
// directory, after the policy let the agent see the link's name.
func handleReadlink(r *Request) Reply {
	r.attemptedOp = policy.OpStat
	at, bufArg, sizeArg := pathArg{-1, 0}, 1, 2
	if r.Syscall == "readlinkat" {
		at, bufArg, sizeArg = pathArg{0, 1}, 2, 3
	}
	size := int(int32(r.Arg(sizeArg)))
	if size <= 0 {
		return Errno(unix.EINVAL)
	}
	path, err := r.ReadPath(at.path)
	if err != nil {
		return ErrorOf(err)
	}
	if self, ok := r.procSelfLink(path); ok {
		return r.writeLink(self, r.Arg(bufArg), size)
	}
	o, err := r.operandAt(at, path)
	if err != nil {
		return ErrorOf(err)
	}
	tg, err := r.Target(o.path)
	if err != nil {
		return ErrorOf(err)
	}
	var link string
	err = r.AsCaller(func() error {
		var err error
		link, err = r.readLinkAt(tg, o)
		return err
	})
	if err != nil {
		return ErrorOf(err)
	}
	return r.writeLink(link, r.Arg(bufArg), size)
}

// readLinkAt resolves o's parent (an empty path: o's descriptor itself),
// decides OpStat on the link's canonical name and reads it.
func (r *Request) readLinkAt(tg fsops.Target, o operand) (string, error) {
	var dirfd int
	var name, canon string
	if o.path == "" {
		f, err := tg.ResolveFile(o.dirfd, "", false, true)
		if err != nil {
			return "", err
		}
		defer f.Close()
		dirfd, canon = f.FD, f.Path
	} else {
		p, err := tg.ResolveParent(o.dirfd, o.path)
		if err != nil {
			return "", err
		}
		defer p.Close()
		dirfd, name, canon = p.FD, p.Name, p.Path()
	}
	if err := r.Valid(); err != nil {
		return "", err
	}
	if err := r.CheckProc(canon, false); err != nil {
		return "", err
	}
	if err := r.allow(policy.OpStat, canon); err != nil {
		return "", err
	}
	buf := make([]byte, readlinkBufMax)
	n, err := unix.Readlinkat(dirfd, name, buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// procSelfLink answers readlink of /proc/self and /proc/thread-self
// themselves, which name the caller (ResolveParent would resolve them
// already rewritten to the caller's directory).
func (r *Request) procSelfLink(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	switch filepath.Clean(path) {
	case "/proc/self":
		tgid, err := r.TGID()
		return strconv.Itoa(tgid), err == nil
	case "/proc/thread-self":
		tgid, err := r.TGID()
		return strconv.Itoa(tgid) + "/task/" + strconv.Itoa(r.TID()), err == nil
	}
	return "", false
}

// writeLink copies at most size bytes of link (no NUL, as readlink does)
// to addr and answers with the count.
func (r *Request) writeLink(link string, addr uint64, size int) Reply {
	out := []byte(link)[:min(len(link), size)]
	if err := r.WriteMemory(addr, out); err != nil {
		return ErrorOf(err)
	}
	return Value(int64(len(out)))
}

// WriteMemory copies buf into the target's memory at addr, after checking
// that the notification is still pending (so the thread id still names the
// caller, blocked in its syscall). A fault anywhere is EFAULT, as the
// kernel would answer; a partial write may have happened, as in the
// kernel. Every write into a target goes through here (stat, statfs,
// statx, readlink, the xattr getters).
func (r *Request) WriteMemory(addr uint64, buf []byte) error {
	return writeTargetMemory(r.TID(), r.Valid, addr, buf)
}

// writeTargetMemory writes buf at addr in the memory of thread tid once
// valid says the notification is still pending. /proc/<tid>/mem is opened
// BEFORE that check: the descriptor is bound to the address space the
// thread had then (the open resolves the thread id to its mm), so if the
// thread dies after the check (a sibling's exit_group) and its id is
// reused by another process, the write goes to the old, dead address
// space (EIO: reported as EFAULT, the caller is gone anyway), never into
// the newcomer. A write by thread id (process_vm_writev) would resolve
// the id again at the write.
//
// One difference from the kernel's own copy_to_user: /proc/<tid>/mem
// writes with FOLL_FORCE on most kernels (proc_mem.force_override), so a
// buffer in a read-only private mapping of the caller's own memory is
// written (copy on write) where the kernel would answer EFAULT. It is
// the caller's own memory, which it could mprotect anyway; nothing
// outside the caller is reachable.
func writeTargetMemory(tid int, valid func() error, addr uint64, buf []byte) error {
	if len(buf) == 0 {
		return nil
	}
	if addr == 0 || addr+uint64(len(buf)) > 1<<63 || addr+uint64(len(buf)) < addr {
		return fmt.Errorf("write target memory: %w", unix.EFAULT)
	}
	mem, err := openRetry("/proc/"+strconv.Itoa(tid)+"/mem", unix.O_WRONLY|unix.O_CLOEXEC)
	if err != nil {
		return fmt.Errorf("open target memory: %w", err)
	}
	defer unix.Close(mem)
	if err := valid(); err != nil {
		return err
	}
	done := 0
	for done < len(buf) {
		n, err := unix.Pwrite(mem, buf[done:], int64(addr)+int64(done))
		if errIs(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			// A fault part-way makes the count short: EFAULT, as the kernel says.
			return fmt.Errorf("write target memory: %w", syscall.EFAULT)
		}
		done += n
	}
	return nil
}
