package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriterCleanLogVerifies(t *testing.T) {
	cfg := genLog(t, Config{}, []string{"01HV2K0000000000000000000A", "01HV2K0000000000000000000B"}, 100)
	rep, err := VerifyLog(cfg.Path, nil)
	if err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	// 1 header + 2 * (start + 100 events + end)
	if want := uint64(1 + 2*102); rep.Records != want || rep.LastSeq != want || !rep.Genesis {
		t.Errorf("report = %+v, want %d records from genesis", rep, want)
	}
	if rep.Head != "matches seq 205" {
		t.Errorf("head = %q", rep.Head)
	}
}

func TestWriterRotationKeepsChain(t *testing.T) {
	dir := t.TempDir()
	cfg := genLog(t, Config{Path: filepath.Join(dir, "audit.jsonl"), MaxSizeBytes: 8 << 10, MaxFiles: 4}, []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"}, 20)
	files, err := Files(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files = %v, want 4", files)
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 8<<10 {
			t.Errorf("%s is %d bytes, over the 8 KiB limit", f, fi.Size())
		}
	}
	rep, err := VerifyLog(cfg.Path, nil)
	if err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	if rep.Genesis {
		t.Errorf("oldest files were rotated away, but report says the chain starts at genesis")
	}
	if !strings.HasPrefix(rep.Head, "matches") {
		t.Errorf("head = %q", rep.Head)
	}
}

// TestWriterNormalisesRecords: whatever the caller passes, what is written
// parses and verifies.
func TestWriterNormalisesRecords(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 3*maxFieldBytes)
	w.Write(Record{})
	w.Write(Record{Type: TypeEvent, TS: time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC), Path: long, Cmd: make([]string, 200)})
	w.Write(Record{Type: TypeEvent, Path: "/tmp/\x00\xff\u2028\"\\", Seq: 99, Prev: "forged", Hash: "forged"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyLog(cfg.Path, nil); err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
}

// TestWriterAfterDamage: a writer that finds the log damaged goes on
// writing, and links so that verify still reports the damage rather than
// a chain rebuilt over it. A torn last line (a crash in a write) is closed
// and the chain goes on from the record before it: verify reports it as
// torn (Report.Torn), not as an edit (review R7).
func TestWriterAfterDamage(t *testing.T) {
	tests := []struct {
		name     string
		damage   func(t *testing.T, log string)
		wantText string
	}{
		{"torn last line", func(t *testing.T, log string) {
			f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"type":"event","seq":`)
			f.Close()
		}, ""},
		{"records cut from the end", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte { return l[:len(l)-3] })
		}, "record(s) removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := genLog(t, Config{}, []string{"S1"}, 10)
			tt.damage(t, cfg.Path)
			genLog(t, cfg, []string{"S2"}, 10)
			rep, err := VerifyLog(cfg.Path, nil)
			switch {
			case tt.wantText == "" && (err != nil || len(rep.Torn) != 1):
				t.Errorf("VerifyLog = %v, torn %v; want no error and one torn line", err, rep.Torn)
			case tt.wantText != "" && (err == nil || !strings.Contains(err.Error(), tt.wantText)):
				t.Errorf("VerifyLog = %v, want an error with %q", err, tt.wantText)
			}
			files, _ := Files(cfg.Path)
			sessions, err := Sessions(files)
			// The test clock restarts with each genLog: find S2 by ID.
			if err != nil || len(sessions) != 2 || sessions[0].ID != "S2" || sessions[0].Events != 10 || !sessions[0].Ended {
				t.Errorf("sessions after damage = %+v, %v; want the second session complete", sessions, err)
			}
		})
	}
}
