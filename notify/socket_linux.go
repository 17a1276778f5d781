package notify

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// connect and bind. Landlock cannot restrict connect(2) to a pathname unix
// socket, and such sockets open the way out of the sandbox: the Docker
// socket, ssh-agent, the D-Bus session bus (systemd-run --user), a tmux
// server (send-keys runs commands outside), gpg-agent. So the broker traps
// both and performs them itself, on its duplicate of the caller's socket
// (pidfd_getfd: the duplicate shares the open file description, so
// connecting or binding it connects or binds the caller's socket), with the
// caller's credentials.
//
// Never CONTINUE, whatever the family: between the check and the kernel's
// run of the syscall, a sibling thread could rewrite the sockaddr to a
// pathname and dup2 a unix socket over the descriptor. The broker acts on
// its own copy of the address and its own duplicate of the socket.
//
//   - Not AF_UNIX (TCP, UDP, netlink...): performed as asked. A blocking
//     connect detaches the request first.
//   - AF_UNIX, pathname: connect resolves the path as the target would
//     (final symlink followed), decides on the socket inode it holds and
//     connects through /proc/self/fd/N, so the inode decided on is the one
//     connected to. It is allowed when a sandboxed process bound that inode
//     in this session, or when the policy's unix.connect lists its
//     canonical path (policy.OpConnect; filesystem allow rules never grant
//     it, a filesystem deny rule refuses it): else EACCES.
//     bind resolves the parent, decides OpCreate on parent+name, binds
//     /proc/self/fd/<parent>/<name> (a resulting sun_path over 108 bytes is
//     ENAMETOOLONG) and records the inode the kernel reports bound
//     (sock_diag, by the socket's own inode: no rename can swap it); a
//     connect checks again that this socket is still the one bound there.
//   - AF_UNIX, abstract: the broker is outside the Landlock domain whose
//     scoping keeps the agent from abstract sockets outside it, so connect
//     is performed only to the very socket a sandboxed process bound under
//     that name (bind and autobind are recorded with the socket's inode,
//     checked by sock_diag before and after the connect); any other is
//     EPERM, as Landlock answers.
//   - bind to a name an outside client connects to (an X display, the
//     D-Bus bus, tmux, ssh-agent, gpg-agent, /run: serviceSocket), as a
//     path or an abstract name, is refused: the agent would receive the
//     outside's connections. A path-like abstract name is decided like
//     the path.
//   - Unnamed or malformed addresses go to the kernel on the duplicate:
//     autobind, AF_UNSPEC disconnect, EINVAL.
//
// sendto/sendmsg/sendmmsg are not trapped: the destination they may carry
// is in memory the filter cannot read. Only a datagram socket sends to such
// an address, and the sandbox creates none unless the policy says
// unix.datagram: allow (dgram_linux.go), so /dev/log, journald and
// $NOTIFY_SOCKET stay out of reach.
//
// Known limit: a server in the sandbox sees the broker as its peer in
// SO_PEERCRED.
func init() { register(handleSockaddr, "connect", "bind") }

// OpConnect is the operation decided for a connect to a unix socket path.
const OpConnect = policy.OpConnect

// sockaddrMax is sizeof(struct sockaddr_storage): the kernel refuses
// longer addresses with EINVAL.
const sockaddrMax = 128

// sunPathMax is sizeof(sockaddr_un.sun_path).
const sunPathMax = 108

