package notify

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// The open family. The broker never lets the kernel continue an open that
// gives access to content (O_PATH opens, which give none, are the one
// exception: see handleOpen): it
// resolves the path itself (as the target would, symlinks followed unless
// O_NOFOLLOW, magic links refused), decides on the canonical path of the
// inode it holds, reopens exactly that inode through /proc/self/fd with the
// caller's flags, and injects the result with ADDFD|SEND. Creation resolves
// the parent, decides OpCreate on parent+name, and creates with O_EXCL and
// O_NOFOLLOW on the parent descriptor with the caller's credentials and
// umask, so a name swapped in after the check is never followed.
//
// Not supported: O_TMPFILE (EOPNOTSUPP; libc falls back to a named file),
// O_CREAT through a dangling symlink (EACCES), RESOLVE_CACHED (ignored: the
// broker always does the full lookup). Opening the target's own descriptors
// (/dev/fd/N, /dev/stdin, /proc/self/fd/N) or its own executable
// (/proc/self/exe) reopens the file it already holds, deciding on its
// canonical path; other magic links (/proc/*/cwd, root, map_files, other
// processes' fd) are refused with ELOOP, paths reaching the broker's own
// /proc with EACCES, and the ptrace-protected /proc entries of processes
// outside the sandbox with EACCES (CheckProc).
func init() { register(handleOpen, "open", "openat", "openat2", "creat") }

// openReq is one open call's arguments, normalised across the family.
type openReq struct {
	dirArg  int // argument holding the dirfd, -1 for AT_FDCWD
	path    string
	flags   int
	mode    uint32
	resolve uint64
}

// resolveCached is RESOLVE_CACHED (Linux 5.12), missing from x/sys/unix.
const resolveCached = 0x20

// Valid openat2 resolve flags.
const resolveKnown = unix.RESOLVE_NO_XDEV | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_SYMLINKS |
	unix.RESOLVE_BENEATH | unix.RESOLVE_IN_ROOT | resolveCached

func handleOpen(r *Request) Reply {
	o, err := readOpen(r)
	if err != nil {
		return ErrorOf(err)
	}
	if o.flags&unix.O_TMPFILE == unix.O_TMPFILE {
		return Errno(syscall.EOPNOTSUPP)
	}
	if o.flags&unix.O_PATH != 0 {
		// TOCTOU: the kernel cannot inject an O_PATH descriptor (ADDFD
		// refuses them), so the kernel opens it. An O_PATH descriptor
		// gives no content: every use that would (reopening it through
		// /proc/self/fd, the *at syscalls, execveat) is trapped and
		// decided on its canonical path, and the metadata it exposes is
		// already visible through the untrapped stat family.
		if r.sup.hideOPath {
			return r.openPathHidden(o)
		}
		r.auditOPath(o)
		return Continue("O_PATH: no access to content")
	}
	if fd, ok := ownFD(o.path); ok {
		return r.reopenOwn(fd, o.flags)
	}
	if o.path == "/proc/self/exe" || o.path == "/proc/thread-self/exe" {
		// Single-file executables (Bun, Deno, Node SEA) read themselves.
		f, err := r.ownExe()
		if err != nil {
			return ErrorOf(err)
		}
		return r.openExisting(f, o.flags&^unix.O_CREAT)
	}
	if o.flags&unix.O_CREAT != 0 {
		return r.openCreate(o)
	}
	f, err := r.resolveOpen(o, o.flags&unix.O_NOFOLLOW == 0)
	if err != nil {
		return ErrorOf(err)
	}
	return r.openExisting(f, o.flags)
}

// auditOPath arranges for the audit record of an O_PATH open to carry the
// canonical path, resolved just after the reply (off the target's path):
// the kernel opens it, so the name is what the broker finds there a moment
// later, for the auditor, not a decision.
func (r *Request) auditOPath(o openReq) {
	dirfd, err := r.dirFor(o)
	if err != nil {
		return
	}
	r.afterReply = func() {
		f, err := r.resolveFrom(dirfd, o, o.flags&unix.O_NOFOLLOW == 0)
		if err == nil {
			r.attempted = f.Path
			f.Close()
		}
	}
}

