//go:build linux

package notify

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
	"github.com/aixbroker/aixbroker/policy"
)

// mutSyscalls are the syscalls the mutating handlers serve.
var mutSyscalls = []string{
	"rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "mknod", "mknodat",
	"truncate", "chmod", "fchmodat", "chown", "lchown", "fchownat", "utime", "utimes", "utimensat",
}

// mutTree builds one case's world under dir:
//
//	proj/f ("hello")  proj/d/ (empty)  proj/full/x  proj/hl (hard link of home/id_rsa)
//	proj/out -> ../outside    outside/o    home/id_rsa (denied)
//	proj/vault/home/id_rsa (denied where it is, not if its directory were renamed)
func mutTree(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{"proj/d", "proj/full", "proj/vault/home", "outside", "home"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"proj/f": "hello", "proj/full/x": "", "outside/o": "outside", "home/id_rsa": "KEY", "proj/vault/home/id_rsa": "KEY2",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(dir, "home/id_rsa"), filepath.Join(dir, "proj/hl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", filepath.Join(dir, "proj/out")); err != nil {
		t.Fatal(err)
	}
}

type mutCase struct {
	name string
	call func(dir string) error // runs on the sandboxed thread
	want string                 // errno name or "ok"
	// exists and gone are names that must, and must not, exist afterwards.
	exists, gone []string
}

func p(dir, name string) string { return filepath.Join(dir, name) }

var mutCases = []mutCase{
	{name: "mkdir in project", call: func(d string) error { return unix.Mkdir(p(d, "proj/new"), 0o777) },
		want: "ok", exists: []string{"proj/new"}},
	{name: "mkdir outside", call: func(d string) error { return unix.Mkdir(p(d, "outside/new"), 0o777) },
		want: "EACCES", gone: []string{"outside/new"}},
	{name: "mkdir through a symlink leading outside", call: func(d string) error { return unix.Mkdir(p(d, "proj/out/new"), 0o777) },
		want: "EACCES", gone: []string{"outside/new"}},
	{name: "mkdir existing", call: func(d string) error { return unix.Mkdir(p(d, "proj/f"), 0o777) }, want: "EEXIST"},
	{name: "mkdirat relative to a dirfd", call: func(d string) error {
		return atDir(p(d, "proj"), func(fd int) error { return unix.Mkdirat(fd, "rel", 0o700) })
	}, want: "ok", exists: []string{"proj/rel"}},
	{name: "rename within project", call: func(d string) error { return unix.Rename(p(d, "proj/f"), p(d, "proj/g")) },
		want: "ok", exists: []string{"proj/g"}, gone: []string{"proj/f"}},
	{name: "rename secret into project", call: func(d string) error { return unix.Rename(p(d, "home/id_rsa"), p(d, "proj/k")) },
		want: "EACCES", exists: []string{"home/id_rsa"}, gone: []string{"proj/k"}},
	{name: "rename project file outside", call: func(d string) error { return unix.Rename(p(d, "proj/f"), p(d, "outside/f")) },
		want: "EACCES", exists: []string{"proj/f"}, gone: []string{"outside/f"}},
	{name: "renameat2 exchange with outside", call: func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/f"), unix.AT_FDCWD, p(d, "outside/o"), unix.RENAME_EXCHANGE)
	}, want: "EACCES"},
	{name: "renameat2 noreplace", call: func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/f"), unix.AT_FDCWD, p(d, "proj/full/x"), unix.RENAME_NOREPLACE)
	}, want: "EEXIST", exists: []string{"proj/f"}},
	{name: "renameat2 bad flags", call: func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/f"), unix.AT_FDCWD, p(d, "proj/g"), 1<<7)
	}, want: "EINVAL"},
	{name: "rename dot", call: func(d string) error { return unix.Rename(d+"/proj/d/.", p(d, "proj/g")) }, want: "EBUSY"},
	{name: "link in project", call: func(d string) error { return unix.Link(p(d, "proj/f"), p(d, "proj/l")) },
		want: "ok", exists: []string{"proj/l"}},
	{name: "link secret into project", call: func(d string) error { return unix.Link(p(d, "home/id_rsa"), p(d, "proj/l")) },
		want: "EACCES", gone: []string{"proj/l"}},
	{name: "link a hard link of the secret", call: func(d string) error { return unix.Link(p(d, "proj/hl"), p(d, "proj/l")) },
		want: "EACCES", gone: []string{"proj/l"}},
	{name: "linkat bad flags", call: func(d string) error {
		return unix.Linkat(unix.AT_FDCWD, p(d, "proj/f"), unix.AT_FDCWD, p(d, "proj/l"), 0x1)
	}, want: "EINVAL"},
	{name: "symlink to anything, in project", call: func(d string) error { return unix.Symlink(p(d, "home/id_rsa"), p(d, "proj/s")) },
		want: "ok", exists: []string{"proj/s"}},
	{name: "symlink outside", call: func(d string) error { return unix.Symlink("x", p(d, "outside/s")) },
		want: "EACCES", gone: []string{"outside/s"}},
	{name: "unlink in project", call: func(d string) error { return unix.Unlink(p(d, "proj/f")) },
		want: "ok", gone: []string{"proj/f"}},
	{name: "unlink the symlink, not its target", call: func(d string) error { return unix.Unlink(p(d, "proj/out")) },
		want: "ok", gone: []string{"proj/out"}, exists: []string{"outside/o"}},
	{name: "unlink outside", call: func(d string) error { return unix.Unlink(p(d, "outside/o")) },
		want: "EACCES", exists: []string{"outside/o"}},
	{name: "unlink secret", call: func(d string) error { return unix.Unlink(p(d, "home/id_rsa")) },
		want: "EACCES", exists: []string{"home/id_rsa"}},
	{name: "unlink a directory", call: func(d string) error { return unix.Unlink(p(d, "proj/d")) }, want: "EISDIR"},
	{name: "rmdir empty", call: func(d string) error { return unix.Rmdir(p(d, "proj/d")) },
		want: "ok", gone: []string{"proj/d"}},
	{name: "rmdir non-empty", call: func(d string) error { return unix.Rmdir(p(d, "proj/full")) }, want: "ENOTEMPTY"},
	{name: "unlinkat removedir", call: func(d string) error {
		return unix.Unlinkat(unix.AT_FDCWD, p(d, "proj/d"), unix.AT_REMOVEDIR)
	}, want: "ok", gone: []string{"proj/d"}},
	{name: "mknod fifo", call: func(d string) error { return unix.Mknod(p(d, "proj/fifo"), unix.S_IFIFO|0o644, 0) },
		want: "ok", exists: []string{"proj/fifo"}},
	{name: "mknod device", call: func(d string) error { return unix.Mknod(p(d, "proj/null"), unix.S_IFCHR|0o666, 0x103) },
		want: "EPERM", gone: []string{"proj/null"}},
	{name: "truncate in project", call: func(d string) error { return unix.Truncate(p(d, "proj/f"), 1) }, want: "ok"},
	{name: "truncate outside", call: func(d string) error { return unix.Truncate(p(d, "outside/o"), 0) }, want: "EACCES"},
	{name: "truncate a hard link of the secret", call: func(d string) error { return unix.Truncate(p(d, "proj/hl"), 0) },
		want: "EACCES"},
	{name: "chmod in project", call: func(d string) error { return unix.Chmod(p(d, "proj/f"), 0o600) }, want: "ok"},
	{name: "chmod outside", call: func(d string) error { return unix.Chmod(p(d, "outside/o"), 0o600) }, want: "EACCES"},
	{name: "chown in project", call: func(d string) error { return unix.Chown(p(d, "proj/f"), -1, -1) }, want: "ok"},
	{name: "lchown the symlink leading outside", call: func(d string) error { return unix.Lchown(p(d, "proj/out"), -1, -1) },
		want: "ok"},
	{name: "chown through the symlink leading outside", call: func(d string) error { return unix.Chown(p(d, "proj/out/o"), -1, -1) },
		want: "EACCES"},
	{name: "utimensat in project", call: func(d string) error {
		return unix.UtimesNanoAt(unix.AT_FDCWD, p(d, "proj/f"), []unix.Timespec{{Sec: 1}, {Sec: 2}}, 0)
	}, want: "ok"},
	{name: "utime in project", call: func(d string) error { return unix.Utime(p(d, "proj/f"), &unix.Utimbuf{Actime: 1, Modtime: 2}) },
		want: "ok"},
	{name: "utime outside", call: func(d string) error { return unix.Utime(p(d, "outside/o"), &unix.Utimbuf{Actime: 1, Modtime: 2}) },
		want: "EACCES"},
	{name: "utime now outside", call: func(d string) error { return unix.Utime(p(d, "outside/o"), nil) }, want: "EACCES"},
	{name: "utimes outside", call: func(d string) error {
		return unix.Utimes(p(d, "outside/o"), []unix.Timeval{{Sec: 1}, {Sec: 2}})
	}, want: "EACCES"},
	{name: "mkdir of an existing directory outside: the kernel's EEXIST", call: func(d string) error {
		return unix.Mkdir(p(d, "outside"), 0o777)
	}, want: "EEXIST"},
	{name: "mkdir over a hidden secret keeps the refusal", call: func(d string) error {
		return unix.Mkdir(p(d, "home/id_rsa"), 0o777)
	}, want: "EACCES"},
	{name: "unlink of a missing name outside: the kernel's ENOENT", call: func(d string) error {
		return unix.Unlink(p(d, "outside/missing"))
	}, want: "ENOENT"},
	{name: "rename noreplace onto an existing name outside: EEXIST", call: func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/f"), unix.AT_FDCWD, p(d, "outside/o"), unix.RENAME_NOREPLACE)
	}, want: "EEXIST", exists: []string{"proj/f"}},
	{name: "rename replacing an existing name outside", call: func(d string) error {
		return unix.Rename(p(d, "proj/f"), p(d, "outside/o"))
	}, want: "EACCES", exists: []string{"proj/f"}},
	{name: "rename the directory holding a secret so the secret's path changes", call: func(d string) error {
		return unix.Rename(p(d, "proj/vault/home"), p(d, "proj/vault/open"))
	}, want: "EACCES", exists: []string{"proj/vault/home/id_rsa"}, gone: []string{"proj/vault/open"}},
	{name: "exchange a directory holding a secret", call: func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/d"), unix.AT_FDCWD, p(d, "proj/vault/home"), unix.RENAME_EXCHANGE)
	}, want: "EACCES", exists: []string{"proj/vault/home/id_rsa"}},
	{name: "rename a directory in the project", call: func(d string) error {
		return unix.Rename(p(d, "proj/full"), p(d, "proj/full2"))
	}, want: "ok", exists: []string{"proj/full2/x"}},
	{name: "utimes through /proc/self/fd (x/sys Futimes)", call: func(d string) error {
		return withOpen(p(d, "proj/f"), func(fd int) error { return unix.Futimes(fd, []unix.Timeval{{Sec: 1}, {Sec: 2}}) })
	}, want: "ok"},
	{name: "chmod through /proc/self/fd of a file outside", call: func(d string) error {
		return withOpen(p(d, "outside/o"), func(fd int) error { return unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o600) })
	}, want: "EACCES"},
	{name: "fchownat AT_EMPTY_PATH", call: func(d string) error {
		return withOpen(p(d, "proj/f"), func(fd int) error { return unix.Fchownat(fd, "", -1, -1, unix.AT_EMPTY_PATH) })
	}, want: "ok"},
	{name: "fchownat AT_EMPTY_PATH outside", call: func(d string) error {
		return withOpen(p(d, "outside/o"), func(fd int) error { return unix.Fchownat(fd, "", -1, -1, unix.AT_EMPTY_PATH) })
	}, want: "EACCES"},
	{name: "empty path", call: func(d string) error { return unix.Unlink("") }, want: "ENOENT"},
}