func handleSockaddr(r *Request) Reply {
	alen := int32(r.Arg(2))
	if alen < 0 || alen > sockaddrMax {
		return Errno(syscall.EINVAL)
	}
	fd, err := r.callerFD(int32(r.Arg(0)))
	if err != nil {
		return ErrorOf(err)
	}
	defer unix.Close(fd)
	domain, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil {
		return ErrorOf(err) // ENOTSOCK
	}
	addr := make([]byte, alen)
	if _, err := r.ReadMemory(r.Arg(1), addr); err != nil && alen > 0 {
		return Errno(syscall.EFAULT)
	}
	if err := r.Valid(); err != nil {
		return ErrorOf(err)
	}
	if domain != unix.AF_UNIX {
		return r.sockCall(fd, addr)
	}
	if len(addr) <= 2 || unix.AF_UNIX != int(addr[0])|int(addr[1])<<8 {
		reply := r.sockCall(fd, addr)
		if r.Syscall == "bind" && reply.kind == replyValue {
			r.sup.sockets.addAutobound(fd)
		}
		return reply
	}
	path := addr[2:]
	if path[0] == 0 {
		return r.abstractSocket(fd, addr)
	}
	if i := bytes.IndexByte(path, 0); i >= 0 {
		path = path[:i]
	}
	r.attempted = string(path)
	if r.Syscall == "bind" {
		return r.bindPath(fd, string(path))
	}
	return r.connectPath(fd, string(path))
}

// sockCall performs the trapped syscall on fd with addr, as the caller.
func (r *Request) sockCall(fd int, addr []byte) Reply {
	nr := uintptr(unix.SYS_BIND)
	if r.Syscall == "connect" {
		nr = unix.SYS_CONNECT
		if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err != nil || fl&unix.O_NONBLOCK == 0 {
			if err := r.Detach(); err != nil { // a blocking connect waits for the peer
				return ErrorOf(err) // every slot taken: EAGAIN, without blocking
			}
		}
	}
	return ErrorOf(r.AsCaller(func() error { return sockaddrCall(nr, fd, addr) }))
}

// abstractSocket serves connect and bind to an abstract address.
//
// bind: a name an outside client looks for (serviceSocket), or a
// path-like name (the convention: "@/tmp/.X11-unix/X0") the policy does
// not let the agent create, is refused: an outside client would connect
// in to the agent. The socket's inode is recorded with the name.
//
// connect: only to the very socket the session bound under that name:
// sock_diag must report that the recorded socket still exists and holds
// the name, before the connect and again after it (a name stays bound to
// its socket until the socket is destroyed, so the recorded socket held it
// throughout and the connect reached it). A name released by the sandbox
// and taken by an outside server is refused (EPERM, as Landlock's scoping
// answers); a swap between the two checks is undone (shutdown, EACCES).
func (r *Request) abstractSocket(fd int, addr []byte) Reply {
	name := string(addr[2:])
	shown := "@" + strings.Trim(strconv.Quote(name[1:]), `"`)
	r.attempted = shown
	if r.Syscall == "bind" {
		if why, ok := serviceSocket(name[1:]); ok {
			r.note(policy.OpCreate, shown, serviceDenial(why))
			return Errno(syscall.EACCES)
		}
		if strings.HasPrefix(name[1:], "/") {
			if err := r.allow(policy.OpCreate, path.Clean(name[1:])); err != nil {
				return ErrorOf(err)
			}
		}
		reply := r.sockCall(fd, addr)
		if reply.kind == replyValue {
			r.sup.sockets.addAbstract(name, fd)
		}
		return reply
	}
	sock, ok := r.sup.sockets.abstractInode(name)
	if !ok || !abstractHeld(sock, name) {
		why := "abstract socket not bound in the session"
		if ok {
			why = "abstract socket bound in the session, released since: the name may be another's"
		}
		r.note(OpConnect, shown, policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: why}})
		return Errno(syscall.EPERM)
	}
	reply := r.sockCall(fd, addr)
	if reply.kind == replyErrno && reply.errno != syscall.EINPROGRESS {
		return reply // not connected
	}
	if !abstractHeld(sock, name) {
		unix.Shutdown(fd, unix.SHUT_RDWR) // the caller's socket: the same open file description
		r.note(OpConnect, shown, policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "abstract socket released during the connect: undone"}})
		return Errno(syscall.EACCES)
	}
	return reply
}

