package notify

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// TestSessionPTYForgottenWhenFreed: a pty the session allocated is its
// own while it lives; once freed, a new pty that reuses its number (the
// user's next terminal window) is not.
func TestSessionPTYForgottenWhenFreed(t *testing.T) {
	m, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no /dev/ptmx: %v", err)
	}
	var tt sessionTTYs
	tt.addPTY(m)
	if len(tt.ptys) != 1 {
		unix.Close(m)
		t.Fatalf("addPTY recorded %d ptys, want 1", len(tt.ptys))
	}
	k := tt.ptys[0]
	if !isPTS(k.rdev) {
		t.Errorf("recorded rdev %d:%d is not a pty slave", unix.Major(k.rdev), unix.Minor(k.rdev))
	}
	if !tt.has(k.dev, k.rdev) {
		t.Error("live pty not the session's")
	}
	if tt.has(k.dev+1, k.rdev) {
		t.Error("same number on another devpts instance taken as the session's")
	}
	unix.Close(m)
	if tt.has(k.dev, k.rdev) {
		t.Error("freed pty still the session's")
	}
	if len(tt.ptys) != 0 {
		t.Errorf("%d ptys left after sweep, want 0", len(tt.ptys))
	}
}

func TestCallerTTY(t *testing.T) {
	got, err := callerTTY(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if unix.Fstat(0, &st) == nil && isTerminal(st.Rdev) && got == 0 {
		t.Errorf("stdin is a terminal, callerTTY says none")
	}
	if _, err := callerTTY(1 << 30); err == nil {
		t.Error("callerTTY of a missing thread succeeded")
	}
}

func TestDeviceClasses(t *testing.T) {
	tests := []struct {
		name       string
		rdev       uint64
		pts, term  bool
		plainNamed string
	}{
		{"null", unix.Mkdev(1, 3), false, false, "null"},
		{"urandom", unix.Mkdev(1, 9), false, false, "urandom"},
		{"mem", unix.Mkdev(1, 1), false, false, ""},
		{"kmsg", unix.Mkdev(1, 11), false, false, ""},
		{"pts 0", unix.Mkdev(136, 0), true, true, ""},
		{"pts 300", unix.Mkdev(137, 44), true, true, ""},
		{"tty1", unix.Mkdev(4, 1), false, true, ""},
		{"console", unix.Mkdev(5, 1), false, true, ""},
		{"tty", rdevTTY, false, false, ""},
		{"ptmx", rdevPTMX, false, false, ""},
		{"ttyUSB0", unix.Mkdev(188, 0), false, false, ""},
	}
	for _, tt := range tests {
		if got := isPTS(tt.rdev); got != tt.pts {
			t.Errorf("%s: isPTS = %v, want %v", tt.name, got, tt.pts)
		}
		if got := isTerminal(tt.rdev); got != tt.term {
			t.Errorf("%s: isTerminal = %v, want %v", tt.name, got, tt.term)
		}
		if got := plainDevices[tt.rdev]; got != tt.plainNamed {
			t.Errorf("%s: plain = %q, want %q", tt.name, got, tt.plainNamed)
		}
	}
}

func TestLiteralRule(t *testing.T) {
	allow := func(glob string) policy.Decision {
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_write", Glob: glob}}
	}
	tests := []struct {
		name string
		d    policy.Decision
		path string
		want bool
	}{
		{"literal", allow("/dev/ttyUSB0"), "/dev/ttyUSB0", true},
		{"glob", allow("/dev/**"), "/dev/ttyUSB0", false},
		{"class", allow("/dev/ttyUSB[0]"), "/dev/ttyUSB0", false},
		{"another path", allow("/dev/ttyUSB1"), "/dev/ttyUSB0", false},
		{"a literal deny", policy.Decision{Action: policy.Deny, Rule: policy.Rule{Glob: "/dev/sda"}}, "/dev/sda", false},
	}
	for _, tt := range tests {
		if got := literalRule(tt.d, tt.path); got != tt.want {
			t.Errorf("%s: literalRule = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestStripSetid(t *testing.T) {
	tests := []struct {
		mode uint32
		dir  bool
		want uint32
	}{
		{0o4755, false, 0o755},
		{0o2755, false, 0o755},
		{0o6755, false, 0o755},
		{0o7755, false, 0o1755},
		{0o2775, true, 0o2775},
		{0o4775, true, 0o775},
		{0o755, false, 0o755},
		{unix.S_IFREG | 0o4755, false, unix.S_IFREG | 0o755},
	}
	for _, tt := range tests {
		if got := stripSetid(tt.mode, tt.dir); got != tt.want {
			t.Errorf("stripSetid(%#o, dir %v) = %#o, want %#o", tt.mode, tt.dir, got, tt.want)
		}
	}
}

// TestKeptCaps: every kept capability says why, none twice, and the
// machine-administration ones issue 14 names are not kept.
func TestKeptCaps(t *testing.T) {
	seen := map[int]bool{}
	for _, k := range keptCaps {
		if k.reason == "" || k.name == "" {
			t.Errorf("capability %d: no name or reason", k.cap)
		}
		if seen[k.cap] {
			t.Errorf("capability %s kept twice", k.name)
		}
		seen[k.cap] = true
	}
	for _, c := range []int{unix.CAP_SYS_TIME, unix.CAP_SYS_RAWIO, unix.CAP_NET_ADMIN, unix.CAP_NET_RAW, unix.CAP_SYS_ADMIN,
		unix.CAP_SYS_BOOT, unix.CAP_SYS_MODULE, unix.CAP_SYSLOG, unix.CAP_SYS_TTY_CONFIG, unix.CAP_SYS_RESOURCE,
		unix.CAP_LINUX_IMMUTABLE, unix.CAP_SETFCAP, unix.CAP_MKNOD, unix.CAP_BPF, unix.CAP_PERFMON, unix.CAP_SYS_PTRACE,
		unix.CAP_SYS_PACCT, unix.CAP_SYS_NICE, unix.CAP_MAC_ADMIN, unix.CAP_MAC_OVERRIDE, unix.CAP_AUDIT_CONTROL,
		unix.CAP_AUDIT_WRITE, unix.CAP_WAKE_ALARM, unix.CAP_BLOCK_SUSPEND, unix.CAP_CHECKPOINT_RESTORE,
		unix.CAP_IPC_LOCK, unix.CAP_IPC_OWNER, unix.CAP_LEASE, unix.CAP_FSETID, unix.CAP_SETPCAP} {
		if keptMask()&(1<<uint(c)) != 0 {
			t.Errorf("capability %d is kept, want dropped", c)
		}
	}
}
