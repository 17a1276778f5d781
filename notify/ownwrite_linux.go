package notify

import (
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// allowChange decides op (OpWrite: mode, owner, times) on the file f. A
// file a redact rule covers may still be changed through a descriptor open
// for writing that the caller holds (f.FD is then the caller's own open
// file, from pidfd_getfd; a path resolves to an O_PATH descriptor, never
// writable). The broker never opens an existing redacted file for writing,
// so such a descriptor is one it created the file with (a new name: tar
// and cp set the times and mode of what they unpacked), one the agent
// opened under a name no redact rule covers, or one it inherited at start;
// its holder can write and truncate the file through it anyway.
func (r *Request) allowChange(op policy.Op, f fsops.File) error {
	d := guardCgroup(op, f.Path, r.sup.broker.Decide(op, f.Path)) // mode, owner, times: never on a cgroup file system
	if d.Action == policy.Redact && openForWriting(f.FD) {
		d = policy.Decision{Action: policy.Allow, Rule: d.Rule}
		d.Rule.Comment = "a change through a descriptor open for writing"
	}
	r.note(op, f.Path, d)
	if d.Allowed() {
		return nil
	}
	return &refusal{op: op, path: f.Path, errno: denyErrno(d, op)}
}

// openForWriting reports whether fd is an open file (not O_PATH) with
// write access.
func openForWriting(fd int) bool {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return err == nil && fl&unix.O_PATH == 0 && fl&unix.O_ACCMODE != unix.O_RDONLY
}
