//go:build linux

package notify

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkSandboxedMkdirRmdir is one mkdir and one rmdir through the
// broker (notification, path read, resolution, decision, emulation,
// reply); BenchmarkNativeMkdirRmdir the same without a filter.
func BenchmarkSandboxedMkdirRmdir(b *testing.B) {
	dir := shmDir(b)
	proj := filepath.Join(dir, "proj")
	if err := unix.Mkdir(proj, 0o755); err != nil {
		b.Fatal(err)
	}
	sb := newSandboxThread(b, projectDecider{}, nil, "mkdirat", "unlinkat")
	name := filepath.Join(proj, "x")
	b.ResetTimer()
	err := sb.do(func() error {
		for range b.N {
			if err := unix.Mkdir(name, 0o755); err != nil {
				return err
			}
			if err := unix.Rmdir(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

func BenchmarkNativeMkdirRmdir(b *testing.B) {
	name := filepath.Join(shmDir(b), "x")
	for b.Loop() {
		if err := unix.Mkdir(name, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := unix.Rmdir(name); err != nil {
			b.Fatal(err)
		}
	}
}

// shmDir is a temporary directory on tmpfs when there is one, so the
// benchmarks measure the broker rather than the disk's journal.
func shmDir(b *testing.B) string {
	dir, err := os.MkdirTemp("/dev/shm", "bench-")
	if err != nil {
		dir = b.TempDir()
	} else {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.Fatal(err)
	}
	return real
}

// BenchmarkSandboxedRoundTrip is a trapped unlinkat the handler refuses
// before reading anything (bad flags): the notification round trip alone.
func BenchmarkSandboxedRoundTrip(b *testing.B) {
	sb := newSandboxThread(b, projectDecider{}, nil, "unlinkat")
	b.ResetTimer()
	_ = sb.do(func() error {
		for range b.N {
			if err := unix.Unlinkat(unix.AT_FDCWD, "/x", 0x4000_0000); err != unix.EINVAL {
				b.Errorf("got %v, want EINVAL", err)
				return err
			}
		}
		return nil
	})
}

// BenchmarkSandboxedUnlinkMissing is a complete unlink handler (path read,
// resolution, decision, the kernel's ENOENT) without a change on disk.
func BenchmarkSandboxedUnlinkMissing(b *testing.B) {
	proj := filepath.Join(shmDir(b), "proj")
	if err := unix.Mkdir(proj, 0o755); err != nil {
		b.Fatal(err)
	}
	sb := newSandboxThread(b, projectDecider{}, nil, "unlinkat")
	name := filepath.Join(proj, "missing")
	b.ResetTimer()
	_ = sb.do(func() error {
		for range b.N {
			if err := unix.Unlink(name); err != unix.ENOENT {
				b.Errorf("got %v, want ENOENT", err)
				return err
			}
		}
		return nil
	})
}
