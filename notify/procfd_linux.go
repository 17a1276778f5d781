package notify

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// ownFD recognises the spellings of "my own descriptor N" (as written, not
// resolved): /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N and /proc/thread-self/fd/N. Bash process substitution
// (<(cmd), /dev/fd/63) and "cat /dev/stdin" depend on them.
func ownFD(path string) (int, bool) {
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, prefix := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 || rest[0] == '+' {
				return 0, false
			}
			return n, true
		}
	}
	return 0, false
}

// heldRule names the decision for reopening an object the target already
// holds that has no path (a pipe, a memfd): it gains nothing it does not
// have.
var heldRule = policy.Rule{List: "held-descriptor"}

// reopenOwn serves an open of the target's own descriptor n: the broker
// follows /proc/<tid>/fd/n (the target's own table, nothing else's),
// decides on the canonical path of the file when it has one, and reopens it
// with the caller's flags. A pipe or other pathless object is reopened as
// it is.
func (r *Request) reopenOwn(n int, flags int) Reply {
	link := "/proc/" + strconv.Itoa(r.TID()) + "/fd/" + strconv.Itoa(n)
	fd, err := openRetry(link, unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		return ErrorOf(procErr(err))
	}
	if err := r.Valid(); err != nil {
		unix.Close(fd)
		return ErrorOf(err)
	}
	target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err == nil && (!strings.HasPrefix(target, "/") || isMemfd(fd, target)) {
		r.note(policy.OpRead, target, policy.Decision{Action: policy.Allow, Rule: heldRule})
		defer unix.Close(fd)
		return r.reopen(fd, flags)
	}
	canon, err := fsops.Canonical(fd)
	if err != nil {
		unix.Close(fd)
		return ErrorOf(err)
	}
	return r.openExisting(fsops.File{FD: fd, Path: canon}, flags)
}

// isMemfd reports whether fd is an anonymous memory file (memfd_create):
// named "/memfd:..." by the kernel and never linked anywhere.
func isMemfd(fd int, target string) bool {
	if !strings.HasPrefix(target, "/memfd:") {
		return false
	}
	var st unix.Stat_t
	return unix.Fstat(fd, &st) == nil && st.Nlink == 0
}
