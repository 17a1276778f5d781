package policy

// Policy is a parsed policy: one file as written (Parse), or a file merged
// with its extends chain (LoadFile, LoadProfile, Resolve). Patterns are kept
// as written; Compile expands them.
type Policy struct {
	Name          string // profile:
	Extends       string // extends: of the top file, as written
	ExtendsSource Source // where extends: was written
	Default       Action // default: Allow or Deny; "" means Deny
	DefaultSource Source // where default: was written
	Filesystem    Filesystem
	Exec          Exec
	Env           Env
	Unix          Unix
	IPC           IPC
	Audit         Audit
	Tests         []Test

	File   string   // the top file ("builtin:claude-code" for an embedded profile)
	Chain  []string // the extends chain, top file first
	Origin string   // how Resolve chose it, e.g. "project file /p/.aixgate.yaml"
}

// Filesystem holds the five rule lists of filesystem:. Every Rule has List
// set to "allow_read", "allow_write", "read_only", "redact" or "deny".
type Filesystem struct {
	AllowRead  []Rule
	AllowWrite []Rule
	ReadOnly   []Rule // readable where an allow reaches, never changed (an extension of §7.6)
	Redact     []Rule // Mode is "keys" or "stub"
	Deny       []Rule // Errno is "" (ENOENT) or EACCES
}

// Exec holds exec:. Allow and Deny rules carry a command basename as
// Pattern; DenyArgs rules carry the command in Command and the argument
// sequence (space-separated tokens) in Pattern.
type Exec struct {
	Allow    []Rule // "exec.allow"; empty means any command the file rules allow
	Deny     []Rule // "exec.deny"
	DenyArgs []Rule // "exec.deny_args"
}

// Env holds env:. PassThrough and Strip rules carry a variable name or a
// glob over names (LC_*, *_TOKEN) as Pattern.
type Env struct {
	PassThrough []Rule   // "env.pass_through"; empty means every variable not stripped
	Strip       []Rule   // "env.strip"
	Inject      []Inject // later entries win
}

// Inject is one env.inject entry. Values are literal (no variable expansion).
type Inject struct {
	Name   string
	Value  string
	Source Source
}

// Audit holds audit:. Empty fields mean the defaults: OnDeny "log",
// OnAllow "log", Log chosen by the caller.
type Audit struct {
	Log     string // as written; may use variables and ~
	OnDeny  string // "log", "prompt" or "block_silently"
	OnAllow string // "log" or "none"
	Source  Source
}

// Test is one entry of tests:, run by Check: Decide(Op, Path) must give Want
// (for a mutating op on a redacted file the action is Redact, refused).
type Test struct {
	Path   string // as written; may use variables and ~; a relative path is relative to ${PROJECT}
	Op     Op     // defaults to OpRead
	Want   Action
	Source Source
}

// DefaultAction returns the effective default action (Deny when unset).
func (p *Policy) DefaultAction() Action {
	if p.Default == Allow {
		return Allow
	}
	return Deny
}

// EffectiveOnDeny returns the effective audit.on_deny ("log" when unset).
func (a Audit) EffectiveOnDeny() string { return orDefault(a.OnDeny, "log") }

// EffectiveOnAllow returns the effective audit.on_allow ("log" when unset).
func (a Audit) EffectiveOnAllow() string { return orDefault(a.OnAllow, "log") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
