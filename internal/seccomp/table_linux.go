package seccomp

import "golang.org/x/sys/unix"

// Action is what the filter does with a syscall.
type Action uint8

// Filter actions. Refuse returns Rule.Errno; Notify sends the syscall to the
// supervisor when the caller handles it (see Build).
const (
	Allow Action = iota
	Refuse
	Notify
	Kill
)

func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Refuse:
		return "refuse"
	case Notify:
		return "notify"
	case Kill:
		return "kill"
	}
	return "unknown"
}

// Cond narrows a rule to calls whose argument Arg (its low 32 bits, or
// its high 32 bits when High is set) has any of the bits in BitsSet set
// or, when BitsSet is 0, equals Equal (after masking with Mask, when Mask
// is not 0). And, when set, must hold too. The low word is what the kernel
// uses for every int argument checked here (flags, ioctl commands, socket
// family and type, pids); a pointer is NULL only when both words are 0.
type Cond struct {
	Arg     int
	High    bool
	BitsSet uint32
	Equal   uint32
	Mask    uint32
	And     *Cond
}

// ioctl commands x/sys does not name: FS_IOC32_SETFLAGS = _IOW('f', 2, int)
// and FS_IOC_FSSETXATTR = _IOW('X', 32, struct fsxattr).
const (
	fsIOC32SetFlags = 0x40046602
	fsIOCFSSetXattr = 0x401c5820
)

// unixDatagram matches socket and socketpair of a unix datagram socket:
// family AF_UNIX, type SOCK_DGRAM or SOCK_RAW (which unix sockets turn
// into SOCK_DGRAM), whatever the SOCK_CLOEXEC and SOCK_NONBLOCK flags: the
// type's bits 1-3 are 001 for exactly these two. Streams and seqpackets are
// not trapped: they never send to an address given with the data.
var unixDatagram = &Cond{Arg: 0, Equal: unix.AF_UNIX, And: &Cond{Arg: 1, Mask: 0xe, Equal: unix.SOCK_DGRAM}}

// Rule is one row of the filter table.
type Rule struct {
	Syscall string
	Action  Action
	Errno   unix.Errno // for Refuse
	When    *Cond      // nil: every call
	Unless  string     // a policy switch that lifts the row (see Build); "": none
	Reason  string
}

// Namespace-creating clone flags. CLONE_NEWTIME (0x80) is left out because in
// clone(2) the low byte is the exit signal; clone3 is refused outright.
const nsFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWUTS | unix.CLONE_NEWIPC | unix.CLONE_NEWCGROUP

