package notify

import "golang.org/x/sys/unix"

// Set-user-ID and set-group-ID bits. A root agent that plants a
// set-user-ID-root program in a writable root (the project, /tmp) hands
// root to any local user who runs it later, outside the sandbox; a
// set-group-ID program does the same for the group. no_new_privs keeps
// them inert inside the sandbox only. So every mode the broker applies on
// the agent's behalf (open and creat with O_CREAT, openat2's mode, mknod
// of a regular file, chmod, fchmodat, fchmodat2, fchmod) loses S_ISUID, and
// S_ISGID unless the file is a directory (where it only makes new files
// inherit the directory's group: `chmod g+s shared/`). cp -p, install -m,
// tar x and rsync -p set modes through these calls, so a copy of a
// set-user-ID file is an ordinary one. The sticky bit stays. mkdir needs
// nothing: the kernel ignores both bits in mkdir's mode. Without
// CAP_FSETID (dropped in stage 2) the kernel itself clears both bits when
// a sandboxed process writes to or chowns a file that has them.
//
// There is no opt-in yet: a project that needs to build set-user-ID
// programs installs them outside the sandbox.

// stripSetid returns mode without the set-user-ID bit, and without the
// set-group-ID bit unless dir.
func stripSetid(mode uint32, dir bool) uint32 {
	mode &^= unix.S_ISUID
	if !dir {
		mode &^= unix.S_ISGID
	}
	return mode
}

// stripSetidFD is stripSetid for the file fd refers to (an O_PATH
// descriptor will do). A file it cannot stat is taken as a non-directory.
func stripSetidFD(mode uint32, fd int) uint32 {
	if mode&(unix.S_ISUID|unix.S_ISGID) == 0 {
		return mode
	}
	var st unix.Stat_t
	dir := unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR
	return stripSetid(mode, dir)
}
