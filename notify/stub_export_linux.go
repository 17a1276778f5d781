package notify

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// direct runs fn on the calling goroutine (the broker's own rights).
func direct(fn func() error) error { return fn() }

// StubFD returns a read-only descriptor of the redacted view of the file at
// path (canonical), for the interposer's stub answers (broker.StubFunc):
// the same memfd, device and inode that an open of the file in the
// sandbox is served (stubcache_linux.go), so the library's stat agrees
// with fstat of the opened descriptor. It resolves path itself (the answer
// is a view the agent may read anyway, not an access: a file swapped
// meanwhile changes the view, never what an open is served), following no
// symlink and no /proc magic link anywhere on the way: path is the
// canonical name the decision was made on, and a link would make the
// broker open, with its own rights, a file that was not decided
// (issue 14 item 10). A missing file gets the generic stub.
func StubFD(path string, rule policy.Rule) (fd int, size int64, err error) {
	pfd, err := openat2Retry(path)
	if errIs(err, unix.ENOENT) {
		fd, err = sealedMemfd(redactedView(path, rule, direct, -1))
	} else if err != nil {
		return -1, 0, fmt.Errorf("open redacted file: %w", err)
	} else {
		defer unix.Close(pfd)
		var key stubKey
		if key, err = stubKeyOf(pfd, path, rule); err != nil {
			return -1, 0, err
		}
		fd, err = stubs.open(key, func() []byte { return redactedView(path, rule, direct, pfd) })
	}
	if err != nil {
		return -1, 0, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, 0, fmt.Errorf("stat redacted view: %w", err)
	}
	return fd, st.Size, nil
}

// openat2Retry opens path O_PATH with no symlink or magic link resolved.
func openat2Retry(path string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC, // a final symlink: ELOOP
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		if !errIs(err, unix.EINTR) && !errIs(err, unix.EAGAIN) {
			return fd, err
		}
	}
}
