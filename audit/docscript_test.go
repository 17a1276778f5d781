package audit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// docVerifier extracts the python3 verifier from docs/audit.md, exactly as
// published, into a temporary file.
func docVerifier(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := bytes.Cut(doc, []byte("<!-- verifier -->\n```python\n"))
	script, _, ok2 := bytes.Cut(after, []byte("\n```\n"))
	if !ok || !ok2 {
		t.Fatal("docs/audit.md has no verifier block after <!-- verifier -->")
	}
	name := filepath.Join(t.TempDir(), "verify.py")
	if err := os.WriteFile(name, append(script, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

func runPython(t *testing.T, script, keyFile string, files []string) (string, error) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the documented verifier cannot be run")
	}
	cmd := exec.Command(py, append([]string{script}, files...)...)
	cmd.Env = append(os.Environ(), "AUDIT_KEY_FILE="+keyFile)
	if keyFile == "" {
		cmd.Env = append(os.Environ(), "AUDIT_KEY_FILE=")
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestDocVerifierScript(t *testing.T) {
	script := docVerifier(t)
	keyFile := writeKey(t, testKeyHex)
	tests := []struct {
		name    string
		cfg     Config
		tamper  func(t *testing.T, files []string)
		wantOK  bool
		wantOut string
	}{
		{name: "clean rotated log", cfg: Config{MaxSizeBytes: 8 << 10}, wantOK: true},
		{name: "clean keyed log", cfg: Config{HMACKeyFile: keyFile}, wantOK: true},
		{name: "modified record", cfg: Config{MaxSizeBytes: 8 << 10}, tamper: func(t *testing.T, files []string) {
			editLines(t, files[0], func(l [][]byte) [][]byte {
				l[3] = bytes.Replace(l[3], []byte(`"pid":4421`), []byte(`"pid":4420`), 1)
				return l
			})
		}, wantOut: ":4: hash mismatch"},
		{name: "deleted record", cfg: Config{MaxSizeBytes: 8 << 10}, tamper: func(t *testing.T, files []string) {
			editLines(t, files[1], func(l [][]byte) [][]byte { return append(l[:5:5], l[6:]...) })
		}, wantOut: ":6: chain broken"},
		{name: "rotated file missing", cfg: Config{MaxSizeBytes: 8 << 10}, tamper: func(t *testing.T, files []string) {
			os.Remove(files[1])
		}, wantOut: ":1: chain broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := genLog(t, tt.cfg, []string{"S1", "S2"}, 40)
			files, err := Files(cfg.Path)
			if err != nil {
				t.Fatal(err)
			}
			key := ""
			if tt.cfg.HMACKeyFile != "" {
				key = keyFile
			}
			rep, err := VerifyLog(cfg.Path, keyOf(t, key))
			if err != nil {
				t.Fatal(err)
			}
			if tt.tamper != nil {
				tt.tamper(t, files)
				files, _ = Files(cfg.Path)
			}
			out, err := runPython(t, script, key, files)
			if tt.wantOK {
				want := fmt.Sprintf("ok: last seq %d, last hash %s", rep.LastSeq, rep.LastHash)
				if err != nil || strings.TrimSpace(out) != want {
					t.Errorf("script on a clean log: %v\n%s\nwant %q", err, out, want)
				}
				return
			}
			if err == nil || !strings.Contains(out, tt.wantOut) {
				t.Errorf("script on a tampered log: err %v, output\n%s\nwant failure with %q", err, out, tt.wantOut)
			}
		})
	}
}

func keyOf(t *testing.T, keyFile string) []byte {
	if keyFile == "" {
		return nil
	}
	return mustKey(t, keyFile)
}
