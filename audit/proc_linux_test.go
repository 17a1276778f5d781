package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSessionRunningIdentity (review R4): a session is running only when
// its recorded supervisor (pid, start tick, boot id) is alive: the same
// pid with another start time or another boot is not it.
func TestSessionRunningIdentity(t *testing.T) {
	ticks, boot := SelfIdentity()
	if ticks == 0 || boot == "" {
		t.Fatalf("SelfIdentity = %d, %q", ticks, boot)
	}
	cases := []struct {
		name  string
		start uint64
		boot  string
		want  string
	}{
		{"this process", ticks, boot, StatusRunning},
		{"same pid, other start", ticks + 1, boot, StatusAbnormal},
		{"same pid, other boot", ticks, "00000000-0000-0000-0000-000000000000", StatusAbnormal},
		{"no identity recorded", 0, "", StatusAbnormal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
			w, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteSync(Record{Type: TypeSessionStart, SessionID: "S", PID: os.Getpid(), PIDStart: c.start, BootID: c.boot, TS: time.Now()}); err != nil {
				t.Fatal(err)
			}
			w.Close()
			sessions, err := Sessions([]string{cfg.Path})
			if err != nil || len(sessions) != 1 {
				t.Fatalf("sessions %v %v", sessions, err)
			}
			if got := sessions[0].Status; got != c.want {
				t.Errorf("status %q, want %q", got, c.want)
			}
		})
	}
}
