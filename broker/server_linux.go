package broker

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// StubFunc returns a read-only descriptor of what the redacted file at path
// reads as, and its size: the same memfd the supervisor injects for an
// open of it (notify.StubFD), so that the library's stat reports the
// device and inode an opened descriptor has. The caller closes it.
type StubFunc func(path string, rule policy.Rule) (fd int, size int64, err error)

// InterposerServer answers the interposer library (interposer/PROTOCOL.md)
// on a SOCK_SEQPACKET socket whose other end every sandboxed process
// inherits. Everything it receives is untrusted: it answers questions the
// agent could answer by trying, never grants anything, and bounds what each
// message may cost.
type InterposerServer struct {
	broker *Broker
	snap   *Snapshot
	hello  []byte // the encoded hello response
	stub   StubFunc
	sock   int
	sem    chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
}

// maxInFlight bounds the requests served at once; more are dropped (the
// library then behaves as if the broker were unreachable).
const maxInFlight = 16

// NewInterposerServer returns a server for b with the snapshot snap, and
// the connector to hand to the sandbox (inherited, not close-on-exec, in
// the child). A snapshot too large for one datagram is left out of hello:
// the library then falls back to the snapshot file (see
// interposer.Install).
func NewInterposerServer(b *Broker, snap Snapshot, stub StubFunc) (*InterposerServer, *os.File, error) {
	s := &InterposerServer{broker: b, snap: &snap, stub: stub, sem: make(chan struct{}, maxInFlight)}
	hello, err := Encode(Response{Type: MsgHello, Version: ProtoVersion, Snapshot: s.snap})
	if err != nil {
		hello, err = Encode(Response{Type: MsgHello, Version: ProtoVersion})
		if err != nil {
			return nil, nil, err
		}
	}
	s.hello = hello
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("create interposer socket: %w", err)
	}
	// The sandbox only ever sends on its end; the server only receives.
	unix.Shutdown(fds[1], unix.SHUT_RD)
	s.sock = fds[0]
	return s, os.NewFile(uintptr(fds[1]), "aixbroker-interposer"), nil
}

// Serve answers requests until Close, or until every sandboxed process
// has closed its end.
func (s *InterposerServer) Serve() {
	buf := make([]byte, MaxMessage+1)
	oob := make([]byte, unix.CmsgSpace(4*4))
	for {
		n, oobn, flags, _, err := unix.Recvmsg(s.sock, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		if n == 0 && oobn == 0 && hungUp(s.sock) {
			return // every sandboxed process closed its end, or Close
		}
		reply := replyFD(oob[:oobn])
		if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || n > MaxMessage {
			closeFD(reply)
			continue
		}
		req, err := DecodeRequest(buf[:n])
		if err != nil || (reply < 0 && req.Type != MsgHint) {
			closeFD(reply)
			continue
		}
		select {
		case s.sem <- struct{}{}:
		default:
			closeFD(reply) // too busy: the library carries on without an answer
			continue
		}
		s.wg.Add(1)
		go func() {
			defer func() { <-s.sem; s.wg.Done() }()
			s.serve(req, reply)
		}()
	}
}

// serve answers one request on its reply socket and closes it.
func (s *InterposerServer) serve(req Request, reply int) {
	defer closeFD(reply)
	resp, stub := s.answer(req)
	if stub >= 0 {
		defer unix.Close(stub)
	}
	if reply < 0 || resp.Type == "" {
		return
	}
	msg := s.hello
	if resp.Type != MsgHello {
		var err error
		if msg, err = Encode(resp); err != nil {
			return
		}
	}
	var rights []byte
	if stub >= 0 {
		rights = unix.UnixRights(stub)
	}
	unix.SendmsgN(reply, msg, rights, nil, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL)
}

// Close stops Serve and waits for the requests in flight.
func (s *InterposerServer) Close() error {
	s.once.Do(func() {
		unix.Shutdown(s.sock, unix.SHUT_RDWR)
	})
	s.wg.Wait()
	return nil
}

// replyFD returns the first descriptor of the message if it is a socket,
// and closes every other descriptor it carried; -1 if none.
func replyFD(oob []byte) int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return -1
	}
	reply := -1
	for i := range msgs {
		fds, err := unix.ParseUnixRights(&msgs[i])
		if err != nil {
			continue
		}
		for _, fd := range fds {
			var st unix.Stat_t
			if reply < 0 && unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK {
				reply = fd
				continue
			}
			unix.Close(fd)
		}
	}
	return reply
}

// hungUp tells an empty datagram (which anyone may send) from the end of
// the stream.
func hungUp(fd int) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(p, 0)
	return err != nil || (n == 1 && p[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0)
}

func closeFD(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}