// abstractHeld reports whether the socket with inode sock still exists
// and is bound to the abstract name.
func abstractHeld(sock uint64, name string) bool {
	got, err := boundName(sock)
	return err == nil && got == name
}

// serviceDenial is the decision recorded for a bind refused by
// serviceSocket.
func serviceDenial(why string) policy.Decision {
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES,
		Rule: policy.Rule{List: "unix socket name of an outside service", Comment: why}}
}

// Names of sockets that clients outside the sandbox connect to: a
// sandboxed server bound there would be reached from outside (an X
// client typing into it, ssh or git handing it keys, a D-Bus client, a
// tmux client). Each is a prefix of the socket's path (or abstract name)
// or a prefix of its base name.
var (
	servicePrefixes = []struct{ prefix, what string }{
		{"/tmp/.X11-unix/", "an X display"}, {"/tmp/.ICE-unix/", "the ICE session manager"},
		{"/tmp/.XIM-unix/", "an X input method"}, {"/tmp/.font-unix/", "the X font server"},
		{"/tmp/dbus-", "a D-Bus bus"}, {"/tmp/tmux-", "a tmux server"}, {"/tmp/ssh-", "an ssh-agent"},
		{"/tmp/screens/", "a screen session"}, {"/tmp/emacs", "an Emacs server"},
		{"/tmp/.s.PGSQL.", "PostgreSQL"}, {"/tmp/mysql", "MySQL"}, {"/tmp/kitty-", "a kitty terminal"},
		{"/run/", "a system or session service (/run)"}, {"/var/run/", "a system service (/var/run)"},
	}
	serviceBases = []struct{ prefix, what string }{
		{"bus", "a D-Bus bus"}, {"system_bus_socket", "the D-Bus system bus"},
		{"docker.sock", "the Docker daemon"}, {"podman.sock", "Podman"}, {"containerd.sock", "containerd"},
		{"S.gpg-agent", "gpg-agent"}, {"S.scdaemon", "gpg's scdaemon"}, {"S.dirmngr", "gpg's dirmngr"}, {"S.keyboxd", "gpg's keyboxd"},
		{"wayland-", "a Wayland compositor"}, {"pipewire-", "PipeWire"},
	}
)

// serviceSocket reports whether name (a canonical path, or an abstract
// name without its NUL) is one an outside client connects to, and which.
func serviceSocket(name string) (string, bool) {
	for _, p := range servicePrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return p.what, true
		}
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	for _, b := range serviceBases {
		if base == b.prefix || (strings.HasSuffix(b.prefix, "-") || strings.HasPrefix(b.prefix, "S.")) && strings.HasPrefix(base, b.prefix) {
			return b.what, true
		}
	}
	return "", false
}

// connectPath serves connect to a pathname unix socket.
func (r *Request) connectPath(fd int, path string) Reply {
	o, err := r.operandAt(pathArg{dir: -1}, path)
	if err != nil {
		return ErrorOf(err)
	}
	tg, err := r.Target(path)
	if err != nil {
		return ErrorOf(err)
	}
	var f fsops.File
	err = r.AsCaller(func() error { // directories the caller may not search stay closed to it
		var err error
		f, err = tg.ResolveFile(o.dirfd, o.path, true, false)
		return err
	})
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(f.FD, &st); err != nil {
		return ErrorOf(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return Errno(syscall.ECONNREFUSED) // what the kernel answers for a non-socket
	}
	if err := r.Valid(); err != nil {
		return ErrorOf(err)
	}
	if r.sup.sockets.hasInode(st.Dev, st.Ino) {
		r.note(OpConnect, f.Path, policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "socket bound in the session"}})
	} else if d := r.Decide(OpConnect, f.Path); !d.Allowed() {
		return Errno(syscall.EACCES)
	}
	return r.sockCall(fd, sockaddrUnix("/proc/self/fd/"+strconv.Itoa(f.FD)))
}

