package doctor

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeProbe() // the re-executed probe child of TestProbe
	os.Exit(m.Run())
}

// TestProbe runs the real probe in a re-executed child. On a kernel that
// should have a feature, a missing one is a failure, not a skip.
func TestProbe(t *testing.T) {
	p, err := reexecProbe()
	if err != nil {
		t.Fatal(err)
	}
	major, minor := parseRelease(strings.TrimSpace(readFile(t, "/proc/sys/kernel/osrelease")))
	at := func(ma, mi int) bool { return major > ma || major == ma && minor >= mi }
	if statusField(readFile(t, "/proc/self/status"), "Seccomp:") != "0" {
		t.Skip("the tests already run under a seccomp filter")
	}
	tests := []struct {
		name      string
		got, want bool
	}{
		{"listener", p.Listener, at(5, 0)},
		{"ADDFD_FLAG_SEND", p.AddFDSend, at(5, 14)},
		{"WAIT_KILLABLE_RECV", p.WaitKillable, at(5, 19)},
		{"FD_SYNC_WAKE_UP", p.SyncWakeUp, at(6, 6)},
		{"not nested", !p.Nested, true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: probed %v, want %v on Linux %d.%d (%+v)", tt.name, tt.got, tt.want, major, minor, p)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestKernelCheck(t *testing.T) {
	tests := []struct {
		release string
		want    Level
	}{
		{"6.18.44-fc-v782", OK},
		{"5.19.0", OK},
		{"5.15.0-91-generic", Fail},
		{"4.19.0", Fail},
		{"garbage", Warn},
	}
	for _, tt := range tests {
		if got := kernelCheck(tt.release); got.Level != tt.want {
			t.Errorf("kernelCheck(%q) = %s (%s), want %s", tt.release, got.Level, got.Detail, tt.want)
		}
	}
}

func TestLandlockCheck(t *testing.T) {
	tests := []struct {
		abi      int
		want     Level
		wantText string
	}{
		{7, OK, "signal and abstract-socket scoping"},
		{6, OK, "ABI 6"},
		{5, Fail, "no signal or abstract-socket scoping"},
		{4, Fail, "IOCTL_DEV"},
		{0, Fail, "no backstop at all"},
	}
	for _, tt := range tests {
		got := landlockCheck(tt.abi)
		if got.Level != tt.want || !strings.Contains(got.Detail, tt.wantText) {
			t.Errorf("landlockCheck(%d) = %s %q, want %s containing %q", tt.abi, got.Level, got.Detail, tt.want, tt.wantText)
		}
		if got.Level == Fail && got.Remedy == "" {
			t.Errorf("landlockCheck(%d) fails without a remedy", tt.abi)
		}
	}
}

func TestFilteredCheck(t *testing.T) {
	tests := []struct {
		name, status string
		probe        ProbeResult
		want         Level
	}{
		{"free", "Seccomp:\t0\nSeccomp_filters:\t0\n", ProbeResult{Listener: true}, OK},
		{"container filter", "Seccomp:\t2\nSeccomp_filters:\t1\n", ProbeResult{Listener: true}, Info},
		{"nested listener", "Seccomp:\t2\nSeccomp_filters:\t1\n", ProbeResult{Nested: true}, Fail},
	}
	for _, tt := range tests {
		if got := filteredCheck(tt.status, tt.probe); got.Level != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, got.Level, got.Detail, tt.want)
		}
	}
}

func TestLinuxWithFakes(t *testing.T) {
	tests := []struct {
		name         string
		probe        ProbeResult
		interposer   error
		abi          int
		wantBlocking bool
		wantLine     string
	}{
		{"all good", ProbeResult{Listener: true, WaitKillable: true, AddFDSend: true, SyncWakeUp: true}, nil, 7, false, "✓ interposer"},
		{"no sync wake-up only warns", ProbeResult{Listener: true, WaitKillable: true, AddFDSend: true}, nil, 7, false, "! SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP"},
		{"no ADDFD_SEND blocks", ProbeResult{Listener: true, WaitKillable: true, SyncWakeUp: true}, nil, 7, true, "✗ SECCOMP_ADDFD_FLAG_SEND"},
		{"nested blocks", ProbeResult{Nested: true, Error: "device or resource busy"}, nil, 7, true, "✗ outer sandbox"},
		{"interposer not built is informational", ProbeResult{Listener: true, WaitKillable: true, AddFDSend: true, SyncWakeUp: true}, ErrNotBuilt, 7, false, "· interposer: not built"},
		{"interposer broken warns", ProbeResult{Listener: true, WaitKillable: true, AddFDSend: true, SyncWakeUp: true}, errors.New("bad ELF"), 7, false, "! interposer"},
		{"old landlock blocks", ProbeResult{Listener: true, WaitKillable: true, AddFDSend: true, SyncWakeUp: true}, nil, 4, true, "✗ Landlock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks := Linux(Env{
				AuditPath:   t.TempDir() + "/audit/audit.jsonl",
				Interposer:  func() error { return tt.interposer },
				Probe:       func() (ProbeResult, error) { return tt.probe, nil },
				Kernel:      "6.18.0",
				LandlockABI: func() int { return tt.abi },
				Status:      "Seccomp:\t0\nSeccomp_filters:\t0\n",
			})
			if got := Blocking(checks); got != tt.wantBlocking {
				t.Errorf("Blocking = %v, want %v", got, tt.wantBlocking)
			}
			var b strings.Builder
			Print(&b, checks)
			if !strings.Contains(b.String(), tt.wantLine) {
				t.Errorf("output has no %q:\n%s", tt.wantLine, b.String())
			}
		})
	}
}

func TestAuditCheckUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := auditCheck(file + "/sub/audit.jsonl"); got.Level != Fail || got.Remedy == "" {
		t.Errorf("auditCheck under a regular file = %+v, want a failure with a remedy", got)
	}
}

func TestCleanupCheck(t *testing.T) {
	tests := []struct {
		name   string
		cgroup bool
		detail string
		want   Level
	}{
		{"cgroup", true, "cgroup v2 (cgroup.kill) at /sys/fs/cgroup/user.slice", OK},
		{"tree walk", false, "subreaper tree walk (no writable cgroup v2: permission denied)", Info},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cleanupCheck(func() (bool, string) { return tt.cgroup, tt.detail })
			if c.Level != tt.want || c.Detail != tt.detail || c.Name != "process cleanup" {
				t.Errorf("cleanupCheck = %+v, want level %s and the detail", c, tt.want)
			}
		})
	}
}
