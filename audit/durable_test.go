package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failCase makes the log unwritable after the writer has written a first
// record; want is the error the writer must report.
type failCase struct {
	name  string
	setup func(t *testing.T, cfg *Config) (breakIt func(), want error)
}

// checkFailsClosed opens a writer, writes a session start, breaks the log,
// and checks: the next synchronous write fails, Failed is closed, Err says
// why, later writes are counted as dropped and Close reports the error.
func checkFailsClosed(t *testing.T, c failCase) {
	t.Helper()
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), FlushInterval: time.Millisecond}
	breakIt, want := c.setup(t, &cfg)
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSync(Record{Type: TypeSessionStart, SessionID: "S"}); err != nil {
		t.Fatalf("first WriteSync: %v", err)
	}
	breakIt()
	var werr error
	for i := 0; i < 1000 && werr == nil; i++ { // a full filesystem may take some records first
		r := testEvent("S", i)
		r.Decision = "deny"
		werr = w.WriteSync(r)
	}
	if werr == nil {
		t.Fatal("WriteSync kept succeeding on a broken log")
	}
	if want != nil && !errors.Is(werr, want) {
		t.Errorf("WriteSync = %v, want %v", werr, want)
	}
	select {
	case <-w.Failed():
	case <-time.After(5 * time.Second):
		t.Fatal("Failed() not closed after a write error")
	}
	if w.Err() == nil {
		t.Error("Err() = nil on a failed writer")
	}
	before := w.Stats().Dropped
	w.Write(testEvent("S", 1))
	if err := w.WriteSync(testEvent("S", 2)); err == nil {
		t.Error("WriteSync on a failed writer = nil")
	}
	if got := w.Stats().Dropped; got != before+2 {
		t.Errorf("dropped %d after two writes on a failed writer, want %d", got, before+2)
	}
	if err := w.Close(); err == nil {
		t.Error("Close = nil after a write error")
	}
}

// TestWriterFailsClosed: every persistent write error fails the writer.
func TestWriterFailsClosed(t *testing.T) {
	cases := []failCase{
		{"log replaced by a directory", func(t *testing.T, cfg *Config) (func(), error) {
			return func() {
				if err := os.Rename(cfg.Path, cfg.Path+".moved"); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(cfg.Path, 0o700); err != nil {
					t.Fatal(err)
				}
			}, nil
		}},
		// The writer never follows a link at the log's name (review R1):
		// it fails closed on it instead of writing where it points.
		{"log replaced by a symbolic link to /dev/full (ELOOP)", func(t *testing.T, cfg *Config) (func(), error) {
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip("no /dev/full")
			}
			return func() {
				os.Rename(cfg.Path, cfg.Path+".moved")
				if err := os.Symlink("/dev/full", cfg.Path); err != nil {
					t.Fatal(err)
				}
			}, syscall.ELOOP
		}},
	}
	cases = append(cases, platformFailCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkFailsClosed(t, c) })
	}
}

// TestWriteSyncIsInTheFile: when WriteSync returns, the record is in the
// file (no Close, no flush), after the batched records queued before it.
func TestWriteSyncIsInTheFile(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), FlushInterval: time.Hour}
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write(Record{Type: TypeSessionStart, SessionID: "S"})
	w.Write(testEvent("S", 1)) // allowed, batched
	deny := testEvent("S", 5)
	deny.Path = "/home/u/.ssh/id_sync"
	if err := w.WriteSync(deny); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[3], "id_sync") || !strings.Contains(lines[2], "file1.go") {
		t.Fatalf("after WriteSync the file holds %d line(s), want header, start, the batched event, the denial:\n%s", len(lines), data)
	}
	if _, err := Verify([]string{cfg.Path}, nil); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// TestRotationKeepsOwnSession: a session that alone fills the log fails
// the writer instead of rotating its own records away; its start stays.
func TestRotationKeepsOwnSession(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), MaxSizeBytes: 8 << 10, MaxFiles: 3, FlushInterval: time.Millisecond}
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSync(Record{Type: TypeSessionStart, SessionID: "FLOOD"}); err != nil {
		t.Fatal(err)
	}
	var werr error
	for i := 0; i < 10000 && werr == nil; i++ {
		werr = w.WriteSync(testEvent("FLOOD", i))
	}
	if !errors.Is(werr, ErrLogFull) {
		t.Fatalf("WriteSync = %v, want ErrLogFull", werr)
	}
	<-w.Failed()
	w.Close()
	if _, err := VerifyLog(cfg.Path, nil); err != nil {
		t.Errorf("VerifyLog: %v", err)
	}
	files, _ := Files(cfg.Path)
	s, err := Sessions(files)
	if err != nil || len(s) != 1 {
		t.Fatalf("sessions %v, %v", s, err)
	}
	data, _ := os.ReadFile(files[0])
	if !bytes.Contains(data, []byte(`"type":"session_start"`)) {
		t.Errorf("the session's start was rotated away (oldest file %s)", files[0])
	}
}

