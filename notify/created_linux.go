package notify

import (
	"errors"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// A redact rule names paths, not who wrote the file: a file the agent
// creates under a redacted name (tar unpacking a .env, echo > .env.local)
// is then refused every change like the user's own. The one exception is
// removing it: the broker remembers each regular file and symlink it
// created under a redacted name in this session, by identity and path,
// and allows unlink of that exact file at that path, so rm -r of an
// unpacked copy does not stop at its .env.
// Rename, link, write and truncate stay refused: the user may have filled
// the file meanwhile, and those would carry its content elsewhere.
//
// The identity is the device and the file handle (name_to_handle_at: the
// inode number and the generation the filesystem gives each new inode),
// with the birth time where the filesystem reports one. An inode number
// alone is reused by the next file made after a removal, and so is the
// birth time within a clock tick (the kernel stamps it from a coarse
// clock): only the generation tells such a file from the one the broker
// made. A file on a filesystem that gives no handles is not remembered.
//
// The same set holds every object the broker creates in /dev/shm: the shm
// guard (shmguard_linux.go) lets the agent open and change only those, by
// identity alone (hasID), whatever name a link or rename gave them.

// createdMax bounds how many files a session remembers; past it the oldest
// is dropped, and removing that one is refused again.
const createdMax = 1 << 16

// createdComment is the reason recorded with an unlink allowed that way.
const createdComment = "created in this session"

// fileID identifies one file for the life of the filesystem: a new file
// under a reused inode number has another generation in its handle.
type fileID struct {
	dev       uint64
	handle    string // handle type and bytes (inode and generation, for most filesystems)
	btimeSec  int64  // 0 where the filesystem reports no birth time
	btimeNsec uint32
}

// createdFiles is the set of files the broker created under a redacted
// name. The zero value is empty, bounded by createdMax.
type createdFiles struct {
	mu    sync.Mutex
	limit int               // 0: createdMax
	paths map[fileID]string // identity → canonical path created at
	order []fileID          // insertion ring, for dropping the oldest
	next  int               // the oldest slot of a full ring
}

// add remembers id, created at path. A full set first drops the entries
// already forgotten, then, if still full, its oldest entry.
func (c *createdFiles) add(id fileID, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	limit := c.limit
	if limit == 0 {
		limit = createdMax
	}
	if c.paths == nil {
		c.paths = make(map[fileID]string)
	}
	if len(c.order) >= limit && len(c.paths) < limit {
		c.compact()
	}
	if len(c.order) < limit {
		c.order = append(c.order, id)
	} else {
		delete(c.paths, c.order[c.next])
		c.order[c.next] = id
		c.next = (c.next + 1) % limit
	}
	c.paths[id] = path
}

// compact keeps in the ring, oldest first, only the entries still
// remembered (once each: a file added again keeps its first place).
func (c *createdFiles) compact() {
	kept := make([]fileID, 0, len(c.paths))
	seen := make(map[fileID]bool, len(c.paths))
	for i := range c.order {
		id := c.order[(c.next+i)%len(c.order)]
		if _, ok := c.paths[id]; ok && !seen[id] {
			seen[id] = true
			kept = append(kept, id)
		}
	}
	c.order, c.next = kept, 0
}

// hasID reports whether the broker created the file id, at any path.
func (c *createdFiles) hasID(id fileID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.paths[id]
	return ok
}

// has reports whether the broker created the file id at path.
func (c *createdFiles) has(id fileID, path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.paths[id]
	return ok && p == path
}

func (c *createdFiles) forget(id fileID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.paths, id)
}

func (c *createdFiles) empty() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.paths) == 0
}

