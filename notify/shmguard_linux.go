package notify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// POSIX shared memory objects and named semaphores (shm_open, sem_open)
// are files in /dev/shm, one tmpfs shared by every process of the machine:
// the objects of the user's browser, sound server or database are there,
// 0600 of the user, for any process of the user to open, map, truncate or
// remove. SysV IPC, their older twin, is refused (ipc.sysv); /dev/shm stays
// create-only instead, whatever the policy's globs allow:
//
//   - creating a new object is decided by the policy (shm_open O_CREAT,
//     sem_open, python multiprocessing, Chrome/Electron, node workers);
//   - an existing object opens, truncates, changes attributes, links,
//     renames and unlinks only if the broker created it in this session:
//     the set of created files of created_linux.go, by identity (device,
//     file handle with the generation, birth time), not by name, so a link
//     or a rename of one keeps it the session's (glibc's sem_open creates a
//     temporary name and links it to sem.NAME);
//   - any other existing object is absent for an open (ENOENT: shm_open
//     without O_CREAT fails as if nobody had made it), taken for an open
//     with O_CREAT but not O_EXCL (EACCES: the name cannot be created) and
//     for a change, link, rename or unlink (EACCES); O_CREAT|O_EXCL answers
//     EEXIST, the truth, so that programs that pick random names pick
//     another.
//
// Each refusal is recorded with the rule "shm-guard". Listing /dev/shm and
// stat still show the names, sizes and owners of the objects (a documented
// limit), never their content.

// shmRule is the rule a refusal names in the audit.
var shmRule = policy.Rule{
	List:    "shm-guard",
	Pattern: "/dev/shm objects not created in this session",
	Comment: "POSIX shared memory and semaphores of the user's other processes are never opened, changed or removed by the sandbox",
}

// shmArea is where the POSIX objects live: the device of /dev/shm and
// the paths it is reached by. When /dev/shm is a mount point of its own
// (the usual case), every mount point of that device (a bind mount
// elsewhere too); otherwise the canonical /dev/shm alone.
type shmArea struct {
	dev  uint64
	dirs []string
}

var (
	shmOnce sync.Once
	shmAt   shmArea
)

// shmMount finds /dev/shm once (the sandbox cannot mount: it stays true).
// No dirs means there is none.
func shmMount() shmArea {
	shmOnce.Do(func() {
		dir, err := filepath.EvalSymlinks("/dev/shm")
		if err != nil {
			return
		}
		var st, up unix.Stat_t
		if unix.Stat(dir, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return
		}
		shmAt = shmArea{dev: st.Dev, dirs: []string{dir}}
		if unix.Stat(filepath.Dir(dir), &up) != nil || up.Dev == st.Dev {
			return // a directory of /dev's file system: only its own path
		}
		shmAt.dirs = append(shmAt.dirs, mountsOf(st.Dev)...)
	})
	return shmAt
}

// mountsOf lists the mount points of the file system dev (mountinfo's
// major:minor field).
func mountsOf(dev uint64) []string {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	want := strconv.Itoa(int(unix.Major(dev))) + ":" + strconv.Itoa(int(unix.Minor(dev)))
	var out []string
	for _, line := range strings.Split(string(mi), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && f[2] == want {
			out = append(out, unescapeMount(f[4]))
		}
	}
	return out
}

// shmPath reports whether canonical path is under one of the paths of
// /dev/shm: a string test, done before any lookup.
func shmPath(path string) bool {
	for _, d := range shmMount().dirs {
		if strings.HasPrefix(path, d+"/") || d == "/" {
			return true
		}
	}
	return false
}

// inShm reports whether a file at canonical path on device dev is in
// /dev/shm.
func inShm(path string, dev uint64) bool {
	return dev == shmMount().dev && shmPath(path)
}

// shmObject is an object of /dev/shm as the broker finds it.
type shmObject struct {
	id    fileID
	hasID bool   // the filesystem gave a handle
	nlink uint64 // names it has
}

