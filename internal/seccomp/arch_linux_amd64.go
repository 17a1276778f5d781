package seccomp

import "golang.org/x/sys/unix"

// X86_64 is the x86_64 syscall ABI. Syscall numbers with X32Bit set belong
// to the x32 ABI and are killed.
var X86_64 = &Arch{
	Name:      "x86_64",
	AuditArch: unix.AUDIT_ARCH_X86_64,
	X32Bit:    0x40000000,
	MaxNr:     unix.SYS_FILE_SETATTR, // 469, Linux 6.17
	Numbers: map[string]uint32{
		"io_uring_setup": unix.SYS_IO_URING_SETUP, "io_uring_enter": unix.SYS_IO_URING_ENTER,
		"io_uring_register": unix.SYS_IO_URING_REGISTER, "ptrace": unix.SYS_PTRACE,
		"process_vm_readv": unix.SYS_PROCESS_VM_READV, "process_vm_writev": unix.SYS_PROCESS_VM_WRITEV,
		"process_madvise": unix.SYS_PROCESS_MADVISE, "pidfd_getfd": unix.SYS_PIDFD_GETFD,
		"mount": unix.SYS_MOUNT, "umount2": unix.SYS_UMOUNT2, "pivot_root": unix.SYS_PIVOT_ROOT,
		"move_mount": unix.SYS_MOVE_MOUNT, "open_tree": unix.SYS_OPEN_TREE, "open_tree_attr": unix.SYS_OPEN_TREE_ATTR,
		"fsopen": unix.SYS_FSOPEN, "fsconfig": unix.SYS_FSCONFIG, "fsmount": unix.SYS_FSMOUNT,
		"fspick": unix.SYS_FSPICK, "mount_setattr": unix.SYS_MOUNT_SETATTR, "chroot": unix.SYS_CHROOT,
		"setns": unix.SYS_SETNS, "unshare": unix.SYS_UNSHARE, "clone": unix.SYS_CLONE, "clone3": unix.SYS_CLONE3,
		"bpf": unix.SYS_BPF, "perf_event_open": unix.SYS_PERF_EVENT_OPEN,
		"open_by_handle_at": unix.SYS_OPEN_BY_HANDLE_AT, "name_to_handle_at": unix.SYS_NAME_TO_HANDLE_AT,
		"userfaultfd": unix.SYS_USERFAULTFD, "kexec_load": unix.SYS_KEXEC_LOAD,
		"kexec_file_load": unix.SYS_KEXEC_FILE_LOAD, "init_module": unix.SYS_INIT_MODULE,
		"finit_module": unix.SYS_FINIT_MODULE, "delete_module": unix.SYS_DELETE_MODULE,
		"keyctl": unix.SYS_KEYCTL, "add_key": unix.SYS_ADD_KEY, "request_key": unix.SYS_REQUEST_KEY,
		"quotactl": unix.SYS_QUOTACTL, "quotactl_fd": unix.SYS_QUOTACTL_FD, "swapon": unix.SYS_SWAPON,
		"swapoff": unix.SYS_SWAPOFF, "reboot": unix.SYS_REBOOT, "acct": unix.SYS_ACCT,
		"lookup_dcookie": unix.SYS_LOOKUP_DCOOKIE, "uselib": unix.SYS_USELIB,
		"fanotify_init": unix.SYS_FANOTIFY_INIT, "ioctl": unix.SYS_IOCTL,
		"file_getattr": unix.SYS_FILE_GETATTR, "file_setattr": unix.SYS_FILE_SETATTR,

		"open": unix.SYS_OPEN, "openat": unix.SYS_OPENAT, "openat2": unix.SYS_OPENAT2, "creat": unix.SYS_CREAT,
		"execve": unix.SYS_EXECVE, "execveat": unix.SYS_EXECVEAT,
		"rename": unix.SYS_RENAME, "renameat": unix.SYS_RENAMEAT, "renameat2": unix.SYS_RENAMEAT2,
		"link": unix.SYS_LINK, "linkat": unix.SYS_LINKAT, "symlink": unix.SYS_SYMLINK, "symlinkat": unix.SYS_SYMLINKAT,
		"unlink": unix.SYS_UNLINK, "unlinkat": unix.SYS_UNLINKAT, "mkdir": unix.SYS_MKDIR, "mkdirat": unix.SYS_MKDIRAT,
		"mknod": unix.SYS_MKNOD, "mknodat": unix.SYS_MKNODAT, "rmdir": unix.SYS_RMDIR, "truncate": unix.SYS_TRUNCATE,
		"chmod": unix.SYS_CHMOD, "fchmodat": unix.SYS_FCHMODAT, "fchmodat2": unix.SYS_FCHMODAT2,
		"chown": unix.SYS_CHOWN, "lchown": unix.SYS_LCHOWN, "fchownat": unix.SYS_FCHOWNAT,
		"setuid": unix.SYS_SETUID, "setgid": unix.SYS_SETGID, "setreuid": unix.SYS_SETREUID,
		"setregid": unix.SYS_SETREGID, "setresuid": unix.SYS_SETRESUID, "setresgid": unix.SYS_SETRESGID,
		"setfsuid": unix.SYS_SETFSUID, "setfsgid": unix.SYS_SETFSGID, "setgroups": unix.SYS_SETGROUPS,
		"capset": unix.SYS_CAPSET,
		"utimes": unix.SYS_UTIMES, "utimensat": unix.SYS_UTIMENSAT, "futimesat": unix.SYS_FUTIMESAT,
		"utime": unix.SYS_UTIME, "fchmod": unix.SYS_FCHMOD, "fchown": unix.SYS_FCHOWN,
		"connect": unix.SYS_CONNECT, "bind": unix.SYS_BIND, "socket": unix.SYS_SOCKET, "socketpair": unix.SYS_SOCKETPAIR,
		"setxattr": unix.SYS_SETXATTR, "lsetxattr": unix.SYS_LSETXATTR, "fsetxattr": unix.SYS_FSETXATTR,
		"setxattrat": unix.SYS_SETXATTRAT, "removexattr": unix.SYS_REMOVEXATTR,
		"lremovexattr": unix.SYS_LREMOVEXATTR, "fremovexattr": unix.SYS_FREMOVEXATTR,
		"removexattrat": unix.SYS_REMOVEXATTRAT,
		"getxattr":      unix.SYS_GETXATTR, "lgetxattr": unix.SYS_LGETXATTR, "getxattrat": unix.SYS_GETXATTRAT,
		"listxattr": unix.SYS_LISTXATTR, "llistxattr": unix.SYS_LLISTXATTR, "listxattrat": unix.SYS_LISTXATTRAT,

		"stat": unix.SYS_STAT, "lstat": unix.SYS_LSTAT, "newfstatat": unix.SYS_NEWFSTATAT, "statx": unix.SYS_STATX,
		"statfs": unix.SYS_STATFS,
		"access": unix.SYS_ACCESS, "faccessat": unix.SYS_FACCESSAT, "faccessat2": unix.SYS_FACCESSAT2,
		"readlink": unix.SYS_READLINK, "readlinkat": unix.SYS_READLINKAT,

		"seccomp": unix.SYS_SECCOMP, "prlimit64": unix.SYS_PRLIMIT64, "setpriority": unix.SYS_SETPRIORITY,
		"ioprio_set": unix.SYS_IOPRIO_SET, "sched_setscheduler": unix.SYS_SCHED_SETSCHEDULER,
		"sched_setparam": unix.SYS_SCHED_SETPARAM, "sched_setattr": unix.SYS_SCHED_SETATTR,
		"sched_setaffinity": unix.SYS_SCHED_SETAFFINITY, "migrate_pages": unix.SYS_MIGRATE_PAGES,
		"move_pages": unix.SYS_MOVE_PAGES, "kcmp": unix.SYS_KCMP,
		"shmget": unix.SYS_SHMGET, "shmat": unix.SYS_SHMAT, "shmctl": unix.SYS_SHMCTL,
		"msgget": unix.SYS_MSGGET, "msgsnd": unix.SYS_MSGSND, "msgrcv": unix.SYS_MSGRCV, "msgctl": unix.SYS_MSGCTL,
		"semget": unix.SYS_SEMGET, "semop": unix.SYS_SEMOP, "semtimedop": unix.SYS_SEMTIMEDOP, "semctl": unix.SYS_SEMCTL,
	},
}

// Native is the architecture aixbroker was built for.
var Native = X86_64
