package seccomp

import (
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestBuildDevices covers the rows of the devices-and-terminals block:
// every spelling of a raw or packet socket is refused, the sockets agents
// use run, and the terminal ioctls that reach other sessions are refused
// while those of job control and pty set-up run.
func TestBuildDevices(t *testing.T) {
	raw, err := Build(X86_64, func(s string) bool { return s == "socket" })
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(mustDisassemble(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	eperm := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	sock := func(family, typ uint64) []byte {
		return packet(unix.AUDIT_ARCH_X86_64, unix.SYS_SOCKET, family, typ, 0)
	}
	ioctl := func(cmd, arg uint64) []byte {
		return packet(unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0, cmd, arg)
	}
	tests := []struct {
		name string
		in   []byte
		want uint32
	}{
		{"packet raw", sock(unix.AF_PACKET, unix.SOCK_RAW), eperm},
		{"packet dgram", sock(unix.AF_PACKET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC), eperm},
		{"packet high bits", sock(1<<32|unix.AF_PACKET, unix.SOCK_RAW), eperm},
		{"inet raw", sock(unix.AF_INET, unix.SOCK_RAW), eperm},
		{"inet raw nonblock cloexec", sock(unix.AF_INET, unix.SOCK_RAW|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC), eperm},
		{"inet6 raw", sock(unix.AF_INET6, unix.SOCK_RAW), eperm},
		{"inet SOCK_PACKET", sock(unix.AF_INET, unix.SOCK_PACKET), eperm},
		{"inet6 SOCK_PACKET", sock(unix.AF_INET6, unix.SOCK_PACKET|unix.SOCK_CLOEXEC), eperm},
		{"inet stream runs", sock(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC), allow},
		{"inet dgram (ping) runs", sock(unix.AF_INET, unix.SOCK_DGRAM), allow},
		{"inet6 stream runs", sock(unix.AF_INET6, unix.SOCK_STREAM), allow},
		{"inet seqpacket runs", sock(unix.AF_INET, unix.SOCK_SEQPACKET), allow},
		{"netlink raw runs", sock(unix.AF_NETLINK, unix.SOCK_RAW), allow},
		{"TIOCVHANGUP", ioctl(unix.TIOCVHANGUP, 0), eperm},
		{"TIOCVHANGUP high bits", ioctl(1<<32|unix.TIOCVHANGUP, 0), eperm},
		{"TIOCCONS", ioctl(unix.TIOCCONS, 0), eperm},
		{"TIOCSCTTY 0 runs", ioctl(unix.TIOCSCTTY, 0), allow},
		{"TIOCSCTTY 1 runs (util-linux script; a steal needs CAP_SYS_ADMIN, dropped)", ioctl(unix.TIOCSCTTY, 1), allow},
		{"TIOCSETD", ioctl(unix.TIOCSETD, 0), eperm},
		{"TIOCNOTTY runs", ioctl(unix.TIOCNOTTY, 0), allow},
		{"TIOCSWINSZ runs", ioctl(unix.TIOCSWINSZ, 0), allow},
		{"TIOCGPTPEER runs", ioctl(unix.TIOCGPTPEER, 0), allow},
		{"TIOCSPTLCK runs", ioctl(unix.TIOCSPTLCK, 0), allow},
		{"TIOCSPGRP runs", ioctl(unix.TIOCSPGRP, 0), allow},
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
