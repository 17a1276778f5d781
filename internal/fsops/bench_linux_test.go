package fsops

import (
	"testing"

	"golang.org/x/sys/unix"
)

// The broker's cost per mutating syscall, against the syscall alone.

func BenchmarkMkdirUnlinkNative(b *testing.B) {
	dirfd := openDirB(b, b.TempDir())
	for b.Loop() {
		if err := unix.Mkdirat(dirfd, "x", 0o755); err != nil {
			b.Fatal(err)
		}
		if err := unix.Unlinkat(dirfd, "x", unix.AT_REMOVEDIR); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMkdirUnlinkFsops(b *testing.B) {
	dirfd := openDirB(b, b.TempDir())
	tg := hostTarget()
	for b.Loop() {
		if err := withParent(tg, dirfd, "x", func(p Parent) error { return Mkdir(p, 0o755) }); err != nil {
			b.Fatal(err)
		}
		if err := withParent(tg, dirfd, "x", func(p Parent) error { return Unlink(p, unix.AT_REMOVEDIR) }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveParentDeep(b *testing.B) {
	tg := hostTarget()
	for b.Loop() {
		p, err := tg.ResolveParent(-1, "/usr/share/doc/x")
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

func BenchmarkAsCallerSame(b *testing.B) {
	r, err := NewRunner(2)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	c, err := ReadCreds(unix.Gettid())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := r.AsCaller(c, func() error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAsCallerSwitched(b *testing.B) {
	if unix.Geteuid() != 0 {
		b.Skip("needs root to switch credentials")
	}
	r, err := NewRunner(2)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for b.Loop() {
		if err := r.AsCaller(nobodyCreds(0o022), func() error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadCreds(b *testing.B) {
	tid := unix.Gettid()
	for b.Loop() {
		if _, err := ReadCreds(tid); err != nil {
			b.Fatal(err)
		}
	}
}

func openDirB(b *testing.B, dir string) int {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { unix.Close(fd) })
	return fd
}
