// Package adversarial is aixbroker's attack suite: small programs that try,
// one technique each, to read a secret, change a file or reach a process
// outside the sandbox, and a suite of legitimate operations an agent does
// all day that must keep working.
//
// Each case is a file in attacks/ or legit/ named NNN-name.{sh,c,py,js}
// whose first comment lines are a header:
//
//	# technique: read ~/.ssh/id_rsa through /proc/self/root
//	# fast: yes              (part of the subset `make test` runs)
//	# requires: python3      (skipped when a command is missing)
//	# needs: ssh-agent dbus  (outside services started for this case)
//	# build: static          (C only: link statically)
//	# known: F1              (a leak or false positive in FINDINGS.md, not yet fixed)
//
// Legitimate operations use "operation:" instead of "technique:" and name
// the output they must print with "want:".
//
// The runner gives every case a fresh world: a fake HOME outside /tmp with
// a project inside it, both seeded with unique canary secrets, unix socket
// services outside the sandbox and a process to signal. It runs the case
// under `aixbroker exec` with the built-in generic profile (merged under
// the project file <kind>/policy/<name>.yaml, when the case has one, copied
// into the project as .aixgate.yaml), then judges:
// an attack LEAKs if a canary shows in its output or in a file it could
// write, if a file outside its reach changed, if the outside process died,
// or if the audit log no longer verifies; otherwise it is held. Exit
// statuses are irrelevant. A legitimate case passes when it exits 0 and
// prints what it wants.
//
// `go run ./test/adversarial/cmd/advrun` runs everything and prints a table
// and a "N passed, M failed" line; the package test runs the fast subset.
package adversarial
