package fsops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// makeTree builds the standard test tree under dir:
//
//	f (file "hello")  g (file)  d/x (file)  e/ (empty dir)  fifo
//	ln -> f  dlink -> d  dangling -> nowhere  loop1 -> loop2 -> loop1
func makeTree(t *testing.T, dir string) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "f"), []byte("hello"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "g"), []byte("gg"), 0o600))
	must(os.Mkdir(filepath.Join(dir, "d"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "d", "x"), nil, 0o644))
	must(os.Mkdir(filepath.Join(dir, "e"), 0o755))
	must(unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	for name, target := range map[string]string{
		"ln": "f", "dlink": "d", "dangling": "nowhere", "loop1": "loop2", "loop2": "loop1",
	} {
		must(os.Symlink(target, filepath.Join(dir, name)))
	}
}

// entry is what snapshot records of one name.
type entry struct {
	Mode   fs.FileMode
	Size   int64
	Target string
	Nlink  uint64
	UID    uint32
	GID    uint32
}

// snapshot lists every name under dir with its type, permissions, size,
// link count and symlink target, for comparing two trees.
func snapshot(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		e := entry{Mode: fs.FileMode(st.Mode & 0o7777), Nlink: st.Nlink, UID: st.Uid, GID: st.Gid}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			e.Target, _ = os.Readlink(p)
			e.Mode |= fs.ModeSymlink
		case unix.S_IFDIR:
			e.Mode |= fs.ModeDir
		case unix.S_IFREG:
			e.Size = st.Size
		default:
			e.Mode |= fs.ModeIrregular
		}
		out[rel] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func openDir(t *testing.T, dir string) int {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

func errnoName(err error) string {
	if err == nil {
		return "ok"
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return unix.ErrnoName(errno)
	}
	return "non-errno: " + err.Error()
}

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: switches to another user's credentials")
	}
}

// hostTarget is a Target sharing the broker's root, with the test process
// as the "target" thread.
func hostTarget() Target {
	return Target{Root: -1, TGID: os.Getpid(), TID: unix.Gettid()}
}

func makeTempIn(dir string) (string, error) { return os.MkdirTemp(dir, "fsops-test-") }

func removeAll(dir string) { _ = os.RemoveAll(dir) }