func withOpen(path string, fn func(fd int) error) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return fn(fd)
}

func atDir(dir string, fn func(fd int) error) error {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return fn(fd)
}

func TestMutatingHandlers(t *testing.T) {
	rec := runMutCases(t, mutCases, mutSyscalls...)
	secret := filepath.Join(rec.base, "6", "home/id_rsa")
	if ev, ok := rec.log.find(policy.OpRename, secret); !ok || ev.Decision.Allowed() || ev.Result != "EACCES" {
		t.Errorf("audit: no denied rename event for %s (%+v)", secret, ev)
	}
}

// mutRun is what runMutCases leaves for further checks.
type mutRun struct {
	base string // case i ran in base/i
	log  *eventLog
}

// runMutCases runs each case on a sandboxed thread trapping syscalls, in
// its own copy of mutTree.
func runMutCases(t *testing.T, cases []mutCase, syscalls ...string) mutRun {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for i := range cases {
		dir := filepath.Join(base, strconv.Itoa(i))
		mutTree(t, dir)
		secrets = append(secrets, filepath.Join(dir, "home/id_rsa"))
	}
	deny, err := fsops.NewDenyInodes(secrets)
	if err != nil {
		t.Fatal(err)
	}
	sb := newSandboxThread(t, projectDecider{}, deny, syscalls...)
	for i, c := range cases {
		dir := filepath.Join(base, strconv.Itoa(i))
		got := errName(sb.do(func() error { return c.call(dir) }))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		for _, name := range c.exists {
			if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: %s should exist: %v", c.name, name, err)
			}
		}
		for _, name := range c.gone {
			if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: %s should not exist (%v)", c.name, name, err)
			}
		}
	}
	return mutRun{base: base, log: sb.rec}
}

