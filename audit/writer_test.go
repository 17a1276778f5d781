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
	cfg := genLog(t, Config{Path: filepath.Join(dir, "audit.jsonl"), MaxSizeBytes: 8 << 10, MaxFiles: 4}, []string{"S1", "S2", "S3"}, 200)
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
