package adversarial

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// posixShm is a POSIX shared memory object of the user outside the
// sandbox, as pulseaudio's, a browser's or PostgreSQL's dynamic segments
// are: a 0600 file in /dev/shm holding a canary (needs: posixshm). The
// judge checks it is unchanged (reviewChanges).
type posixShm struct {
	path, canary string
}

// startPosixShm creates the object, owned by the sandbox's user.
func (w *World) startPosixShm(s *services) error {
	o := &posixShm{path: filepath.Join("/dev/shm", "aixadv-outside-"+w.Tag), canary: "CANARY-POSIXSHM-" + w.Tag}
	if err := os.WriteFile(o.path, []byte(o.canary), 0o600); err != nil {
		return fmt.Errorf("create POSIX shm object: %w", err)
	}
	if w.owner != nil {
		if err := os.Chown(o.path, w.owner.UID, w.owner.GID); err != nil {
			os.Remove(o.path)
			return fmt.Errorf("give POSIX shm object: %w", err)
		}
	}
	s.closers = append(s.closers, o)
	s.posixShm = o
	w.Canaries["posix-shm"] = o.canary
	w.Vars["OUTSIDE_SHM"] = o.path
	return nil
}

// changed describes what the sandbox did to the object.
func (o *posixShm) changed() []string {
	data, err := os.ReadFile(o.path)
	switch {
	case err != nil:
		return []string{"the POSIX shm object outside the sandbox is gone: " + err.Error()}
	case string(data) != o.canary:
		return []string{"the POSIX shm object outside the sandbox was overwritten"}
	}
	return nil
}

// Close removes the object.
func (o *posixShm) Close() error { return os.Remove(o.path) }

// reviewChanges are the review's checks of outside processes and objects:
// the POSIX shm object (needs: posixshm) and the /proc knobs of the victim
// that a write through the broker could change (its OOM score adjustment,
// autogroup nice, core dump filter and timer slack), which it inherited
// from the runner.
func (s *services) reviewChanges() []string {
	var out []string
	if s.posixShm != nil {
		out = append(out, s.posixShm.changed()...)
	}
	pid := s.procs[0].Process.Pid
	// Against the victim's own knobs as it started: another user's
	// timerslack_ns cannot be read without CAP_SYS_NICE, the runner's can.
	if got, want := procKnobs(pid), s.victimKnobs; got != want {
		out = append(out, fmt.Sprintf("a /proc knob of the process outside the sandbox changed: %s, was %s", got, want))
	}
	return out
}

// procKnobs summarises the writable /proc/<pid> entries that act on pid.
func procKnobs(pid int) string {
	var b strings.Builder
	for _, e := range []string{"oom_score_adj", "coredump_filter", "timerslack_ns"} {
		data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, e))
		fmt.Fprintf(&b, "%s %s ", e, strings.TrimSpace(string(data)))
	}
	// The autogroup's name differs per session; its nice must not change.
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/autogroup", pid))
	if _, nice, ok := strings.Cut(strings.TrimSpace(string(data)), " nice "); ok {
		fmt.Fprintf(&b, "autogroup nice %s", nice)
	}
	return b.String()
}
