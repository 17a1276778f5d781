package adversarial

import (
	"fmt"
	"os"
	"path/filepath"
)

// POSIX shared memory of a process outside the sandbox (review of issue 14
// item 4 and 5): what the case asks for with "needs: posix-shm". A segment
// in /dev/shm the user's outside process created with shm_open, holding a
// canary; generic allows /dev/shm/** for writing.

// shmSegment removes the segment when the case ends.
type shmSegment string

func (s shmSegment) Close() error { return os.Remove(string(s)) }

// startPosixShm creates the outside segment when c needs it.
func (w *World) startPosixShm(c Case, s *services) error {
	if !c.needs("posix-shm") {
		return nil
	}
	name := filepath.Join("/dev/shm", "aixadv-outside-"+w.Tag)
	canary := "CANARY-SHM-" + w.Tag
	if err := os.WriteFile(name, []byte(canary+"\n"), 0o600); err != nil {
		return fmt.Errorf("create shm segment: %w", err)
	}
	s.closers = append(s.closers, shmSegment(name))
	if w.owner != nil {
		if err := os.Chown(name, w.owner.UID, w.owner.GID); err != nil {
			return fmt.Errorf("chown shm segment: %w", err)
		}
	}
	w.Canaries["posix-shm"] = canary
	w.Vars["SHM_OUTSIDE"] = name
	return nil
}
