package notify

import (
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// socket and socketpair of a unix datagram socket (the filter traps these
// only: internal/seccomp's unixDatagram).
//
// A unix datagram socket that is not connected sends each datagram to the
// address given with it (sendto, sendmsg's msg_name, sendmmsg), and so does
// a connected one when an address is given: any pathname socket the agent
// can name, outside the sandbox too (/dev/log, systemd's $NOTIFY_SOCKET,
// any daemon taking commands on a datagram socket). Deciding each send
// would mean trapping every send on every socket, and msg_name lives in
// memory a sibling thread can rewrite after the broker read it. So the
// decision is taken where it can be taken on registers alone: a datagram
// socket (SOCK_DGRAM, and SOCK_RAW, which unix sockets turn into
// SOCK_DGRAM) is not created unless the policy says unix.datagram: allow
// (op "datagram"); the refusal is EACCES. Streams and seqpackets are
// created as asked: a stream refuses an address on send (EOPNOTSUPP,
// EISCONN) and a seqpacket ignores it, so they only ever reach the peer
// of a connect, which the broker decides (socket_linux.go).
func init() { register(handleSocket, "socket", "socketpair") }

// OpSocket is the audit op of a unix socket created as asked (not a policy
// decision: streams and seqpackets need none).
const OpSocket = policy.Op("socket")

// sockTypeMask is the kernel's SOCK_TYPE_MASK: the type without its
// SOCK_CLOEXEC and SOCK_NONBLOCK flags.
const sockTypeMask = 0xf

// streamRule names what let a stream or seqpacket socket be created.
var streamRule = policy.Rule{List: "unix.stream", Comment: "streams and seqpackets reach only the peer of a brokered connect"}

func handleSocket(r *Request) Reply {
	// The kernel reads both arguments as int: the low 32 bits.
	domain, typ := int32(r.Arg(0)), int32(r.Arg(1))&sockTypeMask
	what := r.Syscall + "(AF_UNIX, " + sockTypeName(typ) + ")"
	if domain != unix.AF_UNIX {
		// TOCTOU: the filter traps AF_UNIX only, so this is unreachable;
		// the family is a register, which nothing can change before the
		// kernel runs the call, and other families decide nothing here.
		return Continue("not a unix socket")
	}
	if typ != unix.SOCK_DGRAM && typ != unix.SOCK_RAW {
		r.note(OpSocket, what, policy.Decision{Action: policy.Allow, Rule: streamRule})
		// TOCTOU: unreachable with the real filter (it traps datagram types
		// only). Family and type are registers of the trapped thread; the
		// kernel runs the call with the values decided on (a signal restarts
		// it through the filter), so no sibling can turn it into a datagram
		// socket. Unknown types fail in the kernel (ESOCKTNOSUPPORT).
		return Continue("unix stream or seqpacket socket")
	}
	d := r.sup.broker.Decide(policy.OpDatagram, "/")
	r.note(policy.OpDatagram, what, d)
	if !d.Allowed() {
		return Errno(syscall.EACCES)
	}
	// TOCTOU: as above; the policy allows datagram sockets.
	return Continue("unix datagram socket allowed by the policy")
}

// sockTypeName names a socket type for the audit record.
func sockTypeName(typ int32) string {
	switch typ {
	case unix.SOCK_STREAM:
		return "SOCK_STREAM"
	case unix.SOCK_DGRAM:
		return "SOCK_DGRAM"
	case unix.SOCK_RAW:
		return "SOCK_RAW"
	case unix.SOCK_SEQPACKET:
		return "SOCK_SEQPACKET"
	}
	return "type " + itoa(int(typ))
}
