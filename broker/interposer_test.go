package broker

import (
	"reflect"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// FuzzDecodeRequest: the decoder never panics on untrusted bytes, and what
// it accepts re-encodes to a request that decodes the same.
func FuzzDecodeRequest(f *testing.F) {
	for _, r := range []Request{
		{Type: MsgHello, Version: ProtoVersion, PID: 42},
		{Type: MsgDecide, Version: ProtoVersion, Op: "stat", Path: "/a/b"},
		{Type: MsgHint, Version: ProtoVersion, Kind: "exec", PID: 1, Path: "/bin/x", Argv: []string{"x", "-y"}},
	} {
		b, err := Encode(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x83, 0xa1, 't', 0xc0})
	f.Add([]byte{0xdf, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRequest(b)
		if err != nil {
			return
		}
		again, err := Encode(r)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", r, err)
		}
		back, err := DecodeRequest(again)
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("round trip %+v -> %+v, %v", r, back, err)
		}
	})
}

func TestDecodeRequestRefuses(t *testing.T) {
	enc := func(r Request) []byte {
		b, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"not a map", []byte{0x01}},
		{"wrong version", enc(Request{Type: MsgHello, Version: 9})},
		{"unknown type", enc(Request{Type: "open", Version: ProtoVersion})},
		{"long argv", enc(Request{Type: MsgHint, Version: ProtoVersion, Argv: make([]string, 300)})},
		{"truncated", enc(Request{Type: MsgHello, Version: ProtoVersion, PID: 42})[:5]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r, err := DecodeRequest(tt.in); err == nil {
				t.Errorf("DecodeRequest(%x) = %+v, want an error", tt.in, r)
			}
		})
	}
}

type fixedDecider struct{ d policy.Decision }

func (f fixedDecider) Decide(policy.Op, string) policy.Decision    { return f.d }
func (f fixedDecider) DecideExec(string, []string) policy.Decision { return f.d }

func TestReadOnlyDir(t *testing.T) {
	d := ReadOnlyDir(fixedDecider{policy.Decision{Action: policy.Deny, Errno: policy.ENOENT}}, "/run/ip")
	tests := []struct {
		op   policy.Op
		path string
		want policy.Action
	}{
		{policy.OpRead, "/run/ip/libaixbroker.so", policy.Allow},
		{policy.OpStat, "/run/ip", policy.Allow},
		{policy.OpWrite, "/run/ip/libaixbroker.so", policy.Deny},
		{policy.OpCreate, "/run/ip/x", policy.Deny},
		{policy.OpRename, "/run/ip", policy.Deny},
		{policy.OpUnlink, "/run/ip/snapshot.msgpack", policy.Deny},
		{policy.OpRead, "/run/ipx", policy.Deny}, // not inside: the policy decides
	}
	for _, tt := range tests {
		if got := d.Decide(tt.op, tt.path); got.Action != tt.want {
			t.Errorf("Decide(%s, %s) = %s, want %s", tt.op, tt.path, got.Action, tt.want)
		}
	}
	if got := d.DecideExec("/run/ip/libaixbroker.so", nil); got.Allowed() {
		t.Errorf("exec of the library allowed")
	}
}
