package macos

import (
	"errors"
	"os"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

// ErrNotSupported is returned by Run and Doctor outside macOS.
var ErrNotSupported = errors.New("macOS sandbox (sandbox-exec) not supported on this platform: needs macOS")

// DefaultSandboxExec is where macOS ships sandbox-exec. It is used by
// absolute path, so nothing planted on PATH can stand in for it.
const DefaultSandboxExec = "/usr/bin/sandbox-exec"

// Config is one sandboxed run.
type Config struct {
	Argv []string // the agent's command; Argv[0] is looked up in Env's PATH
	Env  []string // the agent's environment, already filtered by the policy (Engine.Env)
	Dir  string   // working directory ("" keeps the current one)

	Stdin, Stdout, Stderr *os.File // nil: the caller's own

	Engine *policy.Engine // the compiled policy the profile is generated from
	Broker *broker.Broker // receives the kernel's denials from the system log; nil: not followed

	// Interposer is the absolute path of the DYLD interposer library.
	// Empty (the default, until the library exists): kernel enforcement
	// only.
	Interposer string
	// SandboxExec is the sandbox-exec to run: DefaultSandboxExec when
	// empty; a name without a slash is looked up in the caller's PATH
	// (tests use a stand-in).
	SandboxExec string
	// TempDir is where the private profile directory is created
	// (os.TempDir() when empty).
	TempDir string
	// SessionID tags the profile's default deny so the session's log
	// messages can be told apart (letters, digits, '-', '_', ':').
	SessionID string
}
