package notify

import (
	"fmt"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// The redacted view of one version of a file is one sealed memfd, kept by
// the broker: every open of the file gets its own descriptor of that memfd
// (its own offset), and the stat handler and the interposer's stub answer
// report that memfd's device, inode and size. So `stat` of the path and
// `fstat` of the opened descriptor agree, as cp and rsync check ("replaced
// while being copied", FINDINGS FP1). A version is the file's device,
// inode, size, modification and change times, with the canonical path and
// the rule the view is rendered for: a changed file gets a new view.

// stubKey identifies one version of a redacted file and its view.
type stubKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime unix.Timespec
	path, rule   string
}

// stubCacheMax bounds the views kept; beyond it one is dropped (its open
// descriptors in the sandbox stay valid).
const stubCacheMax = 256

// stubCache maps versions to sealed, read-only memfds.
type stubCache struct {
	mu     sync.Mutex
	m      map[stubKey]int
	inodes map[fsops.Inode]bool // the memfds' own inodes (see isShared)
}

// stubs is the process's cache: a broker process serves one session, and
// keys never match across different file versions.
var stubs stubCache

// stubKeyOf reads the version of the file behind fd (an O_PATH
// descriptor) for the view of path under rule.
func stubKeyOf(fd int, path string, rule policy.Rule) (stubKey, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return stubKey{}, fmt.Errorf("stat redacted file: %w", err)
	}
	return stubKey{
		dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim,
		path: path, rule: rule.ID(),
	}, nil
}

// open returns a new read-only descriptor of the view for key, rendering
// it with render on a miss. The caller owns the descriptor.
func (c *stubCache) open(key stubKey, render func() []byte) (int, error) {
	c.mu.Lock()
	if mfd, ok := c.m[key]; ok {
		defer c.mu.Unlock()
		return reopenStub(mfd)
	}
	c.mu.Unlock()
	mfd, err := sealedMemfd(render())
	if err != nil {
		return -1, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok { // rendered meanwhile by another request
		unix.Close(mfd)
		return reopenStub(old)
	}
	if c.m == nil {
		c.m = make(map[stubKey]int)
	}
	if len(c.m) >= stubCacheMax {
		for k, fd := range c.m {
			if ino, ok := inodeOf(fd); ok {
				delete(c.inodes, ino)
			}
			unix.Close(fd)
			delete(c.m, k)
			break
		}
	}
	c.m[key] = mfd
	if ino, ok := inodeOf(mfd); ok {
		if c.inodes == nil {
			c.inodes = make(map[fsops.Inode]bool)
		}
		c.inodes[ino] = true
	}
	return reopenStub(mfd)
}

// isShared reports whether fd is a descriptor of a view in the cache. Its
// mode and owner must not change: every later open of that file version
// reopens the same inode, and a broker without CAP_DAC_OVERRIDE would be
// refused by a mode the agent set (fchmod 0 of its own descriptor would
// make the file unreadable to the whole session).
func (c *stubCache) isShared(fd int) bool {
	ino, ok := inodeOf(fd)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inodes[ino]
}

func inodeOf(fd int) (fsops.Inode, bool) {
	dev, ino, err := fsops.InodeKey(fd)
	return fsops.Inode{Dev: dev, Ino: ino}, err == nil
}

// reopenStub opens the cached memfd mfd again, read-only: the same inode
// with its own offset. Called with the cache locked, so mfd is not closed
// meanwhile.
func reopenStub(mfd int) (int, error) {
	fd, err := openRetry("/proc/self/fd/"+strconv.Itoa(mfd), unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("reopen redacted view: %w", err)
	}
	return fd, nil
}

// stubFD returns a read-only descriptor of the redacted view of f, the
// file the decision was taken on. The view is shared while every sandboxed
// thread has the supervisor's credentials; after a credential change it is
// rendered for this caller alone (what the caller may read decides the
// view).
func (r *Request) stubFD(f fsops.File, rule policy.Rule) (int, error) {
	render := func() []byte { return redactedView(f.Path, rule, r.AsCaller, f.FD) }
	if r.sup.credsChanged.Load() {
		return sealedMemfd(render())
	}
	key, err := stubKeyOf(f.FD, f.Path, rule)
	if err != nil {
		return -1, err
	}
	return stubs.open(key, render)
}

// stubStat returns the stat of the redacted view of f: what fstat of an
// opened descriptor of it reports.
func (r *Request) stubStat(f fsops.File, rule policy.Rule) (unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := r.stubFD(f, rule)
	if err != nil {
		return st, err
	}
	defer unix.Close(fd)
	if err := unix.Fstat(fd, &st); err != nil {
		return st, fmt.Errorf("stat redacted view: %w", err)
	}
	return st, nil
}
