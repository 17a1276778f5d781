package audit

import (
	"time"

	"github.com/oklog/ulid/v2"
)

// Record types. Every line of the log has exactly one.
const (
	TypeFileStart    = "file_start"    // first line of every file: algorithm and the link to the previous file
	TypeSessionStart = "session_start" // one `aixbroker exec`: command, cwd, policy, kernel
	TypeEvent        = "event"         // one decision on one operation
	TypeSessionEnd   = "session_end"   // the session's exit status
	TypeGap          = "gap"           // records the writer had to drop, with their count
	TypeSuppressed   = "suppressed"    // denials of one kind over the session's budget, or identical allowed events over theirs (decision allow), counted instead of written one by one
	TypeRotated      = "rotated"       // what a rotation removed: the seq range and the sessions that had records in it
)

// Hash algorithms named by a file's first record.
const (
	AlgSHA256     = "sha256"
	AlgHMACSHA256 = "hmac-sha256"
)

// Record is one line of the audit log. The JSON names of the first nine
// fields are those of seed §8.2; the others are aixbroker's additions. Fields
// that do not apply to a record's type are left empty and omitted.
//
// Seq, Prev and Hash are filled by the [Writer] when the record is appended;
// TS is filled by [Writer.Write] when it is zero.
type Record struct {
	Type      string    `json:"type"`
	Seq       uint64    `json:"seq"`
	TS        time.Time `json:"ts"`
	Profile   string    `json:"profile,omitempty"`
	PID       int       `json:"pid,omitempty"`
	TID       int       `json:"tid,omitempty"`
	SessionID string    `json:"session_id,omitempty"` // a ULID, see [NewSessionID]
	Op        string    `json:"op,omitempty"`         // read, write, stat, create, unlink, rename, link, exec
	Syscall   string    `json:"syscall,omitempty"`    // openat, execve, ...
	Path      string    `json:"path,omitempty"`       // canonical absolute path
	Decision  string    `json:"decision,omitempty"`   // allow, deny, redact, prompt
	Rule      string    `json:"rule,omitempty"`       // e.g. "deny:~/.ssh/id_*"
	RuleSrc   string    `json:"rule_src,omitempty"`   // file:line of the rule
	Result    string    `json:"result,omitempty"`     // "fd", "0" or an errno name such as "ENOENT"
	LatencyUS int64     `json:"latency_us,omitempty"` // time the decision and operation took
	AgentCmd  string    `json:"agent_cmd,omitempty"`  // the top-level command of the session

	// Session records.
	Cmd         []string `json:"cmd,omitempty"`          // full argv of the agent
	Cwd         string   `json:"cwd,omitempty"`          // working directory at start
	Policy      string   `json:"policy,omitempty"`       // policy file, or "builtin:NAME"
	PolicyHash  string   `json:"policy_hash,omitempty"`  // sha256 of the policy bytes, hex
	Kernel      string   `json:"kernel,omitempty"`       // uname release
	LandlockABI int      `json:"landlock_abi,omitempty"` // 0 when Landlock is unavailable
	ExitStatus  int      `json:"exit_status"`            // written only in session_end records

	// Session start records: the supervisor's identity beyond its pid, so
	// that verify does not take a later process with the same number (or
	// pid 1 on another machine) for it: its start time in clock ticks
	// since boot (/proc/<pid>/stat field 22) and the boot's id
	// (/proc/sys/kernel/random/boot_id). Empty where unknown.
	PIDStart uint64 `json:"pid_start,omitempty"`
	BootID   string `json:"boot_id,omitempty"`

	// Gap, suppressed and rotated records: how many records are not in the
	// log (dropped, counted instead of written, removed by rotation).
	Dropped uint64 `json:"dropped,omitempty"`

	// Rotated records: the seq range of the records removed and the
	// sessions that had records in it.
	FromSeq  uint64   `json:"from_seq,omitempty"`
	ToSeq    uint64   `json:"to_seq,omitempty"`
	Sessions []string `json:"sessions,omitempty"`

	// Suppressed records: the last path counted (Path holds the first);
	// Paths, the distinct paths counted that the log does not hold in full
	// elsewhere (at most 32, in the order first counted); Unlisted, how
	// many of the refusals counted have a path not in Paths; SeenFull, the
	// session's set of distinct refused paths is full (see docs/audit.md):
	// from then on a refused path may be counted without being listed.
	LastPath string   `json:"last_path,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Unlisted uint64   `json:"unlisted,omitempty"`
	SeenFull bool     `json:"seen_full,omitempty"`

	// File headers.
	Alg string `json:"alg,omitempty"`

	Prev string `json:"prev"`
	Hash string `json:"hash"`
}

// Denied reports whether the record is a decision that refused access.
func (r *Record) Denied() bool { return r.Type == TypeEvent && r.Decision == "deny" }

// NewSessionID returns a fresh ULID for one `aixbroker exec` invocation.
func NewSessionID() string { return ulid.Make().String() }
