package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGapRecord stalls the writer (another holder of the log's lock) so that
// the batch fills and Write gives up after MaxBlock: the dropped records must
// be counted in a gap record that is part of the chain.
func TestGapRecord(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), BufferRecords: 10, MaxBlock: time.Millisecond, FlushInterval: time.Millisecond}
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(lockPath(cfg.Path), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := flock(lock, true); err != nil {
		t.Fatal(err)
	}
	const total = 100
	for i := range total {
		w.Write(testEvent("S", i))
	}
	funlock(lock)
	lock.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := w.Stats()
	if st.Dropped == 0 || st.Gaps == 0 {
		t.Fatalf("stats = %+v, want drops counted in gap records", st)
	}
	if _, err := VerifyLog(cfg.Path, nil); err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	var events, dropped uint64
	for e, err := range Scan([]string{cfg.Path}) {
		if err != nil {
			t.Fatal(err)
		}
		switch e.Record.Type {
		case TypeEvent:
			events++
		case TypeGap:
			dropped += e.Record.Dropped
		}
	}
	if events+dropped != total || dropped != st.Dropped {
		t.Errorf("events %d + dropped %d in the log, want %d in total and %d dropped", events, dropped, total, st.Dropped)
	}
}
