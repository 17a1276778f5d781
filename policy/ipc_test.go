package policy

import (
	"strings"
	"testing"
)

func TestParseIPC(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    bool
		wantErr string
	}{
		{"absent: refused", "profile: p\n", false, ""},
		{"deny", "profile: p\nipc:\n  sysv: deny\n", false, ""},
		{"allow", "profile: p\nipc:\n  sysv: allow\n", true, ""},
		{"default allow does not reach ipc", "profile: p\ndefault: allow\n", false, ""},
		{"private is not a value (yet)", "profile: p\nipc:\n  sysv: private\n", false, "ipc.sysv"},
		{"unknown key", "profile: p\nipc:\n  posix: allow\n", false, "posix"},
	}
	for _, tt := range tests {
		p, err := Parse("t.yaml", []byte(tt.src))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err %v, want one naming %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := p.SysVAllowed(); got != tt.want {
			t.Errorf("%s: SysVAllowed %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMergeIPC(t *testing.T) {
	allow := IPC{SysV: Allow}
	deny := IPC{SysV: Deny}
	tests := []struct {
		name          string
		parent, child IPC
		want          Action
	}{
		{"child unset keeps parent", allow, IPC{}, Allow},
		{"child deny wins", allow, deny, Deny},
		{"child allow wins", deny, allow, Allow},
		{"both unset", IPC{}, IPC{}, ""},
	}
	for _, tt := range tests {
		if got := mergeIPC(tt.parent, tt.child).SysV; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestBuiltinProfilesRefuseSysV: no built-in profile opens the host's SysV
// objects.
func TestBuiltinProfilesRefuseSysV(t *testing.T) {
	for _, name := range ProfileNames() {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.SysVAllowed() {
			t.Errorf("profile %s allows ipc.sysv", name)
		}
	}
}

func TestCheckWarnsSysVAllow(t *testing.T) {
	p, err := Parse("t.yaml", []byte("profile: p\nextends: generic\nipc:\n  sysv: allow\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range checkIPC(p) {
		if f.Severity == SeverityWarning && strings.Contains(f.Message, "ipc.sysv: allow") {
			return
		}
	}
	t.Error("no warning for ipc.sysv: allow")
}
