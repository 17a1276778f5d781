//go:build unix

package audit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriterNeverFollowsLinks (review R1b): a symbolic link planted at a
// name of the log's folder (the log, its head temporary) is never followed
// by the writer: the file it points to stays as it was, and a log replaced
// by a link makes the writer fail closed instead of writing through it.
func TestWriterNeverFollowsLinks(t *testing.T) {
	cases := []struct {
		name     string
		plant    string // name in the folder replaced by a link to victim
		wantFail bool
	}{
		{"head-tmp", "audit.jsonl.head.tmp", false},
		{"head", "audit.jsonl.head", false},
		{"log", "audit.jsonl", true},
		{"rotated", "audit.jsonl.1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victimrc")
			if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(dir, "audit.jsonl")
			w, err := Open(Config{Path: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteSync(testEvent("s1", 1)); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, tc.plant))
			if err := os.Symlink(victim, filepath.Join(dir, tc.plant)); err != nil {
				t.Fatal(err)
			}
			var failed error
			for i := 2; i < 10 && failed == nil; i++ {
				failed = w.WriteSync(testEvent("s1", i))
			}
			w.Write(testEvent("s1", 11))
			if err := w.Close(); failed == nil {
				failed = err
			}
			if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
				t.Errorf("the writer wrote through a link at %s: victim is now %q", tc.plant, got)
			}
			if tc.wantFail && failed == nil {
				t.Errorf("a log replaced by a link: the writer went on without an error")
			}
			if !tc.wantFail && failed != nil {
				t.Errorf("write: %v", failed)
			}
		})
	}
}
