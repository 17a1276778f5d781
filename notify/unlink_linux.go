package notify

import (
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() { register(handleUnlink, "unlink", "unlinkat", "rmdir") }

// handleUnlink serves unlink(path), rmdir(path) and unlinkat(dirfd, path,
// flags), deciding OpUnlink on the canonical path of the name removed. A
// final symlink is removed, never followed.
func handleUnlink(r *Request) Reply {
	at, flags := pathArg{-1, 0}, 0
	switch r.Syscall {
	case "rmdir":
		flags = unix.AT_REMOVEDIR
	case "unlinkat":
		at, flags = pathArg{0, 1}, int(int32(r.Arg(2)))
		if flags&^unix.AT_REMOVEDIR != 0 {
			return Errno(unix.EINVAL)
		}
	}
	o, err := r.readOperand(at, false)
	if err != nil {
		return ErrorOf(err)
	}
	return r.parentAction(o, policy.OpUnlink, false, func(p fsops.Parent) error {
		return fsops.Unlink(p, flags)
	})
}