// shmLookup stats name in dirfd (flags: AT_EMPTY_PATH for dirfd itself),
// a final symlink not followed, and reports whether it is a regular file
// or a symlink in /dev/shm at canonical path. Directories, FIFOs and
// sockets there are left to the policy.
func shmLookup(dirfd int, name string, flags int, path string) (shmObject, bool) {
	var st unix.Stat_t
	if !shmPath(path) || unix.Fstatat(dirfd, name, &st, flags|unix.AT_SYMLINK_NOFOLLOW) != nil || !inShm(path, st.Dev) {
		return shmObject{}, false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFLNK:
	default:
		return shmObject{}, false
	}
	o := shmObject{nlink: uint64(st.Nlink)}
	o.id, o.hasID = statID(dirfd, name, flags)
	return o, true
}

// guardShm refuses op on the file name in dirfd at canonical path (name
// "" with AT_EMPTY_PATH: dirfd itself) with errno when it is a /dev/shm
// object the broker did not create in this session, and records the
// refusal with the shm-guard rule. Call it after the policy allowed op.
//
// TOCTOU: the identity is read from the descriptor or parent the broker
// acts on next; the agent cannot put another process's object at the
// name meanwhile (renaming or linking one is refused here).
func (r *Request) guardShm(op policy.Op, dirfd int, name string, flags int, path string, errno syscall.Errno) error {
	_, _, err := r.guardShmObject(op, dirfd, name, flags, path, errno)
	return err
}

// guardShmObject is guardShm that also returns the object it found, when
// the name is one of /dev/shm (shm). An object without a handle counts as
// another process's: it cannot be told from one.
func (r *Request) guardShmObject(op policy.Op, dirfd int, name string, flags int, path string, errno syscall.Errno) (shmObject, bool, error) {
	o, shm := shmLookup(dirfd, name, flags, path)
	if !shm || o.hasID && r.sup.created.hasID(o.id) {
		return o, shm, nil
	}
	e := policy.EACCES
	if errno == syscall.ENOENT {
		e = policy.ENOENT
	}
	r.note(op, path, policy.Decision{Action: policy.Deny, Errno: e, Rule: shmRule})
	return o, shm, &refusal{op: op, path: path, errno: errno}
}

// shmFile reports whether name in dirfd (AT_EMPTY_PATH: dirfd itself) at
// canonical path is in /dev/shm.
func shmFile(dirfd int, name string, flags int, path string) bool {
	var st unix.Stat_t
	return shmPath(path) && unix.Fstatat(dirfd, name, &st, flags|unix.AT_SYMLINK_NOFOLLOW) == nil && inShm(path, st.Dev)
}

// forgetShmLast forgets a session object of /dev/shm whose last name was
// just removed (o read before the unlink).
func (r *Request) forgetShmLast(o shmObject) {
	if o.hasID && o.nlink == 1 {
		r.sup.created.forget(o.id)
	}
}

// shmOpenErrno is the answer to an open of another process's object: it is
// absent (ENOENT) unless the open may create (EACCES: the name is taken).
func shmOpenErrno(attempted policy.Op) syscall.Errno {
	if attempted == policy.OpCreate {
		return syscall.EACCES
	}
	return syscall.ENOENT
}

// guardShmRename refuses a rename that moves another process's object of
// /dev/shm or replaces one (the destination, when it exists: with
// RENAME_EXCHANGE it moves too). A missing name is not an object.
func (r *Request) guardShmRename(from, to fsops.Parent) error {
	if kernelRefuses(from.Name) || kernelRefuses(to.Name) {
		return nil
	}
	if err := r.guardShm(policy.OpRename, from.FD, from.Name, 0, from.Path(), syscall.EACCES); err != nil {
		return err
	}
	return r.guardShm(policy.OpUnlink, to.FD, to.Name, 0, to.Path(), syscall.EACCES)
}
