package fsops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Target is the thread a path is resolved for: its root directory and its
// ids, which give /proc/self and /proc/thread-self their meaning.
type Target struct {
	// Root is an O_PATH descriptor of the target's root directory
	// (/proc/<tid>/root), or -1 when the target shares the broker's root.
	Root int
	// TGID and TID are the target's process and thread ids as the broker
	// sees them.
	TGID, TID int
	// Crossing, when set, is called before a path is resolved with each
	// prefix of it that a ".." component then leaves ("a/b" of
	// "a/b/../c"), except prefixes of only "." and ".." (the cwd and its
	// parents); an error stops the resolution. The kernel walks ".." as
	// written, so without it a name the policy hides could be crossed on
	// the way to an allowed one, and the success would say it exists.
	Crossing func(dirfd int, prefix string) error

	chrooted bool
}

// NewTarget returns the Target for a thread whose root directory is open as
// root (-1: the broker's own root). It compares root with the broker's "/"
// once, so that the common unchrooted case resolves without RESOLVE_IN_ROOT.
func NewTarget(root, tgid, tid int) (Target, error) {
	t := Target{Root: root, TGID: tgid, TID: tid}
	if root < 0 {
		return t, nil
	}
	same, err := sameDir(root, "/")
	if err != nil {
		return Target{}, err
	}
	t.chrooted = !same
	return t, nil
}

// sameDir reports whether fd and path name the same directory on the same
// mount.
func sameDir(fd int, path string) (bool, error) {
	const mask = unix.STATX_INO | unix.STATX_MNT_ID
	var a, b unix.Statx_t
	if err := statx(fd, "", unix.AT_EMPTY_PATH, mask, &a); err != nil {
		return false, err
	}
	if err := statx(unix.AT_FDCWD, path, 0, mask, &b); err != nil {
		return false, err
	}
	return a.Ino == b.Ino && a.Dev_major == b.Dev_major && a.Dev_minor == b.Dev_minor &&
		a.Mnt_id == b.Mnt_id, nil
}

func statx(dirfd int, path string, flags, mask int, st *unix.Statx_t) error {
	err := retry(func() error { return unix.Statx(dirfd, path, flags, mask, st) })
	if err != nil {
		return &os.PathError{Op: "statx", Path: path, Err: err}
	}
	return nil
}

// Parent is the directory a path's last component lives in, open as an
// O_PATH descriptor, and that component as the kernel will see it.
type Parent struct {
	FD int // O_PATH|O_DIRECTORY descriptor; the caller closes it (Close)
	// Name is the last component, passed to the *at syscalls as written:
	// it may be ".", "..", "/" or carry trailing slashes, and the kernel
	// then answers with its own errno.
	Name string
	Dir  string // canonical path of the directory FD refers to
}

// Path is the canonical path of the name the operation touches: what the
// policy decides on.
func (p Parent) Path() string {
	name := strings.TrimRight(p.Name, "/")
	if name == "" {
		return "/"
	}
	return filepath.Join(p.Dir, name)
}

// Close releases the parent descriptor.
func (p Parent) Close() error { return unix.Close(p.FD) }

// ResolveParent resolves the directory part of path, relative to dirfd (the
// target's dirfd or cwd, already a descriptor in the broker; AT_FDCWD would
// mean the broker's own cwd, so pass it only with absolute paths), as the
// kernel would for the target, and returns it open with its canonical path. The
// last component is not looked up: operations that must not follow a final
// symlink (unlink, rename, link, mkdir, mknod, symlink) act on (FD, Name).
// An empty path is ENOENT; a magic link on the way is ELOOP.
func (t Target) ResolveParent(dirfd int, path string) (Parent, error) {
	if path == "" {
		return Parent{}, &os.PathError{Op: "resolve", Path: path, Err: unix.ENOENT}
	}
	if err := t.crossings(dirfd, path); err != nil {
		return Parent{}, err
	}
	dir, name := splitLast(t.rewriteProc(path))
	fd, err := t.open(dirfd, dir, unix.O_PATH|unix.O_DIRECTORY)
	if err != nil {
		return Parent{}, err
	}
	canon, err := t.checked(fd)
	if err != nil {
		unix.Close(fd)
		return Parent{}, err
	}
	return Parent{FD: fd, Name: name, Dir: canon}, nil
}

