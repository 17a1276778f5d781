package notify

import (
	"os/exec"
	"strings"
	"testing"
)

// TestXattrSettersUnsupported: an ACL or any other xattr cannot be set or
// removed in the sandbox (EOPNOTSUPP, errno 95; a control run outside the sandbox shows the
// filesystem takes them), while reading them works.
func TestXattrSettersUnsupported(t *testing.T) {
	s := newSandbox(t)
	script := `import os
for name, call in [("setxattr", lambda: os.setxattr("README", "user.x", b"1")),
                   ("lsetxattr", lambda: os.setxattr("README", "user.x", b"1", follow_symlinks=False)),
                   ("fsetxattr", lambda: os.setxattr(os.open("README", os.O_RDONLY), "user.x", b"1")),
                   ("removexattr", lambda: os.removexattr("README", "user.x")),
                   ("fremovexattr", lambda: os.removexattr(os.open("README", os.O_RDONLY), "user.x"))]:
    try:
        call(); print(name, "ok")
    except OSError as e:
        print(name, e.errno)
print("list", os.listxattr("README"))
`
	control := exec.Command("/usr/bin/python3", "-c", script)
	control.Dir = s.project
	if out, err := control.Output(); err != nil || !strings.Contains(string(out), "setxattr ok") {
		t.Skipf("the test directory takes no user xattrs outside the sandbox either: %s %v", out, err)
	}
	got := s.run(t, "/usr/bin/python3", "-c", script)
	for _, want := range []string{"setxattr 95", "lsetxattr 95", "fsetxattr 95",
		"removexattr 95", "fremovexattr 95", "list []"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("stdout %q, want %q (stderr %q)", got.stdout, want, got.stderr)
		}
	}
}
