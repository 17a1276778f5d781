package broker

import (
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

type hints struct {
	mu sync.Mutex
	h  []Hint
}

func (h *hints) Record(Event) {}
func (h *hints) RecordHint(x Hint) {
	h.mu.Lock()
	h.h = append(h.h, x)
	h.mu.Unlock()
}

func (h *hints) list() []Hint {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Hint(nil), h.h...)
}

// client talks to a server the way the C library does.
type client struct {
	t    *testing.T
	conn int
}

func startServer(t *testing.T, d Decider, rec Recorder) (*InterposerServer, client) {
	t.Helper()
	snap := Snapshot{Default: "deny", Rules: []SnapRule{{Rank: RankDeny, Glob: "/s/**"}}, Traverse: []string{"/"}}
	stub := func(path string, rule policy.Rule) (int, int64, error) {
		content := []byte("stub of " + path)
		mfd, err := unix.MemfdCreate("test-stub", unix.MFD_CLOEXEC)
		if err != nil {
			return -1, 0, err
		}
		defer unix.Close(mfd)
		if _, err := unix.Write(mfd, content); err != nil {
			return -1, 0, err
		}
		fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(mfd), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		return fd, int64(len(content)), err
	}
	srv, conn, err := NewInterposerServer(New(d, rec), snap, stub)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { conn.Close(); srv.Close() })
	return srv, client{t: t, conn: int(conn.Fd())}
}

// ask sends req with a reply socket and returns the response and any
// descriptor that came with it (-1: none). ok is false on no answer.
func (c client) ask(req []byte, extra ...int) (Response, int, bool) {
	c.t.Helper()
	sv, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		c.t.Fatal(err)
	}
	defer unix.Close(sv[0])
	err = unix.Sendmsg(c.conn, req, unix.UnixRights(append([]int{sv[1]}, extra...)...), nil, 0)
	unix.Close(sv[1])
	if err != nil {
		c.t.Fatal(err)
	}
	buf, oob := make([]byte, MaxMessage), make([]byte, unix.CmsgSpace(4))
	unix.SetsockoptTimeval(sv[0], unix.SOL_SOCKET, unix.SO_RCVTIMEO, &unix.Timeval{Sec: 5})
	n, oobn, _, _, err := unix.Recvmsg(sv[0], buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil || n == 0 {
		return Response{}, -1, false
	}
	var resp Response
	if err := msgpack.Unmarshal(buf[:n], &resp); err != nil {
		c.t.Fatalf("decode response: %v", err)
	}
	fd := -1
	if oobn > 0 {
		msgs, _ := unix.ParseSocketControlMessage(oob[:oobn])
		if len(msgs) == 1 {
			if fds, _ := unix.ParseUnixRights(&msgs[0]); len(fds) == 1 {
				fd = fds[0]
			}
		}
	}
	return resp, fd, true
}

