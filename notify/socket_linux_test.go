package notify

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// server accepts on l outside the sandbox, greets every client and counts
// them.
func server(t *testing.T, l net.Listener) *atomic.Int32 {
	t.Helper()
	var n atomic.Int32
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Write([]byte("greetings-from-outside\n"))
			c.Close()
		}
	}()
	return &n
}

func listen(t *testing.T, network, addr string) net.Listener {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const pyConnect = `import socket,sys
fam = socket.AF_INET if sys.argv[1] == "inet" else socket.AF_UNIX
s = socket.socket(fam)
a = sys.argv[2]
if fam == socket.AF_INET:
    h, p = a.rsplit(":", 1); a = (h, int(p))
elif a.startswith("@"):
    a = "\0" + a[1:]
try:
    s.connect(a)
except OSError as e:
    print("refused", e.errno); sys.exit(1)
print(s.recv(100).decode())
`

// pyServe binds a unix socket inside the sandbox, connects to it from a
// child process in the same sandbox and prints what the child received.
const pyServe = `import socket,subprocess,sys
a = sys.argv[1]
if a.startswith("@"):
    a = "\0" + a[1:]
srv = socket.socket(socket.AF_UNIX); srv.bind(a); srv.listen()
srv.settimeout(60) # a client that fails to start must not hang the test
cl = subprocess.Popen([sys.executable, "-c", "import socket,sys; a=sys.argv[1]; a = chr(0)+a[1:] if a[0] == '@' else a; s=socket.socket(socket.AF_UNIX); s.connect(a); s.sendall(b'inside-ok')", sys.argv[1]])
c, _ = srv.accept(); print(c.recv(100).decode()); cl.wait()
`

func TestUnixSockets(t *testing.T) {
	s := newSandbox(t)
	outside := filepath.Join(s.project, "outside.sock")
	outsideN := server(t, listen(t, "unix", outside))
	allowed := filepath.Join(s.project, "allowed.sock")
	server(t, listen(t, "unix", allowed))
	s.policy.Connect = []string{allowed}
	sshDir := filepath.Join(s.project, "ssh-XXXXabc")
	if err := os.Mkdir(sshDir, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(sshDir, "agent.1234")
	server(t, listen(t, "unix", agent))
	abstract := "@aixbroker-test-" + strconv.Itoa(os.Getpid())
	server(t, listen(t, "unix", abstract))
	tcp := listen(t, "tcp", "127.0.0.1:0")
	server(t, tcp)
	link := filepath.Join(s.project, "innocent.sock")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		argv     []string
		wantCode int
		wantOut  string
	}{
		{name: "outside server refused", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", outside}, wantCode: 1, wantOut: "refused 13"},
		{name: "relative path refused", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", "outside.sock"}, wantCode: 1, wantOut: "refused 13"},
		{name: "symlink to outside refused", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", link}, wantCode: 1, wantOut: "refused 13"},
		{name: "ssh-agent style refused", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", agent}, wantCode: 1, wantOut: "refused 13"},
		{name: "abstract outside refused", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", abstract}, wantCode: 1, wantOut: "refused 1"},
		{name: "policy allows", argv: []string{"/usr/bin/python3", "-c", pyConnect, "unix", allowed}, wantOut: "greetings-from-outside"},
		{name: "tcp loopback", argv: []string{"/usr/bin/python3", "-c", pyConnect, "inet", tcp.Addr().String()}, wantOut: "greetings-from-outside"},
		{name: "tcp loopback nonblocking (node)", argv: []string{"node", "-e", "const [h, p] = process.argv[1].split(':'); require('net').connect(+p, h).on('data', d => process.stdout.write(d))", tcp.Addr().String()},
			wantOut: "greetings-from-outside"},
		{name: "unix refused (node)", argv: []string{"node", "-e", "require('net').connect(process.argv[1]).on('error', e => console.log('refused', e.code))", outside},
			wantOut: "refused EACCES"},
		{name: "server inside", argv: []string{"/usr/bin/python3", "-c", pyServe, "inside.sock"}, wantOut: "inside-ok"},
		{name: "abstract server inside", argv: []string{"/usr/bin/python3", "-c", pyServe, "@aixbroker-inside-" + strconv.Itoa(os.Getpid())}, wantOut: "inside-ok"},
		{name: "bind outside project refused", argv: []string{"/usr/bin/python3", "-c", "import socket; socket.socket(socket.AF_UNIX).bind('" + filepath.Join(s.home, "x.sock") + "')"}, wantCode: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.run(t, tt.argv...)
			if got.code != tt.wantCode || !strings.Contains(got.stdout, tt.wantOut) {
				t.Errorf("exit %d stdout %q stderr %q, want exit %d and %q", got.code, got.stdout, got.stderr, tt.wantCode, tt.wantOut)
			}
		})
	}
	if n := outsideN.Load(); n != 0 {
		t.Errorf("the outside server accepted %d connections from the sandbox", n)
	}
}

// TestUnixConnectRace rewrites the sockaddr from a sibling thread while the
// main thread connects to an allowed server: the forbidden server must
// never be reached.
func TestUnixConnectRace(t *testing.T) {
	s := newSandbox(t)
	bin := filepath.Join(s.bin, "sockrace")
	out, err := exec.Command("cc", "-static", "-O2", "-pthread", "-o", bin, "testdata/sockrace.c").CombinedOutput()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("needs a C compiler")
	}
	if err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	allowed := filepath.Join(s.project, "a.sock")
	server(t, listen(t, "unix", allowed))
	forbidden := filepath.Join(s.project, "f.sock")
	forbiddenN := server(t, listen(t, "unix", forbidden))
	s.policy.Connect = []string{allowed}
	got := s.run(t, bin, allowed, forbidden, "2000")
	if got.code != 0 || !strings.Contains(got.stdout, "connected") {
		t.Fatalf("exit %d stdout %q stderr %q", got.code, got.stdout, got.stderr)
	}
	if n := forbiddenN.Load(); n != 0 {
		t.Errorf("the forbidden server accepted %d connections (%s)", n, got.stdout)
	}
	t.Log(strings.TrimSpace(got.stdout))
}