// Table is the filter, row by row; the first matching row wins and anything
// not listed is allowed. Rows naming a syscall the architecture lacks are
// skipped.
//
// Decisions worth knowing:
//   - Namespaces: clone and unshare with CLONE_NEW* flags, setns, and clone3
//     (whose flags live in memory a filter cannot read; ENOSYS makes libc
//     fall back to clone) are refused. With no new user or mount namespace,
//     and chroot refused, every sandboxed process shares the supervisor's
//     root, so the supervisor resolves absolute paths from its own "/".
//   - seccomp(2) itself is allowed, but not a new listener: a nested filter
//     only narrows the agent, a nested listener would take over once the
//     supervisor's is gone (see the isolation rows).
//   - The stat and access families are Notify rows, but a session traps
//     them only with notify.Config.TrapStat (aixbroker exec --stat-trap):
//     they reveal that a denied name exists (and its metadata), not its
//     content, and trapping them costs a round trip on every fstat. The
//     xattr getters by path and readlink are trapped in every session
//     (their answers are content: see the metadata block). The chdir and
//     inotify families are never trapped.
//   - The xattr setters and removers are refused with EOPNOTSUPP, what a
//     filesystem without xattrs answers (cp -a, rsync -X and tar go on
//     without them): a POSIX ACL is an xattr and would change who may write
//     a file the policy keeps read-only, and Landlock does not cover xattrs. Hiding names is the interposer's job (cosmetic, see
//     DESIGN.md). chdir into a denied directory grants nothing, because every
//     open relative to the cwd is brokered and decided on the canonical path.
//   - TIOCSTI and TIOCLINUX are refused: they push keystrokes into the
//     terminal, which the user's shell would run outside the sandbox.
var Table = []Rule{
	// Escape vectors: refused outright.
	{Syscall: "io_uring_setup", Action: Refuse, Errno: unix.EPERM, Reason: "io_uring performs opens the filter never sees"},
	{Syscall: "io_uring_enter", Action: Refuse, Errno: unix.EPERM, Reason: "io_uring"},
	{Syscall: "io_uring_register", Action: Refuse, Errno: unix.EPERM, Reason: "io_uring"},
	{Syscall: "ptrace", Action: Refuse, Errno: unix.EPERM, Reason: "could rewrite a sibling's syscall after the broker's check"},
	{Syscall: "process_vm_readv", Action: Refuse, Errno: unix.EPERM, Reason: "cross-process memory access"},
	{Syscall: "process_vm_writev", Action: Refuse, Errno: unix.EPERM, Reason: "cross-process memory access"},
	{Syscall: "process_madvise", Action: Refuse, Errno: unix.EPERM, Reason: "acts on another process"},
	{Syscall: "pidfd_getfd", Action: Refuse, Errno: unix.EPERM, Reason: "steals another process's fds"},
	{Syscall: "mount", Action: Refuse, Errno: unix.EPERM, Reason: "mount family changes what paths mean"},
	{Syscall: "umount2", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "pivot_root", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "move_mount", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "open_tree", Action: Refuse, Errno: unix.EPERM, Reason: "mount family; also opens a path unbrokered"},
	{Syscall: "open_tree_attr", Action: Refuse, Errno: unix.EPERM, Reason: "mount family; also opens a path unbrokered"},
	{Syscall: "fsopen", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "fsconfig", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "fsmount", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "fspick", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "mount_setattr", Action: Refuse, Errno: unix.EPERM, Reason: "mount family"},
	{Syscall: "chroot", Action: Refuse, Errno: unix.EPERM, Reason: "keeps every process on the broker's root"},
	{Syscall: "setns", Action: Refuse, Errno: unix.EPERM, Reason: "no namespace changes"},
	{Syscall: "unshare", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, BitsSet: nsFlags}, Reason: "no new namespaces (user namespaces grant capabilities)"},
	{Syscall: "clone", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, BitsSet: nsFlags}, Reason: "no new namespaces"},
	{Syscall: "clone3", Action: Refuse, Errno: unix.ENOSYS, Reason: "flags unreadable by the filter; libc falls back to clone"},
	{Syscall: "bpf", Action: Refuse, Errno: unix.EPERM, Reason: "kernel programs"},
	{Syscall: "perf_event_open", Action: Refuse, Errno: unix.EPERM, Reason: "kernel and cross-process observation"},
	{Syscall: "open_by_handle_at", Action: Refuse, Errno: unix.EPERM, Reason: "opens by inode, bypassing paths"},
	{Syscall: "name_to_handle_at", Action: Refuse, Errno: unix.EPERM, Reason: "pairs with open_by_handle_at"},
	{Syscall: "userfaultfd", Action: Refuse, Errno: unix.EPERM, Reason: "stalls the broker's reads of target memory"},
	{Syscall: "kexec_load", Action: Refuse, Errno: unix.EPERM, Reason: "kernel replacement"},
	{Syscall: "kexec_file_load", Action: Refuse, Errno: unix.EPERM, Reason: "kernel replacement"},
	{Syscall: "init_module", Action: Refuse, Errno: unix.EPERM, Reason: "kernel modules"},
	{Syscall: "finit_module", Action: Refuse, Errno: unix.EPERM, Reason: "kernel modules"},
	{Syscall: "delete_module", Action: Refuse, Errno: unix.EPERM, Reason: "kernel modules"},
	{Syscall: "keyctl", Action: Refuse, Errno: unix.EPERM, Reason: "kernel keyrings hold credentials"},
	{Syscall: "add_key", Action: Refuse, Errno: unix.EPERM, Reason: "kernel keyrings"},
	{Syscall: "request_key", Action: Refuse, Errno: unix.EPERM, Reason: "kernel keyrings"},
	{Syscall: "quotactl", Action: Refuse, Errno: unix.EPERM, Reason: "filesystem administration"},
	{Syscall: "quotactl_fd", Action: Refuse, Errno: unix.EPERM, Reason: "filesystem administration"},
	{Syscall: "swapon", Action: Refuse, Errno: unix.EPERM, Reason: "system administration"},
	{Syscall: "swapoff", Action: Refuse, Errno: unix.EPERM, Reason: "system administration"},
	{Syscall: "reboot", Action: Refuse, Errno: unix.EPERM, Reason: "system administration"},
	{Syscall: "acct", Action: Refuse, Errno: unix.EPERM, Reason: "writes a file unbrokered"},
	{Syscall: "lookup_dcookie", Action: Refuse, Errno: unix.EPERM, Reason: "resolves paths unbrokered"},
	{Syscall: "uselib", Action: Refuse, Errno: unix.EPERM, Reason: "opens a path unbrokered"},
	{Syscall: "fanotify_init", Action: Refuse, Errno: unix.EPERM, Reason: "can open files from events"},
	{Syscall: "setxattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "an ACL would change who may write a read-only file; Landlock does not cover xattrs (EOPNOTSUPP: cp -a, rsync -X, tar carry on)"},
	{Syscall: "lsetxattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "fsetxattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "setxattrat", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "removexattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "removing an ACL changes permissions too"},
	{Syscall: "lremovexattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "fremovexattr", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "removexattrat", Action: Refuse, Errno: unix.EOPNOTSUPP, Reason: "xattr setter"},
	{Syscall: "file_setattr", Action: Refuse, Errno: unix.ENOSYS, Reason: "inode flags (append-only, immutable) by path, unbrokered (Linux 6.17; tools fall back to FS_IOC_SETFLAGS, refused below)"},
	{Syscall: "file_getattr", Action: Refuse, Errno: unix.ENOSYS, Reason: "inode flags by path: an existence oracle the stat trap does not answer (tools fall back to FS_IOC_GETFLAGS on a descriptor)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.TIOCSTI}, Reason: "injects keystrokes into the terminal"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.TIOCLINUX}, Reason: "console injection"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.FS_IOC_SETFLAGS}, Reason: "immutable/append-only flags on a file opened read-only (FINDINGS F6)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: fsIOC32SetFlags}, Reason: "the 32-bit spelling of FS_IOC_SETFLAGS"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: fsIOCFSSetXattr}, Reason: "inode flags and project ids through a read-only descriptor"},

	// Path syscalls: sent to the supervisor, which acts itself.
	{Syscall: "open", Action: Notify, Reason: "open family: broker opens and injects the fd"},
	{Syscall: "openat", Action: Notify, Reason: "open family"},
	{Syscall: "openat2", Action: Notify, Reason: "open family"},
	{Syscall: "creat", Action: Notify, Reason: "open family"},
	{Syscall: "execve", Action: Notify, Reason: "exec policy"},
	{Syscall: "execveat", Action: Notify, Reason: "exec policy"},
	{Syscall: "rename", Action: Notify, Reason: "emulated by the broker"},
	{Syscall: "renameat", Action: Notify, Reason: "emulated"},
	{Syscall: "renameat2", Action: Notify, Reason: "emulated"},
	{Syscall: "link", Action: Notify, Reason: "emulated"},
	{Syscall: "linkat", Action: Notify, Reason: "emulated"},
	{Syscall: "symlink", Action: Notify, Reason: "emulated"},
	{Syscall: "symlinkat", Action: Notify, Reason: "emulated"},
	{Syscall: "unlink", Action: Notify, Reason: "emulated"},
	{Syscall: "unlinkat", Action: Notify, Reason: "emulated"},
	{Syscall: "mkdir", Action: Notify, Reason: "emulated"},
	{Syscall: "mkdirat", Action: Notify, Reason: "emulated"},
	{Syscall: "mknod", Action: Notify, Reason: "emulated"},
	{Syscall: "mknodat", Action: Notify, Reason: "emulated"},
	{Syscall: "rmdir", Action: Notify, Reason: "emulated"},
	{Syscall: "truncate", Action: Notify, Reason: "emulated"},
	{Syscall: "chmod", Action: Notify, Reason: "emulated"},
	{Syscall: "fchmodat", Action: Notify, Reason: "emulated"},
	{Syscall: "fchmodat2", Action: Notify, Reason: "emulated"},
	{Syscall: "chown", Action: Notify, Reason: "emulated"},
	{Syscall: "lchown", Action: Notify, Reason: "emulated"},
	{Syscall: "fchownat", Action: Notify, Reason: "emulated"},
	{Syscall: "utimes", Action: Notify, Reason: "emulated"},
	{Syscall: "utimensat", Action: Notify, Reason: "emulated"},
	{Syscall: "futimesat", Action: Notify, Reason: "emulated"},
	{Syscall: "utime", Action: Notify, Reason: "emulated"},
	{Syscall: "fchmod", Action: Notify, Reason: "a descriptor opened for reading suffices: decided as a write on its file"},
	{Syscall: "fchown", Action: Notify, Reason: "a descriptor opened for reading suffices: decided as a write on its file"},
	{Syscall: "connect", Action: Notify, Reason: "Landlock cannot restrict connecting to unix sockets (docker, ssh-agent, D-Bus, tmux): the broker connects"},
	{Syscall: "bind", Action: Notify, Reason: "the broker binds, deciding on the new name, and records the sandbox's own sockets"},
	{Syscall: "socket", Action: Notify, When: unixDatagram, Reason: "a unix datagram socket sends to any address given with each datagram: the broker refuses it unless the policy allows (FINDINGS F7)"},
	{Syscall: "socketpair", Action: Notify, When: unixDatagram, Reason: "a datagram pair can send to any address too (FINDINGS F7)"},

	// The stat family: trapped only when the session asks (TrapStat), so
	// hidden names stay hidden from static binaries too.
	{Syscall: "newfstatat", Action: Notify, Reason: "stat trap: hidden names do not exist; the broker stats"},
	{Syscall: "statx", Action: Notify, Reason: "stat trap"},
	{Syscall: "stat", Action: Notify, Reason: "stat trap"},
	{Syscall: "lstat", Action: Notify, Reason: "stat trap"},
	{Syscall: "statfs", Action: Notify, Reason: "stat trap: succeeds only on an existing name"},
	{Syscall: "access", Action: Notify, Reason: "stat trap"},
	{Syscall: "faccessat", Action: Notify, Reason: "stat trap"},
	{Syscall: "faccessat2", Action: Notify, Reason: "stat trap"},

	// Content-bearing metadata (issue 14 item 11): trapped in every
	// session, not only with the stat trap. An xattr value or name is
	// content (user.* attributes hold anything) and a symlink's target is
	// its content: the broker decides them like a read (xattrs) or like
	// stat (readlink, whose name the agent may see) on the canonical path
	// and answers itself. fgetxattr and flistxattr stay untrapped: the
	// descriptor's open was decided, and the kernel refuses them on O_PATH
	// descriptors (EBADF), which are opened undecided.
	{Syscall: "getxattr", Action: Notify, Reason: "metadata trap: an xattr value of a denied file is content"},
	{Syscall: "lgetxattr", Action: Notify, Reason: "metadata trap"},
	{Syscall: "getxattrat", Action: Notify, Reason: "metadata trap (Linux 6.13)"},
	{Syscall: "listxattr", Action: Notify, Reason: "metadata trap: xattr names are content too"},
	{Syscall: "llistxattr", Action: Notify, Reason: "metadata trap"},
	{Syscall: "listxattrat", Action: Notify, Reason: "metadata trap (Linux 6.13)"},
	{Syscall: "readlink", Action: Notify, Reason: "metadata trap: a symlink's target in a denied folder is content"},
	{Syscall: "readlinkat", Action: Notify, Reason: "metadata trap"},

	// Credential changes: noted by the supervisor (it then acts with each
	// caller's credentials), then performed by the kernel.
	{Syscall: "setuid", Action: Notify, Reason: "credential change"},
	{Syscall: "setgid", Action: Notify, Reason: "credential change"},
	{Syscall: "setreuid", Action: Notify, Reason: "credential change"},
	{Syscall: "setregid", Action: Notify, Reason: "credential change"},
	{Syscall: "setresuid", Action: Notify, Reason: "credential change"},
	{Syscall: "setresgid", Action: Notify, Reason: "credential change"},
	{Syscall: "setfsuid", Action: Notify, Reason: "credential change"},
	{Syscall: "setfsgid", Action: Notify, Reason: "credential change"},
	{Syscall: "setgroups", Action: Notify, Reason: "credential change"},
	{Syscall: "capset", Action: Notify, Reason: "credential change"},

	// Isolation rows (issue 14, helper "filter"): the listener slot, other
	// processes' limits and scheduling, SysV IPC, filesystem-wide ioctls.
	// Conditions and numbers are in isolation_linux.go.
	//
	// A nested filter only narrows the agent, but a nested listener would
	// answer CONTINUE for the sandbox once the supervisor's listener is
	// gone (the kernel frees its one-listener slot): refused on registers
	// with EBUSY, what the kernel answers while the supervisor lives. Flags
	// and operations newer than the table are refused with EINVAL, what an
	// older kernel answers. prctl(PR_SET_SECCOMP) installs with no flags.
	{Syscall: "seccomp", Action: Refuse, Errno: unix.EBUSY, When: newListener, Reason: "a listener of the agent's own would answer CONTINUE once the supervisor's is gone"},
	{Syscall: "seccomp", Action: Refuse, Errno: unix.EINVAL, When: unknownFilterFlag, Reason: "a filter flag newer than the table"},
	{Syscall: "seccomp", Action: Allow, When: knownSeccompOp, Reason: "a nested filter only narrows the agent"},
	{Syscall: "seccomp", Action: Refuse, Errno: unix.EINVAL, Reason: "a seccomp operation newer than the table"},

	// Other processes: limits, priority, scheduling, CPUs, memory placement.
	// Decided on registers when the target is the caller (0) or nothing is
	// set; a process group or a user (PRIO_USER: every process of the user)
	// is refused; another pid is trapped (notify/sched_linux.go). Each Notify
	// row is followed by a Refuse row: without the handler, refused.
	{Syscall: "prlimit64", Action: Allow, When: arg2Null, Reason: "reads limits only (new == NULL)"},
	{Syscall: "prlimit64", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "prlimit64", Action: Notify, Reason: "another process's limits: RLIMIT_CPU kills it, RLIMIT_FSIZE blinds the audit: the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "prlimit64", Action: Refuse, Errno: unix.EPERM, Reason: "another process's limits: RLIMIT_CPU kills it, RLIMIT_FSIZE blinds the audit (no handler: refused)"},
	{Syscall: "setpriority", Action: Allow, When: prioSelf, Reason: "the caller itself (nice)"},
	{Syscall: "setpriority", Action: Refuse, Errno: unix.EPERM, When: prioGroup, Reason: "a process group may hold processes outside the sandbox"},
	{Syscall: "setpriority", Action: Refuse, Errno: unix.EPERM, When: prioUser, Reason: "PRIO_USER re-nices every process of the user"},
	{Syscall: "setpriority", Action: Notify, When: prioPid, Reason: "another process's priority: the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "setpriority", Action: Refuse, Errno: unix.EPERM, When: prioPid, Reason: "another process's priority (no handler: refused)"},
	{Syscall: "ioprio_set", Action: Allow, When: ioprioSelf, Reason: "the caller itself (ionice)"},
	{Syscall: "ioprio_set", Action: Refuse, Errno: unix.EPERM, When: ioprioPgrp, Reason: "a process group may hold processes outside the sandbox"},
	{Syscall: "ioprio_set", Action: Refuse, Errno: unix.EPERM, When: ioprioUser, Reason: "IOPRIO_WHO_USER is every process of the user"},
	{Syscall: "ioprio_set", Action: Notify, When: ioprioPid, Reason: "another process's io priority: the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "ioprio_set", Action: Refuse, Errno: unix.EPERM, When: ioprioPid, Reason: "another process's io priority (no handler: refused)"},
	{Syscall: "sched_setscheduler", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "sched_setscheduler", Action: Notify, Reason: "another thread's scheduling (SCHED_IDLE, one CPU): the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "sched_setscheduler", Action: Refuse, Errno: unix.EPERM, Reason: "another thread's scheduling (SCHED_IDLE, one CPU) (no handler: refused)"},
	{Syscall: "sched_setparam", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "sched_setparam", Action: Notify, Reason: "another thread's scheduling (SCHED_IDLE, one CPU): the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "sched_setparam", Action: Refuse, Errno: unix.EPERM, Reason: "another thread's scheduling (SCHED_IDLE, one CPU) (no handler: refused)"},
	{Syscall: "sched_setattr", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "sched_setattr", Action: Notify, Reason: "another thread's scheduling (SCHED_IDLE, one CPU): the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "sched_setattr", Action: Refuse, Errno: unix.EPERM, Reason: "another thread's scheduling (SCHED_IDLE, one CPU) (no handler: refused)"},
	{Syscall: "sched_setaffinity", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "sched_setaffinity", Action: Notify, Reason: "another thread's scheduling (SCHED_IDLE, one CPU): the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "sched_setaffinity", Action: Refuse, Errno: unix.EPERM, Reason: "another thread's scheduling (SCHED_IDLE, one CPU) (no handler: refused)"},
	{Syscall: "migrate_pages", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "migrate_pages", Action: Notify, Reason: "moves another process's memory: the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "migrate_pages", Action: Refuse, Errno: unix.EPERM, Reason: "moves another process's memory (no handler: refused)"},
	{Syscall: "move_pages", Action: Allow, When: arg0Zero, Reason: "the caller itself (pid 0)"},
	{Syscall: "move_pages", Action: Notify, Reason: "moves another process's memory: the supervisor allows the caller's own process and the sandbox's members"},
	{Syscall: "move_pages", Action: Refuse, Errno: unix.EPERM, Reason: "moves another process's memory (no handler: refused)"},
	{Syscall: "kcmp", Action: Notify, Reason: "compares kernel objects of two processes: the supervisor allows the sandbox's own"},
	{Syscall: "kcmp", Action: Refuse, Errno: unix.EPERM, Reason: "compares kernel objects of two processes (no handler: refused)"},

	// SysV IPC objects are the host's (X11 MIT-SHM, databases): refused
	// with ENOSYS, as by a kernel without CONFIG_SYSVIPC, unless the policy
	// says ipc.sysv: allow (SysVSwitch lifts these rows). shmdt only
	// detaches the caller's own mapping.
	{Syscall: "shmget", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "shmat", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "shmctl", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "msgget", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "msgsnd", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "msgrcv", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "msgctl", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "semget", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "semop", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "semtimedop", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},
	{Syscall: "semctl", Action: Refuse, Errno: unix.ENOSYS, Unless: SysVSwitch, Reason: "SysV IPC is the host's"},

	// Filesystem-wide ioctls, on any descriptor (a read-only one too).
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFifreeze}, Reason: "FIFREEZE (XFS_IOC_FREEZE): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFithaw}, Reason: "FITHAW (XFS_IOC_THAW): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFitrim}, Reason: "FITRIM: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFsIocShutdown}, Reason: "FS_IOC_SHUTDOWN (EXT4_IOC_SHUTDOWN, XFS_IOC_GOINGDOWN, F2FS_IOC_SHUTDOWN): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFsIocSetfslabel}, Reason: "FS_IOC_SETFSLABEL (BTRFS_IOC_SET_FSLABEL): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocSetfsuuid}, Reason: "EXT4_IOC_SETFSUUID: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFsIocSetversion}, Reason: "FS_IOC_SETVERSION (EXT4_IOC_SETVERSION_OLD): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioFsIoc32Setversion}, Reason: "FS_IOC32_SETVERSION: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocSetversion}, Reason: "EXT4_IOC_SETVERSION: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4Ioc32Setversion}, Reason: "EXT4_IOC32_SETVERSION: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocGroupExtend}, Reason: "EXT4_IOC_GROUP_EXTEND: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4Ioc32GroupExtend}, Reason: "EXT4_IOC32_GROUP_EXTEND: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocGroupAdd}, Reason: "EXT4_IOC_GROUP_ADD: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4Ioc32GroupAdd}, Reason: "EXT4_IOC32_GROUP_ADD: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocResizeFs}, Reason: "EXT4_IOC_RESIZE_FS: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocSwapBoot}, Reason: "EXT4_IOC_SWAP_BOOT: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioExt4IocCheckpoint}, Reason: "EXT4_IOC_CHECKPOINT: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocFsgrowfsdata}, Reason: "XFS_IOC_FSGROWFSDATA: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocFsgrowfsdata32}, Reason: "XFS_IOC_FSGROWFSDATA (32-bit): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocFsgrowfslog}, Reason: "XFS_IOC_FSGROWFSLOG: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocFsgrowfsrt}, Reason: "XFS_IOC_FSGROWFSRT: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocFsgrowfsrt32}, Reason: "XFS_IOC_FSGROWFSRT (32-bit): filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioXfsIocSetResblks}, Reason: "XFS_IOC_SET_RESBLKS: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioF2fsIocResizeFs}, Reason: "F2FS_IOC_RESIZE_FS: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocResize}, Reason: "BTRFS_IOC_RESIZE: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocScanDev}, Reason: "BTRFS_IOC_SCAN_DEV: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocForgetDev}, Reason: "BTRFS_IOC_FORGET_DEV: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocAddDev}, Reason: "BTRFS_IOC_ADD_DEV: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocRmDev}, Reason: "BTRFS_IOC_RM_DEV: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocRmDevV2}, Reason: "BTRFS_IOC_RM_DEV_V2: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocDevReplace}, Reason: "BTRFS_IOC_DEV_REPLACE: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocBalanceV2}, Reason: "BTRFS_IOC_BALANCE_V2: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocBalanceCtl}, Reason: "BTRFS_IOC_BALANCE_CTL: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocScrub}, Reason: "BTRFS_IOC_SCRUB: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocScrubCancel}, Reason: "BTRFS_IOC_SCRUB_CANCEL: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocQuotaCtl}, Reason: "BTRFS_IOC_QUOTA_CTL: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocSetFeatures}, Reason: "BTRFS_IOC_SET_FEATURES: filesystem-wide"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: ioBtrfsIocDefaultSubvol}, Reason: "BTRFS_IOC_DEFAULT_SUBVOL: filesystem-wide"},

	// Ioctls that reach files by something other than a brokered path
	// (review of h-filter, R2, R3): btrfs subvolume creation, snapshots and
	// deletion (by name or by id, from any descriptor), the metadata tree
	// search (inline extents are file bodies) and inode-to-name lookups;
	// XFS's handle family (the ioctl twin of the refused open_by_handle_at).
	// Matched on type and number whatever the size and direction bits say.
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9401}, Reason: "BTRFS_IOC_SNAP_CREATE: a snapshot is a readable twin of every file in a subvolume"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9417}, Reason: "BTRFS_IOC_SNAP_CREATE_V2"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x940e}, Reason: "BTRFS_IOC_SUBVOL_CREATE: a directory entry made unbrokered"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9418}, Reason: "BTRFS_IOC_SUBVOL_CREATE_V2 (and START_SYNC, same number)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x940f}, Reason: "BTRFS_IOC_SNAP_DESTROY: removes a whole subvolume unbrokered"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x943f}, Reason: "BTRFS_IOC_SNAP_DESTROY_V2: by id, from any descriptor on the filesystem"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x941a}, Reason: "BTRFS_IOC_SUBVOL_SETFLAGS: a subvolume made read-only through a read-only descriptor"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9425}, Reason: "BTRFS_IOC_SET_RECEIVED_SUBVOL"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9411}, Reason: "BTRFS_IOC_TREE_SEARCH(_V2): raw metadata, inline extents are file bodies"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9412}, Reason: "BTRFS_IOC_INO_LOOKUP: the path of any inode"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9423}, Reason: "BTRFS_IOC_INO_PATHS: the names of any inode"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9424}, Reason: "BTRFS_IOC_LOGICAL_INO"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x943b}, Reason: "BTRFS_IOC_LOGICAL_INO_V2"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x9426}, Reason: "BTRFS_IOC_SEND: streams a whole subvolume"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x5868}, Reason: "XFS_IOC_PATH_TO_FSHANDLE: resolves a path in the kernel, unbrokered"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x5869}, Reason: "XFS_IOC_PATH_TO_HANDLE: resolves a path in the kernel, unbrokered"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x586a}, Reason: "XFS_IOC_FD_TO_HANDLE"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x586b}, Reason: "XFS_IOC_OPEN_BY_HANDLE: opens a file with no path (open_by_handle_at is refused)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x586c}, Reason: "XFS_IOC_READLINK_BY_HANDLE"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x587a}, Reason: "XFS_IOC_ATTRLIST_BY_HANDLE: xattr names by handle"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x587b}, Reason: "XFS_IOC_ATTRMULTI_BY_HANDLE: xattrs read and set by handle (the setters are refused)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x583f}, Reason: "XFS_IOC_GETPARENTS_BY_HANDLE: names by handle"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x6618}, Reason: "FS_IOC_REMOVE_ENCRYPTION_KEY: locks every process of the user out of an encrypted home (review R5)"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Mask: 0xffff, Equal: 0x6619}, Reason: "FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS: the same for every user"},

	// Devices and terminals (issue 14, items 3 and 5). Raw and packet
	// sockets see every packet on the machine's interfaces, loopback
	// included (other users' connections to local services); root keeps
	// CAP_NET_RAW only if stage 2 failed to drop it (caps_linux.go), so
	// these rows are the second wall. The type's low 4 bits are the
	// socket type whatever SOCK_CLOEXEC and SOCK_NONBLOCK say. ICMP
	// "ping" sockets are SOCK_DGRAM and run.
	{Syscall: "socket", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, Equal: unix.AF_PACKET}, Reason: "packet sockets sniff and forge on every interface"},
	{Syscall: "socket", Action: Refuse, Errno: unix.EPROTONOSUPPORT, When: &Cond{Arg: 0, Equal: unix.AF_NETLINK, And: &Cond{Arg: 2, Equal: unix.NETLINK_CONNECTOR}}, Reason: "the proc connector reports every fork, exec and exit on the machine (review finding RD4); EPROTONOSUPPORT, what a kernel without it answers"},
	{Syscall: "socket", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, Equal: unix.AF_INET, And: &Cond{Arg: 1, Mask: 0xf, Equal: unix.SOCK_RAW}}, Reason: "raw inet sockets read every packet of a protocol, loopback included"},
	{Syscall: "socket", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, Equal: unix.AF_INET6, And: &Cond{Arg: 1, Mask: 0xf, Equal: unix.SOCK_RAW}}, Reason: "raw inet6 sockets"},
	{Syscall: "socket", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, Equal: unix.AF_INET, And: &Cond{Arg: 1, Mask: 0xf, Equal: unix.SOCK_PACKET}}, Reason: "the obsolete inet SOCK_PACKET is a packet socket"},
	{Syscall: "socket", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 0, Equal: unix.AF_INET6, And: &Cond{Arg: 1, Mask: 0xf, Equal: unix.SOCK_PACKET}}, Reason: "SOCK_PACKET"},
	// Terminal ioctls that act on processes outside the sandbox: a hang-up
	// signals every process of the terminal's session (the user's shell);
	// TIOCCONS redirects the console; a line discipline loads kernel code
	// and rewrites the byte stream. TIOCSCTTY is not refused, not even
	// with the "steal" argument 1: util-linux script and other pty tools
	// pass 1 for a terminal no session holds, and stealing one that a
	// session holds needs CAP_SYS_ADMIN, which stage 2 drops (and fails
	// closed if it cannot); the terminals the agent can open at all are
	// its own (notify/device_linux.go).
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.TIOCVHANGUP}, Reason: "hangs up the terminal: SIGHUP to every process of its session"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.TIOCCONS}, Reason: "redirects the console to this terminal"},
	{Syscall: "ioctl", Action: Refuse, Errno: unix.EPERM, When: &Cond{Arg: 1, Equal: unix.TIOCSETD}, Reason: "line disciplines load kernel code and rewrite the terminal's stream"},
}