// fdCases exercise fchmod and fchown, which take a descriptor.
var fdCases = []mutCase{
	{name: "fchmod of a read-only descriptor in the project", call: func(d string) error {
		return withOpen(p(d, "proj/f"), func(fd int) error { return unix.Fchmod(fd, 0o640) })
	}, want: "ok"},
	{name: "fchmod of a read-only descriptor outside", call: func(d string) error {
		return withOpen(p(d, "outside/o"), func(fd int) error { return unix.Fchmod(fd, 0o777) })
	}, want: "EACCES"},
	{name: "fchown of a hard link of the secret", call: func(d string) error {
		return withOpen(p(d, "proj/hl"), func(fd int) error { return unix.Fchown(fd, -1, -1) })
	}, want: "EACCES"},
	{name: "fchmod of an O_PATH descriptor: the kernel's EBADF", call: func(d string) error {
		return atDir(p(d, "proj"), func(fd int) error { return unix.Fchmod(fd, 0o700) })
	}, want: "EBADF"},
	{name: "fchmod of a pipe", call: func(string) error {
		var fds [2]int
		if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
			return err
		}
		defer unix.Close(fds[0])
		defer unix.Close(fds[1])
		return unix.Fchmod(fds[0], 0o600)
	}, want: "ok"},
	{name: "fchmod of a closed descriptor", call: func(string) error { return unix.Fchmod(1000, 0o600) }, want: "EBADF"},
}