// TestRotationSaysWhatItRemoved: rotation of earlier sessions' records
// leaves a chained "rotated" record with the seq range and the sessions;
// the records in the log plus those counted as removed are all records.
func TestRotationSaysWhatItRemoved(t *testing.T) {
	var ids []string
	for i := range 10 {
		ids = append(ids, fmt.Sprintf("S%d", i))
	}
	cfg := genLog(t, Config{MaxSizeBytes: 8 << 10, MaxFiles: 3}, ids, 20)
	files, err := Files(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyLog(cfg.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	removed := map[string]bool{}
	var gone, kept, headers uint64
	var lastTo uint64
	for e, err := range Scan(files) {
		if err != nil {
			t.Fatal(err)
		}
		switch r := e.Record; r.Type {
		case TypeRotated:
			if r.FromSeq > r.ToSeq || r.Dropped == 0 {
				t.Errorf("rotated record %+v", r)
			}
			if r.FromSeq != 1 || r.Dropped != r.ToSeq-r.FromSeq+1 {
				t.Errorf("rotated record counts %d from seq %d to %d, want all from seq 1: it must account for everything removed", r.Dropped, r.FromSeq, r.ToSeq)
			}
			if r.ToSeq <= lastTo {
				t.Errorf("rotated records do not grow: to %d after %d", r.ToSeq, lastTo)
			}
			lastTo = r.ToSeq
			for _, id := range r.Sessions {
				removed[id] = true
			}
		case TypeFileStart:
			headers++
		}
		kept++
	}
	for e := range Scan(files) {
		if e.Record.Type == TypeRotated {
			gone = e.Record.Dropped // the newest accounts for all removed
		}
	}
	if !removed["S0"] {
		t.Errorf("no rotated record names S0, whose records are gone (removed: %v)", removed)
	}
	// The newest rotated record accounts for every seq before the oldest
	// file kept.
	if gone != rep.FirstSeq-1 || lastTo != rep.FirstSeq-1 {
		t.Errorf("the log starts at seq %d; the newest rotated record counts %d removed up to seq %d, want %d", rep.FirstSeq, gone, lastTo, rep.FirstSeq-1)
	}
	if kept == 0 || headers == 0 {
		t.Errorf("kept %d records, %d headers", kept, headers)
	}
}

// TestWriteFinalAfterFailure: a failed writer still appends the session's
// end, after a gap record counting what was dropped since the failure:
// past the size limit when the log is full, and once the log can be
// written again otherwise.
func TestWriteFinalAfterFailure(t *testing.T) {
	cases := []struct {
		name  string
		cfg   Config
		flood func(w *Writer)
		heal  func(cfg Config)
	}{
		{"log full", Config{MaxSizeBytes: 8 << 10, MaxFiles: 2}, func(w *Writer) {
			for i := 0; i < 1000 && w.WriteSync(testEvent("S", i)) == nil; i++ {
			}
		}, func(Config) {}},
		{"log replaced by a directory, then back", Config{}, func(w *Writer) {
			cfg := w.cfg
			os.Rename(cfg.Path, cfg.Path+".moved")
			os.Mkdir(cfg.Path, 0o700)
			w.WriteSync(testEvent("S", 1))
		}, func(cfg Config) {
			os.Remove(cfg.Path)
			os.Rename(cfg.Path+".moved", cfg.Path)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Path = filepath.Join(t.TempDir(), "audit.jsonl")
			cfg.FlushInterval = time.Millisecond
			w, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteSync(Record{Type: TypeSessionStart, SessionID: "S", PID: 1}); err != nil {
				t.Fatal(err)
			}
			c.flood(w)
			<-w.Failed()
			w.Write(testEvent("S", 2))
			w.WriteSync(testEvent("S", 3))
			c.heal(cfg)
			if err := w.WriteFinal(Record{Type: TypeSessionEnd, SessionID: "S", Result: "audit failed"}); err != nil {
				t.Fatalf("WriteFinal: %v", err)
			}
			w.Close()
			if _, err := VerifyLog(cfg.Path, nil); err != nil {
				t.Fatalf("VerifyLog: %v", err)
			}
			files, _ := Files(cfg.Path)
			var gap uint64
			for e := range Scan(files) {
				if e.Record.Type == TypeGap {
					gap += e.Record.Dropped
				}
			}
			if gap < 2 {
				t.Errorf("gap records count %d dropped, want at least the 2 written after the failure", gap)
			}
			// The session has its end, and its gap records say it lost
			// records (review R6): lost-records, not plain "ended".
			s, _ := Sessions(files)
			if len(s) != 1 || !s[0].Ended || s[0].Status != StatusLost || s[0].Lost != gap {
				t.Errorf("sessions %+v, want S ended with %d lost records", s, gap)
			}
		})
	}
}
