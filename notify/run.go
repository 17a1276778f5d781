package notify

import (
	"errors"
	"os"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/landlock"
)

// Config describes one sandboxed run.
type Config struct {
	Argv []string // the agent's command; Argv[0] is looked up in Env's PATH
	Env  []string // the agent's environment, already filtered by the policy
	Dir  string   // working directory ("" keeps the current one)

	Stdin, Stdout, Stderr *os.File // nil: the broker's own

	Broker *broker.Broker // the only source of decisions, and the audit sink

	// DenyInodes are the inodes of the policy's concrete denied files
	// (fsops.NewDenyInodes): a hard link to one made before the session is
	// refused by link, truncate and the attribute handlers. nil: none.
	DenyInodes *fsops.DenyInodes

	// ExtraFiles are inherited by the agent as descriptors 4, 5, ... (3 is
	// the stage-2 socket, closed on exec). The interposer's connector goes
	// here.
	ExtraFiles []*os.File

	// TrapStat also traps the stat, access and readlink families, so a
	// hidden name does not exist even for a static binary or a child
	// without the interposer, at a round trip per call (stat_linux.go).
	TrapStat bool

	// AllowSysV lifts the filter's refusal of SysV IPC (ipc.sysv: allow):
	// the agent then reaches the host's segments, queues and semaphores.
	AllowSysV bool

	Landlock      landlock.Roots // the backstop's roots (policy Roots)
	AllowDegraded bool           // run on a Landlock ABI below landlock.MinABI
}

// ErrNotSupported is returned where seccomp user notification is missing:
// it needs Linux 5.19 (ADDFD_FLAG_SEND 5.14, WAIT_KILLABLE_RECV 5.19) on
// x86_64.
var ErrNotSupported = errors.New("seccomp user-notify sandbox not supported on this platform (needs Linux >= 5.19, x86_64)")

// stage2Marker is argv[1] of the re-executed stage 2.
const stage2Marker = "__aixbroker-stage2"

// stage2Config is what the parent sends the stage-2 child.
type stage2Config struct {
	Path          string         `json:"path"` // absolute path of the agent
	Argv          []string       `json:"argv"`
	Env           []string       `json:"env"`
	Dir           string         `json:"dir"`
	Landlock      landlock.Roots `json:"landlock"`
	AllowDegraded bool           `json:"allow_degraded"`
	Trap          []string       `json:"trap"` // syscalls with a handler
	Keep          int            `json:"keep"` // descriptors below this are the agent's (stdio, ExtraFiles); the rest are closed at exec
}
