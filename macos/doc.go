// Package macos runs an agent under the macOS sandbox: the policy becomes
// an SBPL profile (package sbpl) written to a private temporary file, and
// the agent is started as `sandbox-exec -f PROFILE -- CMD ARGS...`, with
// the environment the policy allows. The kernel (the Sandbox MAC policy)
// enforces the profile on the agent and everything it starts.
//
// What the kernel refuses is reported in the system log; on macOS, Run
// follows `log stream` for the sandbox's messages and turns each denial of
// one of the agent's processes into an audit event (ParseLogLine and
// Violation.Event are the pure, tested translation).
//
// Most of the package is portable, so it builds and is tested on Linux:
// the profile file, the argument list and the environment (tested with a
// stand-in sandbox-exec that records what it was given), the log-line
// translator and the parser of `csrutil status`. Only Run and Doctor need
// macOS; elsewhere they return ErrNotSupported.
//
// The interposer (DYLD_INSERT_LIBRARIES) does not exist yet. Config has the
// hook: when Config.Interposer is set, the library is made loadable in the
// profile and passed to the agent, for binaries System Integrity
// Protection does not strip it from (see InterposerApplies and
// docs/macos.md).
package macos
