package macos

import (
	"errors"
	"strings"
)

// ErrInterposerNotBuilt is returned for Config.Interposer until the DYLD
// trampoline and library exist.
var ErrInterposerNotBuilt = errors.New("the DYLD interposer is not built yet: kernel enforcement only")

// InterposerEnv is the variable dyld reads the interposer from.
const InterposerEnv = "DYLD_INSERT_LIBRARIES"

// sipProtected are the trees System Integrity Protection guards: dyld
// ignores and removes DYLD_ variables for binaries there (Apple's own), so
// the interposer never loads into them. sandbox-exec itself lives there.
var sipProtected = []string{"/usr/bin/", "/usr/sbin/", "/usr/libexec/", "/bin/", "/sbin/", "/System/"}

// InterposerApplies reports whether the interposer can load into the
// binary at path: not for SIP-protected Apple binaries. Hardened-runtime
// binaries without the allow-dyld-environment-variables entitlement also
// ignore it; that needs the code signature and is left to the interposer's
// own handshake (the broker sees no hello and records the gap).
//
// Hook, until the interposer exists: because sandbox-exec is itself
// SIP-protected, dyld strips DYLD_ variables from it before it execs the
// agent. The variable must therefore be set by a non-Apple trampoline run
// by sandbox-exec (aixbroker re-executed as `aixbroker __dyld-trampoline
// LIB -- CMD ARGS`, allowed to exec in the profile), not in sandbox-exec's
// environment. agentArgv is where that trampoline is inserted; the profile
// already admits the library (sbpl.Options.Interposer).
func InterposerApplies(path string) bool {
	for _, p := range sipProtected {
		if strings.HasPrefix(path, p) {
			return false
		}
	}
	return true
}