// openPathHidden serves an O_PATH open when the stat family is trapped
// (hidden names must not exist for the agent): the path is resolved and
// OpStat decided first, and a hidden name answers ENOENT. An allowed one
// still goes to the kernel (see handleOpen), so a sibling thread that
// swaps the path in between gets an O_PATH descriptor of a hidden file:
// its existence and metadata, never its content (a documented limit of the
// stat trap).
func (r *Request) openPathHidden(o openReq) Reply {
	f, err := r.resolveOpen(o, o.flags&unix.O_NOFOLLOW == 0)
	if err != nil {
		return ErrorOf(err)
	}
	var st unix.Stat_t
	if err := r.Valid(); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	if err := r.CheckProc(f.Path, false); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	if err := unix.Fstat(f.FD, &st); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	if err := r.allowInodeKey(policy.OpStat, f.Path, st.Dev, st.Ino); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	d := r.Decide(policy.OpStat, f.Path)
	if d.Action == policy.Redact && st.Mode&unix.S_IFMT == unix.S_IFREG {
		// The real file's descriptor would show its size and inode to
		// fstat; the view's, read-only, shows the stub's, as stat does.
		return r.injectStub(f, d.Rule, unix.O_RDONLY|o.flags&unix.O_CLOEXEC)
	}
	f.Close()
	if !d.Allowed() && d.Action != policy.Redact {
		return Denied(d, policy.OpStat)
	}
	return Continue("O_PATH: no access to content; existence decided")
}

// readOpen reads the arguments of any open-family syscall.
func readOpen(r *Request) (openReq, error) {
	o := openReq{dirArg: -1}
	pathArg := 0
	switch r.Syscall {
	case "open":
		o.flags, o.mode = int(int32(r.Arg(1))), uint32(r.Arg(2))
	case "creat":
		o.flags, o.mode = unix.O_CREAT|unix.O_WRONLY|unix.O_TRUNC, uint32(r.Arg(1))
	case "openat":
		o.dirArg, pathArg = 0, 1
		o.flags, o.mode = int(int32(r.Arg(2))), uint32(r.Arg(3))
	case "openat2":
		o.dirArg, pathArg = 0, 1
		if err := readOpenHow(r, &o); err != nil {
			return o, err
		}
	}
	path, err := r.ReadPath(pathArg)
	if err != nil {
		return o, err
	}
	o.path = path
	o.mode &= 0o7777
	ops := openOps(o.flags)
	r.attemptedOp = ops[len(ops)-1]
	if o.flags&unix.O_CREAT != 0 {
		r.attemptedOp = policy.OpCreate
	}
	return o, nil
}

// readOpenHow copies struct open_how with its size, as the kernel does.
func readOpenHow(r *Request, o *openReq) error {
	size := r.Arg(3)
	if size < openHowVer0 || size > pageSize {
		_, _, _, err := decodeOpenHow(make([]byte, min(size, pageSize+1)))
		return err
	}
	buf := make([]byte, size)
	if _, err := r.ReadMemory(r.Arg(2), buf); err != nil {
		return err
	}
	flags, mode, resolve, err := decodeOpenHow(buf)
	if err != nil {
		return err
	}
	o.flags, o.mode, o.resolve = flags, mode, resolve
	return nil
}

// openHowVer0 is the size of the first struct open_how (Linux 5.6).
const openHowVer0 = 24

// decodeOpenHow checks and decodes a struct open_how the way openat2 does:
// a size below version 0 is EINVAL, a larger one than the broker can read
// E2BIG, unknown trailing fields must be zero (E2BIG), and undefined flag,
// mode or resolve bits are EINVAL.
func decodeOpenHow(buf []byte) (flags int, mode uint32, resolve uint64, err error) {
	if len(buf) < openHowVer0 {
		return 0, 0, 0, fmt.Errorf("read open_how: %w", unix.EINVAL)
	}
	if len(buf) > pageSize {
		return 0, 0, 0, fmt.Errorf("read open_how: %w", unix.E2BIG)
	}
	for _, b := range buf[openHowVer0:] {
		if b != 0 {
			return 0, 0, 0, fmt.Errorf("read open_how: %w", unix.E2BIG)
		}
	}
	f := binary.LittleEndian.Uint64(buf[0:])
	m := binary.LittleEndian.Uint64(buf[8:])
	resolve = binary.LittleEndian.Uint64(buf[16:])
	if f>>32 != 0 || m&^0o7777 != 0 || resolve&^resolveKnown != 0 ||
		(m != 0 && f&(unix.O_CREAT|unix.O_TMPFILE) == 0) {
		return 0, 0, 0, fmt.Errorf("read open_how: %w", unix.EINVAL)
	}
	return int(f), uint32(m), resolve, nil
}

