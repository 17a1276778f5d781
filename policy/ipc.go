package policy

import "github.com/goccy/go-yaml/ast"

// IPC holds ipc:, the kernel IPC objects outside the filesystem the agent
// may reach. SysV is "" (deny), Deny or Allow: SysV shared memory, message
// queues and semaphores live in one namespace per machine, so a segment the
// user's X server or database created is there for any process of the
// user to attach, read and write by id. POSIX shared memory and semaphores
// are files in /dev/shm and follow the filesystem rules, and the broker's
// shm guard on top (notify/shmguard_linux.go: only the session's own
// objects open). default: allow
// does not reach ipc: (see docs/policy.md).
type IPC struct {
	SysV       Action // "" or Deny: refused; Allow: the host's objects, all of them
	SysVSource Source // where sysv: was written
}

var (
	ipcKeys  = []string{"sysv"}
	sysvVals = []string{"deny", "allow"}
)

// ipc reads ipc.sysv.
func (ps *parser) ipc(key string, v ast.Node) {
	if key != "sysv" {
		return
	}
	if s, ok := ps.enum(v, "ipc.sysv", sysvVals); ok {
		ps.p.IPC.SysV, ps.p.IPC.SysVSource = Action(s), ps.src(v)
	}
}

// mergeIPC applies child's ipc: over parent's: a sysv: set in the child wins.
func mergeIPC(parent, child IPC) IPC {
	if child.SysV != "" {
		return child
	}
	return parent
}

// SysVAllowed reports whether the policy lets the agent use the host's
// SysV IPC objects (ipc.sysv: allow).
func (p *Policy) SysVAllowed() bool { return p.IPC.SysV == Allow }

// checkIPC warns about ipc.sysv: allow.
func checkIPC(p *Policy) []Finding {
	if !p.SysVAllowed() {
		return nil
	}
	return []Finding{{SeverityWarning, "ipc.sysv: allow lets the agent attach, read and write every SysV shared memory segment, queue and semaphore of the user's other processes (X11 MIT-SHM, databases)", p.IPC.SysVSource}}
}