// statID returns the identity of name in dirfd (name "" with AT_EMPTY_PATH:
// dirfd itself), a final symlink not followed. ok is false for anything but
// a regular file or a symlink, and where the filesystem gives no handle.
func statID(dirfd int, name string, flags int) (fileID, bool) {
	var st unix.Statx_t
	const mask = unix.STATX_TYPE | unix.STATX_BTIME
	err := unix.Statx(dirfd, name, flags|unix.AT_SYMLINK_NOFOLLOW, mask, &st)
	if err != nil || st.Mask&unix.STATX_TYPE == 0 {
		return fileID{}, false
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFLNK:
	default:
		return fileID{}, false
	}
	h, err := nameToHandle(dirfd, name, flags)
	if err != nil {
		return fileID{}, false
	}
	id := fileID{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), handle: itoa(int(h.Type())) + ":" + string(h.Bytes())}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.btimeSec, id.btimeNsec = st.Btime.Sec, st.Btime.Nsec
	}
	return id, true
}

// atHandleFID asks name_to_handle_at for a handle that identifies the file
// without having to be openable (Linux 6.5): overlayfs, the usual root of
// a container, gives no other kind unless mounted with nfs_export.
const atHandleFID = 0x200 // AT_HANDLE_FID

// nameToHandle is name_to_handle_at with AT_HANDLE_FID, or without it on a
// kernel that does not know it. No AT_SYMLINK_FOLLOW: a symlink's own.
func nameToHandle(dirfd int, name string, flags int) (unix.FileHandle, error) {
	h, _, err := unix.NameToHandleAt(dirfd, name, flags|atHandleFID)
	if errors.Is(err, unix.EINVAL) {
		h, _, err = unix.NameToHandleAt(dirfd, name, flags)
	}
	return h, err
}

// redacted reports whether a redact rule keeps path from being removed.
func (r *Request) redacted(path string) bool {
	return r.sup.broker.Decide(policy.OpUnlink, path).Action == policy.Redact
}

// noteCreatedFD remembers the file the broker just created at path and
// holds open as fd, when path is a redacted name or in /dev/shm.
func (r *Request) noteCreatedFD(path string, fd int) {
	if !r.redacted(path) && !shmFile(fd, "", unix.AT_EMPTY_PATH, path) {
		return
	}
	if id, ok := statID(fd, "", unix.AT_EMPTY_PATH); ok {
		r.sup.created.add(id, path)
	}
}

// noteCreatedName is noteCreatedFD for a name the broker just made in p
// (symlink, mknod), looked up again through p's descriptor. Nothing in the
// sandbox can replace that name meanwhile: it is redacted, so not
// removable or renamed over before it is remembered, or in /dev/shm, where
// only the session's own objects can be renamed over it.
func (r *Request) noteCreatedName(p fsops.Parent) {
	path := p.Path()
	if !r.redacted(path) && !shmFile(p.FD, p.Name, 0, path) {
		return
	}
	if id, ok := statID(p.FD, p.Name, 0); ok {
		r.sup.created.add(id, path)
	}
}

// ownCreated reports whether the name in p is a file the broker created
// there in this session, which the agent may remove although a redact rule
// matches it; the allowed decision is recorded. The caller unlinks it
// through p.FD and then forgets id.
//
// TOCTOU: between this lookup and the unlinkat, only a process outside the
// sandbox can put another file at the name: the agent cannot rename or
// link the user's redacted files anywhere (documented in SECURITY.md).
func (r *Request) ownCreated(p fsops.Parent) (fileID, bool) {
	if r.sup.created.empty() || strings.HasSuffix(p.Name, "/") {
		return fileID{}, false
	}
	path := p.Path()
	d := r.sup.broker.Decide(policy.OpUnlink, path)
	if d.Action != policy.Redact {
		return fileID{}, false
	}
	id, ok := statID(p.FD, p.Name, 0)
	if !ok || !r.sup.created.has(id, path) {
		return fileID{}, false
	}
	d = policy.Decision{Action: policy.Allow, Rule: d.Rule}
	d.Rule.Comment = createdComment
	r.note(policy.OpUnlink, path, d)
	return id, true
}