// File is a resolved path: an O_PATH descriptor of the inode and its
// canonical path.
type File struct {
	FD   int // O_PATH descriptor; the caller closes it (Close)
	Path string
}

// Close releases the descriptor.
func (f File) Close() error { return unix.Close(f.FD) }

// ResolveFile resolves the whole of path relative to dirfd to an O_PATH
// descriptor. With follow, a final symlink is followed (truncate, chmod,
// chown, utimes without AT_SYMLINK_NOFOLLOW); without, the descriptor refers
// to the symlink itself. With emptyPath and path == "", the result is a
// duplicate of dirfd itself (AT_EMPTY_PATH).
func (t Target) ResolveFile(dirfd int, path string, follow, emptyPath bool) (File, error) {
	if err := t.crossings(dirfd, path); err != nil {
		return File{}, err
	}
	var fd int
	var err error
	switch {
	case path == "" && emptyPath:
		fd, err = dupFD(dirfd)
	case path == "":
		err = &os.PathError{Op: "resolve", Path: path, Err: unix.ENOENT}
	default:
		flags := unix.O_PATH
		if !follow {
			flags |= unix.O_NOFOLLOW
		}
		fd, err = t.open(dirfd, path, flags)
	}
	if err != nil {
		return File{}, err
	}
	canon, err := t.checked(fd)
	if err != nil {
		unix.Close(fd)
		return File{}, err
	}
	return File{FD: fd, Path: canon}, nil
}

func dupFD(fd int) (int, error) {
	nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "dup", Path: strconv.Itoa(fd), Err: err}
	}
	return nfd, nil
}

// checked returns the canonical path of fd, refusing the broker's own /proc.
func (t Target) checked(fd int) (string, error) {
	canon, err := Canonical(fd)
	if err != nil {
		return "", err
	}
	if IsBrokerProc(canon) {
		return "", &os.PathError{Op: "resolve", Path: canon, Err: ErrBrokerProc}
	}
	return canon, nil
}

// splitLast splits path into the part to resolve and the last component.
// The last component keeps its trailing slashes ("a/b/" → "a", "b/"); a
// path of slashes only is ("/", "/").
func splitLast(path string) (dir, name string) {
	trimmed := strings.TrimRight(path, "/")
	if trimmed == "" {
		return "/", "/"
	}
	i := strings.LastIndex(trimmed, "/")
	if i < 0 {
		return ".", path
	}
	dir = trimmed[:i]
	if dir == "" || strings.Trim(dir, "/") == "" {
		dir = "/"
	}
	return dir, path[i+1:]
}

