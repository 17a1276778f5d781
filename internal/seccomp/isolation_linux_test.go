package seccomp

import (
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// run evaluates one syscall against a filter built with trap.
func runFilter(t *testing.T, trap func(string) bool) func(nr uint32, args ...uint64) uint32 {
	t.Helper()
	raw, err := Build(X86_64, trap)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(mustDisassemble(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	return func(nr uint32, args ...uint64) uint32 {
		got, err := vm.Run(packet(unix.AUDIT_ARCH_X86_64, nr, args...))
		if err != nil {
			t.Fatalf("run %d: %v", nr, err)
		}
		return uint32(got)
	}
}

const (
	allow  = unix.SECCOMP_RET_ALLOW
	notify = unix.SECCOMP_RET_USER_NOTIF
)

func errnoRet(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }

// TestIsolationRows covers every spelling of the calls that reach beyond
// the sandbox: a new listener, other processes' limits and scheduling,
// SysV IPC and the filesystem-wide ioctls.
func TestIsolationRows(t *testing.T) {
	handlers := map[string]bool{}
	for _, s := range []string{"prlimit64", "setpriority", "ioprio_set", "sched_setscheduler", "sched_setparam",
		"sched_setattr", "sched_setaffinity", "migrate_pages", "move_pages", "kcmp"} {
		handlers[s] = true
	}
	run := runFilter(t, func(s string) bool { return handlers[s] })
	const ptr = 0x7ffd00001000
	tests := []struct {
		name string
		nr   uint32
		args []uint64
		want uint32
	}{
		{"seccomp new listener", unix.SYS_SECCOMP, []uint64{1, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, ptr}, errnoRet(unix.EBUSY)},
		{"seccomp new listener with tsync", unix.SYS_SECCOMP, []uint64{1, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_TSYNC, ptr}, errnoRet(unix.EBUSY)},
		{"seccomp new listener killable", unix.SYS_SECCOMP, []uint64{1, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, ptr}, errnoRet(unix.EBUSY)},
		{"seccomp new listener high bits", unix.SYS_SECCOMP, []uint64{1<<32 | 1, 1<<32 | unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, ptr}, errnoRet(unix.EBUSY)},
		{"seccomp future flag", unix.SYS_SECCOMP, []uint64{1, 1 << 6, ptr}, errnoRet(unix.EINVAL)},
		{"seccomp top flag", unix.SYS_SECCOMP, []uint64{1, 1 << 31, ptr}, errnoRet(unix.EINVAL)},
		{"seccomp future op", unix.SYS_SECCOMP, []uint64{4, 0, ptr}, errnoRet(unix.EINVAL)},
		{"seccomp op far out", unix.SYS_SECCOMP, []uint64{0x80000001, 0, ptr}, errnoRet(unix.EINVAL)},
		{"seccomp nested filter", unix.SYS_SECCOMP, []uint64{1, 0, ptr}, allow},
		{"seccomp nested filter tsync log", unix.SYS_SECCOMP, []uint64{1, unix.SECCOMP_FILTER_FLAG_TSYNC | unix.SECCOMP_FILTER_FLAG_LOG | unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW, ptr}, allow},
		{"seccomp strict", unix.SYS_SECCOMP, []uint64{0, 0, 0}, allow},
		{"seccomp action avail", unix.SYS_SECCOMP, []uint64{2, 0, ptr}, allow},
		{"seccomp notif sizes", unix.SYS_SECCOMP, []uint64{3, 0, ptr}, allow},
		{"prctl seccomp (no flags)", unix.SYS_PRCTL, []uint64{unix.PR_SET_SECCOMP, 2, ptr}, allow},

		{"prlimit64 self set", unix.SYS_PRLIMIT64, []uint64{0, unix.RLIMIT_CPU, ptr, 0}, allow},
		{"prlimit64 other read", unix.SYS_PRLIMIT64, []uint64{1234, unix.RLIMIT_CPU, 0, ptr}, allow},
		{"prlimit64 other set", unix.SYS_PRLIMIT64, []uint64{1234, unix.RLIMIT_CPU, ptr, 0}, notify},
		{"prlimit64 other set high pointer only", unix.SYS_PRLIMIT64, []uint64{1234, unix.RLIMIT_FSIZE, 1 << 32, 0}, notify},
		{"prlimit64 pid high bits", unix.SYS_PRLIMIT64, []uint64{1 << 32, unix.RLIMIT_NOFILE, ptr, 0}, allow}, // the kernel reads pid 0
		{"setrlimit", unix.SYS_SETRLIMIT, []uint64{unix.RLIMIT_CPU, ptr}, allow},
		{"nice self", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PROCESS, 0, 10}, allow},
		{"renice pid", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PROCESS, 1234, 10}, notify},
		{"renice group", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PGRP, 1234, 10}, errnoRet(unix.EPERM)},
		{"renice own group", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PGRP, 0, 10}, errnoRet(unix.EPERM)},
		{"renice user", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_USER, 1000, 10}, errnoRet(unix.EPERM)},
		{"renice own user", unix.SYS_SETPRIORITY, []uint64{unix.PRIO_USER, 0, 19}, errnoRet(unix.EPERM)},
		{"setpriority bad which (EINVAL)", unix.SYS_SETPRIORITY, []uint64{7, 0, 19}, allow},
		{"getpriority", unix.SYS_GETPRIORITY, []uint64{unix.PRIO_USER, 0}, allow},
		{"ionice self", unix.SYS_IOPRIO_SET, []uint64{1, 0, 7}, allow},
		{"ionice pid", unix.SYS_IOPRIO_SET, []uint64{1, 1234, 7}, notify},
		{"ionice group", unix.SYS_IOPRIO_SET, []uint64{2, 0, 7}, errnoRet(unix.EPERM)},
		{"ionice user", unix.SYS_IOPRIO_SET, []uint64{3, 0, 7}, errnoRet(unix.EPERM)},
		{"sched_setscheduler self", unix.SYS_SCHED_SETSCHEDULER, []uint64{0, 5, ptr}, allow},
		{"sched_setscheduler other", unix.SYS_SCHED_SETSCHEDULER, []uint64{1234, 5, ptr}, notify},
		{"sched_setparam other", unix.SYS_SCHED_SETPARAM, []uint64{1234, ptr}, notify},
		{"sched_setattr other", unix.SYS_SCHED_SETATTR, []uint64{1234, ptr, 0}, notify},
		{"sched_setaffinity self", unix.SYS_SCHED_SETAFFINITY, []uint64{0, 8, ptr}, allow},
		{"sched_setaffinity other", unix.SYS_SCHED_SETAFFINITY, []uint64{1234, 8, ptr}, notify},
		{"sched_getattr other", unix.SYS_SCHED_GETATTR, []uint64{1234, ptr, 56, 0}, allow},
		{"sched_getaffinity other", unix.SYS_SCHED_GETAFFINITY, []uint64{1234, 8, ptr}, allow},
		{"migrate_pages other", unix.SYS_MIGRATE_PAGES, []uint64{1234, 8, ptr, ptr}, notify},
		{"move_pages self", unix.SYS_MOVE_PAGES, []uint64{0, 1, ptr, ptr, ptr, 0}, allow},
		{"move_pages other", unix.SYS_MOVE_PAGES, []uint64{1234, 1, ptr, ptr, ptr, 0}, notify},
		{"kcmp", unix.SYS_KCMP, []uint64{1234, 1235, 0, 0, 0}, notify},

		{"shmget refused", unix.SYS_SHMGET, []uint64{0, 4096, 0o1600}, errnoRet(unix.ENOSYS)},
		{"shmat refused", unix.SYS_SHMAT, []uint64{5, 0, 0}, errnoRet(unix.ENOSYS)},
		{"shmctl refused", unix.SYS_SHMCTL, []uint64{0, 3, ptr}, errnoRet(unix.ENOSYS)},
		{"shmdt allowed", unix.SYS_SHMDT, []uint64{ptr}, allow},
		{"msgget refused", unix.SYS_MSGGET, []uint64{1234, 0}, errnoRet(unix.ENOSYS)},
		{"msgsnd refused", unix.SYS_MSGSND, []uint64{1, ptr, 8, 0}, errnoRet(unix.ENOSYS)},
		{"msgrcv refused", unix.SYS_MSGRCV, []uint64{1, ptr, 8, 0, 0}, errnoRet(unix.ENOSYS)},
		{"msgctl refused", unix.SYS_MSGCTL, []uint64{1, unix.IPC_STAT, ptr}, errnoRet(unix.ENOSYS)},
		{"semget refused", unix.SYS_SEMGET, []uint64{0, 1, 0o600}, errnoRet(unix.ENOSYS)},
		{"semop refused", unix.SYS_SEMOP, []uint64{1, ptr, 1}, errnoRet(unix.ENOSYS)},
		{"semtimedop refused", unix.SYS_SEMTIMEDOP, []uint64{1, ptr, 1, 0}, errnoRet(unix.ENOSYS)},
		{"semctl refused", unix.SYS_SEMCTL, []uint64{1, 0, unix.IPC_RMID}, errnoRet(unix.ENOSYS)},
		{"posix shm (openat) untouched", unix.SYS_FTRUNCATE, []uint64{3, 4096}, allow},

		{"FS_IOC_GETFSLABEL allowed", unix.SYS_IOCTL, []uint64{3, 0x81009431}, allow},
		{"FS_IOC_GETFLAGS allowed", unix.SYS_IOCTL, []uint64{3, unix.FS_IOC_GETFLAGS}, allow},
		{"FIONREAD allowed", unix.SYS_IOCTL, []uint64{3, 0x541b}, allow},
	}
	for _, c := range fsWideIoctlCmds {
		tests = append(tests, struct {
			name string
			nr   uint32
			args []uint64
			want uint32
		}{"ioctl " + c.name, unix.SYS_IOCTL, []uint64{3, 1<<32 | uint64(c.cmd)}, errnoRet(unix.EPERM)})
	}
	for _, tt := range tests {
		if got := run(tt.nr, tt.args...); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

// fsWideIoctlCmds are the spellings the test checks, from the kernel's
// uapi headers (linux/fs.h, btrfs.h, f2fs.h) and fs/ext4, fs/xfs.
var fsWideIoctlCmds = []struct {
	cmd  uint32
	name string
}{
	{0xc0045877, "FIFREEZE"}, {0xc0045878, "FITHAW"}, {0xc0185879, "FITRIM"},
	{0x8004587d, "FS_IOC_SHUTDOWN"}, {0x41009432, "FS_IOC_SETFSLABEL"}, {0x4008662c, "EXT4_IOC_SETFSUUID"},
	{0x40087602, "FS_IOC_SETVERSION"}, {0x40047602, "FS_IOC32_SETVERSION"},
	{0x40086604, "EXT4_IOC_SETVERSION"}, {0x40046604, "EXT4_IOC32_SETVERSION"},
	{0x40086607, "EXT4_IOC_GROUP_EXTEND"}, {0x40046607, "EXT4_IOC32_GROUP_EXTEND"},
	{0x40286608, "EXT4_IOC_GROUP_ADD"}, {0x40246608, "EXT4_IOC32_GROUP_ADD"},
	{0x40086610, "EXT4_IOC_RESIZE_FS"}, {0x6611, "EXT4_IOC_SWAP_BOOT"}, {0x4004662b, "EXT4_IOC_CHECKPOINT"},
	{0x4010586e, "XFS_IOC_FSGROWFSDATA"}, {0x400c586e, "XFS_IOC_FSGROWFSDATA_32"}, {0x4008586f, "XFS_IOC_FSGROWFSLOG"},
	{0x40105870, "XFS_IOC_FSGROWFSRT"}, {0x400c5870, "XFS_IOC_FSGROWFSRT_32"}, {0x80105872, "XFS_IOC_SET_RESBLKS"},
	{0x4008f510, "F2FS_IOC_RESIZE_FS"},
	{0x50009403, "BTRFS_IOC_RESIZE"}, {0x50009404, "BTRFS_IOC_SCAN_DEV"}, {0x50009405, "BTRFS_IOC_FORGET_DEV"},
	{0x5000940a, "BTRFS_IOC_ADD_DEV"}, {0x5000940b, "BTRFS_IOC_RM_DEV"}, {0x5000943a, "BTRFS_IOC_RM_DEV_V2"},
	{0xca289435, "BTRFS_IOC_DEV_REPLACE"}, {0xc4009420, "BTRFS_IOC_BALANCE_V2"}, {0x40049421, "BTRFS_IOC_BALANCE_CTL"},
	{0xc400941b, "BTRFS_IOC_SCRUB"}, {0x941c, "BTRFS_IOC_SCRUB_CANCEL"}, {0xc0109428, "BTRFS_IOC_QUOTA_CTL"},
	{0x40309439, "BTRFS_IOC_SET_FEATURES"}, {0x40089413, "BTRFS_IOC_DEFAULT_SUBVOL"},
}

// TestIsolationFailClosed: without the handlers the trapped rows refuse,
// and ipc.sysv: allow lifts the SysV rows.
func TestIsolationFailClosed(t *testing.T) {
	none := runFilter(t, func(string) bool { return false })
	handlerOnly := runFilter(t, func(s string) bool { return s == "shmget" })
	lifted := runFilter(t, func(s string) bool { return s == SysVSwitch })
	tests := []struct {
		name string
		run  func(uint32, ...uint64) uint32
		nr   uint32
		args []uint64
		want uint32
	}{
		{"prlimit64 other, no handler", none, unix.SYS_PRLIMIT64, []uint64{1234, unix.RLIMIT_CPU, 0x1000, 0}, errnoRet(unix.EPERM)},
		{"prlimit64 self, no handler", none, unix.SYS_PRLIMIT64, []uint64{0, unix.RLIMIT_CPU, 0x1000, 0}, allow},
		{"renice pid, no handler", none, unix.SYS_SETPRIORITY, []uint64{unix.PRIO_PROCESS, 1234, 10}, errnoRet(unix.EPERM)},
		{"ionice pid, no handler", none, unix.SYS_IOPRIO_SET, []uint64{1, 1234, 7}, errnoRet(unix.EPERM)},
		{"sched_setaffinity other, no handler", none, unix.SYS_SCHED_SETAFFINITY, []uint64{1234, 8, 0x1000}, errnoRet(unix.EPERM)},
		{"kcmp, no handler", none, unix.SYS_KCMP, []uint64{1, 2, 0, 0, 0}, errnoRet(unix.EPERM)},
		{"shmget refused whatever is trapped", handlerOnly, unix.SYS_SHMGET, []uint64{0, 4096, 0o1600}, errnoRet(unix.ENOSYS)},
		{"shmget allowed by ipc.sysv", lifted, unix.SYS_SHMGET, []uint64{0, 4096, 0o1600}, allow},
		{"semctl allowed by ipc.sysv", lifted, unix.SYS_SEMCTL, []uint64{1, 0, unix.IPC_RMID}, allow},
	}
	for _, tt := range tests {
		if got := tt.run(tt.nr, tt.args...); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

// TestBuildLength: every syscall the table does not name pays one
// instruction per group of rows, and the program fits the kernel's limit.
func TestBuildLength(t *testing.T) {
	raw, err := Build(X86_64, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 4096 {
		t.Fatalf("filter has %d instructions, the kernel takes 4096", len(raw))
	}
	groups := 0
	last := ""
	for _, r := range Table {
		if r.Syscall != last {
			groups++
			last = r.Syscall
		}
	}
	t.Logf("%d rows in %d groups, %d instructions", len(Table), groups, len(raw))
}
