package notify

import (
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// The host's /dev is never changed from the sandbox, whatever the policy
// says (review finding RD1): generic allows writing /dev/null, /dev/tty
// and their kin, and for a root agent the broker, which performs unlink,
// rename, link and creation itself outside Landlock, would otherwise
// remove or replace the host's /dev/null. Names under the file system
// mounted on /dev are neither created nor removed, and its nodes' mode
// and owner are not changed; opening a node for writing stays as the
// policy and the device guard say. /dev/shm, /dev/pts and /dev/mqueue
// are file systems of their own and are not touched by this guard.

// devfsRule is the rule a refusal names in the audit.
var devfsRule = policy.Rule{List: "devfs", Pattern: "the host's /dev is never changed by the sandbox"}

var devfsDev = sync.OnceValue(func() uint64 {
	var st unix.Stat_t
	if err := unix.Stat("/dev", &st); err != nil {
		return ^uint64(0)
	}
	return st.Dev
})

// guardDevfs turns an allowed decision that would create or remove a name
// on /dev's file system into a refusal.
func guardDevfs(op policy.Op, path string, d policy.Decision) policy.Decision {
	if !d.Allowed() || !strings.HasPrefix(path, "/dev/") {
		return d
	}
	switch op {
	case policy.OpCreate, policy.OpMkdir, policy.OpUnlink, policy.OpRename, policy.OpLink:
	default:
		return d
	}
	parent := path[:strings.LastIndexByte(path, '/')]
	if parent == "" {
		parent = "/"
	}
	var st unix.Stat_t
	if err := unix.Lstat(parent, &st); err == nil && st.Dev != devfsDev() {
		return d // /dev/shm and the other file systems mounted below /dev
	}
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: devfsRule}
}

// refuseDevfsAttr refuses a mode or owner change of a file on /dev's own
// file system (a chmod 000 of the host's /dev/null breaks every program
// outside).
func refuseDevfsAttr(fd int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Dev == devfsDev() {
		return unix.EPERM
	}
	return nil
}