// TestFdAttrHandlers: fchmod and fchown on the caller's own descriptor.
func TestFdAttrHandlers(t *testing.T) {
	for _, name := range []string{"fchmod", "fchown"} {
		if _, ok := seccomp.Native.Numbers[name]; !ok {
			t.Skipf("internal/seccomp does not trap %s yet (add it to the table and the arch numbers)", name)
		}
	}
	runMutCases(t, fdCases, "fchmod", "fchown")
}

// TestMkdirUmask: a directory created through the broker gets the mode the
// kernel would have given it under the process's umask.
func TestMkdirUmask(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	sb := newSandboxThread(t, projectDecider{}, nil, "mkdir")
	if err := sb.do(func() error { return unix.Mkdir(filepath.Join(proj, "m"), 0o777) }); err != nil {
		t.Fatal(err)
	}
	umask := unix.Umask(0)
	unix.Umask(umask)
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(proj, "m"), &st); err != nil {
		t.Fatal(err)
	}
	if want := uint32(0o777 &^ umask); st.Mode&0o777 != want {
		t.Errorf("mkdir 0777 under umask %03o: mode %03o, want %03o", umask, st.Mode&0o777, want)
	}
}

func errName(err error) string {
	if err == nil {
		return "ok"
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return unix.ErrnoName(errno)
	}
	return err.Error()
}

// TestMutationsUnprivileged reruns the mutating-handler tests as the
// unprivileged user nobody: the common deployment, where the broker runs as
// the agent's own user.
func TestMutationsUnprivileged(t *testing.T) {
	rerunAsNobody(t, "TestMutatingHandlers|TestMkdirUmask|TestSandboxedMutations")
}
