package broker

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/aixbroker/aixbroker/policy"
)

// The interposer protocol (interposer/PROTOCOL.md): one msgpack map per
// SOCK_SEQPACKET datagram. This file is the pure half (messages, the
// decision-set snapshot, the answers); server_linux.go moves the bytes.

// ProtoVersion is the protocol version both sides send as "v".
const ProtoVersion = 1

// MaxMessage is the largest datagram either side sends or accepts.
const MaxMessage = 64 << 10

// Request types sent by the interposer.
const (
	MsgHello    = "hello"    // → hello response with the snapshot
	MsgDecide   = "decide"   // → decision
	MsgStub     = "stub"     // → stub (size, and the stub as a descriptor)
	MsgHint     = "hint"     // no response: an audit hint
	MsgError    = "error"    // response to a request the server cannot answer
	MsgDecision = "decision" // → answer to decide
)

// Request is every message the interposer sends. Field order is the wire
// order (the golden vectors depend on it); empty fields are left out.
type Request struct {
	Type    string   `msgpack:"t"`
	Version uint     `msgpack:"v"`
	Kind    string   `msgpack:"kind,omitempty"` // hint: "exec"
	PID     uint     `msgpack:"pid,omitempty"`
	Op      string   `msgpack:"op,omitempty"` // decide: "stat" or "read"
	Path    string   `msgpack:"path,omitempty"`
	Argv    []string `msgpack:"argv,omitempty"` // hint: the command line
}

// Response is every message the server sends back.
type Response struct {
	Type     string    `msgpack:"t"`
	Version  uint      `msgpack:"v"`
	Snapshot *Snapshot `msgpack:"snapshot,omitempty"` // hello
	Action   string    `msgpack:"action,omitempty"`   // decision: allow, deny, redact
	Errno    string    `msgpack:"errno,omitempty"`    // decision: ENOENT, EACCES
	Size     uint64    `msgpack:"size,omitempty"`     // stub: its length in bytes
	Error    string    `msgpack:"error,omitempty"`    // error
}

// Snapshot is the decision set the interposer decides OpStat and OpRead
// from without a round trip: the filesystem rules in precedence order, the
// default action, and the directories that exist for stat only so the agent
// can walk to what it may use (policy "traverse"), sorted.
type Snapshot struct {
	Default  string     `msgpack:"default"`
	Rules    []SnapRule `msgpack:"rules"`
	Traverse []string   `msgpack:"traverse"`
}

// SnapRule is one filesystem rule, encoded as [rank, glob, errno].
type SnapRule struct {
	//lint:ignore U1000 msgpack reads the tag: encode as an array
	_msgpack struct{} `msgpack:",as_array"`
	Rank     uint8    // 0 deny, 1 redact, 2 allow_write, 3 allow_read
	Glob     string   // absolute, variables expanded
	Errno    string   // "" or the rule's own errno ("EACCES")
}

// Snapshot ranks, in precedence order.
const (
	RankDeny uint8 = iota
	RankRedact
	RankWrite
	RankRead
)

var snapRank = map[string]uint8{"deny": RankDeny, "redact": RankRedact, "allow_write": RankWrite, "allow_read": RankRead}

// SnapshotSource is the part of *policy.Engine a snapshot is built from.
type SnapshotSource interface {
	Rules() []policy.Rule
	Policy() *policy.Policy
	Decide(op policy.Op, path string) policy.Decision
}

