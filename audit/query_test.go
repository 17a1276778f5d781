package audit

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFilter(t *testing.T) {
	base := time.Date(2026, 4, 20, 10, 0, 0, 0, time.UTC)
	deny := Record{Type: TypeEvent, TS: base, SessionID: "A", Profile: "claude-code", Op: "read", Path: "/home/u/p/.env.local", Decision: "deny"}
	allow := Record{Type: TypeEvent, TS: base, SessionID: "B", Profile: "codex", Op: "exec", Path: "/usr/bin/git", Decision: "allow"}
	start := Record{Type: TypeSessionStart, TS: base, SessionID: "A", Profile: "claude-code"}
	gap := Record{Type: TypeGap, TS: base, Dropped: 3}
	header := Record{Type: TypeFileStart, TS: base}
	tests := []struct {
		name   string
		filter Filter
		rec    Record
		want   bool
	}{
		{"zero filter shows events", Filter{}, allow, true},
		{"zero filter hides headers", Filter{}, header, false},
		{"type selects headers", Filter{Type: TypeFileStart}, header, true},
		{"denied only", Filter{DeniedOnly: true}, deny, true},
		{"denied only drops allow", Filter{DeniedOnly: true}, allow, false},
		{"denied only drops session records", Filter{DeniedOnly: true}, start, false},
		{"event filters keep gaps", Filter{DeniedOnly: true}, gap, true},
		{"path glob", Filter{Path: "**/.env*"}, deny, true},
		{"relative glob at any depth", Filter{Path: ".env*"}, deny, true},
		{"absolute glob", Filter{Path: "/usr/bin/*"}, allow, true},
		{"path glob miss", Filter{Path: "**/.env*"}, allow, false},
		{"session", Filter{SessionID: "A"}, start, true},
		{"session miss", Filter{SessionID: "A"}, allow, false},
		{"op", Filter{Op: "exec"}, allow, true},
		{"op miss", Filter{Op: "exec"}, deny, false},
		{"decision", Filter{Decision: "allow"}, allow, true},
		{"profile", Filter{Profile: "codex"}, deny, false},
		{"since", Filter{Since: base.Add(time.Second)}, deny, false},
		{"until inclusive", Filter{Until: base}, deny, true},
		{"until", Filter{Until: base.Add(-time.Second)}, deny, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.Match(&tt.rec); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{"24h", now.Add(-24 * time.Hour), false},
		{"90m", now.Add(-90 * time.Minute), false},
		{"7d", now.Add(-7 * 24 * time.Hour), false},
		{"2026-04-19", time.Date(2026, 4, 19, 0, 0, 0, 0, time.UTC), false},
		{"2026-04-19T08:30:00Z", time.Date(2026, 4, 19, 8, 30, 0, 0, time.UTC), false},
		{"yesterday", time.Time{}, true},
		{"-5h", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in, now)
		if (err != nil) != tt.wantErr || !got.Equal(tt.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestSessionsAndStats(t *testing.T) {
	cfg := genLog(t, Config{MaxSizeBytes: 16 << 10}, []string{"S1", "S2"}, 50)
	files, err := Files(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := Sessions(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 2 {
		t.Fatalf("sessions = %+v, want 2", sessions)
	}
	s := sessions[0]
	// Events 0..49: i%5==0 are denied (10 of them).
	if s.ID != "S1" || s.Events != 50 || s.Denied != 10 || !s.Ended || s.ExitStatus != 3 || s.Cwd != "/home/u/project" {
		t.Errorf("session = %+v", s)
	}
	sum, err := Stats(files, Filter{SessionID: "S2"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// i%7==0 are exec (8 of 50: 0,7,...,49), of which 0 and 35 are also denied.
	if sum.Events != 50 || sum.ByOp["exec"]["deny"] != 2 || sum.ByOp["read"]["allow"] != 34 {
		t.Errorf("summary = %+v", sum)
	}
	if len(sum.TopDenied) != 2 || sum.TopDenied[0] != (PathCount{"/home/u/.ssh/id_rsa", 8}) {
		t.Errorf("top denied = %+v", sum.TopDenied)
	}
}

func TestTailLastAndFollow(t *testing.T) {
	cfg := Config{Path: filepath.Join(t.TempDir(), "audit.jsonl"), MaxSizeBytes: 4 << 10, MaxFiles: 100, FlushInterval: time.Millisecond}
	genLog(t, cfg, []string{"OLD"}, 30)

	var got []Record
	collect := func(r Record) error { got = append(got, r); return nil }
	if err := Tail(context.Background(), cfg.Path, TailOptions{Lines: 5, Filter: Filter{Op: "read"}}, collect); err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[4].Path != "/home/u/project/file29.go" {
		t.Fatalf("tail = %+v, want the last 5 reads", got)
	}

	// Follow while another writer appends across rotations; stop once all
	// records of the new session have been seen.
	got = got[:0]
	done := make(chan error, 1)
	go func() {
		done <- Tail(context.Background(), cfg.Path, TailOptions{Lines: 1000, Follow: true, Poll: time.Millisecond, Filter: Filter{SessionID: "NEW"}},
			func(r Record) error {
				got = append(got, r)
				if r.Type == TypeSessionEnd {
					return io.EOF
				}
				return nil
			})
	}()
	w, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeSession(w, "NEW", 100)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 102 || got[0].Type != TypeSessionStart {
		t.Errorf("followed %d records (first %+v), want 102 from session start", len(got), got[0])
	}
}

func TestFormatEscapesControlCharacters(t *testing.T) {
	r := Record{Type: TypeEvent, Op: "read", Decision: "deny", Path: "/tmp/\x1b[2Jevil\n"}
	for _, color := range []bool{false, true} {
		out := Format(&r, color)
		if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\n") {
			t.Errorf("Format(color=%v) = %q passes control characters through", color, out)
		}
	}
	if out := Format(&r, false); strings.Contains(out, "\x1b") {
		t.Errorf("Format without colour = %q has escapes", out)
	}
}

// TestTailReadsOnlyTheEnd: tail of a large file returns the same records as
// a full scan (the windowed search must not lose or split lines).
func TestTailReadsOnlyTheEnd(t *testing.T) {
	cfg := genLog(t, Config{}, []string{"S1", "S2", "S3"}, 2000) // about 3 MB, one file
	files, _ := Files(cfg.Path)
	tests := []struct {
		name   string
		lines  int
		filter Filter
	}{
		{"last 20", 20, Filter{}},
		{"selective filter", 5, Filter{SessionID: "S1", DeniedOnly: true}},
		{"more than there are", 100000, Filter{Op: "exec"}},
		{"none", 0, Filter{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []Record
			for e, err := range Query(files, tt.filter) {
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, e.Record)
			}
			if len(want) > tt.lines {
				want = want[len(want)-tt.lines:]
			}
			var got []Record
			err := Tail(context.Background(), cfg.Path, TailOptions{Lines: tt.lines, Filter: tt.filter}, func(r Record) error {
				got = append(got, r)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || len(got) > 0 && (got[0].Seq != want[0].Seq || got[len(got)-1].Seq != want[len(want)-1].Seq) {
				t.Errorf("tail returned %d records, want %d (same first and last seq)", len(got), len(want))
			}
		})
	}
}
