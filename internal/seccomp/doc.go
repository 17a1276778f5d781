// Package seccomp is the one place aixbroker talks to the kernel's seccomp
// user-notification interface: the kernel ABI structs (SeccompNotif and
// friends, each checked against the kernel's size), thin ioctl wrappers that
// retry EINTR and wrap their errors (NotifRecv, NotifSend, IDValid, AddFD,
// SetFlags), the raw seccomp(2) call that installs a filter and returns its
// listener (Install), and the filter itself: a table literal of
// (syscall, action, reason) rows, Table, assembled into classic BPF for one
// architecture by Build.
//
// The filter is deny-by-row and allow-by-default: it kills foreign
// architectures (i386 int 0x80, x32), refuses the escape vectors listed in
// Table with EPERM or ENOSYS, sends the path-taking syscalls the caller
// handles to the supervisor (SECCOMP_RET_USER_NOTIF), and allows everything
// else. Syscalls are named, not numbered: an Arch maps names to numbers, so
// a new architecture is a data addition. Only x86_64 exists today.
//
// The package is Linux-only; on other systems it is empty.
package seccomp
