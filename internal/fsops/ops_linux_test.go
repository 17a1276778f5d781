package fsops

import (
	"reflect"
	"testing"

	"golang.org/x/sys/unix"
)

// opCase is one operation run twice: natively on one copy of the standard
// tree and through fsops on another. Both must answer want and leave the
// trees identical.
type opCase struct {
	op   string // see native and emulated
	a, b string
	arg  uint64 // flags, mode or length
	want string // errno name or "ok"
	// fsopsOnly: the broker deliberately differs from a privileged native
	// call (device nodes); only want is checked.
	fsopsOnly bool
}

var opCases = []opCase{
	{op: "rename", a: "f", b: "h", want: "ok"},
	{op: "rename", a: "f", b: "g", want: "ok"},
	{op: "rename", a: "f", b: "d", want: "EISDIR"},
	{op: "rename", a: "d", b: "f", want: "ENOTDIR"},
	{op: "rename", a: "d", b: "e", want: "ok"},
	{op: "rename", a: "e", b: "d", want: "ENOTEMPTY"},
	{op: "rename", a: "e", b: "h/", want: "ok"},
	{op: "rename", a: "f/", b: "h", want: "ENOTDIR"},
	{op: "rename", a: "missing", b: "h", want: "ENOENT"},
	{op: "rename", a: "f", b: "nodir/h", want: "ENOENT"},
	{op: "rename", a: "f", b: "g/h", want: "ENOTDIR"},
	{op: "rename", a: ".", b: "h", want: "EBUSY"},
	{op: "rename", a: "d/..", b: "h", want: "EBUSY"},
	{op: "rename", a: "d/.", b: "h", want: "EBUSY"},
	{op: "rename", a: "e/.", b: "h", want: "EBUSY"},
	{op: "rename", a: "d", b: "d/sub", want: "EINVAL"},
	{op: "rename", a: "ln", b: "h", want: "ok"},
	{op: "rename", a: "dlink/x", b: "h", want: "ok"},
	{op: "rename", a: "loop1/x", b: "h", want: "ELOOP"},
	{op: "rename", a: "f", b: "g", arg: unix.RENAME_NOREPLACE, want: "EEXIST"},
	{op: "rename", a: "f", b: "d", arg: unix.RENAME_EXCHANGE, want: "ok"},
	{op: "rename", a: "f", b: "h", arg: unix.RENAME_EXCHANGE, want: "ENOENT"},
	{op: "link", a: "f", b: "h", want: "ok"},
	{op: "link", a: "f", b: "g", want: "EEXIST"},
	{op: "link", a: "d", b: "h", want: "EPERM"},
	{op: "link", a: "missing", b: "h", want: "ENOENT"},
	{op: "link", a: "ln", b: "h", want: "ok"},
	{op: "link", a: "f", b: ".", want: "EEXIST"},
	{op: "link", a: "f", b: "h/", want: "ENOENT"},
	{op: "link", a: "ln", b: "h", arg: unix.AT_SYMLINK_FOLLOW, want: "ok"},
	{op: "link", a: "loop1", b: "h", arg: unix.AT_SYMLINK_FOLLOW, want: "ELOOP"},
	{op: "link", a: "dangling", b: "h", arg: unix.AT_SYMLINK_FOLLOW, want: "ENOENT"},
	{op: "symlink", a: "anything", b: "h", want: "ok"},
	{op: "symlink", a: "anything", b: "f", want: "EEXIST"},
	{op: "symlink", a: "anything", b: "dangling", want: "EEXIST"},
	{op: "symlink", a: "anything", b: "nodir/h", want: "ENOENT"},
	{op: "symlink", a: "anything", b: "..", want: "EEXIST"},
	{op: "unlink", a: "f", want: "ok"},
	{op: "unlink", a: "ln", want: "ok"},
	{op: "unlink", a: "dlink", want: "ok"},
	{op: "unlink", a: "d", want: "EISDIR"},
	{op: "unlink", a: "missing", want: "ENOENT"},
	{op: "unlink", a: "f/", want: "ENOTDIR"},
	{op: "unlink", a: ".", want: "EISDIR"},
	{op: "unlink", a: "dlink/x", want: "ok"},
	{op: "rmdir", a: "e", want: "ok"},
	{op: "rmdir", a: "e/", want: "ok"},
	{op: "rmdir", a: "d", want: "ENOTEMPTY"},
	{op: "rmdir", a: "f", want: "ENOTDIR"},
	{op: "rmdir", a: "dlink", want: "ENOTDIR"},
	{op: "rmdir", a: ".", want: "EINVAL"},
	{op: "rmdir", a: "e/.", want: "EINVAL"},
	{op: "rmdir", a: "d/..", want: "ENOTEMPTY"},
	{op: "mkdir", a: "h", arg: 0o755, want: "ok"},
	{op: "mkdir", a: "h/", arg: 0o700, want: "ok"},
	{op: "mkdir", a: "f", arg: 0o755, want: "EEXIST"},
	{op: "mkdir", a: "dangling", arg: 0o755, want: "EEXIST"},
	{op: "mkdir", a: "nodir/h", arg: 0o755, want: "ENOENT"},
	{op: "mkdir", a: "f/h", arg: 0o755, want: "ENOTDIR"},
	{op: "mkdir", a: "loop1/h", arg: 0o755, want: "ELOOP"},
	{op: "mkdir", a: "dlink/h", arg: 0o755, want: "ok"},
	{op: "mkdir", a: "", arg: 0o755, want: "ENOENT"},
	{op: "mknod", a: "h", arg: unix.S_IFIFO | 0o644, want: "ok"},
	{op: "mknod", a: "h", arg: unix.S_IFREG | 0o600, want: "ok"},
	{op: "mknod", a: "f", arg: unix.S_IFREG | 0o600, want: "EEXIST"},
	{op: "mknod", a: "h", arg: unix.S_IFCHR | 0o600, want: "EPERM", fsopsOnly: true},
	{op: "mknod", a: "h", arg: unix.S_IFBLK | 0o600, want: "EPERM", fsopsOnly: true},
	{op: "truncate", a: "f", arg: 2, want: "ok"},
	{op: "truncate", a: "ln", arg: 1, want: "ok"},
	{op: "truncate", a: "f", arg: 100, want: "ok"},
	{op: "truncate", a: "d", want: "EISDIR"},
	{op: "truncate", a: "fifo", want: "EINVAL"},
	{op: "truncate", a: "loop1", want: "ELOOP"},
	{op: "truncate", a: "dangling", want: "ENOENT"},
	{op: "truncate", a: "f/", want: "ENOTDIR"},
	{op: "chmod", a: "f", arg: 0o600, want: "ok"},
	{op: "chmod", a: "ln", arg: 0o640, want: "ok"},
	{op: "chmod", a: "d", arg: 0o700, want: "ok"},
	{op: "chmod", a: "missing", arg: 0o700, want: "ENOENT"},
	{op: "lchmod", a: "f", arg: 0o600, want: "ok"},
	{op: "lchmod", a: "ln", arg: 0o600, want: "ENOTSUP"},
	{op: "chown", a: "f", want: "ok"},
	{op: "chown", a: "ln", want: "ok"},
	{op: "lchown", a: "ln", want: "ok"},
	{op: "lchown", a: "dangling", want: "ok"},
	{op: "chown", a: "dangling", want: "ENOENT"},
	{op: "utimens", a: "f", want: "ok"},
	{op: "utimens", a: "ln", want: "ok"},
	{op: "utimens", a: "loop1", want: "ELOOP"},
}

