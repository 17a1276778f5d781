package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzSeeds are lines the parser must handle: real records and near misses.
var fuzzSeeds = []string{
	`{"type":"file_start","seq":1,"ts":"2026-04-20T10:00:00.001000Z","alg":"sha256","prev":"0000000000000000000000000000000000000000000000000000000000000000","hash":"f6fd57350ae9a0e3774e0b0ac68ba9b3b035b4760a05dd8c5a0ed40d2111a92e"}`,
	`{"type":"event","seq":3,"ts":"2026-04-20T10:00:00.000000Z","profile":"claude-code","pid":4421,"tid":4422,"session_id":"01HV2K0000000000000000000A","op":"exec","syscall":"execve","path":"/usr/bin/git","decision":"deny","rule":"deny:~/.ssh/id_*","rule_src":".aixgate.yaml:12","result":"ENOENT","latency_us":10,"agent_cmd":"claude","prev":"afcc19239679e566e0f5d5aa1dd4d2ad89bf43d92e48db22e551a34b67e12c94","hash":"13815ed5855df67dba939d335d8e320ae68dd9bd6f902ae5d1d07dfef514805d"}`,
	`{"type":"session_end","seq":6,"ts":"2026-11-30T02:48:58.663494Z","exit_status":3,"prev":"0247a1e5b55e1607f1c51348568951583d6692fac31e8d5cc0c42d7e4fb1cba4","hash":"63aef53c36fbec9dcea032dd8340b6ff5881a1b6d4ef989e12c70eec35fa0ba8"}`,
	`{"type":"gap","seq":9,"ts":"0000-01-01T00:00:00+01:00","dropped":18446744073709551615,"prev":"","hash":"63aef53c36fbec9dcea032dd8340b6ff5881a1b6d4ef989e12c70eec35fa0ba8"}`,
	`{"type":"event","hash":"0000000000000000000000000000000000000000000000000000000000000000","path":"\u2028\ud800\"x","hash":"0000000000000000000000000000000000000000000000000000000000000000"}`,
	`{"hash":"00"}`,
	"",
}

// FuzzAuditLine: the line parser never panics, and what it accepts encodes
// back to a line it accepts, identically on a second round.
func FuzzAuditLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, canonical, err := ParseLine(line)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(canonical, []byte("}")) || len(canonical) >= len(line) {
			t.Fatalf("canonical form %q of %q", canonical, line)
		}
		once := MarshalLine(&r)
		r2, _, err := ParseLine(once)
		if err != nil {
			t.Fatalf("re-encoded line %q does not parse: %v", once, err)
		}
		if twice := MarshalLine(&r2); !bytes.Equal(once, twice) {
			t.Fatalf("encoding is not stable:\n%q\n%q", once, twice)
		}
	})
}

// FuzzEncodeString: every string encodes to JSON that decodes to the same
// string (invalid UTF-8 bytes becoming U+FFFD), and nothing is HTML-escaped.
func FuzzEncodeString(f *testing.F) {
	for _, s := range []string{"", "/home/u/.env", "a\"b\\c\n\t\x00\x7f", "<&>", "\u2028\u2029", "\xff\xfe", "日本語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFieldBytes {
			return
		}
		enc := appendString(nil, s)
		var got string
		if err := json.Unmarshal(enc, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: not JSON: %v", s, enc, err)
		}
		if want := validUTF8(s); got != want {
			t.Fatalf("appendString(%q) decodes to %q, want %q", s, got, want)
		}
		if bytes.Contains(enc, []byte(`\u003c`)) {
			t.Fatalf("appendString(%q) escapes HTML", s)
		}
	})
}

// validUTF8 replaces every invalid byte with U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	var b []byte
	for _, r := range s {
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// TestFuzzCorpusIsCommitted makes sure the replayed corpus exists: go test
// replays testdata/fuzz/<target>/* through the targets above.
func TestFuzzCorpusIsCommitted(t *testing.T) {
	for _, target := range []string{"FuzzAuditLine", "FuzzEncodeString"} {
		entries, err := os.ReadDir(filepath.Join("testdata", "fuzz", target))
		if err != nil || len(entries) == 0 {
			t.Errorf("no committed corpus for %s: %v", target, err)
		}
	}
}

func TestAppendStringCutsLongFields(t *testing.T) {
	long := string(bytes.Repeat([]byte("é"), maxFieldBytes))
	var got string
	if err := json.Unmarshal(appendString(nil, long), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) > maxFieldBytes+len(cutMark)+65 || !utf8.ValidString(got) || !strings.Contains(got, cutMark) || !strings.HasSuffix(got, "]") {
		t.Errorf("cut field: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}

func TestAppendTSMatchesTimeFormat(t *testing.T) {
	tests := []time.Time{
		time.Date(2026, 4, 20, 10, 12, 33, 123456789, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("x", 3600)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for _, ts := range tests {
		if got, want := string(appendTS(nil, ts)), ts.UTC().Format(tsLayout); got != want {
			t.Errorf("appendTS(%v) = %s, want %s", ts, got, want)
		}
	}
}
