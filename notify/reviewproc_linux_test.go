package notify

import (
	"strings"
	"testing"
)

// TestCgroupAttrChangeRefused: the cgroupfs guard (cgroupfs_linux.go)
// refuses writes, creations and removals under a cgroup mount whatever the
// policy, but changes of mode, owner and times (chmod, chown, utimensat,
// fchmod, fchown: allowChange in ownwrite_linux.go) are decided without
// it. With a policy that allows writing /sys, a root agent makes cgroup
// files world-writable or hands them to another user (a delegation). The
// test only touches the session cgroup's own files (removed at the end).
// (review of h-lifetime, notes/review-proc.md R3)
func TestCgroupAttrChangeRefused(t *testing.T) {
	cg, err := newSessionCgroup()
	if err != nil {
		t.Skipf("no session cgroup here: %v", err)
	}
	cg.remove()
	mount, _, _ := cgroupRoot()
	s := newSandbox(t)
	s.policy.Write = append(s.policy.Write, "/sys")
	script := `d=` + mount + `$(grep '^0::' /proc/self/cgroup | cut -d: -f3)
chmod 0666 $d/cgroup.freeze 2>/dev/null; echo "chmod: $(stat -c %a $d/cgroup.freeze)"
chown 65534 $d/cgroup.procs 2>/dev/null; echo "chown: $(stat -c %u $d/cgroup.procs)"
chmod 0777 $d 2>/dev/null; echo "chmod dir: $(stat -c %a $d)"
touch -d 2001-02-03 $d/cgroup.kill 2>/dev/null; echo "touch: $(stat -c %y $d/cgroup.kill | cut -c1-4)"
exec 3<$d/cgroup.events; python3 -c 'import os; os.fchmod(3, 0o606)' 2>/dev/null; echo "fchmod: $(stat -c %a $d/cgroup.events)"`
	got := s.run(t, "bash", "-c", script)
	want := "chmod: 644\nchown: 0\nchmod dir: 755\ntouch: 20"
	if !strings.HasPrefix(got.stdout, want) || strings.Contains(got.stdout, "fchmod: 606") || strings.Contains(got.stdout, "touch: 2001") {
		t.Errorf("agent printed %q (stderr %q), want the session cgroup's files unchanged (%q...)", got.stdout, got.stderr, want)
	}
}
