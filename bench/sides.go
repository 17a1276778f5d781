package bench

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// Side is one way of running a command: natively or in a sandbox.
type Side struct {
	Name string
	// Wrap returns the argv that runs argv on this side.
	Wrap func(argv []string) []string
	// Skip, when set, is why this side cannot run on this machine.
	Skip string
	// Project, when set, is where this side reaches the workspace's
	// project (the go-fuse side: its mount); empty: the project itself.
	Project string
	// Exec is the program the exec operation starts; empty: /bin/true.
	Exec string
	// NoStartup: the side has no start of its own to time (a mount set
	// up once for the whole run).
	NoStartup bool
}

// Sides returns native, aixbroker (broker only, and with the interposer)
// and bubblewrap. bin is the aixbroker binary, project the directory the
// policy treats as the project, auditDir where the sandboxed runs' audit
// logs go.
func Sides(bin, project, auditDir string) []Side {
	broker := func(interposer string) func([]string) []string {
		return func(argv []string) []string {
			return append([]string{bin, "exec", "--quiet", "--project", project,
				"--interposer", interposer, "--audit", filepath.Join(auditDir, "audit-"+interposer+".jsonl"), "--"}, argv...)
		}
	}
	sides := []Side{
		{Name: "native", Wrap: func(argv []string) []string { return argv }},
		{Name: "aixbroker", Wrap: broker("off")},
		{Name: "aixbroker+interposer", Wrap: broker("on")},
		{Name: "bubblewrap", Wrap: func(argv []string) []string {
			return append([]string{"bwrap", "--dev-bind", "/", "/", "--die-with-parent", "--"}, argv...)
		}},
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		sides[3].Skip = fmt.Sprintf("bwrap not found (%v); apt-get install bubblewrap", err)
	}
	return sides
}