// dirFor returns the descriptor o.path is resolved from.
func (r *Request) dirFor(o openReq) (int, error) {
	if o.dirArg < 0 { // open, creat: relative to the cwd
		if strings.HasPrefix(o.path, "/") {
			return unix.AT_FDCWD, nil
		}
		return r.dirFD(unix.AT_FDCWD)
	}
	if o.resolve&(unix.RESOLVE_BENEATH|unix.RESOLVE_IN_ROOT) != 0 {
		return r.dirFD(int32(r.Arg(o.dirArg))) // even absolute paths start at dirfd
	}
	return r.DirFD(o.dirArg, o.path)
}

// resolveOpen resolves o.path to an O_PATH descriptor and its canonical
// path, as the caller: every directory on the way must be searchable with
// the caller's credentials, not only the last one (issue 14 item 12).
func (r *Request) resolveOpen(o openReq, follow bool) (fsops.File, error) {
	dirfd, err := r.dirFor(o)
	if err != nil {
		return fsops.File{}, err
	}
	var f fsops.File
	err = r.AsCaller(func() error {
		var err error
		f, err = r.resolveFrom(dirfd, o, follow)
		return err
	})
	return f, err
}

// resolveFrom resolves o.path from dirfd (see dirFor).
func (r *Request) resolveFrom(dirfd int, o openReq, follow bool) (fsops.File, error) {
	if o.resolve&^resolveCached != 0 {
		return resolveWith(dirfd, o.path, follow, o.resolve)
	}
	t, err := r.Target(o.path)
	if err != nil {
		return fsops.File{}, err
	}
	return t.ResolveFile(dirfd, o.path, follow, false)
}

// resolveWith honours the caller's openat2 RESOLVE_* flags (they only
// narrow the lookup) on top of the broker's own RESOLVE_NO_MAGICLINKS.
func resolveWith(dirfd int, path string, follow bool, resolve uint64) (fsops.File, error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolve&^resolveCached | unix.RESOLVE_NO_MAGICLINKS}
	if !follow {
		how.Flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat2(dirfd, path, &how)
	if err != nil {
		return fsops.File{}, fmt.Errorf("openat2 %s: %w", path, err)
	}
	canon, err := fsops.Canonical(fd)
	if err == nil && fsops.IsBrokerProc(canon) {
		err = fmt.Errorf("resolve %s: %w", canon, unix.EACCES)
	}
	if err != nil {
		unix.Close(fd)
		return fsops.File{}, err
	}
	return fsops.File{FD: fd, Path: canon}, nil
}

// openOps returns the operations an open with flags performs.
func openOps(flags int) []policy.Op {
	if flags&unix.O_PATH != 0 {
		return []policy.Op{policy.OpStat}
	}
	switch flags & unix.O_ACCMODE {
	case unix.O_WRONLY:
		return []policy.Op{policy.OpWrite}
	case unix.O_RDWR:
		return []policy.Op{policy.OpRead, policy.OpWrite}
	}
	if flags&unix.O_TRUNC != 0 {
		return []policy.Op{policy.OpRead, policy.OpWrite}
	}
	return []policy.Op{policy.OpRead}
}

