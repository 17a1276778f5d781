package macos

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"reflect"
	"testing"
)

func TestParseCSRUtilStatus(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    SIP
		wantErr bool
	}{
		{name: "enabled", out: "System Integrity Protection status: enabled.\n",
			want: SIP{Status: "enabled", Parts: map[string]bool{}}},
		{name: "disabled", out: "System Integrity Protection status: disabled.\n",
			want: SIP{Status: "disabled", Parts: map[string]bool{}}},
		{
			name: "custom",
			out: "System Integrity Protection status: unknown (Custom Configuration).\n\nConfiguration:\n" +
				"\tApple Internal: disabled\n\tKext Signing: enabled\n\tFilesystem Protections: enabled\n" +
				"\tDebugging Restrictions: disabled\n\tDTrace Restrictions: enabled\n\tNVRAM Protections: enabled\n" +
				"\tBaseSystem Verification: enabled\n\nThis is an unsupported configuration, likely to break in the future and leave your machine in an unknown state.\n",
			want: SIP{Status: "unknown", Custom: true, Parts: map[string]bool{
				"Apple Internal": false, "Kext Signing": true, "Filesystem Protections": true, "Debugging Restrictions": false,
				"DTrace Restrictions": true, "NVRAM Protections": true, "BaseSystem Verification": true,
			}},
		},
		{name: "enabled, custom", out: "System Integrity Protection status: enabled (Custom Configuration).\n",
			want: SIP{Status: "enabled", Custom: true, Parts: map[string]bool{}}},
		{name: "no status line", out: "csrutil: command not found\n", wantErr: true},
		{name: "odd status", out: "System Integrity Protection status: sideways.\n", wantErr: true},
		{name: "empty", out: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCSRUtilStatus(tt.out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseCSRUtilStatus = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestChecks(t *testing.T) {
	present := func(string) error { return nil }
	missing := func(p string) error { return &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist} }
	sip := func(out string) func(string, ...string) (string, error) {
		return func(string, ...string) (string, error) { return out, nil }
	}
	tests := []struct {
		name string
		h    host
		want []Level // sandbox-exec, [profile,] SIP, interposer, log
	}{
		{name: "healthy, SIP on, no interposer", h: host{executable: present, run: sip("System Integrity Protection status: enabled.")},
			want: []Level{OK, OK, Warn, OK}},
		{name: "profile probe", h: host{executable: present, run: sip("System Integrity Protection status: enabled."), probe: func() error { return nil }},
			want: []Level{OK, OK, OK, Warn, OK}},
		{name: "profile refused", h: host{executable: present, run: sip("System Integrity Protection status: enabled."), probe: func() error { return errors.New("syntax error") }},
			want: []Level{OK, Fail, OK, Warn, OK}},
		{name: "no sandbox-exec", h: host{executable: missing, run: sip("System Integrity Protection status: disabled.")},
			want: []Level{Fail, Warn, Warn, Warn}},
		{name: "interposer present", h: host{executable: present, run: sip("garbage"), interposer: "/opt/aixbroker/libaixgate.dylib"},
			want: []Level{OK, Warn, OK, OK}},
		{name: "csrutil fails", h: host{executable: present, run: func(string, ...string) (string, error) { return "", errors.New("exit 1") }},
			want: []Level{OK, Warn, Warn, OK}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checks(tt.h)
			var levels []Level
			for _, c := range got {
				levels = append(levels, c.Level)
				if c.Name == "" || c.Detail == "" {
					t.Errorf("check without name or detail: %+v", c)
				}
			}
			if !reflect.DeepEqual(levels, tt.want) {
				t.Errorf("levels = %v, want %v (%+v)", levels, tt.want, got)
			}
		})
	}
}

// TestBuildsForDarwin: the macOS backend and the binary cross-compile for
// both Mac architectures (CGO_ENABLED=0, as shipped).
func TestBuildsForDarwin(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the binary twice")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go toolchain on PATH: %v", err)
	}
	for _, arch := range []string{"arm64", "amd64"} {
		cmd := exec.Command(goBin, "build", "-o", os.DevNull, "../cmd/aixbroker")
		cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=darwin GOARCH=%s go build ./cmd/aixbroker: %v\n%s", arch, err, out)
		}
	}
}