var fixedTimes = []unix.Timespec{{Sec: 1000}, {Sec: 2000}}

// native runs c with the plain syscalls relative to dirfd.
func native(c opCase, dirfd int) error {
	switch c.op {
	case "rename":
		return unix.Renameat2(dirfd, c.a, dirfd, c.b, uint(c.arg))
	case "link":
		return unix.Linkat(dirfd, c.a, dirfd, c.b, int(c.arg))
	case "symlink":
		return unix.Symlinkat(c.a, dirfd, c.b)
	case "unlink":
		return unix.Unlinkat(dirfd, c.a, 0)
	case "rmdir":
		return unix.Unlinkat(dirfd, c.a, unix.AT_REMOVEDIR)
	case "mkdir":
		return unix.Mkdirat(dirfd, c.a, uint32(c.arg))
	case "mknod":
		return unix.Mknodat(dirfd, c.a, uint32(c.arg), 0)
	case "truncate":
		fd, err := unix.Openat(dirfd, ".", unix.O_PATH, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		return unix.Truncate(procPath(fd)+"/"+c.a, int64(c.arg))
	case "chmod":
		return unix.Fchmodat(dirfd, c.a, uint32(c.arg), 0)
	case "lchmod":
		return unix.Fchmodat(dirfd, c.a, uint32(c.arg), unix.AT_SYMLINK_NOFOLLOW)
	case "chown":
		return unix.Fchownat(dirfd, c.a, -1, unix.Getgid(), 0)
	case "lchown":
		return unix.Fchownat(dirfd, c.a, -1, unix.Getgid(), unix.AT_SYMLINK_NOFOLLOW)
	case "utimens":
		return unix.UtimesNanoAt(dirfd, c.a, fixedTimes, 0)
	}
	panic("unknown op " + c.op)
}

func procPath(fd int) string {
	p, err := Canonical(fd)
	if err != nil {
		panic(err)
	}
	return p
}

// emulated runs c through fsops relative to dirfd.
func emulated(tg Target, c opCase, dirfd int) error {
	switch c.op {
	case "rename":
		return withParents(tg, dirfd, c.a, c.b, func(a, b Parent) error { return Rename(a, b, uint(c.arg)) })
	case "link":
		src, err := tg.ResolveFile(dirfd, c.a, c.arg&unix.AT_SYMLINK_FOLLOW != 0, false)
		if err != nil {
			return err
		}
		defer src.Close()
		return withParent(tg, dirfd, c.b, func(p Parent) error { return Link(src, p) })
	case "symlink":
		return withParent(tg, dirfd, c.b, func(p Parent) error { return Symlink(c.a, p) })
	case "unlink":
		return withParent(tg, dirfd, c.a, func(p Parent) error { return Unlink(p, 0) })
	case "rmdir":
		return withParent(tg, dirfd, c.a, func(p Parent) error { return Unlink(p, unix.AT_REMOVEDIR) })
	case "mkdir":
		return withParent(tg, dirfd, c.a, func(p Parent) error { return Mkdir(p, uint32(c.arg)) })
	case "mknod":
		return withParent(tg, dirfd, c.a, func(p Parent) error { return Mknod(p, uint32(c.arg), 0) })
	case "truncate":
		return withFile(tg, dirfd, c.a, true, func(f File) error { return Truncate(f, int64(c.arg)) })
	case "chmod", "lchmod":
		return withFile(tg, dirfd, c.a, c.op == "chmod", func(f File) error { return Chmod(f, uint32(c.arg)) })
	case "chown", "lchown":
		return withFile(tg, dirfd, c.a, c.op == "chown", func(f File) error { return Chown(f, -1, unix.Getgid()) })
	case "utimens":
		return withFile(tg, dirfd, c.a, true, func(f File) error { return Utimens(f, fixedTimes) })
	}
	panic("unknown op " + c.op)
}

func withParent(tg Target, dirfd int, path string, fn func(Parent) error) error {
	p, err := tg.ResolveParent(dirfd, path)
	if err != nil {
		return err
	}
	defer p.Close()
	return fn(p)
}

func withParents(tg Target, dirfd int, a, b string, fn func(a, b Parent) error) error {
	return withParent(tg, dirfd, a, func(pa Parent) error {
		return withParent(tg, dirfd, b, func(pb Parent) error { return fn(pa, pb) })
	})
}

func withFile(tg Target, dirfd int, path string, follow bool, fn func(File) error) error {
	f, err := tg.ResolveFile(dirfd, path, follow, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return fn(f)
}

func TestOpsMatchKernel(t *testing.T) {
	for _, c := range opCases {
		t.Run(c.op+"/"+c.a+"->"+c.b, func(t *testing.T) {
			nativeDir, emuDir := t.TempDir(), t.TempDir()
			makeTree(t, nativeDir)
			makeTree(t, emuDir)
			if got := errnoName(emulated(hostTarget(), c, openDir(t, emuDir))); got != c.want {
				t.Errorf("fsops: got %s, want %s", got, c.want)
			}
			if c.fsopsOnly {
				return
			}
			if got := errnoName(native(c, openDir(t, nativeDir))); got != c.want {
				t.Errorf("native: got %s, want %s (fix the table)", got, c.want)
			}
			if n, e := snapshot(t, nativeDir), snapshot(t, emuDir); !reflect.DeepEqual(n, e) {
				t.Errorf("trees differ:\nnative %v\nfsops  %v", n, e)
			}
		})
	}
}

func TestRenameCrossDevice(t *testing.T) {
	shm, err := makeTempIn("/dev/shm")
	if err != nil {
		t.Skipf("no /dev/shm to cross devices with: %v", err)
	}
	t.Cleanup(func() { removeAll(shm) })
	dir := t.TempDir()
	makeTree(t, dir)
	tg := hostTarget()
	err = withParents(tg, openDir(t, dir), "f", shm+"/f", func(a, b Parent) error { return Rename(a, b, 0) })
	if got := errnoName(err); got != "EXDEV" {
		t.Errorf("rename across devices: got %s, want EXDEV", got)
	}
	src, err := tg.ResolveFile(openDir(t, dir), "f", false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	err = withParent(tg, -1, shm+"/f", func(p Parent) error { return Link(src, p) })
	if got := errnoName(err); got != "EXDEV" {
		t.Errorf("link across devices: got %s, want EXDEV", got)
	}
}