func encode(t *testing.T, r Request) []byte {
	t.Helper()
	b, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServerAnswers(t *testing.T) {
	_, c := startServer(t, fixedDecider{policy.Decision{Action: policy.Redact}}, nil)
	resp, _, ok := c.ask(encode(t, Request{Type: MsgHello, Version: ProtoVersion, PID: 1}))
	want := &Snapshot{Default: "deny", Rules: []SnapRule{{Rank: RankDeny, Glob: "/s/**"}}, Traverse: []string{"/"}}
	if !ok || resp.Type != MsgHello || !reflect.DeepEqual(resp.Snapshot, want) {
		t.Errorf("hello = %+v, %v; want the snapshot", resp, ok)
	}
	resp, _, _ = c.ask(encode(t, Request{Type: MsgDecide, Version: ProtoVersion, Op: "stat", Path: "/a"}))
	if resp.Type != MsgDecision || resp.Action != "redact" {
		t.Errorf("decide = %+v, want redact", resp)
	}
	resp, _, _ = c.ask(encode(t, Request{Type: MsgDecide, Version: ProtoVersion, Op: "write", Path: "/a"}))
	if resp.Type != MsgError {
		t.Errorf("decide write = %+v, want an error (only stat and read)", resp)
	}
	resp, fd, _ := c.ask(encode(t, Request{Type: MsgStub, Version: ProtoVersion, Path: "/p/.env"}))
	if resp.Size != uint64(len("stub of /p/.env")) || fd < 0 {
		t.Fatalf("stub = %+v, fd %d", resp, fd)
	}
	defer unix.Close(fd)
	b := make([]byte, 64)
	n, _ := unix.Read(fd, b)
	if string(b[:n]) != "stub of /p/.env" {
		t.Errorf("stub fd reads %q", b[:n])
	}
	if _, err := unix.Write(fd, []byte("x")); err == nil {
		t.Errorf("stub fd is writable")
	}
}

func TestServerStubOnlyForRedacted(t *testing.T) {
	_, c := startServer(t, fixedDecider{policy.Decision{Action: policy.Deny, Errno: policy.ENOENT}}, nil)
	resp, fd, _ := c.ask(encode(t, Request{Type: MsgStub, Version: ProtoVersion, Path: "/s/key"}))
	if resp.Type != MsgError || fd >= 0 {
		t.Errorf("stub of a denied path = %+v, fd %d; want an error and no descriptor", resp, fd)
	}
}

// TestServerSurvivesJunk: malformed datagrams, empty datagrams, extra
// descriptors and descriptors that are not sockets do not stop the server.
func TestServerSurvivesJunk(t *testing.T) {
	rec := &hints{}
	_, c := startServer(t, fixedDecider{policy.Decision{Action: policy.Allow}}, rec)
	unix.Sendmsg(c.conn, nil, nil, nil, 0)
	unix.Sendmsg(c.conn, []byte{0xc1, 0xff}, nil, nil, 0)
	if _, _, ok := c.ask([]byte{0x91, 0x01}); ok {
		t.Errorf("junk got an answer")
	}
	p, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(p)
	unix.Sendmsg(c.conn, encode(t, Request{Type: MsgHello, Version: ProtoVersion}), unix.UnixRights(p), nil, 0)
	hint := Request{Type: MsgHint, Version: ProtoVersion, Kind: "exec", PID: 7, Path: "/bin/ls", Argv: []string{"ls", "-l"}}
	unix.Sendmsg(c.conn, encode(t, hint), nil, nil, 0)
	resp, _, ok := c.ask(encode(t, Request{Type: MsgHello, Version: ProtoVersion}), p, p)
	if !ok || resp.Type != MsgHello {
		t.Fatalf("hello after junk = %+v, %v", resp, ok)
	}
	want := []Hint{{Kind: "exec", PID: 7, Path: "/bin/ls", Argv: []string{"ls", "-l"}}}
	for i := 0; i < 100 && len(rec.list()) == 0; i++ {
		time.Sleep(10 * time.Millisecond) // the hint is served on its own goroutine
	}
	if got := rec.list(); !reflect.DeepEqual(got, want) {
		t.Errorf("hints = %+v, want %+v", got, want)
	}
}

// TestServerStubRefusesUncanonical is the attack of issue 14 item 10: the
// stub request was decided on the client's raw string and then opened by
// the broker with its own rights, so a redact glob (**/.env) matched a
// path that walks through the broker's /proc/self, a "..", or a symlink
// and served the redacted view (key names, existence) of any .env on the
// machine. Only canonical paths outside /proc are answered now; the
// stub function (notify.StubFD) refuses any symlink on the way.
func TestServerStubRefusesUncanonical(t *testing.T) {
	_, c := startServer(t, fixedDecider{policy.Decision{Action: policy.Redact}}, nil)
	for _, p := range []string{
		"/proc/self/cwd/../other-project/.env",
		"/proc/1/root/home/u/other-project/.env",
		"/proc/thread-self/root/etc/.env",
		"/home/u/proj/../other-project/.env",
		"/home/u/proj/./.env",
		"/home/u//proj/.env",
		"/home/u/proj/.env/",
		"home/u/proj/.env",
		"",
		"/proc",
	} {
		resp, fd, _ := c.ask(encode(t, Request{Type: MsgStub, Version: ProtoVersion, Path: p}))
		if fd >= 0 {
			unix.Close(fd)
		}
		if resp.Type != MsgError || fd >= 0 {
			t.Errorf("stub %q = %+v, fd %d; want an error and no descriptor", p, resp, fd)
		}
	}
	resp, fd, _ := c.ask(encode(t, Request{Type: MsgStub, Version: ProtoVersion, Path: "/home/u/proj/.env"}))
	if fd >= 0 {
		unix.Close(fd)
	}
	if resp.Type != MsgStub || fd < 0 {
		t.Errorf("stub of a canonical path = %+v, fd %d; want the stub", resp, fd)
	}
}
