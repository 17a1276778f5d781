package notify

import (
	"encoding/binary"
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

func openHow(flags, mode, resolve uint64, size int) []byte {
	b := make([]byte, size)
	binary.LittleEndian.PutUint64(b[0:], flags)
	binary.LittleEndian.PutUint64(b[8:], mode)
	binary.LittleEndian.PutUint64(b[16:], resolve)
	return b
}

func TestDecodeOpenHow(t *testing.T) {
	trailing := openHow(0, 0, 0, 32)
	trailing[31] = 1
	tests := []struct {
		name        string
		in          []byte
		wantFlags   int
		wantResolve uint64
		wantErr     error
	}{
		{"plain", openHow(unix.O_RDONLY, 0, 0, 24), unix.O_RDONLY, 0, nil},
		{"resolve beneath", openHow(unix.O_RDWR, 0, unix.RESOLVE_BENEATH, 24), unix.O_RDWR, unix.RESOLVE_BENEATH, nil},
		{"create with mode", openHow(unix.O_CREAT|unix.O_WRONLY, 0o644, 0, 24), unix.O_CREAT | unix.O_WRONLY, 0, nil},
		{"larger zero tail", openHow(unix.O_RDONLY, 0, 0, 64), unix.O_RDONLY, 0, nil},
		{"too small", make([]byte, 16), 0, 0, unix.EINVAL},
		{"nonzero tail", trailing, 0, 0, unix.E2BIG},
		{"too large", make([]byte, pageSize+1), 0, 0, unix.E2BIG},
		{"mode without create", openHow(unix.O_RDONLY, 0o644, 0, 24), 0, 0, unix.EINVAL},
		{"high flag bits", openHow(1<<40, 0, 0, 24), 0, 0, unix.EINVAL},
		{"unknown resolve", openHow(0, 0, 1<<20, 24), 0, 0, unix.EINVAL},
		{"mode beyond 07777", openHow(unix.O_CREAT, 0o10000, 0, 24), 0, 0, unix.EINVAL},
	}
	for _, tt := range tests {
		flags, _, resolve, err := decodeOpenHow(tt.in)
		if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.wantErr)
			continue
		}
		if flags != tt.wantFlags || resolve != tt.wantResolve {
			t.Errorf("%s: flags %#x resolve %#x, want %#x %#x", tt.name, flags, resolve, tt.wantFlags, tt.wantResolve)
		}
	}
}

// FuzzDecodeOpenHow: any bytes a target supplies either decode to values
// inside the kernel's bounds or fail with EINVAL or E2BIG, never panic.
func FuzzDecodeOpenHow(f *testing.F) {
	f.Add(openHow(unix.O_RDONLY, 0, unix.RESOLVE_IN_ROOT, 24))
	f.Add(openHow(unix.O_CREAT, 0o600, 0, 40))
	f.Fuzz(func(t *testing.T, b []byte) {
		flags, mode, resolve, err := decodeOpenHow(b)
		if err != nil {
			if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.E2BIG) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if uint64(flags)>>32 != 0 || mode > 0o7777 || resolve&^resolveKnown != 0 {
			t.Fatalf("out of bounds: %#x %#o %#x", flags, mode, resolve)
		}
	})
}

func TestOwnFD(t *testing.T) {
	tests := []struct {
		in     string
		want   int
		wantOK bool
	}{
		{"/dev/stdin", 0, true},
		{"/dev/stderr", 2, true},
		{"/dev/fd/63", 63, true},
		{"/proc/self/fd/5", 5, true},
		{"/proc/thread-self/fd/7", 7, true},
		{"/proc/self/fd/", 0, false},
		{"/proc/self/fd/+1", 0, false},
		{"/proc/self/fd/-1", 0, false},
		{"/proc/self/fd/1/x", 0, false},
		{"/dev/fd/../fd/1", 0, false},
		{"/proc/1/fd/1", 0, false},
		{"/dev/stdin/", 0, false},
	}
	for _, tt := range tests {
		got, ok := ownFD(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ownFD(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func FuzzOwnFD(f *testing.F) {
	for _, s := range []string{"/dev/fd/3", "/proc/self/fd/12", "/dev/stdout"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := ownFD(s); ok && n < 0 {
			t.Fatalf("ownFD(%q) = %d", s, n)
		}
	})
}