// BuildSnapshot compiles the engine's filesystem rules into the snapshot.
// The traverse set is read back from the engine itself: every directory at
// or above the literal part of an allow pattern that the engine decides to
// show for stat by its traverse rule.
func BuildSnapshot(e SnapshotSource) Snapshot {
	s := Snapshot{Default: string(e.Policy().DefaultAction())}
	trav := map[string]bool{}
	for _, r := range e.Rules() {
		rank, ok := snapRank[r.List]
		if !ok {
			continue
		}
		s.Rules = append(s.Rules, SnapRule{Rank: rank, Glob: r.Glob, Errno: string(r.Errno)})
		if rank < RankWrite {
			continue
		}
		lit := r.Glob
		if i := strings.IndexAny(lit, `*?[{\`); i >= 0 {
			lit = lit[:i]
		}
		for _, d := range prefixes(lit) {
			if dec := e.Decide(policy.OpStat, d); dec.Allowed() && dec.Rule.List == "traverse" {
				trav[d] = true
			}
		}
	}
	for d := range trav {
		s.Traverse = append(s.Traverse, d)
	}
	slices.Sort(s.Traverse)
	return s
}

// prefixes returns "/", every "/"-bounded prefix of lit, and lit itself
// without a trailing "/".
func prefixes(lit string) []string {
	out := []string{"/"}
	for i := 1; i < len(lit); i++ {
		if lit[i] == '/' {
			out = append(out, lit[:i])
		}
	}
	if t := strings.TrimSuffix(lit, "/"); len(t) > 1 {
		out = append(out, t)
	}
	return out
}

// Encode writes v the way both sides expect: compact integers, maps in
// struct order.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.UseCompactInts(true)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode interposer message: %w", err)
	}
	if buf.Len() > MaxMessage {
		return nil, fmt.Errorf("encode interposer message: %d bytes is over %d", buf.Len(), MaxMessage)
	}
	return buf.Bytes(), nil
}

// DecodeRequest parses one datagram from the interposer. The input is
// untrusted: it is bounded, and anything but one well-formed request of a
// known type and version is an error.
func DecodeRequest(b []byte) (Request, error) {
	var r Request
	if len(b) > MaxMessage {
		return r, errors.New("decode interposer request: too large")
	}
	dec := msgpack.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields(false)
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("decode interposer request: %w", err)
	}
	if r.Version != ProtoVersion {
		return r, fmt.Errorf("decode interposer request: version %d, want %d", r.Version, ProtoVersion)
	}
	switch r.Type {
	case MsgHello, MsgDecide, MsgStub, MsgHint:
	default:
		return r, fmt.Errorf("decode interposer request: unknown type %q", r.Type)
	}
	if len(r.Argv) > 256 || len(r.Path) > 4096 {
		return r, errors.New("decode interposer request: path or argv too long")
	}
	if len(r.Argv) == 0 {
		r.Argv = nil // an empty array and no argv at all are the same request
	}
	return r, nil
}

// Hint is an audit hint from the interposer: what a process said it was
// about to do. It is the sandbox's word, not an observation: the broker's
// own record of the same exec is the authority.
type Hint struct {
	Kind string   // "exec"
	PID  int      // as the process reported it
	Path string   // as passed to execve/execvp, not resolved
	Argv []string // the command line
}

// HintRecorder is implemented by recorders that also log hints.
type HintRecorder interface {
	RecordHint(Hint)
}

// answer is the pure part of serving one request: the response, and for
// stub requests the stub's descriptor to send (-1: none; the caller closes
// it).
func (s *InterposerServer) answer(r Request) (Response, int) {
	switch r.Type {
	case MsgHello:
		return Response{Type: MsgHello, Version: ProtoVersion, Snapshot: s.snap}, -1
	case MsgDecide:
		op := policy.Op(r.Op)
		if op != policy.OpStat && op != policy.OpRead {
			return errorResponse("decide: op must be stat or read"), -1
		}
		d := s.broker.Decide(op, r.Path)
		return Response{Type: MsgDecision, Version: ProtoVersion, Action: string(d.Action), Errno: string(d.Errno)}, -1
	case MsgStub:
		// The library sends the canonical path it resolved; the broker
		// decides and serves only such a path, and the stub function
		// opens it refusing any symlink (notify.StubFD), so the view
		// served is the one an open of that very name in the sandbox is
		// served. A raw string (a "..", /proc/self of the broker, a
		// symlink) would let a redact glob match one file and the broker
		// open another with its own rights.
		if !stubPath(r.Path) {
			return errorResponse("stub: not a canonical path"), -1
		}
		d := s.broker.Decide(policy.OpRead, r.Path)
		if d.Action != policy.Redact || s.stub == nil {
			return errorResponse("stub: not a redacted path"), -1
		}
		fd, size, err := s.stub(r.Path, d.Rule)
		if err != nil {
			return errorResponse("stub: no view"), -1
		}
		return Response{Type: MsgStub, Version: ProtoVersion, Size: uint64(max(size, 0))}, fd
	case MsgHint:
		if hr, ok := s.broker.recorder.(HintRecorder); ok && r.Kind == "exec" {
			hr.RecordHint(Hint{Kind: r.Kind, PID: int(r.PID), Path: r.Path, Argv: r.Argv})
		}
	}
	return Response{}, -1
}

// stubPath reports whether p is a path the broker serves a stub for:
// absolute, clean (no ".", "..", empty component or trailing slash) and
// not under /proc, whose magic links would resolve in the broker.
func stubPath(p string) bool {
	return p != "" && p[0] == '/' && path.Clean(p) == p &&
		p != "/proc" && !strings.HasPrefix(p, "/proc/")
}

func errorResponse(msg string) Response {
	return Response{Type: MsgError, Version: ProtoVersion, Error: msg}
}

// WithDecider returns a broker that decides with wrap(its decider) and
// records to the same recorder.
func (b *Broker) WithDecider(wrap func(Decider) Decider) *Broker {
	return &Broker{policy: wrap(b.policy), recorder: b.recorder}
}

// ReadOnlyDir wraps d so that dir (the interposer's private directory) and
// everything in it can be read and stat'ed by the sandbox, whatever the
// policy says, and never written, created in, removed, renamed, linked or
// executed: the agent can load the library but not replace it.
func ReadOnlyDir(d Decider, dir string) Decider {
	return readOnlyDir{d, dir}
}

type readOnlyDir struct {
	Decider
	dir string
}

func (r readOnlyDir) inside(p string) bool {
	return p == r.dir || (strings.HasPrefix(p, r.dir) && len(p) > len(r.dir) && p[len(r.dir)] == '/')
}

func (r readOnlyDir) rule() policy.Rule {
	return policy.Rule{List: "interposer", Pattern: r.dir, Glob: r.dir, Comment: "the interposer library: readable, never writable"}
}

func (r readOnlyDir) Decide(op policy.Op, p string) policy.Decision {
	if !r.inside(p) {
		return r.Decider.Decide(op, p)
	}
	if op == policy.OpRead || op == policy.OpStat {
		return policy.Decision{Action: policy.Allow, Rule: r.rule()}
	}
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: r.rule()}
}

func (r readOnlyDir) DecideExec(p string, argv []string) policy.Decision {
	if r.inside(p) {
		return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: r.rule()}
	}
	return r.Decider.DecideExec(p, argv)
}
