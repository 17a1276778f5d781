//go:build linux && !amd64

package seccomp

// Native is nil: only x86_64 has a syscall table so far. Adding one is a
// data file like arch_linux_amd64.go.
var Native *Arch
