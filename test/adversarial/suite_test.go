package adversarial

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseCase(t *testing.T) {
	tests := []struct {
		name, file, text string
		kind             Kind
		want             Case
		wantErr          bool
	}{
		{name: "shell attack", file: "001-x.sh", kind: Attack,
			text: "#!/bin/bash\n# technique: read it\n# fast: yes\n# needs: dbus ssh-agent\n# known: F2\necho\n# fast: no\n",
			want: Case{Name: "001-x", Lang: "sh", Kind: Attack, Technique: "read it", Fast: true, Needs: []string{"dbus", "ssh-agent"}, Known: "F2", Timeout: 30 * time.Second}},
		{name: "c attack", file: "002-y.c", kind: Attack,
			text: "// technique: raw\n// build: static\n// timeout: 60\n#include <x.h>\n",
			want: Case{Name: "002-y", Lang: "c", Kind: Attack, Technique: "raw", Static: true, Timeout: 60 * time.Second}},
		{name: "legit", file: "003-z.py", kind: Legit,
			text: "# operation: edit\n# want: ok\n# requires: python3 git\n",
			want: Case{Name: "003-z", Lang: "py", Kind: Legit, Technique: "edit", Want: "ok", Requires: []string{"python3", "git"}, Timeout: 30 * time.Second}},
		{name: "no technique", file: "004-a.sh", kind: Attack, text: "echo\n", wantErr: true},
		{name: "legit without want", file: "005-b.sh", kind: Legit, text: "# operation: x\n", wantErr: true},
		{name: "bad timeout", file: "006-c.sh", kind: Attack, text: "# technique: x\n# timeout: -1\n", wantErr: true},
		{name: "unknown language", file: "007-d.rb", kind: Attack, text: "# technique: x\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := parseCase(p, tt.kind)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			tt.want.File = p
			if got.Name != tt.want.Name || got.Lang != tt.want.Lang || got.Technique != tt.want.Technique || got.Want != tt.want.Want ||
				got.Fast != tt.want.Fast || got.Static != tt.want.Static || got.Known != tt.want.Known || got.Timeout != tt.want.Timeout ||
				len(got.Needs) != len(tt.want.Needs) || len(got.Requires) != len(tt.want.Requires) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestSuiteShape checks the suite itself: enough attacks, every header
// parses, names are unique and numbered.
func TestSuiteShape(t *testing.T) {
	attacks, err := Load(".", Attack)
	if err != nil {
		t.Fatal(err)
	}
	legit, err := Load(".", Legit)
	if err != nil {
		t.Fatal(err)
	}
	if len(attacks) < 40 {
		t.Errorf("%d attacks, want at least 40", len(attacks))
	}
	if len(legit) < 10 {
		t.Errorf("%d legitimate operations, want at least 10", len(legit))
	}
	seen := map[string]bool{}
	for _, c := range append(attacks, legit...) {
		num := c.Name[:3]
		if seen[string(c.Kind)+num] {
			t.Errorf("%s/%s: number %s used twice", c.Kind, c.Name, num)
		}
		seen[string(c.Kind)+num] = true
	}
}
