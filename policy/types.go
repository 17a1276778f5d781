package policy

import "fmt"

// Op is an operation the engine decides on. Each kernel-facing caller maps
// its syscall to one Op (see docs/policy.md, "Operations").
type Op string

// The operations of §7 and the audit format, one per kind of access.
const (
	OpRead   Op = "read"   // open for reading, readlink, listing a directory
	OpStat   Op = "stat"   // stat/lookup/access: does the name exist for the agent
	OpWrite  Op = "write"  // open for writing, truncate, chmod/chown, utimes
	OpCreate Op = "create" // a new name: O_CREAT, mknod, symlink, link target, rename target
	OpMkdir  Op = "mkdir"  // a new directory: as create, and also allowed above a writable pattern
	OpUnlink Op = "unlink" // unlink, rmdir
	OpRename Op = "rename" // the source of a rename (the target is OpCreate)
	OpLink   Op = "link"   // the source of a hard link (the target is OpCreate)
	OpExec   Op = "exec"   // execve of the file

	OpConnect  Op = "connect"  // connect to a pathname unix socket: decided by unix.connect (see decideUnix)
	OpDatagram Op = "datagram" // create a unix datagram socket; the path is not looked at (unix.datagram)
)

// Ops lists every Op in a stable order.
var Ops = []Op{OpRead, OpStat, OpWrite, OpCreate, OpMkdir, OpUnlink, OpRename, OpLink, OpExec, OpConnect, OpDatagram}

// Action is the outcome of a decision.
type Action string

// Actions. Redact means "serve a stub instead of the content" for reads and
// "refuse" for anything that would change or move the file.
const (
	Allow  Action = "allow"
	Deny   Action = "deny"
	Redact Action = "redact"
)

// Errno is the error a denial is reported with. It is a name, not a number,
// so the package stays free of syscall constants.
type Errno string

// The two errnos a denial can carry (seed §6.5).
const (
	ENOENT Errno = "ENOENT"
	EACCES Errno = "EACCES"
)

// Source is where a rule was written: a file and line, or an embedded
// profile ("builtin:claude-code:12").
type Source struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"` // for error messages; String omits it
}

func (s Source) String() string {
	if s.File == "" {
		return "default"
	}
	if s.Line == 0 {
		return s.File // a whole file, or a source that is not a file (exec --pass-env)
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Rule is one entry of one rule list, as written and as expanded.
type Rule struct {
	List    string `json:"list"`              // "deny", "redact", "allow_write", "allow_read", "default", "exec.allow", ...
	Pattern string `json:"pattern"`           // as written, e.g. "~/.ssh/id_*"
	Glob    string `json:"glob,omitempty"`    // after variable expansion, e.g. "/home/u/.ssh/id_*"
	Mode    string `json:"mode,omitempty"`    // redact mode: "keys" or "stub"
	Errno   Errno  `json:"errno,omitempty"`   // per-rule errno opt-in (EACCES on reads)
	Source  Source `json:"source"`            // where it was written
	Profile string `json:"profile,omitempty"` // the profile (file) that contributed it
	Command string `json:"command,omitempty"` // exec.deny_args: the command the arguments belong to
	Comment string `json:"comment,omitempty"` // the YAML comment written on the rule: why it exists

	// Except (redact only) lists globs the rule does not match, as written
	// ("**/.env.example"); ExceptGlobs are the same after expansion.
	Except      []string `json:"except,omitempty"`
	ExceptGlobs []string `json:"except_globs,omitempty"`
}

// ID is the short identifier used in audit records: "deny:~/.ssh/id_*".
// For exec.deny_args it is "exec.deny_args:git push --force".
func (r Rule) ID() string {
	switch {
	case r.Pattern == "":
		return r.List
	case r.Command != "":
		return r.List + ":" + r.Command + " " + r.Pattern
	}
	return r.List + ":" + r.Pattern
}

// Decision is the engine's answer for one (op, path).
type Decision struct {
	Action Action `json:"decision"`
	Errno  Errno  `json:"errno,omitempty"` // set when Action is Deny, or Redact for a mutating op
	Rule   Rule   `json:"rule"`            // the winning rule
}

// Allowed reports whether the operation may proceed on the real file.
func (d Decision) Allowed() bool { return d.Action == Allow }
