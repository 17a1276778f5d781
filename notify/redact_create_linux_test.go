//go:build linux

package notify

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// redactCreatePolicy is generic's redact list over a writable project, with
// the real engine deciding: a new name a redact rule matches may be created
// (FP2), an existing redacted file never replaced, written or removed.
const redactCreatePolicy = `profile: t
filesystem:
  allow_read: ['${PROJECT}/*/ro/**']
  allow_write: ['${PROJECT}/*/proj/**']
  redact: ['**/.env', '**/.env.*', {path: '**/*.pem', mode: stub}]
`

// redactSyscalls are the syscalls the redact-create cases go through.
var redactSyscalls = []string{
	"openat", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "unlink", "unlinkat",
	"truncate", "utimensat", "chmod", "fchmodat", "fchownat", "fchmod", "fchown",
}

// redactTree builds proj/.env (the user's secret), proj/tmp (the agent's
// file), ro/ (readable only).
func redactTree(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{"proj", "ro"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"proj/.env": "SECRET=1\n", "proj/tmp": "AGENT=1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func create(path string, flags int) error {
	fd, err := unix.Open(path, flags|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	_, err = unix.Write(fd, []byte("B=2\n"))
	return err
}

// withWritable creates path and runs fn on the descriptor it was created
// with.
func withWritable(path string, fn func(fd int) error) error {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return fn(fd)
}

var redactCreateCases = []struct {
	name string
	call func(dir string) error
	want string
}{
	{"echo > .env.local: a new name", func(d string) error {
		return create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC)
	}, "ok"},
	{"cp to a new .env in a subdirectory", func(d string) error {
		if err := os.Mkdir(p(d, "proj/sub"), 0o755); err != nil {
			return err
		}
		return create(p(d, "proj/sub/.env"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	}, "ok"},
	{"a new pem", func(d string) error { return create(p(d, "proj/k.pem"), unix.O_WRONLY|unix.O_CREAT) }, "ok"},
	{"a new .env where only reading is allowed", func(d string) error {
		return create(p(d, "ro/.env"), unix.O_WRONLY|unix.O_CREAT)
	}, "EACCES"},
	{"O_CREAT|O_TRUNC on the existing .env", func(d string) error {
		return create(p(d, "proj/.env"), unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC)
	}, "EACCES"},
	{"O_CREAT without O_EXCL on the existing .env", func(d string) error {
		return create(p(d, "proj/.env"), unix.O_RDWR|unix.O_CREAT)
	}, "EACCES"},
	{"O_CREAT|O_EXCL on the existing .env", func(d string) error {
		return create(p(d, "proj/.env"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	}, "EEXIST"},
	{"rename over the existing .env", func(d string) error {
		return unix.Rename(p(d, "proj/tmp"), p(d, "proj/.env"))
	}, "EACCES"},
	{"renameat over the existing .env", func(d string) error {
		return atDir(p(d, "proj"), func(fd int) error { return unix.Renameat(fd, "tmp", fd, ".env") })
	}, "EACCES"},
	{"rename to a new .env name", func(d string) error {
		return unix.Rename(p(d, "proj/tmp"), p(d, "proj/.env.new"))
	}, "ok"},
	{"rename noreplace onto the existing .env", func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/tmp"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_NOREPLACE)
	}, "EEXIST"},
	{"exchange with the existing .env", func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/tmp"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_EXCHANGE)
	}, "EACCES"},
	{"link over the existing .env", func(d string) error {
		return unix.Link(p(d, "proj/tmp"), p(d, "proj/.env"))
	}, "EEXIST"},
	{"link the .env to a new name", func(d string) error {
		return unix.Link(p(d, "proj/.env"), p(d, "proj/copy"))
	}, "EACCES"},
	{"unlink the .env", func(d string) error { return unix.Unlink(p(d, "proj/.env")) }, "EACCES"},
	{"truncate the .env", func(d string) error { return unix.Truncate(p(d, "proj/.env"), 0) }, "EACCES"},
	{"a new .env.local symlink to the .env, then write through it", func(d string) error {
		if err := unix.Symlink(".env", p(d, "proj/.env.local")); err != nil {
			return err
		}
		return create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC)
	}, "EACCES"},
	{"futimens, fchmod, fchown through the descriptor that created a .env", func(d string) error {
		return withWritable(p(d, "proj/.env.made"), func(fd int) error {
			if err := futimens(fd); err != nil {
				return err
			}
			if err := unix.Fchmod(fd, 0o640); err != nil {
				return err
			}
			return unix.Fchown(fd, -1, -1)
		})
	}, "ok"},
	{"fchmod of an opened .env changes the stub, not the file", func(d string) error {
		return withOpen(p(d, "proj/.env"), func(fd int) error { return unix.Fchmod(fd, 0o644) })
	}, "ok"},
	{"utimensat AT_EMPTY_PATH of a writable descriptor: an O_PATH reopen, refused", func(d string) error {
		return withWritable(p(d, "proj/.env.made"), func(fd int) error {
			return unix.UtimesNanoAt(fd, "", []unix.Timespec{{Sec: 1}, {Sec: 2}}, unix.AT_EMPTY_PATH)
		})
	}, "EACCES"},
	{"chmod of the .env", func(d string) error { return unix.Chmod(p(d, "proj/.env"), 0o644) }, "EACCES"},
	{"chmod through /proc/self/fd of a writable descriptor: a path, refused", func(d string) error {
		return withWritable(p(d, "proj/.env.made"), func(fd int) error {
			return unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o644)
		})
	}, "EACCES"},
}

// futimens is utimensat(fd, NULL, NULL, 0): glibc's futimens(fd, NULL),
// tar's way of setting the times of what it unpacked.
func futimens(fd int) error {
	_, _, e := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(fd), 0, 0, 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// redactEngine compiles redactCreatePolicy with ${PROJECT} a new temporary
// directory, returned with the engine.
func redactEngine(t testing.TB) (string, *policy.Engine) {
	t.Helper()
	return tempEngine(t, redactCreatePolicy)
}

// tempEngine compiles the policy src with ${PROJECT}, ${HOME} and ${TMPDIR}
// a new temporary directory, returned with the engine.
func tempEngine(t testing.TB, src string) (string, *policy.Engine) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(pol, policy.Vars{Project: base, Home: base, TmpDir: base})
	if err != nil {
		t.Fatal(err)
	}
	return base, e
}

// TestRedactedNamesCreate runs redactCreateCases with the real engine on a
// sandboxed thread, each in its own tree, and checks the user's .env
// afterwards.
func TestRedactedNamesCreate(t *testing.T) {
	base, e := redactEngine(t)
	sb := newSandboxThread(t, e, nil, redactSyscalls...)
	for i, c := range redactCreateCases {
		dir := filepath.Join(base, strconv.Itoa(i))
		redactTree(t, dir)
		if got := errName(sb.do(func() error { return c.call(dir) })); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		got, err := os.ReadFile(filepath.Join(dir, "proj/.env"))
		if err != nil || string(got) != "SECRET=1\n" {
			t.Errorf("%s: the user's .env now reads %q (%v)", c.name, got, err)
		}
		if st, err := os.Stat(filepath.Join(dir, "proj/.env")); err == nil && st.Mode().Perm() != 0o600 {
			t.Errorf("%s: the user's .env now has mode %v", c.name, st.Mode())
		}
	}
}

// TestRenameOntoRedactedRace: the user's .env appears at the destination
// while the agent renames its own file there, over and over (a sibling
// creating the name between the broker's decision and the rename). The
// rename may create .env when it is missing, and must never replace the
// user's file: the racer links the user's secret to .env and then checks
// the name still holds the secret's inode.
func TestRenameOntoRedactedRace(t *testing.T) {
	base, e := redactEngine(t)
	dir := filepath.Join(base, "0")
	redactTree(t, dir)
	secret, env := p(dir, "proj/user.secret"), p(dir, "proj/.env")
	if err := os.Rename(env, secret); err != nil {
		t.Fatal(err)
	}
	var want unix.Stat_t
	if err := unix.Stat(secret, &want); err != nil {
		t.Fatal(err)
	}
	stop, replaced := make(chan struct{}), make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				replaced <- n
				return
			default:
			}
			if unix.Link(secret, env) != nil {
				unix.Unlink(env) // the agent's file took the name while it was free: allowed
				continue
			}
			var st unix.Stat_t
			if unix.Lstat(env, &st) == nil && st.Ino != want.Ino {
				n++
			}
			unix.Unlink(env)
		}
	}()
	sb := newSandboxThread(t, e, nil, redactSyscalls...)
	tmp := p(dir, "proj/tmp")
	renamed := 0
	for range 1000 {
		err := sb.do(func() error {
			if err := create(tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC); err != nil {
				return err
			}
			return unix.Rename(tmp, env)
		})
		if err == nil {
			renamed++
		}
	}
	close(stop)
	if n := <-replaced; n > 0 {
		t.Errorf("the agent's rename replaced the user's .env %d times", n)
	}
	t.Logf("%d of 1000 renames created .env while it was free", renamed)
}

// TestUnprivilegedRedactedNames reruns the redacted-name tests as the
// unprivileged user nobody.
func TestUnprivilegedRedactedNames(t *testing.T) {
	rerunAsNobody(t, "TestRedactedNamesCreate|TestRenameOntoRedactedRace")
}
