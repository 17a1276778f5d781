package sbpl

import "testing"

// TestEvaluatorSemantics pins the SBPL rules the evaluator implements (and
// docs/macos.md states): last applicable rule wins, wildcard operations,
// alternatives within a rule, subpath by whole components.
func TestEvaluatorSemantics(t *testing.T) {
	const profile = `
(version 1)
(deny default (with message "tag"))
(allow file-read* (subpath "/a") (literal "/x/file"))
(deny file-read-data (regex #"^/a/secret(/.*)?$"))
(allow file-read-data (literal "/a/secret/public"))
(allow process-exec* (subpath "/bin"))
(deny process-exec* (require-not (regex #"/(sh|ls)$")))
(allow file-write* (require-all (subpath "/w") (require-not (literal "/w/ro"))))
(allow file-read* (require-any (literal "/r1") (literal "/r2")))
(allow mach-lookup (global-name "com.apple.x"))
`
	ev, err := NewEvaluator([]byte(profile))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op, path string
		want     bool
	}{
		{op: "file-read-data", path: "/a", want: true},
		{op: "file-read-data", path: "/a/b/c", want: true},
		{op: "file-read-data", path: "/ab", want: false}, // subpath is by component
		{op: "file-read-metadata", path: "/a/x", want: true},
		{op: "file-read-data", path: "/a/secret", want: false},        // a later deny wins
		{op: "file-read-metadata", path: "/a/secret", want: true},     // the deny names file-read-data only
		{op: "file-read-data", path: "/a/secret/public", want: true},  // and a later allow wins again
		{op: "file-read-data", path: "/a/secret/other", want: false},  //
		{op: "file-read-data", path: "/x/file", want: true},           // filters are alternatives
		{op: "file-read-data", path: "/x/file2", want: false},         //
		{op: "file-write-data", path: "/a/b", want: false},            // file-read* does not name writes
		{op: "process-exec", path: "/bin/sh", want: true},             //
		{op: "process-exec-interpreter", path: "/bin/sh", want: true}, // process-exec* names it
		{op: "process-exec", path: "/bin/curl", want: false},          // require-not
		{op: "file-write-data", path: "/w/x", want: true},             // require-all
		{op: "file-write-data", path: "/w/ro", want: false},           //
		{op: "file-read-data", path: "/r2", want: true},               // require-any
		{op: "file-read-data", path: "/r3", want: false},              //
		{op: "mach-lookup", path: "/anything", want: false},           // non-path filters never match a path
		{op: "network-outbound", path: "", want: false},               // default
	}
	for _, tt := range tests {
		if got := ev.Decide(tt.op, tt.path); got.Allow != tt.want {
			t.Errorf("%s %s = %v by %s, want %v", tt.op, tt.path, got.Allow, got.Rule, tt.want)
		}
	}
}

func TestEvaluatorRejects(t *testing.T) {
	tests := []string{
		`(version 2)`,
		`(allow)`,
		`(allow file-read* (literal))`,
		`(allow file-read* (regex #"["))`,
		`(define x 1)`,
		`(allow file-read* (literal "/a\n"))`,
		`(allow file-read* (literal "/a`,
		`(allow file-read* (subpath "/a")`,
		`)`,
	}
	for _, src := range tests {
		if _, err := NewEvaluator([]byte(src)); err == nil {
			t.Errorf("NewEvaluator(%q) accepted it", src)
		}
	}
}