// openExisting decides on f and injects a descriptor for it. It owns f.
func (r *Request) openExisting(f fsops.File, flags int) Reply {
	if err := r.Valid(); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	var st unix.Stat_t // one fstat for the checks below and reopen's
	if err := unix.Fstat(f.FD, &st); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	if flags&(unix.O_NOFOLLOW|unix.O_PATH) == unix.O_NOFOLLOW && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		f.Close()
		return Errno(syscall.ELOOP)
	}
	ops := openOps(flags)
	if err := r.CheckProc(f.Path, ops[len(ops)-1] == policy.OpWrite); err != nil {
		f.Close()
		return ErrorOf(err)
	}
	if err := r.allowInodeKey(ops[0], f.Path, st.Dev, st.Ino); err != nil {
		f.Close() // a hard link, made before the session, to a denied file
		return ErrorOf(err)
	}
	var d policy.Decision
	for _, op := range ops {
		d = r.Decide(op, f.Path)
		if d.Action == policy.Redact {
			if len(ops) == 1 && op == policy.OpRead {
				return r.injectStub(f, d.Rule, flags)
			}
			f.Close()
			return Denied(d, policy.OpWrite) // a redacted file is never changed
		}
		if !d.Allowed() {
			f.Close()
			return Denied(d, op)
		}
	}
	if err := r.guardShm(ops[len(ops)-1], f.FD, "", unix.AT_EMPTY_PATH, f.Path, shmOpenErrno(r.attemptedOp)); err != nil {
		f.Close() // another process's POSIX object (shmguard_linux.go)
		return ErrorOf(err)
	}
	if isDevice(st.Mode) {
		return r.openDevice(f, flags, &st, d) // device_linux.go: decided on the device number
	}
	defer f.Close()
	return r.reopenMode(f.FD, flags, st.Mode)
}

// reopen opens the inode behind fd again with the caller's flags, as the
// caller, and injects it.
func (r *Request) reopen(fd int, flags int) Reply {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		st.Mode = unix.S_IFIFO // unknown: treat as one that may block
	}
	return r.reopenMode(fd, flags, st.Mode)
}

// reopenMode is reopen for a file of type mode (st_mode).
func (r *Request) reopenMode(fd int, flags int, mode uint32) Reply {
	nfd, err := r.reopenFD(fd, flags, mode)
	if err != nil {
		return ErrorOf(err)
	}
	return InjectFD(nfd, flags&unix.O_CLOEXEC != 0)
}

// reopenFD opens the inode behind fd (of type mode) again with the
// caller's flags, as the caller, and returns the new descriptor.
func (r *Request) reopenFD(fd int, flags int, mode uint32) (int, error) {
	if mayBlock(mode) && flags&unix.O_NONBLOCK == 0 {
		if err := r.Detach(); err != nil {
			return -1, err // every slot taken: EAGAIN, without blocking
		}
	}
	const drop = unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC
	// A regular file's open blocks only on a lease break (up to
	// fs.lease-break-time, 45 s; the agent can hold a lease on its own
	// file): opened non-blocking first, it fails with EWOULDBLOCK then, and
	// only that open is detached, within the bound of blocking requests.
	leaseProbe := mode&unix.S_IFMT == unix.S_IFREG && flags&unix.O_NONBLOCK == 0
	open := func(extra int) (int, error) {
		var nfd int
		err := r.AsCaller(func() error {
			var err error
			nfd, err = openRetry("/proc/self/fd/"+strconv.Itoa(fd), flags&^drop|unix.O_CLOEXEC|unix.O_NOCTTY|extra)
			return err
		})
		return nfd, err
	}
	var nfd int
	var err error
	if !leaseProbe {
		return open(0)
	}
	nfd, err = open(unix.O_NONBLOCK)
	switch {
	case err == nil:
		// The status flags F_SETFL sets, as the caller asked: O_NONBLOCK off.
		if _, err := unix.FcntlInt(uintptr(nfd), unix.F_SETFL, flags&(unix.O_APPEND|unix.O_DIRECT|unix.O_NOATIME)); err != nil {
			unix.Close(nfd)
			return -1, err
		}
		return nfd, nil
	case errIs(err, unix.EWOULDBLOCK):
		if err := r.Detach(); err != nil {
			return -1, err // every slot taken: EAGAIN, without blocking
		}
		return open(0)
	}
	return -1, err
}

// mayBlock reports whether opening an inode of type mode can wait on
// another process: a FIFO without a peer, a terminal or other device.
func mayBlock(mode uint32) bool {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFDIR:
		return false
	}
	return true
}

func isSymlink(fd int) bool {
	var st unix.Stat_t
	return unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// errIs reports whether err carries errno e.
func errIs(err error, e syscall.Errno) bool { return errors.Is(err, e) }
