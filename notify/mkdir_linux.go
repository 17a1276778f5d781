package notify

import (
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

func init() {
	register(handleMkdir, "mkdir", "mkdirat")
	register(handleMknod, "mknod", "mknodat")
}

// handleMkdir serves mkdir(path, mode) and mkdirat(dirfd, path, mode),
// deciding OpMkdir on the new name (as OpCreate, and also allowed for the
// missing parents of a writable pattern); the caller's umask applies.
func handleMkdir(r *Request) Reply {
	at, modeArg := pathArg{-1, 0}, 1
	if r.Syscall == "mkdirat" {
		at, modeArg = pathArg{0, 1}, 2
	}
	mode := uint32(r.Arg(modeArg)) & 0o7777
	o, err := r.readOperand(at, false)
	if err != nil {
		return ErrorOf(err)
	}
	return r.parentAction(o, policy.OpMkdir, true, func(p fsops.Parent) error {
		return fsops.Mkdir(p, mode)
	})
}

// handleMknod serves mknod(path, mode, dev) and mknodat(dirfd, path, mode,
// dev), deciding OpCreate on the new name. Regular files, FIFOs and sockets
// are created with the caller's umask; device nodes are refused with EPERM
// whatever the caller's capabilities (fsops.Mknod).
func handleMknod(r *Request) Reply {
	at, modeArg := pathArg{-1, 0}, 1
	if r.Syscall == "mknodat" {
		at, modeArg = pathArg{0, 1}, 2
	}
	mode := uint32(r.Arg(modeArg))
	mode = stripSetid(mode, false) // setid_linux.go: the file type bits are untouched
	dev := uint64(uint32(r.Arg(modeArg + 1)))
	o, err := r.readOperand(at, false)
	if err != nil {
		return ErrorOf(err)
	}
	return r.parentAction(o, policy.OpCreate, true, func(p fsops.Parent) error {
		if err := fsops.Mknod(p, mode, dev); err != nil {
			return err
		}
		r.noteCreatedName(p) // a regular file is removable although redacted (created_linux.go)
		return nil
	})
}
