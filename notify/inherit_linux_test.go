package notify

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestInheritedDescriptorsClosed: a descriptor the broker's process holds
// without close-on-exec (inherited from whoever started aixbroker) does not
// reach the agent. (That ExtraFiles still do is shown by every e2e test of
// cmd/aixbroker: the interposer's connection is one.)
func TestInheritedDescriptorsClosed(t *testing.T) {
	s := newSandbox(t)
	dest := filepath.Join(s.project, "dgram.sock")
	received := dgramServer(t, dest)
	sock, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM, 0) // no SOCK_CLOEXEC: inherited by every child
	if err != nil {
		t.Fatal(err)
	}
	const leaked = 57
	if err := unix.Dup2(sock, leaked); err != nil {
		t.Fatal(err)
	}
	unix.Close(sock)
	t.Cleanup(func() { unix.Close(leaked) })
	script := `import os,socket,sys
for fd in (2, 57):
    try:
        os.fstat(fd); print(fd, "open")
    except OSError as e:
        print(fd, "closed", e.errno)
try:
    socket.socket(fileno=57).sendto(b"leak", sys.argv[1]); print("sent")
except OSError as e:
    print("send refused", e.errno)
`
	got := s.run(t, "/usr/bin/python3", "-c", script, dest)
	for _, want := range []string{"2 open", strconv.Itoa(leaked) + " closed 9", "send refused 9"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("stdout %q lacks %q (stderr %q)", got.stdout, want, got.stderr)
		}
	}
	if n := received.Load(); n != 0 {
		t.Errorf("the outside datagram server received %d datagrams through the inherited socket", n)
	}
}
