package audit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readLines(t *testing.T, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(data, []byte("\n"))
}

// lineCount counts lines, a last one without newline included.
func lineCount(t *testing.T, name string) int {
	n := 0
	for _, l := range readLines(t, name) {
		if len(l) > 0 {
			n++
		}
	}
	return n
}

func writeLines(t *testing.T, name string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(name, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

// editLines rewrites a file through f.
func editLines(t *testing.T, name string, f func([][]byte) [][]byte) {
	t.Helper()
	writeLines(t, name, f(readLines(t, name)))
}

// rehash recomputes the hash of a (modified) line the way an attacker
// without a key can, keeping its prev.
func rehash(t *testing.T, line []byte) []byte {
	t.Helper()
	canonical, _, err := splitLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := ParseLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := newHasher(AlgSHA256, nil)
	sum := h.appendHash(nil, r.Prev, canonical)
	out := append(canonical[:len(canonical)-1], hashSuffix...)
	out = append(out, sum...)
	return append(out, "\"}\n"...)
}

func TestVerifyDetectsTampering(t *testing.T) {
	// The generated log: 3 files of ~8 KiB; line numbers refer to the active file
	// unless the case says otherwise.
	tests := []struct {
		name     string
		mutate   func(t *testing.T, log string)
		wantFile string // base name of the file named in the error
		wantLine int    // with fromEnd, added to the file's line count
		fromEnd  bool
		wantText string
	}{
		{"modified record", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte {
				l[4] = bytes.Replace(l[4], []byte(`"decision":"allow"`), []byte(`"decision":"deny" `), 1)
				return l
			})
		}, "audit.jsonl", 5, false, "hash mismatch"},
		{"modified and rehashed record", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte {
				l[4] = rehash(t, bytes.Replace(l[4], []byte(`"pid":4421`), []byte(`"pid":1`), 1))
				return l
			})
		}, "audit.jsonl", 6, false, "prev of seq"},
		{"deleted record", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte { return append(l[:3:3], l[4:]...) })
		}, "audit.jsonl", 4, false, "record(s) removed"},
		{"inserted copy of a record", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte { return append(l[:4:4], l[3:]...) })
		}, "audit.jsonl", 5, false, "inserted, duplicated or reordered"},
		{"reordered records", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte { l[3], l[4] = l[4], l[3]; return l })
		}, "audit.jsonl", 4, false, "seq jumps"},
		{"truncated tail", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte { return l[:len(l)-4] })
		}, "audit.jsonl", 1, true, "truncated"},
		// A record the head anchor names, cut short: the head says it was
		// written whole, so this is a truncation, not a cut-short write.
		{"torn last line under the head anchor", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte {
				n := len(l) - 2 // l ends with an empty element after the last newline
				l[n] = l[n][:len(l[n])/2]
				return l
			})
		}, "audit.jsonl", 0, true, "truncated"},
		{"rewritten tail with a recomputed chain", func(t *testing.T, log string) {
			editLines(t, log, func(l [][]byte) [][]byte {
				n := len(l) - 2
				l[n] = rehash(t, bytes.Replace(l[n], []byte(`"exit_status":3`), []byte(`"exit_status":0`), 1))
				return l
			})
		}, "audit.jsonl", 0, true, "head anchor"},
		{"rotated file deleted", func(t *testing.T, log string) {
			if err := os.Remove(log + ".1"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(log+".2", log+".1"); err != nil {
				t.Fatal(err)
			}
		}, "audit.jsonl", 1, false, "rotation link broken"},
		{"rotated files swapped", func(t *testing.T, log string) {
			os.Rename(log+".1", log+".x")
			os.Rename(log+".2", log+".1")
			os.Rename(log+".x", log+".2")
		}, "audit.jsonl.1", 1, false, "rotation link broken"},
		{"file header removed", func(t *testing.T, log string) {
			editLines(t, log+".1", func(l [][]byte) [][]byte { return l[1:] })
		}, "audit.jsonl.1", 1, false, "does not start with a file_start"},
		{"log deleted", func(t *testing.T, log string) {
			for _, f := range []string{log, log + ".1", log + ".2"} {
				os.Remove(f)
			}
		}, "audit.jsonl", 0, false, "deleted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := genLog(t, Config{MaxSizeBytes: 16 << 10, MaxFiles: 3}, []string{"S1", "S2"}, 40)
			if _, err := VerifyLog(cfg.Path, nil); err != nil {
				t.Fatalf("clean log does not verify: %v", err)
			}
			tt.mutate(t, cfg.Path)
			_, err := VerifyLog(cfg.Path, nil)
			var ce *ChainError
			if !errors.As(err, &ce) || !errors.Is(err, ErrChainBroken) {
				t.Fatalf("VerifyLog after %s = %v, want a *ChainError", tt.name, err)
			}
			wantLine := tt.wantLine
			if tt.fromEnd {
				wantLine += lineCount(t, filepath.Join(filepath.Dir(cfg.Path), tt.wantFile))
			}
			if filepath.Base(ce.File) != tt.wantFile || ce.Line != wantLine || !strings.Contains(ce.Reason, tt.wantText) {
				t.Errorf("error = %v, want %s:%d: ...%s...", err, tt.wantFile, wantLine, tt.wantText)
			}
		})
	}
}
