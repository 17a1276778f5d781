package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/audit"
)

// auditTestLog writes a log of two sessions into a fresh config dir and
// points AIXGATE_CONFIG_DIR at it.
func auditTestLog(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("AIXGATE_CONFIG_DIR", dir)
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := audit.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := audit.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"01HV2K000000000000000000S1", "01HV2K000000000000000000S2"} {
		w.Write(audit.Record{Type: audit.TypeSessionStart, SessionID: s, Profile: "claude-code", Cmd: []string{"claude"}, AgentCmd: "claude"})
		for i := range 10 {
			r := audit.Record{Type: audit.TypeEvent, SessionID: s, Profile: "claude-code", Op: "read",
				Path: fmt.Sprintf("/home/u/p/f%d.go", i), Decision: "allow", AgentCmd: "claude"}
			if i%4 == 0 {
				r.Path, r.Decision = "/home/u/.ssh/id_rsa", "deny"
			}
			w.Write(r)
		}
		w.Write(audit.Record{Type: audit.TypeSessionEnd, SessionID: s, Profile: "claude-code", ExitStatus: 0})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return cfg.Path
}

func runAudit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"audit"}, args...))
	err = root.Execute()
	return out.String(), errb.String(), err
}

func TestAuditCommands(t *testing.T) {
	auditTestLog(t, "")
	tests := []struct {
		args      []string
		wantLines int
		wantText  string
	}{
		{[]string{"query", "--denied-only", "--json"}, 6, `"decision":"deny"`},
		{[]string{"query", "--path", "**/.ssh/*"}, 6, "id_rsa"},
		{[]string{"query", "--session-id", "01HV2K000000000000000000S2", "--op", "read", "--decision", "allow"}, 7, "/home/u/p/f1.go"},
		{[]string{"query", "--since", "1h", "--type-ignored-by-default-is-not-a-flag"}, -1, ""},
		{[]string{"tail", "-n", "3"}, 3, "session 01HV2K000000000000000000S2 exit status 0"},
		{[]string{"tail", "--session", "01HV2K000000000000000000S1", "-n", "100"}, 12, "start"},
		{[]string{"sessions"}, 2, "events 10  denied 3"},
		{[]string{"stats", "--session-id", "01HV2K000000000000000000S1"}, -1, "10 events in 1 session(s)"},
		{[]string{"verify"}, 2, "ok: 1 file(s), 25 records"},
		{[]string{"verify", "--json"}, 1, `"ok":true`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, err := runAudit(t, tt.args...)
			if tt.wantText == "" {
				if err == nil {
					t.Fatalf("audit %v succeeded, want a flag error", tt.args)
				}
				return
			}
			if err != nil {
				t.Fatalf("audit %v: %v", tt.args, err)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if tt.wantLines >= 0 && len(lines) != tt.wantLines || !strings.Contains(out, tt.wantText) {
				t.Errorf("audit %v printed %d lines:\n%s\nwant %d lines containing %q", tt.args, len(lines), out, tt.wantLines, tt.wantText)
			}
		})
	}
}

func TestAuditVerifyTamperedExitsOne(t *testing.T) {
	log := auditTestLog(t, "")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"decision":"deny"`), []byte(`"decision":"allo"`), 1)
	if err := os.WriteFile(log, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runAudit(t, "verify")
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("verify of a modified log = %v, want exit status 1", err)
	}
	if !strings.Contains(stderr, "audit.jsonl:3: hash mismatch") {
		t.Errorf("stderr = %q, want the first bad line named", stderr)
	}
}

func TestAuditKeyedLog(t *testing.T) {
	keyDir := t.TempDir()
	key := filepath.Join(keyDir, "audit.key")
	if err := os.WriteFile(key, []byte(strings.Repeat("ab", 32)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	auditTestLog(t, "audit:\n  hmac_key_file: "+key+"\n")
	out, _, err := runAudit(t, "verify")
	if err != nil || !strings.Contains(out, "hmac-sha256 chain") {
		t.Fatalf("verify with the configured key = %q, %v", out, err)
	}
	other := filepath.Join(keyDir, "other.key")
	if err := os.WriteFile(other, []byte(strings.Repeat("cd", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runAudit(t, "verify", "--key-file", other)
	if !errors.As(err, new(exitError)) || strings.Contains(stderr, "cdcd") {
		t.Errorf("verify with another key = %v, stderr %q; want exit 1 and no key in the output", err, stderr)
	}
}

func TestAuditNoLogSaysWhatToDo(t *testing.T) {
	t.Setenv("AIXGATE_CONFIG_DIR", t.TempDir())
	for _, sub := range []string{"query", "tail", "sessions", "stats", "verify"} {
		_, _, err := runAudit(t, sub)
		if err == nil || !strings.Contains(err.Error(), "aixbroker exec -- CMD") {
			t.Errorf("audit %s without a log = %v, want advice to run aixbroker exec", sub, err)
		}
	}
}

func TestAuditQueryExpandsHome(t *testing.T) {
	auditTestLog(t, "")
	t.Setenv("HOME", "/home/u")
	out, _, err := runAudit(t, "query", "--path", "~/.ssh/id_*", "--json")
	if err != nil || strings.Count(out, "\n") != 6 {
		t.Errorf("query --path ~/.ssh/id_* = %v\n%s\nwant the 6 denied reads", err, out)
	}
}
