// Package doctor checks whether this machine can run aixbroker's sandbox
// and says what to do when it cannot: one [Check] per feature, each OK, a
// warning (it works, with a documented loss), informational, or a blocking
// failure.
//
// Features are probed for real, not inferred from the kernel version: the
// seccomp probe installs a filter with a user-notification listener, traps
// a syscall and answers it with SECCOMP_ADDFD_FLAG_SEND. A filter cannot be
// removed, so the probe runs in a re-executed child: the binary's main
// calls [MaybeProbe] first thing, and [Linux] re-executes it with the hidden
// argument [ProbeArg].
//
//	checks := doctor.Linux(doctor.Env{ConfigDir: dir, AuditPath: log})
//	doctor.Print(os.Stdout, checks)
//	if doctor.Blocking(checks) {
//		os.Exit(1)
//	}
package doctor

import (
	"fmt"
	"io"
)

// Level is how a check turned out.
type Level string

// Check levels. Fail blocks `aixbroker exec`; Warn works with a documented
// loss; Info is for the record.
const (
	OK   Level = "ok"
	Warn Level = "warn"
	Fail Level = "fail"
	Info Level = "info"
)

// Check is one line of `aixbroker doctor`.
type Check struct {
	Name   string `json:"name"`
	Level  Level  `json:"level"`
	Detail string `json:"detail"`
	Remedy string `json:"remedy,omitempty"` // what to do, when not OK
}

// Blocking reports whether any check failed.
func Blocking(checks []Check) bool {
	for _, c := range checks {
		if c.Level == Fail {
			return true
		}
	}
	return false
}

// marks are the symbols Print puts before each level.
var marks = map[Level]string{OK: "✓", Warn: "!", Fail: "✗", Info: "·"}

// Print writes one line per check, and the remedy under it when there is
// one.
func Print(w io.Writer, checks []Check) {
	for _, c := range checks {
		fmt.Fprintf(w, "%s %s: %s\n", marks[c.Level], c.Name, c.Detail)
		if c.Remedy != "" {
			fmt.Fprintf(w, "    → %s\n", c.Remedy)
		}
	}
}

// ProbeResult is what the re-executed probe child found.
type ProbeResult struct {
	Listener     bool   `json:"listener"`        // SECCOMP_FILTER_FLAG_NEW_LISTENER works
	Nested       bool   `json:"nested"`          // the listener was refused with EBUSY: already under one
	WaitKillable bool   `json:"wait_killable"`   // SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (5.19)
	AddFDSend    bool   `json:"addfd_send"`      // SECCOMP_ADDFD_FLAG_SEND (5.14)
	SyncWakeUp   bool   `json:"sync_wake_up"`    // SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6)
	Error        string `json:"error,omitempty"` // why the listener could not be installed
}
