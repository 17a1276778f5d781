package seccomp

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// packet encodes a struct seccomp_data for the x/net/bpf VM. The kernel
// loads 32-bit words in host order; the VM loads them big-endian, so each
// word the filter reads is stored big-endian at its little-endian offset
// (the low word of an argument sits first).
func packet(arch, nr uint32, args ...uint64) []byte {
	b := make([]byte, sizeofSeccompData)
	binary.BigEndian.PutUint32(b[offNr:], nr)
	binary.BigEndian.PutUint32(b[offArch:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[offArgs+8*i:], uint32(a))
		binary.BigEndian.PutUint32(b[offArgs+8*i+4:], uint32(a>>32))
	}
	return b
}

func TestBuildX86_64(t *testing.T) {
	trapped := map[string]bool{"openat": true, "execve": true, "socket": true, "open": true} // open is 2, AF_INET: a failed condition must reload the number
	raw, err := Build(X86_64, func(s string) bool { return trapped[s] })
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(mustDisassemble(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	tests := []struct {
		name string
		in   []byte
		want uint32
	}{
		{"read allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_READ), unix.SECCOMP_RET_ALLOW},
		{"i386 killed", packet(unix.AUDIT_ARCH_I386, 5), unix.SECCOMP_RET_KILL_PROCESS},
		{"x32 killed", packet(unix.AUDIT_ARCH_X86_64, 0x40000000|unix.SYS_OPENAT), unix.SECCOMP_RET_KILL_PROCESS},
		{"openat trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_OPENAT), unix.SECCOMP_RET_USER_NOTIF},
		{"execve trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_EXECVE), unix.SECCOMP_RET_USER_NOTIF},
		{"rename without handler runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_RENAME), unix.SECCOMP_RET_ALLOW},
		{"io_uring refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IO_URING_SETUP), errno(unix.EPERM)},
		{"ptrace refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_PTRACE), errno(unix.EPERM)},
		{"clone3 nosys", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_CLONE3), errno(unix.ENOSYS)},
		{"clone thread allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_THREAD), unix.SECCOMP_RET_ALLOW},
		{"clone newuser refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_CLONE, unix.CLONE_NEWUSER|uint64(unix.SIGCHLD)), errno(unix.EPERM)},
		{"unshare newns refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_UNSHARE, unix.CLONE_NEWNS), errno(unix.EPERM)},
		{"unshare fs allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_UNSHARE, unix.CLONE_FS), unix.SECCOMP_RET_ALLOW},
		{"ioctl TIOCSTI refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0, unix.TIOCSTI), errno(unix.EPERM)},
		{"ioctl TIOCLINUX refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0, unix.TIOCLINUX), errno(unix.EPERM)},
		{"ioctl TIOCSTI high bits refused", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0, 1<<32|unix.TIOCSTI), errno(unix.EPERM)},
		{"ioctl TCGETS allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0, unix.TCGETS), unix.SECCOMP_RET_ALLOW},
		{"setxattr unsupported", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SETXATTR), errno(unix.EOPNOTSUPP)},
		{"file_setattr nosys", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_FILE_SETATTR), errno(unix.ENOSYS)},
		{"file_getattr nosys", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_FILE_GETATTR), errno(unix.ENOSYS)},
		{"newer than the table nosys", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_FILE_SETATTR+1), errno(unix.ENOSYS)},
		{"far beyond the table nosys", packet(unix.AUDIT_ARCH_X86_64, 600), errno(unix.ENOSYS)},
		{"rseq allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_RSEQ), unix.SECCOMP_RET_ALLOW},
		{"fremovexattr unsupported", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_FREMOVEXATTR), errno(unix.EOPNOTSUPP)},
		{"setxattrat unsupported", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SETXATTRAT), errno(unix.EOPNOTSUPP)},
		{"getxattr allowed", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_GETXATTR), unix.SECCOMP_RET_ALLOW},
		{"unix dgram socket trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_DGRAM), unix.SECCOMP_RET_USER_NOTIF},
		{"unix dgram with flags trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK), unix.SECCOMP_RET_USER_NOTIF},
		{"unix raw (a dgram) trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_RAW), unix.SECCOMP_RET_USER_NOTIF},
		{"unix dgram high bits trapped", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, 1<<32|unix.AF_UNIX, 1<<32|unix.SOCK_DGRAM), unix.SECCOMP_RET_USER_NOTIF},
		{"unix stream runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC), unix.SECCOMP_RET_ALLOW},
		{"unix seqpacket runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_SEQPACKET), unix.SECCOMP_RET_ALLOW},
		{"unix packet type runs (the kernel refuses it)", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_UNIX, unix.SOCK_PACKET), unix.SECCOMP_RET_ALLOW},
		{"inet dgram runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_DGRAM), unix.SECCOMP_RET_ALLOW},
		{"netlink raw runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, unix.AF_NETLINK, unix.SOCK_RAW), unix.SECCOMP_RET_ALLOW},
		{"socketpair without handler runs", packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_DGRAM), unix.SECCOMP_RET_ALLOW},
	}
	for _, tt := range tests {
		got, err := vm.Run(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if uint32(got) != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, uint32(got), tt.want)
		}
	}
}

func mustDisassemble(t *testing.T, raw []bpf.RawInstruction) []bpf.Instruction {
	t.Helper()
	out, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatal("filter does not disassemble")
	}
	return out
}

// TestTableNamesKnown fails when a row names a syscall x86_64 does not
// know: a typo would silently drop the row.
func TestTableNamesKnown(t *testing.T) {
	for _, r := range Table {
		if _, ok := X86_64.Numbers[r.Syscall]; !ok {
			t.Errorf("row %q: no x86_64 number", r.Syscall)
		}
		if r.Reason == "" {
			t.Errorf("row %q: no reason", r.Syscall)
		}
		if r.Action == Refuse && r.Errno == 0 {
			t.Errorf("row %q: refuse without errno", r.Syscall)
		}
	}
}

func TestBuildNoArch(t *testing.T) {
	if _, err := Build(nil, nil); err == nil {
		t.Fatal("Build(nil) succeeded, want ErrNoArch")
	}
}
