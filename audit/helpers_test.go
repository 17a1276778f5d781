package audit

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// testClock returns a clock that advances one millisecond per call.
func testClock() func() time.Time {
	t := time.Date(2026, 4, 20, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Millisecond)
		return t
	}
}

// testEvent is the i-th event of a generated session.
func testEvent(session string, i int) Record {
	r := Record{
		Type: TypeEvent, SessionID: session, Profile: "claude-code", PID: 4421, TID: 4422 + i%3,
		Op: "read", Syscall: "openat", Path: fmt.Sprintf("/home/u/project/file%d.go", i),
		Decision: "allow", Rule: "allow_read:${PROJECT}/**", RuleSrc: ".aixgate.yaml:12",
		Result: "fd", LatencyUS: int64(10 + i%50), AgentCmd: "claude",
		TS: time.Date(2026, 4, 20, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second),
	}
	if i%5 == 0 {
		r.Path, r.Decision, r.Rule, r.Result = "/home/u/.ssh/id_rsa", "deny", "deny:~/.ssh/id_*", "ENOENT"
	}
	if i%7 == 0 {
		r.Op, r.Syscall, r.Path = "exec", "execve", "/usr/bin/git"
	}
	return r
}

// writeSession writes one session of n events through w.
func writeSession(w *Writer, session string, n int) {
	w.Write(Record{Type: TypeSessionStart, SessionID: session, Profile: "claude-code", PID: 4421,
		AgentCmd: "claude", Cmd: []string{"claude", "--model", "x"}, Cwd: "/home/u/project",
		Policy: "/home/u/project/.aixgate.yaml", PolicyHash: "ab12", Kernel: "6.18.0", LandlockABI: 7})
	for i := 0; i < n; i++ {
		w.Write(testEvent(session, i))
	}
	w.Write(Record{Type: TypeSessionEnd, SessionID: session, Profile: "claude-code", PID: 4421, AgentCmd: "claude", ExitStatus: 3})
}

// genLog writes sessions of n events each into a new log under t.TempDir(),
// each through its own writer as `aixbroker exec` does, and returns its
// config.
func genLog(t testing.TB, cfg Config, sessions []string, n int) Config {
	t.Helper()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(t.TempDir(), "audit.jsonl")
	}
	clock := testClock()
	for _, s := range sessions {
		w, err := open(cfg, clock)
		if err != nil {
			t.Fatal(err)
		}
		writeSession(w, s, n)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}
