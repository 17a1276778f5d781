package policy

import (
	"slices"
	"strings"
)

// plainDevicePaths are the devices the broker opens under any allow rule
// (or that are the process's own descriptors or terminal): naming them
// literally is ordinary.
var plainDevicePaths = []string{
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/stdin", "/dev/stdout", "/dev/stderr",
}

// checkDevices warns about allow rules that name a path under /dev
// literally (no glob): the broker decides devices on their number, and
// opens any other device only under such a rule (notify/device_linux.go),
// with its own rights, so the rule hands the agent the device itself
// (a disk, a serial port, a GPU) and every ioctl it answers.
func (e *Engine) checkDevices() []Finding {
	var out []Finding
	for _, r := range e.Rules() {
		if r.List != "allow_read" && r.List != "allow_write" {
			continue
		}
		g := r.Glob
		if !strings.HasPrefix(g, "/dev/") || strings.ContainsAny(g, "*?[{\\") || slices.Contains(plainDevicePaths, g) ||
			strings.HasPrefix(g, "/dev/fd/") || strings.HasPrefix(g, "/dev/shm/") || strings.HasPrefix(g, "/dev/pts/") {
			continue
		}
		out = append(out, Finding{SeverityWarning, r.ID() + ": names a device literally: if it is a device other than null, zero, full, random, urandom or a terminal of the session, the agent gets it with aixbroker's rights (raw disk access, every ioctl it answers); make sure it is meant", r.Source})
	}
	return out
}
