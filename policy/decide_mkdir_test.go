package policy

import "testing"

// TestMkdirParentsOfWritable: an agent's first run creates the missing
// parents of its writable folder (~/.local for ~/.local/share/opencode/**),
// directories only, never files, and never a guarded or hidden place.
func TestMkdirParentsOfWritable(t *testing.T) {
	p, err := Parse("t.yaml", []byte(`profile: t
filesystem:
  allow_read: ['/home/u/proj/**']
  allow_write: ['~/.local/share/opencode/**', '${PROJECT}/**']
  read_only: ['${PROJECT}/.git/hooks/**']
  deny: ['~/.ssh/**']
`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Compile(p, Vars{Project: "/home/u/proj", Home: "/home/u", TmpDir: "/tmp", ConfigDir: "/home/u/.aixgate"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op   Op
		path string
		want Action
	}{
		{OpMkdir, "/home/u/.local", Allow},
		{OpMkdir, "/home/u/.local/share", Allow},
		{OpMkdir, "/home/u/.local/share/opencode", Allow},
		{OpMkdir, "/home/u/.local/share/opencode/x", Allow},
		{OpCreate, "/home/u/.local", Deny},       // a file there: no
		{OpCreate, "/home/u/.local/share", Deny}, // nor there
		{OpMkdir, "/home/u/.local/bin", Deny},    // a sibling of the path: no
		{OpMkdir, "/home/u/.ssh", Deny},
		{OpMkdir, "/home/u/proj/.git/hooks", Deny}, // guarded
		{OpMkdir, "/home/u/other", Deny},
	}
	for _, tt := range tests {
		if got := e.Decide(tt.op, tt.path); got.Action != tt.want {
			t.Errorf("Decide(%s, %s) = %s by %s, want %s", tt.op, tt.path, got.Action, got.Rule.ID(), tt.want)
		}
	}
}
