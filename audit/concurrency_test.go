package audit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestConcurrentWriters has several writers in this process append to one
// log with rotation; the chain must stay one sequence.
func TestConcurrentWriters(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), MaxSizeBytes: 64 << 10, MaxFiles: 50, FlushInterval: time.Millisecond}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := Open(cfg)
			if err != nil {
				t.Error(err)
				return
			}
			for j := range 5 {
				writeSession(w, fmt.Sprintf("W%dS%d", i, j), 100)
			}
			if err := w.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	checkAllSessions(t, cfg.Path, 4*5, 100)
}

// checkAllSessions verifies the log and checks every record arrived.
func checkAllSessions(t *testing.T, log string, sessions, events int) {
	t.Helper()
	rep, err := VerifyLog(log, nil)
	if err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	files, _ := Files(log)
	counts := map[string]int{}
	for e, err := range Scan(files) {
		if err != nil {
			t.Fatal(err)
		}
		counts[e.Record.Type]++
	}
	want := map[string]int{TypeSessionStart: sessions, TypeSessionEnd: sessions, TypeEvent: sessions * events}
	for typ, n := range want {
		if counts[typ] != n {
			t.Errorf("%s records = %d, want %d (report %+v)", typ, counts[typ], n, rep)
		}
	}
}

// TestConcurrentProcesses runs writers in separate processes (this test
// binary re-executed), as several `aixbroker exec` would.
func TestConcurrentProcesses(t *testing.T) {
	if log := os.Getenv("AUDIT_TEST_CHILD_LOG"); log != "" {
		childWriter(t, log)
		return
	}
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	var cmds []*exec.Cmd
	for i := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
		cmd.Env = append(os.Environ(), "AUDIT_TEST_CHILD_LOG="+log, "AUDIT_TEST_CHILD_ID="+strconv.Itoa(i))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child writer: %v", err)
		}
	}
	checkAllSessions(t, log, 3*4, 500)
}

func childWriter(t *testing.T, log string) {
	w, err := Open(Config{Path: log, MaxSizeBytes: 128 << 10, MaxFiles: 100, FlushInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 4 {
		writeSession(w, fmt.Sprintf("P%sS%d", os.Getenv("AUDIT_TEST_CHILD_ID"), j), 500)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
