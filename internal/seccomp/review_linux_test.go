package seccomp

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestHandleAndSubvolumeIoctls: the btrfs subvolume, tree-search and
// inode-lookup ioctls, XFS's handle family and the fscrypt key removals
// are refused on any descriptor whatever the size and direction bits of
// the command say (review of h-filter, R2, R3, R5: adversarial 198, 199,
// 111); the clone and dedupe commands that share btrfs's type byte stay
// allowed.
func TestHandleAndSubvolumeIoctls(t *testing.T) {
	run := runFilter(t, func(string) bool { return true })
	refused := map[string]uint32{
		"BTRFS_IOC_SNAP_CREATE": 0x50009401, "BTRFS_IOC_SNAP_CREATE_V2": 0x50009417,
		"BTRFS_IOC_SUBVOL_CREATE": 0x5000940e, "BTRFS_IOC_SUBVOL_CREATE_V2": 0x50009418,
		"BTRFS_IOC_SNAP_DESTROY": 0x5000940f, "BTRFS_IOC_SNAP_DESTROY_V2": 0x5000943f,
		"BTRFS_IOC_SUBVOL_SETFLAGS": 0x4008941a, "BTRFS_IOC_SET_RECEIVED_SUBVOL": 0xc0c89425,
		"BTRFS_IOC_TREE_SEARCH": 0xd0009411, "BTRFS_IOC_TREE_SEARCH_V2": 0xc0709411,
		"BTRFS_IOC_INO_LOOKUP": 0xd0009412, "BTRFS_IOC_INO_PATHS": 0xc0389423,
		"BTRFS_IOC_LOGICAL_INO": 0xc0389424, "BTRFS_IOC_LOGICAL_INO_V2": 0xc038943b,
		"BTRFS_IOC_SEND": 0x40489426, "BTRFS_IOC_SEND_32": 0x40449426,
		"XFS_IOC_PATH_TO_FSHANDLE": 0xc0385868, "XFS_IOC_PATH_TO_HANDLE": 0xc0385869,
		"XFS_IOC_FD_TO_HANDLE": 0xc038586a, "XFS_IOC_OPEN_BY_HANDLE": 0xc038586b,
		"XFS_IOC_READLINK_BY_HANDLE": 0xc038586c, "XFS_IOC_ATTRLIST_BY_HANDLE": 0x4058587a,
		"XFS_IOC_ATTRMULTI_BY_HANDLE": 0x4048587b, "XFS_IOC_GETPARENTS_BY_HANDLE": 0xc038583f,
		"FS_IOC_REMOVE_ENCRYPTION_KEY": 0xc0406618, "FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS": 0xc0406619,
	}
	for name, cmd := range refused {
		for _, c := range []uint64{uint64(cmd), uint64(cmd&0xffff | 0x40000000 | 0x10<<16), 1<<32 | uint64(cmd)} {
			if got := run(unix.SYS_IOCTL, 3, c, 0x7ffd00001000); got != errnoRet(unix.EPERM) {
				t.Errorf("%s (%#x): got %#x, want EPERM", name, c, got)
			}
		}
	}
	for name, cmd := range map[string]uint32{"FICLONE": unix.FICLONE, "FICLONERANGE": unix.FICLONERANGE,
		"FIDEDUPERANGE": unix.FIDEDUPERANGE, "FS_IOC_GETFLAGS": unix.FS_IOC_GETFLAGS, "FIONREAD": 0x541b,
		"TCGETS": unix.TCGETS, "FS_IOC_GETFSLABEL": 0x81009431} {
		if got := run(unix.SYS_IOCTL, 3, uint64(cmd), 0); got != allow {
			t.Errorf("%s: got %#x, want allowed", name, got)
		}
	}
}
