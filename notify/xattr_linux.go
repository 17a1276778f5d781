package notify

import (
	"bytes"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// The xattr getters by path (getxattr, lgetxattr, listxattr, llistxattr,
// and getxattrat and listxattrat of Linux 6.13) are trapped in every
// session: an extended attribute's value is content (user.* attributes
// hold whatever a program put there, and a name is content too), so the
// getters are decided like a read. The broker resolves the path as the
// caller, decides OpStat on its canonical path (a hidden name answers as
// stat would) and then OpRead: a file the agent may not read, or sees
// only as its redacted view, has no attributes (getxattr ENODATA,
// listxattr an empty list), what a filesystem without xattrs answers,
// which ls, cp -a, rsync -X and tar take in their stride. An allowed file's
// attributes are read by the broker, as the caller (reading user.* needs
// read permission, trusted.* CAP_SYS_ADMIN), through /proc/self/fd of its
// resolved descriptor (fgetxattr and getxattrat with AT_EMPTY_PATH refuse
// O_PATH descriptors with EBADF, Linux 6.18 included), and copied into
// the target's buffer.
//
// fgetxattr and flistxattr are not trapped: the descriptor's open was
// decided, and the kernel refuses them on O_PATH descriptors (which the
// kernel opens undecided). The same holds here: the path getters on an
// O_PATH descriptor the target holds (AT_EMPTY_PATH, /proc/self/fd/N)
// are decided on the descriptor's canonical path (/proc/self/fd/N), or
// refused with EBADF as the kernel does (AT_EMPTY_PATH).
func init() {
	register(handleGetxattr, "getxattr", "lgetxattr", "getxattrat")
	register(handleListxattr, "listxattr", "llistxattr", "listxattrat")
}

// Kernel limits (include/uapi/linux/limits.h, fs/xattr.c).
const (
	xattrNameMax  = 255
	xattrSizeMax  = 1 << 16
	xattrListMax  = 1 << 16
	xattrArgsSize = 16 // sizeof(struct xattr_args), XATTR_ARGS_SIZE_VER0
	xattrAtFlags  = unix.AT_SYMLINK_NOFOLLOW | unix.AT_EMPTY_PATH
)

// xattrCall is one getter's arguments, normalised.
type xattrCall struct {
	at        pathArg
	follow    bool
	emptyPath bool
	name      int    // argument holding the name (getxattr family), -1 for list
	buf       uint64 // where the value or list goes
	size      int    // its size (0: the caller asks for the size)
}

// readXattrCall reads the arguments of any getter. getxattrat passes its
// value buffer in a struct xattr_args, whose reserved flags must be zero
// and whose bytes beyond the known size must be zero too (EINVAL, E2BIG as
// the kernel's copy_struct_from_user).
func readXattrCall(r *Request) (xattrCall, error) {
	c := xattrCall{at: pathArg{-1, 0}, follow: true, name: 1, buf: r.Arg(2), size: int(r.Arg(3))}
	switch r.Syscall {
	case "lgetxattr":
		c.follow = false
	case "listxattr", "llistxattr":
		c.follow, c.name, c.buf, c.size = r.Syscall == "listxattr", -1, r.Arg(1), int(r.Arg(2))
	case "getxattrat", "listxattrat":
		if !haveXattrat() {
			return c, unix.ENOSYS // the broker gives no syscall the kernel lacks
		}
		flags := int(int32(r.Arg(2)))
		if flags&^xattrAtFlags != 0 {
			return c, unix.EINVAL
		}
		c.at, c.follow, c.emptyPath = pathArg{0, 1}, flags&unix.AT_SYMLINK_NOFOLLOW == 0, flags&unix.AT_EMPTY_PATH != 0
		if r.Syscall == "listxattrat" {
			c.name, c.buf, c.size = -1, r.Arg(3), int(r.Arg(4))
			break
		}
		c.name = 3
		value, size, err := r.readXattrArgs(r.Arg(4), r.Arg(5))
		if err != nil {
			return c, err
		}
		c.buf, c.size = value, size
	}
	if uint64(c.size) > 1<<31 { // size_t: a huge value is capped below
		c.size = 1 << 31
	}
	return c, nil
}

// haveXattrat reports whether the kernel has getxattrat and listxattrat
// (Linux 6.13): asked once, with a NULL path, which a kernel that has them
// answers with EFAULT or ENOENT, one without with ENOSYS.
var haveXattrat = sync.OnceValue(func() bool {
	_, _, errno := unix.Syscall6(unix.SYS_LISTXATTRAT, ^uintptr(99), 0, 0, 0, 0, 0) // AT_FDCWD (-100)
	return errno != unix.ENOSYS
})

// readXattrArgs reads getxattrat's struct xattr_args { u64 value; u32
// size; u32 flags; } of usize bytes at addr.
func (r *Request) readXattrArgs(addr, usize uint64) (uint64, int, error) {
	if usize < xattrArgsSize {
		return 0, 0, unix.EINVAL
	}
	if usize > pageSize {
		return 0, 0, unix.E2BIG
	}
	buf := make([]byte, usize)
	if _, err := r.ReadMemory(addr, buf); err != nil {
		return 0, 0, unix.EFAULT
	}
	if bytes.IndexFunc(buf[xattrArgsSize:], func(c rune) bool { return c != 0 }) >= 0 {
		return 0, 0, unix.E2BIG
	}
	if binary.NativeEndian.Uint32(buf[12:16]) != 0 {
		return 0, 0, unix.EINVAL
	}
	return binary.NativeEndian.Uint64(buf[0:8]), int(binary.NativeEndian.Uint32(buf[8:12])), nil
}

// readXattrName reads an attribute name: empty or longer than 255 bytes
// is ERANGE, as the kernel says.
func (r *Request) readXattrName(i int) (string, error) {
	name, err := r.ReadString(r.Arg(i), xattrNameMax+1)
	if errIs(err, unix.ENAMETOOLONG) || (err == nil && name == "") {
		return "", unix.ERANGE
	}
	return name, err
}

// handleGetxattr serves getxattr(path, name, value, size), lgetxattr and
// getxattrat(dirfd, path, at_flags, name, args, usize).
func handleGetxattr(r *Request) Reply {
	r.attemptedOp = policy.OpRead
	c, err := readXattrCall(r)
	if err != nil {
		return ErrorOf(err)
	}
	name, err := r.readXattrName(c.name)
	if err != nil {
		return ErrorOf(err)
	}
	f, readable, err := r.resolveXattr(c)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	if !readable {
		return Errno(unix.ENODATA)
	}
	buf := make([]byte, min(c.size, xattrSizeMax))
	var n int
	err = r.AsCaller(func() error {
		var err error
		n, err = unix.Getxattr(procSelfFD(f.FD), name, buf)
		return err
	})
	if err != nil {
		return ErrorOf(err)
	}
	if c.size == 0 {
		return Value(int64(n)) // the size the caller asked for
	}
	return r.writeCount(c.buf, buf[:n])
}

// handleListxattr serves listxattr(path, list, size), llistxattr and
// listxattrat(dirfd, path, at_flags, list, size).
func handleListxattr(r *Request) Reply {
	r.attemptedOp = policy.OpRead
	c, err := readXattrCall(r)
	if err != nil {
		return ErrorOf(err)
	}
	f, readable, err := r.resolveXattr(c)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	if !readable {
		return Value(0) // no attributes
	}
	buf := make([]byte, min(c.size, xattrListMax))
	var n int
	err = r.AsCaller(func() error {
		var err error
		n, err = unix.Listxattr(procSelfFD(f.FD), buf)
		return err
	})
	if err != nil {
		return ErrorOf(err)
	}
	if c.size == 0 {
		return Value(int64(n))
	}
	return r.writeCount(c.buf, buf[:n])
}

// writeCount copies buf to addr in the target and answers with its
// length.
func (r *Request) writeCount(addr uint64, buf []byte) Reply {
	if err := r.WriteMemory(addr, buf); err != nil {
		return ErrorOf(err)
	}
	return Value(int64(len(buf)))
}

// resolveXattr resolves a getter's path as stat does (OpStat decided: a
// hidden name is the rule's errno) and reports whether its attributes may
// be read (OpRead allowed, not redacted). A descriptor the target holds
// is readable unless it is an O_PATH one, which the kernel opened
// undecided: that one is decided on its canonical path.
func (r *Request) resolveXattr(c xattrCall) (fsops.File, bool, error) {
	o, err := r.statOperand(c.at, c.emptyPath)
	if err != nil {
		return fsops.File{}, false, err
	}
	held := -1
	if o.path == "" && c.emptyPath {
		held = int(int32(r.Arg(c.at.dir)))
	} else if n, ok := ownFD(o.path); ok {
		if !c.follow {
			// The link itself (/proc/<pid>/fd/N, or /dev/stdin's)
			// carries no attributes: what the kernel answers.
			return fsops.File{FD: -1}, false, nil
		}
		held = n
	}
	f, d, err := r.resolveStat(o, c.follow, c.emptyPath)
	if err != nil {
		return fsops.File{}, false, err
	}
	if f.Path == "" { // a held descriptor, or the cwd (AT_FDCWD, empty path)
		// The cwd was set by chdir or fchdir, which the kernel performs
		// undecided (into ~/.ssh, say): decided on its canonical path.
		cwd := held == unix.AT_FDCWD
		if !cwd && (held < 0 || !r.heldOPath(held, f.FD)) {
			return f, true, nil
		}
		if o.path == "" && !cwd {
			f.Close() // the kernel's fdget refuses an O_PATH descriptor here
			return fsops.File{}, false, unix.EBADF
		}
		canon, err := fsops.Canonical(f.FD)
		if err != nil {
			return f, false, nil // no path to decide on: nothing to show
		}
		if err := r.CheckProc(canon, false); err != nil {
			f.Close()
			return fsops.File{}, false, err
		}
		f.Path = canon
		d = policy.Decision{Action: policy.Allow}
		if r.Decide(policy.OpStat, canon).Action == policy.Deny {
			return f, false, nil
		}
		if r.allowInode(policy.OpRead, f) != nil {
			return f, false, nil // a denied file under another name (a hard link made before)
		}
	}
	if d.Action == policy.Redact {
		return f, false, nil // the redacted view has no attributes
	}
	return f, r.Decide(policy.OpRead, f.Path).Allowed(), nil
}

// heldOPath reports whether the target's descriptor n, which the broker
// reopened as fd, is an O_PATH one (read from /proc/<tid>/fdinfo/n;
// unknown counts as O_PATH, the stricter answer). A sibling thread can
// dup2 another descriptor over n between the reopen and this read, so
// the flags count only when fdinfo's inode and mount are fd's: otherwise
// the flags may be those of another file's descriptor.
func (r *Request) heldOPath(n, fd int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(r.TID()) + "/fdinfo/" + strconv.Itoa(n))
	if err != nil {
		return true
	}
	var st unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_MNT_ID, &st); err != nil {
		return true
	}
	var flags uint64
	seen := 0
	for _, line := range strings.Split(string(data), "\n") {
		key, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch key {
		case "flags":
			if flags, err = strconv.ParseUint(v, 8, 64); err != nil {
				return true
			}
			seen |= 1
		case "mnt_id":
			if id, err := strconv.ParseUint(v, 10, 64); err != nil || id != st.Mnt_id {
				return true
			}
			seen |= 2
		case "ino":
			if ino, err := strconv.ParseUint(v, 10, 64); err != nil || ino != st.Ino {
				return true
			}
			seen |= 4
		}
	}
	return seen != 7 || flags&unix.O_PATH != 0
}

// procSelfFD names the broker's descriptor fd as a path: the xattr calls
// follow it to exactly that inode (a symlink's own, for a descriptor of
// one).
func procSelfFD(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