// bindPath serves bind to a pathname: the socket file is a new name.
func (r *Request) bindPath(fd int, path string) Reply {
	o, err := r.operandAt(pathArg{dir: -1}, path)
	if err != nil {
		return ErrorOf(err)
	}
	tg, err := r.Target(path)
	if err != nil {
		return ErrorOf(err)
	}
	err = r.AsCallerCreate(func() error {
		p, err := tg.ResolveParent(o.dirfd, o.path)
		if err != nil {
			return err
		}
		defer p.Close()
		if err := r.Valid(); err != nil {
			return err
		}
		if kernelRefuses(p.Name) {
			return unix.EADDRINUSE // ".", "..": an existing name
		}
		if err := r.allow(policy.OpCreate, p.Path()); err != nil {
			return err
		}
		if why, ok := serviceSocket(p.Path()); ok {
			r.note(policy.OpCreate, p.Path(), serviceDenial(why))
			return fmt.Errorf("bind %s: %w", p.Path(), unix.EACCES)
		}
		at := "/proc/self/fd/" + strconv.Itoa(p.FD) + "/" + p.Name
		if len(at) > sunPathMax {
			return fmt.Errorf("bind %s: %w", p.Path(), unix.ENAMETOOLONG)
		}
		return sockaddrCall(unix.SYS_BIND, fd, sockaddrUnix(at))
	})
	if err != nil {
		return ErrorOf(err)
	}
	r.sup.sockets.addBound(fd)
	return Value(0)
}

// sockaddrUnix encodes a sockaddr_un for path (at most sunPathMax bytes).
func sockaddrUnix(path string) []byte {
	b := make([]byte, 2, 2+len(path)+1)
	b[0], b[1] = unix.AF_UNIX, 0
	b = append(b, path...)
	if len(path) < sunPathMax {
		b = append(b, 0)
	}
	return b
}

// sessionSockets are the unix sockets sandboxed processes bound in this
// session: they may connect to them whatever the policy says.
type sessionSockets struct {
	mu       sync.Mutex
	inodes   map[[2]uint64]uint64 // (dev, low 32 bits of ino) of a bound socket file: the socket's own inode
	abstract map[string]uint64    // abstract name (leading NUL included) → the bound socket's inode
}

// addBound records the file the socket fd is now bound to. If the kernel
// cannot say (no sock_diag), nothing is recorded: connecting to it is then
// left to the policy.
func (s *sessionSockets) addBound(fd int) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return
	}
	dev, ino, err := boundInode(st.Ino)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inodes == nil {
		s.inodes = make(map[[2]uint64]uint64)
	}
	s.inodes[[2]uint64{dev, uint64(ino)}] = st.Ino
}

// addAutobound records the abstract name the kernel chose for fd (a bind
// with no name).
func (s *sessionSockets) addAutobound(fd int) {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return
	}
	if u, ok := sa.(*unix.SockaddrUnix); ok && strings.HasPrefix(u.Name, "@") {
		s.addAbstract("\x00"+u.Name[1:], fd)
	}
}

// hasInode reports whether the socket file (dev, ino) is one a sandboxed
// process bound and that socket is still bound to it: a file whose
// inode number was reused after the sandbox's socket went away (an outside
// server's) is not.
func (s *sessionSockets) hasInode(dev, ino uint64) bool {
	key := [2]uint64{dev, ino & 0xffffffff}
	s.mu.Lock()
	sock, ok := s.inodes[key]
	s.mu.Unlock()
	if !ok {
		return false
	}
	bdev, bino, err := boundInode(sock)
	return err == nil && [2]uint64{bdev, uint64(bino)} == key
}

// addAbstract records that socket fd is bound to the abstract name.
func (s *sessionSockets) addAbstract(name string, fd int) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.abstract == nil {
		s.abstract = make(map[string]uint64)
	}
	s.abstract[name] = st.Ino
}

// abstractInode returns the inode of the socket the session last bound to
// the abstract name.
func (s *sessionSockets) abstractInode(name string) (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ino, ok := s.abstract[name]
	return ino, ok
}
