package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// capDropScript drops CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER and
// CAP_SYS_ADMIN from the bounding set (prctl PR_CAPBSET_DROP, no capset) and execs a
// shell: root's effective set after the exec lacks them, without any of
// the syscalls the supervisor traps to notice a credential change.
const capDropScript = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for cap in (1, 2, 3, 21):
    if libc.prctl(24, cap, 0, 0, 0) != 0:
        print("prctl errno", ctypes.get_errno())
os.execv("/bin/sh", ["sh", "-c", sys.argv[1]])
`

// capDropProbe is what the shell tries once the capabilities are gone: a
// root-owned 0000 file, a file in another user's 0700 directory, and a
// trusted.* attribute (CAP_SYS_ADMIN: natively ENODATA without it).
const capDropProbe = `grep CapEff /proc/self/status
for f in locked priv/f; do if cat "$f" >/dev/null 2>&1; then echo "$f read"; else echo "$f refused"; fi; done
if ls priv >/dev/null 2>&1; then echo "priv listed"; else echo "priv refused"; fi
/usr/bin/python3 -c 'import os
try: print("trusted", os.getxattr("tfile", "trusted.aix"))
except OSError as e: print("trusted errno", e.errno)'`

// TestReviewMetaCapBoundingDrop (review of issue 14 item 12): a root agent
// that lowers its capabilities through the bounding set and an exec
// (capsh --drop does exactly this) is still served with the supervisor's
// full capabilities: credsChanged is set only by the trapped setuid family
// and capset, so the broker walks and opens as itself. Natively the same
// script is refused both files.
func TestReviewMetaCapBoundingDrop(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("dropping capabilities needs root")
	}
	s := newSandbox(t)
	locked := filepath.Join(s.project, "locked")
	writeFile(t, locked, "locked\n")
	os.Chmod(locked, 0)
	priv := filepath.Join(s.project, "priv")
	if err := os.Mkdir(priv, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(priv, "f"), "private\n")
	os.Chown(priv, 65534, 65534)
	tfile := filepath.Join(s.project, "tfile")
	writeFile(t, tfile, "t\n")
	if err := unix.Setxattr(tfile, "trusted.aix", []byte("TRUSTED-VALUE"), 0); err != nil {
		t.Fatalf("set trusted xattr: %v", err)
	}
	control := exec.Command("/usr/bin/python3", "-c", capDropScript, capDropProbe)
	control.Dir = s.project
	want, err := control.CombinedOutput()
	if err != nil {
		t.Fatalf("native run: %v\n%s", err, want)
	}
	got := s.run(t, "/usr/bin/python3", "-c", capDropScript, capDropProbe)
	if got.stdout != string(want) {
		t.Errorf("sandboxed answers differ from native ones\nsandboxed:\n%s\nnative:\n%s\nstderr: %s", got.stdout, want, got.stderr)
	}
}