// open resolves path like the kernel would for the target and opens it with
// flags (O_PATH at least). Magic links are refused (ELOOP).
func (t Target) open(dirfd int, path string, flags int) (int, error) {
	rewritten := t.rewriteProc(path)
	if n, rest, ok := t.ownFDPath(rewritten); ok && !t.chrooted && (rest != "" || flags&unix.O_DIRECTORY != 0) {
		fdDir, err := t.openOwnFD(n)
		if err != nil {
			return -1, &os.PathError{Op: "openat2", Path: path, Err: err}
		}
		defer unix.Close(fdDir)
		if rest == "" {
			rest = "."
		}
		dirfd, rewritten = fdDir, rest
	}
	start, rel, resolve, err := t.start(dirfd, rewritten)
	if err != nil {
		return -1, err
	}
	how := unix.OpenHow{
		Flags:   uint64(flags | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_NO_MAGICLINKS | resolve,
	}
	var fd int
	for range 16 { // RESOLVE_IN_ROOT answers EAGAIN when a rename races "..": retry
		fd, err = retryFD(func() (int, error) { return unix.Openat2(start, rel, &how) })
		if !errors.Is(err, unix.EAGAIN) {
			break
		}
	}
	if err != nil {
		return -1, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
	return fd, nil
}

// start picks where the kernel would start resolving path for the target:
// the broker's "/" or the target's root for absolute paths, dirfd for
// relative ones. For a chrooted target everything is resolved in its root
// with RESOLVE_IN_ROOT, relative paths prefixed by dirfd's place in it.
func (t Target) start(dirfd int, path string) (int, string, uint64, error) {
	if !t.chrooted {
		if strings.HasPrefix(path, "/") {
			return unix.AT_FDCWD, path, 0, nil
		}
		return dirfd, path, 0, nil
	}
	if strings.HasPrefix(path, "/") {
		return t.Root, path, unix.RESOLVE_IN_ROOT, nil
	}
	rootPath, err := Canonical(t.Root)
	if err != nil {
		return 0, "", 0, err
	}
	dirPath, err := Canonical(dirfd)
	if err != nil {
		return 0, "", 0, err
	}
	rel, err := filepath.Rel(rootPath, dirPath)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return 0, "", 0, &os.PathError{Op: "resolve", Path: path, Err: ErrOutsideRoot}
	}
	return t.Root, rel + "/" + path, unix.RESOLVE_IN_ROOT, nil
}

// rewriteProc gives /proc/self and /proc/thread-self at the start of an
// absolute path the target's meaning. Other spellings that reach the
// broker's own entries are caught after resolution (IsBrokerProc).
func (t Target) rewriteProc(path string) string {
	if t.TGID <= 0 || !strings.HasPrefix(path, "/") {
		return path
	}
	rest, ok := cutProcPrefix(path)
	if !ok {
		return path
	}
	first, tail, _ := strings.Cut(rest, "/")
	var repl string
	switch first {
	case "self":
		repl = "/proc/" + strconv.Itoa(t.TGID)
	case "thread-self":
		repl = "/proc/" + strconv.Itoa(t.TGID) + "/task/" + strconv.Itoa(t.TID)
	default:
		return path
	}
	if tail == "" && !strings.HasSuffix(rest, "/") {
		return repl
	}
	return repl + "/" + tail
}

// ownFDPath recognises a path through one of the target's own descriptors,
// as written after rewriteProc: /proc/<tgid>/fd/N/rest,
// /proc/<tgid>/task/<tid>/fd/N/rest or /dev/fd/N/rest. The kernel resolves
// such a path exactly like openat(N, rest); runtimes such as Bun spell
// their *at calls this way. Any other route through a magic link stays
// refused (ELOOP).
func (t Target) ownFDPath(path string) (n int, rest string, ok bool) {
	if t.TGID <= 0 {
		return 0, "", false
	}
	tg := strconv.Itoa(t.TGID)
	var after string
	for _, prefix := range []string{"/dev/fd/", "/proc/" + tg + "/fd/", "/proc/" + tg + "/task/" + strconv.Itoa(t.TID) + "/fd/"} {
		if a, found := strings.CutPrefix(path, prefix); found {
			after, ok = a, true
			break
		}
	}
	if !ok {
		return 0, "", false
	}
	num, rest, _ := strings.Cut(after, "/")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || num == "" || num[0] == '+' {
		return 0, "", false
	}
	return n, rest, true
}

// openOwnFD opens, O_PATH, what the target thread's descriptor n refers to
// (following /proc/<tid>/fd/n on purpose: it is the target's own object).
func (t Target) openOwnFD(n int) (int, error) {
	link := "/proc/" + strconv.Itoa(t.TID) + "/fd/" + strconv.Itoa(n)
	fd, err := retryFD(func() (int, error) { return unix.Open(link, unix.O_PATH|unix.O_CLOEXEC, 0) })
	if errors.Is(err, unix.ENOENT) {
		return -1, unix.EBADF // the target has no descriptor n
	}
	return fd, err
}

// cutProcPrefix strips a leading "/proc/" (any number of slashes) and
// returns what follows with its leading slashes removed.
func cutProcPrefix(path string) (string, bool) {
	rest := strings.TrimLeft(path, "/")
	rest, ok := strings.CutPrefix(rest, "proc/")
	if !ok {
		return "", false
	}
	return strings.TrimLeft(rest, "/"), true
}

// IsBrokerProc reports whether a canonical path is inside /proc/<n> where n
// is the broker process or one of its threads.
func IsBrokerProc(canon string) bool {
	rest, ok := strings.CutPrefix(canon, "/proc/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(first)
	if err != nil || n <= 0 {
		return false
	}
	if n == os.Getpid() {
		return true
	}
	var st unix.Stat_t
	return unix.Stat("/proc/self/task/"+first, &st) == nil
}

// Canonical returns the absolute path the kernel associates with fd
// (readlink of /proc/self/fd/N). A descriptor that is not a path in the
// filesystem (pipe, socket, anon inode) or whose name was deleted is an
// error (ENOENT), so nothing is decided on a name that no longer exists.
func Canonical(fd int) (string, error) {
	link := "/proc/self/fd/" + strconv.Itoa(fd)
	buf := make([]byte, 256)
	for {
		n, err := retryFD(func() (int, error) { return unix.Readlink(link, buf) })
		if err != nil {
			return "", &os.PathError{Op: "readlink", Path: link, Err: err}
		}
		if n < len(buf) {
			return checkCanonical(fd, string(buf[:n]))
		}
		if len(buf) >= 1<<16 {
			return "", &os.PathError{Op: "readlink", Path: link, Err: unix.ENAMETOOLONG}
		}
		buf = make([]byte, 2*len(buf))
	}
}

const deletedSuffix = " (deleted)"

func checkCanonical(fd int, p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", &os.PathError{Op: "canonical", Path: p, Err: unix.ENOENT}
	}
	if !strings.HasSuffix(p, deletedSuffix) {
		return p, nil
	}
	// Either a name that really ends in " (deleted)" or an unlinked file.
	same, err := sameInode(fd, p)
	if err != nil || !same {
		return "", &os.PathError{Op: "canonical", Path: p, Err: unix.ENOENT}
	}
	return p, nil
}

func sameInode(fd int, path string) (bool, error) {
	var a, b unix.Stat_t
	if err := unix.Fstat(fd, &a); err != nil {
		return false, err
	}
	if err := unix.Lstat(path, &b); err != nil {
		return false, err
	}
	return a.Dev == b.Dev && a.Ino == b.Ino, nil
}

// retry runs f again while it fails with EINTR.
func retry(f func() error) error {
	for {
		err := f()
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func retryFD(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

// ErrnoOf returns the errno to answer the target with: the kernel's own
// when err carries one, EACCES (refuse) for any other failure.
func ErrnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return unix.EACCES
}

// String helps tests and logs.
func (p Parent) String() string { return fmt.Sprintf("%s (fd %d, name %q)", p.Dir, p.FD, p.Name) }

// crossings calls t.Crossing for each prefix of path that a ".." leaves.
func (t Target) crossings(dirfd int, path string) error {
	if t.Crossing == nil || !strings.Contains(path, "..") {
		return nil
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p != ".." || i == 0 {
			continue
		}
		prefix := strings.Join(parts[:i], "/")
		if strings.Trim(prefix, "./") == "" {
			continue // "/", ".", "..", "../..": the root, the cwd and its parents
		}
		if err := t.Crossing(dirfd, prefix); err != nil {
			return err
		}
	}
	return nil
}
