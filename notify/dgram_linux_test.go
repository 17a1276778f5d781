package notify

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// pyDgram tries every way the sandbox could get a unix socket that sends
// to an address of its choice, and the sockets that must keep working.
const pyDgram = `import socket,sys
dest = sys.argv[1]
U = socket.AF_UNIX
def attempt(name, fn):
    try:
        fn(); print(name, "ok")
    except OSError as e:
        print(name, "refused", e.errno)
attempt("dgram", lambda: socket.socket(U, socket.SOCK_DGRAM).sendto(b"dgram", dest))
attempt("dgram-flags", lambda: socket.socket(U, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK).sendto(b"flags", dest))
attempt("raw", lambda: socket.socket(U, socket.SOCK_RAW).sendto(b"raw", dest))
attempt("pair", lambda: socket.socketpair(U, socket.SOCK_DGRAM)[0].sendto(b"pair", dest))
attempt("stream-pair", lambda: socket.socketpair(U, socket.SOCK_STREAM))
attempt("seqpacket", lambda: socket.socket(U, socket.SOCK_SEQPACKET))
attempt("stream-sendto", lambda: socket.socket(U, socket.SOCK_STREAM).sendto(b"stream", dest))
attempt("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(("127.0.0.1", 0)))
`

// dgramServer counts the datagrams a unix datagram socket outside the
// sandbox receives.
func dgramServer(t *testing.T, path string) *atomic.Int32 {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var n atomic.Int32
	go func() {
		buf := make([]byte, 64)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
			n.Add(1)
		}
	}()
	return &n
}

// TestUnixDatagram: no unix datagram socket is created in the sandbox, so
// no datagram reaches a socket outside it (FINDINGS F7); streams,
// seqpackets and UDP work.
func TestUnixDatagram(t *testing.T) {
	s := newSandbox(t)
	dest := filepath.Join(s.project, "dgram.sock")
	received := dgramServer(t, dest)
	got := s.run(t, "/usr/bin/python3", "-c", pyDgram, dest)
	if got.code != 0 {
		t.Fatalf("exit %d stdout %q stderr %q", got.code, got.stdout, got.stderr)
	}
	for _, want := range []string{"dgram refused 13", "dgram-flags refused 13", "raw refused 13", "pair refused 13",
		"stream-pair ok", "seqpacket ok", "stream-sendto refused 95", "udp ok"} {
		if !strings.Contains(got.stdout, want+"\n") {
			t.Errorf("stdout %q lacks %q", got.stdout, want)
		}
	}
	if n := received.Load(); n != 0 {
		t.Errorf("the datagram server outside received %d datagrams", n)
	}
	tests := []struct {
		path       string
		wantOp     policy.Op // "": not trapped, no event
		wantAction policy.Action
	}{
		{"socket(AF_UNIX, SOCK_DGRAM)", policy.OpDatagram, policy.Deny},
		{"socket(AF_UNIX, SOCK_RAW)", policy.OpDatagram, policy.Deny},
		{"socketpair(AF_UNIX, SOCK_DGRAM)", policy.OpDatagram, policy.Deny},
		{"socketpair(AF_UNIX, SOCK_STREAM)", "", ""},
		{"socket(AF_UNIX, SOCK_SEQPACKET)", "", ""},
	}
	for _, tt := range tests {
		evs := s.events.find(tt.path)
		if len(evs) == 0 && tt.wantOp != "" {
			t.Errorf("no audit event for %s", tt.path)
			continue
		}
		if len(evs) > 0 && tt.wantOp == "" {
			t.Errorf("%s was trapped (%+v): the filter traps datagram sockets only", tt.path, evs[0])
			continue
		}
		if len(evs) == 0 {
			continue
		}
		if ev := evs[0]; ev.Op != tt.wantOp || ev.Decision.Action != tt.wantAction {
			t.Errorf("event for %s: op %s decision %s, want %s %s", tt.path, ev.Op, ev.Decision.Action, tt.wantOp, tt.wantAction)
		}
	}
}

// TestSocketHandlerPolicy serves socket and socketpair with the real
// policy engine: unix.datagram decides datagram sockets, nothing decides
// the others. This filter traps every socket call, so the handler's
// answers to calls the real filter lets through are checked too.
func TestSocketHandlerPolicy(t *testing.T) {
	engine := func(src string) *policy.Engine {
		p, err := policy.Parse("t.yaml", []byte("profile: t\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		e, err := policy.Compile(p, policy.Vars{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	closed, allowed := engine(""), engine("unix:\n  datagram: allow\n")
	tests := []struct {
		name    string
		e       *policy.Engine
		domain  int
		typ     int
		pair    bool
		wantErr error
	}{
		{"dgram refused by default", closed, unix.AF_UNIX, unix.SOCK_DGRAM, false, unix.EACCES},
		{"dgram pair refused", closed, unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC, true, unix.EACCES},
		{"raw refused", closed, unix.AF_UNIX, unix.SOCK_RAW | unix.SOCK_NONBLOCK, false, unix.EACCES},
		{"stream created", closed, unix.AF_UNIX, unix.SOCK_STREAM, false, nil},
		{"seqpacket pair created", closed, unix.AF_UNIX, unix.SOCK_SEQPACKET, true, nil},
		{"unknown type left to the kernel", closed, unix.AF_UNIX, 9, false, unix.ESOCKTNOSUPPORT},
		{"bad flags left to the kernel", closed, unix.AF_UNIX, unix.SOCK_STREAM | 0x100, false, unix.EINVAL},
		{"inet untouched", closed, unix.AF_INET, unix.SOCK_DGRAM, false, nil},
		{"dgram allowed by unix.datagram", allowed, unix.AF_UNIX, unix.SOCK_DGRAM, false, nil},
		{"dgram pair allowed by unix.datagram", allowed, unix.AF_UNIX, unix.SOCK_DGRAM, true, nil},
	}
	threads := map[*policy.Engine]*sandboxThread{}
	for _, e := range []*policy.Engine{closed, allowed} {
		threads[e] = newSandboxThread(t, e, nil, "socket", "socketpair")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := threads[tt.e].do(func() error { return makeSocket(tt.domain, tt.typ, tt.pair) })
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestSocketHandlerUnprivileged reruns TestSocketHandlerPolicy and
// TestInheritedDescriptorsClosed as nobody (TestUnixDatagram is in
// TestUnprivilegedOpenExec's TestUnix).
func TestSocketHandlerUnprivileged(t *testing.T) {
	out := rerunAsNobody(t, "^(TestSocketHandlerPolicy|TestInheritedDescriptorsClosed)$")
	for _, name := range []string{"TestSocketHandlerPolicy", "TestInheritedDescriptorsClosed"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass as nobody:\n%s", name, out)
		}
	}
}
