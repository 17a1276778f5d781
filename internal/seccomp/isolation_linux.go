package seccomp

import "golang.org/x/sys/unix"

// Numbers and conditions of the isolation rows of Table (issue 14): the
// seccomp listener, other processes' limits and scheduling, SysV IPC and
// the filesystem-wide ioctls.

// seccomp(2) operations and filter flags the table knows. Every flag of
// SECCOMP_SET_MODE_FILTER up to Linux 6.18 is in knownFilterFlags; a bit
// outside it is a flag a later kernel added, refused with EINVAL (what an
// older kernel answers) until the table has decided it.
const (
	seccompSetModeFilter = 1 // SECCOMP_SET_MODE_FILTER
	knownFilterFlags     = unix.SECCOMP_FILTER_FLAG_TSYNC | unix.SECCOMP_FILTER_FLAG_LOG |
		unix.SECCOMP_FILTER_FLAG_SPEC_ALLOW | unix.SECCOMP_FILTER_FLAG_NEW_LISTENER |
		unix.SECCOMP_FILTER_FLAG_TSYNC_ESRCH | unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
	knownSeccompOps = 0x3 // SET_MODE_STRICT 0, SET_MODE_FILTER 1, GET_ACTION_AVAIL 2, GET_NOTIF_SIZES 3
)

var (
	// newListener matches seccomp(SECCOMP_SET_MODE_FILTER, flags with
	// NEW_LISTENER, ...).
	newListener = &Cond{Arg: 0, Equal: seccompSetModeFilter, And: &Cond{Arg: 1, BitsSet: unix.SECCOMP_FILTER_FLAG_NEW_LISTENER}}
	// unknownFilterFlag matches a filter install with a flag newer than the table.
	unknownFilterFlag = &Cond{Arg: 0, Equal: seccompSetModeFilter, And: &Cond{Arg: 1, BitsSet: ^uint32(knownFilterFlags)}}
	// knownSeccompOp matches the four operations of Linux 6.18.
	knownSeccompOp = &Cond{Arg: 0, Mask: ^uint32(knownSeccompOps), Equal: 0}
)

// Conditions on a process id or a pointer.
var (
	arg0Zero   = &Cond{Arg: 0, Equal: 0}
	arg1Zero   = &Cond{Arg: 1, Equal: 0}
	arg2Null   = &Cond{Arg: 2, Equal: 0, And: &Cond{Arg: 2, High: true, Equal: 0}}
	prioSelf   = &Cond{Arg: 0, Equal: unix.PRIO_PROCESS, And: arg1Zero}
	prioPid    = &Cond{Arg: 0, Equal: unix.PRIO_PROCESS}
	prioGroup  = &Cond{Arg: 0, Equal: unix.PRIO_PGRP}
	prioUser   = &Cond{Arg: 0, Equal: unix.PRIO_USER}
	ioprioSelf = &Cond{Arg: 0, Equal: ioprioWhoProcess, And: arg1Zero}
	ioprioPid  = &Cond{Arg: 0, Equal: ioprioWhoProcess}
	ioprioPgrp = &Cond{Arg: 0, Equal: ioprioWhoPgrp}
	ioprioUser = &Cond{Arg: 0, Equal: ioprioWhoUser}
)

// ioprio_set(2) targets (linux/ioprio.h).
const (
	ioprioWhoProcess = 1
	ioprioWhoPgrp    = 2
	ioprioWhoUser    = 3
)

// SysVSwitch is the policy switch (Rule.Unless) that lifts the SysV IPC
// rows: ipc.sysv: allow.
const SysVSwitch = "ipc.sysv=allow"

