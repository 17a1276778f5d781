package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStage2DropsCapabilities: a root agent keeps only keptCaps, in every
// set, and the machine-wide calls they guarded fail; an unprivileged one
// has none.
func TestStage2DropsCapabilities(t *testing.T) {
	s := newSandbox(t)
	res := s.run(t, "/bin/sh", "-c", "grep ^Cap /proc/self/status; hostname \"$(hostname)\" && echo HOSTNAME-SET")
	caps := map[string]uint64{}
	for _, line := range strings.Split(res.stdout, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		if err != nil {
			t.Fatalf("parse %q: %v", line, err)
		}
		caps[k] = n
	}
	want := keptMask()
	if os.Geteuid() != 0 {
		want = 0
	}
	for _, k := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb"} {
		if caps[k]&^want != 0 {
			t.Errorf("%s = %#x, want within %#x", k, caps[k], want)
		}
	}
	if os.Geteuid() == 0 && caps["CapBnd"] != want {
		t.Errorf("CapBnd = %#x, want %#x", caps["CapBnd"], want)
	}
	if strings.Contains(res.stdout, "HOSTNAME-SET") {
		t.Error("sethostname succeeded in the sandbox")
	}
}

// TestBrokerRefusesDevicesAndSetid: a device node in the project (left
// there before the session) is refused by its number, the caller's own
// pty is not, and no mode the broker applies keeps a set-user-ID bit.
func TestBrokerRefusesDevicesAndSetid(t *testing.T) {
	s := newSandbox(t)
	node := filepath.Join(s.project, "kmsg")
	haveNode := os.Geteuid() == 0 && unix.Mknod(node, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 11))) == nil
	m, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no /dev/ptmx: %v", err)
	}
	defer unix.Close(m)
	if err := unix.IoctlSetPointerInt(m, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(m, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`
true < /dev/pts/%d && echo FOREIGN-OPENED
[ -e kmsg ] && { true < kmsg && echo NODE-OPENED; }
true > /dev/null && echo NULL-OK
touch f && chmod 4755 f && stat -c %%a f
mkdir d && chmod 2755 d && stat -c %%a d
`, n)
	res := s.run(t, "/bin/sh", "-c", script)
	for _, bad := range []string{"FOREIGN-OPENED", "NODE-OPENED"} {
		if strings.Contains(res.stdout, bad) {
			t.Errorf("%s: %s", bad, res.stdout)
		}
	}
	for _, want := range []string{"NULL-OK", "\n755\n", "\n2755\n"} {
		if !strings.Contains("\n"+res.stdout, want) {
			t.Errorf("want %q in %q (stderr %q)", want, res.stdout, res.stderr)
		}
	}
	if haveNode && !strings.Contains(res.stderr, "kmsg: Permission denied") {
		t.Errorf("device node: stderr %q, want EACCES", res.stderr)
	}
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(s.project, "f"), &st); err != nil || st.Mode&(unix.S_ISUID|unix.S_ISGID) != 0 {
		t.Errorf("f mode %#o, err %v: want no set-id bits", st.Mode, err)
	}
}
