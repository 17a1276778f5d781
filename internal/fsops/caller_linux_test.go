package fsops

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

const (
	nobody         = 65534
	nogroup        = 65534
	capDACOverride = 1
)

func newRunner(t *testing.T) *Runner {
	t.Helper()
	r, err := NewRunner(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func self(t *testing.T) Creds {
	t.Helper()
	c, err := ReadCreds(unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func nobodyCreds(umask uint32) Creds {
	return Creds{
		UID: [4]uint32{nobody, nobody, nobody, nobody}, GID: [4]uint32{nogroup, nogroup, nogroup, nogroup},
		Groups: []uint32{nogroup}, Umask: umask,
	}
}

// rootTree makes a root-owned 0755 directory holding a root-owned 0644
// file, inside a world-writable directory for the caller's own creations.
func rootTree(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rootfile"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pub"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "pub"), 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAsCallerRefusesWhatKernelRefuses(t *testing.T) {
	requireRoot(t)
	r := newRunner(t)
	dir := rootTree(t)
	tg := hostTarget()
	dirfd := openDir(t, dir)
	tests := []struct {
		name string
		op   func() error
		want string
	}{
		{"truncate root-owned 0644 file", func() error {
			return withFile(tg, dirfd, "rootfile", true, func(f File) error { return Truncate(f, 0) })
		}, "EACCES"},
		{"unlink in root-owned 0755 dir", func() error {
			return withParent(tg, dirfd, "rootfile", func(p Parent) error { return Unlink(p, 0) })
		}, "EACCES"},
		{"chmod root-owned file", func() error {
			return withFile(tg, dirfd, "rootfile", true, func(f File) error { return Chmod(f, 0o777) })
		}, "EPERM"},
		{"utimes to a chosen time on a file it does not own", func() error {
			return withFile(tg, dirfd, "rootfile", true, func(f File) error { return Utimens(f, fixedTimes) })
		}, "EPERM"},
		{"link (protected_hardlinks) of a root file it cannot write", func() error {
			src, err := tg.ResolveFile(dirfd, "rootfile", false, false)
			if err != nil {
				return err
			}
			defer src.Close()
			return withParent(tg, dirfd, "pub/l", func(p Parent) error { return Link(src, p) })
		}, "EPERM"},
		{"mkdir in its world-writable dir", func() error {
			return withParent(tg, dirfd, "pub/made", func(p Parent) error { return Mkdir(p, 0o777) })
		}, "ok"},
	}
	for _, tt := range tests {
		err := r.AsCaller(nobodyCreds(0o027), tt.op)
		if got := errnoName(err); got != tt.want {
			t.Errorf("%s as nobody: got %s, want %s", tt.name, got, tt.want)
		}
	}
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(dir, "pub", "made"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Uid != nobody || st.Gid != nogroup || st.Mode&0o777 != 0o750 {
		t.Errorf("made by nobody with umask 027: owner %d:%d mode %o, want %d:%d 750",
			st.Uid, st.Gid, st.Mode&0o777, nobody, nogroup)
	}
	// The broker itself is untouched: it can still do all of the above.
	if err := os.Truncate(filepath.Join(dir, "rootfile"), 0); err != nil {
		t.Errorf("broker lost its rights: %v", err)
	}
}

// TestAsCallerDropsFileCapabilities: the switch to a non-zero fsuid clears
// CAP_DAC_OVERRIDE on the worker thread only, and a root caller without it
// is refused like the kernel refuses it.
func TestAsCallerDropsFileCapabilities(t *testing.T) {
	requireRoot(t)
	r := newRunner(t)
	var inside, sibling threadCreds
	err := r.AsCaller(nobodyCreds(0o022), func() error {
		var err error
		if inside, err = currentCreds(); err != nil {
			return err
		}
		done := make(chan error)
		go func() { // another OS thread of the broker
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var err error
			sibling, err = currentCreds()
			done <- err
		}()
		return <-done
	})
	if err != nil {
		t.Fatal(err)
	}
	if inside.eff&(1<<capDACOverride) != 0 || inside.fsuid != nobody {
		t.Errorf("worker as nobody: fsuid %d caps %#x, want %d without CAP_DAC_OVERRIDE", inside.fsuid, inside.eff, nobody)
	}
	if sibling.eff&(1<<capDACOverride) == 0 || sibling.fsuid != 0 {
		t.Errorf("other thread: fsuid %d caps %#x, want root's", sibling.fsuid, sibling.eff)
	}

	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	if err := os.WriteFile(locked, nil, 0o000); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(locked, nobody, nogroup); err != nil {
		t.Fatal(err)
	}
	root := self(t)
	weakRoot := root
	weakRoot.CapEff &^= 1 << capDACOverride
	tests := []struct {
		name  string
		creds Creds
		want  string
	}{
		{"root with CAP_DAC_OVERRIDE", root, "ok"},
		{"root without CAP_DAC_OVERRIDE", weakRoot, "EACCES"},
	}
	dirfd := openDir(t, dir)
	for _, tt := range tests {
		err := r.AsCaller(tt.creds, func() error {
			return withFile(hostTarget(), dirfd, "locked", true, func(f File) error { return Truncate(f, 0) })
		})
		if got := errnoName(err); got != tt.want {
			t.Errorf("truncate a 000 file of nobody as %s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestAsCallerRestores: after any number of switches, a job with the
// broker's own credentials sees exactly them.
func TestAsCallerRestores(t *testing.T) {
	requireRoot(t)
	r := newRunner(t)
	runtime.LockOSThread()
	base, err := currentCreds()
	runtime.UnlockOSThread()
	if err != nil {
		t.Fatal(err)
	}
	for range 8 {
		if err := r.AsCaller(nobodyCreds(0o022), func() error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		var got threadCreds
		err := r.AsCaller(self(t), func() error {
			var err error
			got, err = currentCreds()
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !got.equal(base) {
			t.Errorf("worker after switches: %+v, want %+v", got, base)
		}
	}
}

func TestAsCallerUmask(t *testing.T) {
	r := newRunner(t)
	dir := t.TempDir()
	dirfd := openDir(t, dir)
	tests := []struct {
		umask, want uint32
	}{{0o022, 0o755}, {0o077, 0o700}, {0, 0o777}, {0o027, 0o750}}
	for i, tt := range tests {
		c := self(t)
		c.Umask = tt.umask
		name := "d" + string(rune('a'+i))
		err := r.AsCaller(c, func() error {
			return withParent(hostTarget(), dirfd, name, func(p Parent) error { return Mkdir(p, 0o777) })
		})
		if err != nil {
			t.Fatal(err)
		}
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join(dir, name), &st); err != nil {
			t.Fatal(err)
		}
		if st.Mode&0o777 != tt.want {
			t.Errorf("mkdir 0777 with umask %03o: mode %03o, want %03o", tt.umask, st.Mode&0o777, tt.want)
		}
	}
}

// TestAsCallerUnprivilegedCannotImpersonate: a broker without CAP_SETUID
// refuses to act for another user instead of acting as itself.
func TestAsCallerUnprivilegedCannotImpersonate(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("runs as the unprivileged half of the suite (TestUnprivilegedSuite)")
	}
	r := newRunner(t)
	ran := false
	err := r.AsCaller(Creds{UID: [4]uint32{1, 1, 1, 1}, GID: [4]uint32{1, 1, 1, 1}}, func() error {
		ran = true
		return nil
	})
	if !errors.Is(err, ErrCreds) || ran {
		t.Errorf("AsCaller(other user) unprivileged: err %v, ran %v; want ErrCreds, not run", err, ran)
	}
	// Its own credentials work.
	if err := r.AsCaller(self(t), func() error { return nil }); err != nil {
		t.Errorf("AsCaller(self): %v", err)
	}
}

func TestAsCallerPanicIsError(t *testing.T) {
	r := newRunner(t)
	err := r.AsCaller(self(t), func() error { panic("boom") })
	if err == nil {
		t.Fatal("a panicking operation returned nil")
	}
	if err := r.AsCaller(self(t), func() error { return nil }); err != nil {
		t.Errorf("runner after a panic: %v", err)
	}
}

// TestThreadInline: a goroutine that owns a Thread acts as the caller on
// its own OS thread, with no hand-off.
func TestThreadInline(t *testing.T) {
	requireRoot(t)
	dir := rootTree(t)
	type result struct {
		tid, inTid int
		err        string
	}
	done := make(chan result)
	go func() { // never unlocked: the thread ends with this goroutine
		th, err := LockThread()
		if err != nil {
			done <- result{err: err.Error()}
			return
		}
		res := result{tid: unix.Gettid()}
		err = th.AsCaller(nobodyCreds(0o022), func() error {
			res.inTid = unix.Gettid()
			return withParent(hostTarget(), -1, filepath.Join(dir, "rootfile"), func(p Parent) error { return Unlink(p, 0) })
		})
		res.err = errnoName(err)
		done <- res
	}()
	res := <-done
	if res.err != "EACCES" || res.tid != res.inTid {
		t.Errorf("inline unlink as nobody: %s on thread %d (owner %d), want EACCES on the owner", res.err, res.inTid, res.tid)
	}
}

// TestAsCallerDefaultACL: under a directory with a default POSIX ACL the
// kernel ignores the umask and applies the ACL; the worker thread's own
// fs_struct lets it do exactly that for the caller.
func TestAsCallerDefaultACL(t *testing.T) {
	dir := t.TempDir()
	// struct posix_acl_xattr_header (version 2) and three entries
	// {tag, perm, id}: USER_OBJ rwx, GROUP_OBJ rwx, OTHER rwx.
	acl := []byte{2, 0, 0, 0}
	for _, tag := range []uint16{0x01, 0x04, 0x20} {
		acl = append(acl, byte(tag), byte(tag>>8), 7, 0, 0xff, 0xff, 0xff, 0xff)
	}
	if err := unix.Setxattr(dir, "system.posix_acl_default", acl, 0); err != nil {
		t.Skipf("filesystem of %s without POSIX ACLs: %v", dir, err)
	}
	r := newRunner(t)
	c := self(t)
	c.Umask = 0o077
	err := r.AsCaller(c, func() error {
		return withParent(hostTarget(), openDir(t, dir), "d", func(p Parent) error { return Mkdir(p, 0o777) })
	})
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(dir, "d"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o777 != 0o777 {
		t.Errorf("mkdir 0777 under a default ACL with umask 077: mode %03o, want 777 (the ACL, not the umask)", st.Mode&0o777)
	}
}
