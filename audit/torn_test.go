package audit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestVerifyTornLine (review R7): a line cut short by a crash or a full
// disk is reported as torn, not as an edit, when it is the log's last line
// or the chain goes on intact around it; a bad line the chain does not
// continue across stays an error.
func TestVerifyTornLine(t *testing.T) {
	cases := []struct {
		name     string
		edit     func(lines [][]byte) [][]byte
		wantTorn int
		wantErr  bool
	}{
		{"torn tail", func(l [][]byte) [][]byte {
			return append(l, l[len(l)-1][:40])
		}, 1, false},
		{"closed fragment, chain intact", func(l [][]byte) [][]byte {
			out := append([][]byte{}, l[:5]...)
			out = append(out, l[5][:30])
			return append(out, l[5:]...)
		}, 1, false},
		{"fragment replacing a record", func(l [][]byte) [][]byte {
			out := append([][]byte{}, l[:5]...)
			out = append(out, l[5][:30])
			return append(out, l[6:]...)
		}, 0, true},
		{"two bad lines", func(l [][]byte) [][]byte {
			out := append([][]byte{}, l[:5]...)
			out = append(out, l[5][:30], l[5][:20])
			return append(out, l[5:]...)
		}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "audit.jsonl")
			w, err := Open(Config{Path: log})
			if err != nil {
				t.Fatal(err)
			}
			writeSession(w, "S", 10)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(log)
			lines := bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			for i := range lines {
				lines[i] = bytes.TrimSuffix(lines[i], []byte("\n"))
			}
			lines = c.edit(lines)
			out := bytes.Join(lines, []byte("\n"))
			if c.name != "torn tail" {
				out = append(out, '\n')
			}
			if err := os.WriteFile(log, out, 0o600); err != nil {
				t.Fatal(err)
			}
			rep, err := Verify([]string{log}, nil)
			if c.wantErr != (err != nil) || (err != nil && !errors.Is(err, ErrChainBroken)) {
				t.Fatalf("Verify: %v, want error %v", err, c.wantErr)
			}
			if len(rep.Torn) != c.wantTorn {
				t.Errorf("torn %v, want %d", rep.Torn, c.wantTorn)
			}
		})
	}
}