// Filesystem-wide ioctls (the Table rows say what each does): each acts on
// the whole filesystem or its devices through any descriptor on it, a
// read-only one included, and needs only CAP_SYS_ADMIN, which a root agent
// has. 32-bit spellings are listed where the argument's size differs.
const (
	ioFifreeze              = 0xc0045877 // FIFREEZE (XFS_IOC_FREEZE)
	ioFithaw                = 0xc0045878 // FITHAW (XFS_IOC_THAW)
	ioFitrim                = 0xc0185879 // FITRIM
	ioFsIocShutdown         = 0x8004587d // FS_IOC_SHUTDOWN (EXT4_IOC_SHUTDOWN, XFS_IOC_GOINGDOWN, F2FS_IOC_SHUTDOWN)
	ioFsIocSetfslabel       = 0x41009432 // FS_IOC_SETFSLABEL (BTRFS_IOC_SET_FSLABEL)
	ioExt4IocSetfsuuid      = 0x4008662c // EXT4_IOC_SETFSUUID
	ioFsIocSetversion       = 0x40087602 // FS_IOC_SETVERSION (EXT4_IOC_SETVERSION_OLD)
	ioFsIoc32Setversion     = 0x40047602 // FS_IOC32_SETVERSION
	ioExt4IocSetversion     = 0x40086604 // EXT4_IOC_SETVERSION
	ioExt4Ioc32Setversion   = 0x40046604 // EXT4_IOC32_SETVERSION
	ioExt4IocGroupExtend    = 0x40086607 // EXT4_IOC_GROUP_EXTEND
	ioExt4Ioc32GroupExtend  = 0x40046607 // EXT4_IOC32_GROUP_EXTEND
	ioExt4IocGroupAdd       = 0x40286608 // EXT4_IOC_GROUP_ADD
	ioExt4Ioc32GroupAdd     = 0x40246608 // EXT4_IOC32_GROUP_ADD
	ioExt4IocResizeFs       = 0x40086610 // EXT4_IOC_RESIZE_FS
	ioExt4IocSwapBoot       = 0x00006611 // EXT4_IOC_SWAP_BOOT
	ioExt4IocCheckpoint     = 0x4004662b // EXT4_IOC_CHECKPOINT
	ioXfsIocFsgrowfsdata    = 0x4010586e // XFS_IOC_FSGROWFSDATA
	ioXfsIocFsgrowfsdata32  = 0x400c586e // XFS_IOC_FSGROWFSDATA (32-bit)
	ioXfsIocFsgrowfslog     = 0x4008586f // XFS_IOC_FSGROWFSLOG
	ioXfsIocFsgrowfsrt      = 0x40105870 // XFS_IOC_FSGROWFSRT
	ioXfsIocFsgrowfsrt32    = 0x400c5870 // XFS_IOC_FSGROWFSRT (32-bit)
	ioXfsIocSetResblks      = 0x80105872 // XFS_IOC_SET_RESBLKS
	ioF2fsIocResizeFs       = 0x4008f510 // F2FS_IOC_RESIZE_FS
	ioBtrfsIocResize        = 0x50009403 // BTRFS_IOC_RESIZE
	ioBtrfsIocScanDev       = 0x50009404 // BTRFS_IOC_SCAN_DEV
	ioBtrfsIocForgetDev     = 0x50009405 // BTRFS_IOC_FORGET_DEV
	ioBtrfsIocAddDev        = 0x5000940a // BTRFS_IOC_ADD_DEV
	ioBtrfsIocRmDev         = 0x5000940b // BTRFS_IOC_RM_DEV
	ioBtrfsIocRmDevV2       = 0x5000943a // BTRFS_IOC_RM_DEV_V2
	ioBtrfsIocDevReplace    = 0xca289435 // BTRFS_IOC_DEV_REPLACE
	ioBtrfsIocBalanceV2     = 0xc4009420 // BTRFS_IOC_BALANCE_V2
	ioBtrfsIocBalanceCtl    = 0x40049421 // BTRFS_IOC_BALANCE_CTL
	ioBtrfsIocScrub         = 0xc400941b // BTRFS_IOC_SCRUB
	ioBtrfsIocScrubCancel   = 0x0000941c // BTRFS_IOC_SCRUB_CANCEL
	ioBtrfsIocQuotaCtl      = 0xc0109428 // BTRFS_IOC_QUOTA_CTL
	ioBtrfsIocSetFeatures   = 0x40309439 // BTRFS_IOC_SET_FEATURES
	ioBtrfsIocDefaultSubvol = 0x40089413 // BTRFS_IOC_DEFAULT_SUBVOL
)
