//go:build linux

package notify

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// dotenvPolicy is redactCreatePolicy with generic's except: list on the
// .env.* rule.
const dotenvPolicy = `profile: t
filesystem:
  allow_write: ['${PROJECT}/*/proj/**']
  redact: ['**/.env', {path: '**/.env.*', except: ['**/.env.example', '**/.env.sample']}]
`

var dotenvSyscalls = append(append([]string{}, createdSyscalls...), "open", "creat", "openat2", "fchmodat2")

// readAll reads path through the sandboxed open.
func readAll(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 4096)
	n, err := unix.Read(fd, buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// opath opens path O_PATH (the kernel's, not decided without the stat trap)
// and runs fn on it.
func opath(path string, fn func(fd int) error) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return fn(fd)
}

// dotenvAttacks: routes by which the agent might carry the user's .env to
// a name shown as it is (an except: name, an unredacted one), replace it,
// or write it. After each the user's .env must hold the secret under the
// same inode, and no other name may read the secret.
var dotenvAttacks = []struct {
	name string
	call func(d string) error
	want string // the errno names accepted, separated by |
}{
	{"link .env to the excepted .env.example", func(d string) error {
		return unix.Link(p(d, "proj/.env"), p(d, "proj/.env.example"))
	}, "EACCES"},
	{"rename .env to the excepted .env.example", func(d string) error {
		return unix.Rename(p(d, "proj/.env"), p(d, "proj/.env.example"))
	}, "EACCES"},
	{"exchange .env with a new .env.example", func(d string) error {
		if err := create(p(d, "proj/.env.example"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/.env.example"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_EXCHANGE)
	}, "EACCES"},
	{"linkat /proc/self/fd of an O_PATH .env, AT_SYMLINK_FOLLOW, to .env.example", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error {
			return unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), unix.AT_FDCWD, p(d, "proj/.env.example"), unix.AT_SYMLINK_FOLLOW)
		})
	}, "EACCES"},
	{"linkat AT_EMPTY_PATH of an O_PATH .env to .env.example", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error {
			return unix.Linkat(fd, "", unix.AT_FDCWD, p(d, "proj/.env.example"), unix.AT_EMPTY_PATH)
		})
	}, "EACCES|ENOENT"}, // ENOENT without CAP_DAC_READ_SEARCH
	{"open /proc/self/fd of an O_PATH .env for writing", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error {
			return create("/proc/self/fd/"+strconv.Itoa(fd), unix.O_WRONLY)
		})
	}, "EACCES"},
	{"truncate /proc/self/fd of an O_PATH .env", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error { return unix.Truncate("/proc/self/fd/"+strconv.Itoa(fd), 0) })
	}, "EACCES"},
	{"chmod /proc/self/fd of an O_PATH .env", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error { return unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o644) })
	}, "EACCES"},
	{"fchmod of an O_PATH .env", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error { return unix.Fchmod(fd, 0o644) })
	}, "EACCES|EBADF"},
	{"fchmodat AT_EMPTY_PATH of an O_PATH .env", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error { return unix.Fchmodat(fd, "", 0o644, unix.AT_EMPTY_PATH) })
	}, "EACCES"},
	{"reading /proc/self/fd of an O_PATH .env", func(d string) error {
		return opath(p(d, "proj/.env"), func(fd int) error {
			b, err := readAll("/proc/self/fd/" + strconv.Itoa(fd))
			if err == nil && bytes.Contains(b, []byte("SECRET=1")) {
				return unix.EIO
			}
			return err
		})
	}, "ok"},
	{"a new .env.x renamed over .env (renameat2 flags 0)", func(d string) error {
		if err := create(p(d, "proj/.env.x"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/.env.x"), unix.AT_FDCWD, p(d, "proj/.env"), 0)
	}, "EACCES"},
	{"a new .env.x exchanged with .env", func(d string) error {
		if err := create(p(d, "proj/.env.x"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/.env.x"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_EXCHANGE)
	}, "EACCES"},
	{"a new unredacted file renamed over .env with RENAME_WHITEOUT", func(d string) error {
		return unix.Renameat2(unix.AT_FDCWD, p(d, "proj/tmp"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_WHITEOUT)
	}, "EACCES"},
	{"a new .env.example (excepted) renamed over .env", func(d string) error {
		if err := create(p(d, "proj/.env.example"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		return unix.Rename(p(d, "proj/.env.example"), p(d, "proj/.env"))
	}, "EACCES"},
	{"fchmod the agent's own new .env.x through its writable fd, then rename it over .env", func(d string) error {
		if err := withWritable(p(d, "proj/.env.x"), func(fd int) error { return unix.Fchmod(fd, 0o600) }); err != nil {
			return err
		}
		return unix.Rename(p(d, "proj/.env.x"), p(d, "proj/.env"))
	}, "EACCES"},
	{"exchange a directory holding the agent's .env with one holding the user's", func(d string) error {
		if err := os.Mkdir(p(d, "proj/a"), 0o755); err != nil {
			return err
		}
		if err := create(p(d, "proj/a/.env"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		if err := unix.Renameat2(unix.AT_FDCWD, p(d, "proj/a"), unix.AT_FDCWD, p(d, "proj/b"), unix.RENAME_EXCHANGE); err != nil {
			return err
		}
		return unix.Unlink(p(d, "proj/a/.env"))
	}, "EACCES"},
	{"a .env.example directory: the user's .env moved into it", func(d string) error {
		if err := os.Mkdir(p(d, "proj/.env.example"), 0o755); err != nil {
			return err
		}
		return unix.Rename(p(d, "proj/.env"), p(d, "proj/.env.example/x"))
	}, "EACCES"},
	{"the agent's .env.local, exchange with .env refused, then unlinked", func(d string) error {
		if err := create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		unix.Renameat2(unix.AT_FDCWD, p(d, "proj/.env.local"), unix.AT_FDCWD, p(d, "proj/.env"), unix.RENAME_EXCHANGE)
		return unix.Unlink(p(d, "proj/.env.local"))
	}, "ok"},
	{"a new .env.local symlink to .env, then unlink .env.local and .env", func(d string) error {
		if err := unix.Symlink(".env", p(d, "proj/.env.local")); err != nil {
			return err
		}
		if err := unix.Unlink(p(d, "proj/.env.local")); err != nil {
			return err
		}
		return unix.Unlink(p(d, "proj/.env"))
	}, "EACCES"},
}

// TestDotenvAttacks runs dotenvAttacks, each in its own tree with the
// user's proj/.env and proj/b/.env, and checks nothing else reads the secret.
func TestDotenvAttacks(t *testing.T) {
	base, e := tempEngine(t, dotenvPolicy)
	sb := newSandboxThread(t, e, nil, dotenvSyscalls...)
	for i, c := range dotenvAttacks {
		dir := filepath.Join(base, strconv.Itoa(i))
		redactTree(t, dir)
		if err := os.MkdirAll(p(dir, "proj/b"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p(dir, "proj/b/.env"), []byte("SECRET=1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		var before unix.Stat_t
		if err := unix.Stat(p(dir, "proj/.env"), &before); err != nil {
			t.Fatal(err)
		}
		if got := errName(sb.do(func() error { return c.call(dir) })); !slices.Contains(strings.Split(c.want, "|"), got) {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		for _, env := range []string{"proj/.env", "proj/b/.env"} {
			got, err := os.ReadFile(p(dir, env))
			if err != nil || string(got) != "SECRET=1\n" {
				t.Errorf("%s: the user's %s now reads %q (%v)", c.name, env, got, err)
			}
		}
		var after unix.Stat_t
		if err := unix.Stat(p(dir, "proj/.env"), &after); err != nil || after.Ino != before.Ino {
			t.Errorf("%s: the user's .env was replaced", c.name)
		}
		for _, name := range []string{"proj/.env.example", "proj/.env.example/x", "proj/tmp", "proj/a/.env"} {
			got, err := readAll(p(dir, name))
			if err == nil && bytes.Contains(got, []byte("SECRET=1")) {
				t.Errorf("%s: the agent reads the secret at %s", c.name, name)
			}
		}
	}
}

// TestDotenvStubSealed: the descriptor the agent gets for the user's .env
// is a sealed memfd shared by every open: neither it nor a reopen of it for
// writing takes a write, truncate or allocation, and a mode change through
// it does not stop the next open of the .env.
func TestDotenvStubSealed(t *testing.T) {
	base, e := tempEngine(t, dotenvPolicy)
	dir := filepath.Join(base, "0")
	redactTree(t, dir)
	sb := newSandboxThread(t, e, nil, dotenvSyscalls...)
	env := p(dir, "proj/.env")
	var first []byte
	err := sb.do(func() error {
		return withOpen(env, func(fd int) error {
			seals, err := unix.FcntlInt(uintptr(fd), unix.F_GET_SEALS, 0)
			if err != nil {
				t.Errorf("F_GET_SEALS: %v", err)
			}
			for _, s := range []int{unix.F_SEAL_SEAL, unix.F_SEAL_WRITE, unix.F_SEAL_GROW, unix.F_SEAL_SHRINK} {
				if seals&s == 0 {
					t.Errorf("seals %#x lack %#x", seals, s)
				}
			}
			if _, err := unix.Write(fd, []byte("X")); err == nil {
				t.Errorf("write to the stub: ok")
			}
			if err := unix.Ftruncate(fd, 0); err == nil {
				t.Errorf("ftruncate of the stub: ok")
			}
			rw, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDWR|unix.O_CLOEXEC, 0)
			t.Logf("reopen of the stub O_RDWR: %v", err)
			if err == nil {
				if _, err := unix.Pwrite(rw, []byte("X"), 0); err == nil {
					t.Errorf("pwrite to the stub reopened O_RDWR: ok")
				}
				if err := unix.Ftruncate(rw, 0); err == nil {
					t.Errorf("ftruncate of the stub reopened O_RDWR: ok")
				}
				if err := unix.Fallocate(rw, 0, 0, 1<<20); err == nil {
					t.Errorf("fallocate of the stub reopened O_RDWR: ok")
				}
				unix.Close(rw)
			}
			if err := unix.Fchmod(fd, 0); err != nil {
				t.Logf("fchmod 0 of the stub: %v", err)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = sb.do(func() error {
		var err error
		first, err = readAll(env)
		return err
	})
	if err != nil {
		t.Errorf("open of the .env after fchmod 0 of its shared stub: %v", err)
	}
	if bytes.Contains(first, []byte("SECRET=1")) {
		t.Errorf("the stub reads the secret: %q", first)
	}
	if got, _ := os.ReadFile(env); string(got) != "SECRET=1\n" {
		t.Errorf("the user's .env now reads %q", got)
	}
}

// TestUnprivilegedDotenv reruns the review's tests as nobody, where
// the broker's own reopen of the shared stub is subject to its mode.
func TestUnprivilegedDotenv(t *testing.T) {
	rerunAsNobody(t, "TestDotenvAttacks|TestDotenvStubSealed")
}
