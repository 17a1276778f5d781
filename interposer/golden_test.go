package interposer

import (
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// goldenRequests are the requests the C side sends, as Go values; the
// driver's "encode" mode sends the same ones.
var goldenRequests = map[string]broker.Request{
	"hello": {Type: broker.MsgHello, Version: broker.ProtoVersion, PID: 42},
	"stub":  {Type: broker.MsgStub, Version: broker.ProtoVersion, Path: "/home/u/p/.env"},
	"hint":  {Type: broker.MsgHint, Version: broker.ProtoVersion, Kind: "exec", PID: 42, Path: "/usr/bin/git", Argv: []string{"git", "status", "--short"}},
}

func golden(t *testing.T, name string, got []byte) []byte {
	t.Helper()
	file := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(file, []byte(hex.EncodeToString(got)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read golden (run go test -update): %v", err)
	}
	want, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// TestGoldenRequests: Go encodes each request to the golden bytes, C
// encodes it to the same bytes, and the Go decoder reads them back.
func TestGoldenRequests(t *testing.T) {
	fromC := map[string]string{}
	for _, line := range runDriver(t, driver(t), "", "encode") {
		name, h, _ := strings.Cut(line, " ")
		fromC[name] = h
	}
	for name, req := range goldenRequests {
		t.Run(name, func(t *testing.T) {
			got, err := broker.Encode(req)
			if err != nil {
				t.Fatal(err)
			}
			want := golden(t, "request-"+name, got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Go encodes %x, golden %x", got, want)
			}
			if fromC[name] != hex.EncodeToString(want) {
				t.Errorf("C encodes %s, golden %x", fromC[name], want)
			}
			back, err := broker.DecodeRequest(want)
			if err != nil || !reflect.DeepEqual(back, req) {
				t.Errorf("decode golden = %+v, %v; want %+v", back, err, req)
			}
		})
	}
}

// TestGoldenHello: the hello response for a small fixed policy is stable,
// and the C side decides from it as the engine does.
func TestGoldenHello(t *testing.T) {
	p, err := policy.Parse("golden.yaml", []byte(`profile: golden
default: deny
filesystem:
  allow_read: ["${PROJECT}/**", /usr/**]
  allow_write: [/tmp/**]
  deny: [~/.ssh/**, {path: /usr/secret, errno: EACCES}]
  redact: ['**/.env']
`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(p, testVars)
	if err != nil {
		t.Fatal(err)
	}
	snap := broker.BuildSnapshot(e)
	got, err := broker.Encode(broker.Response{Type: broker.MsgHello, Version: broker.ProtoVersion, Snapshot: &snap})
	if err != nil {
		t.Fatal(err)
	}
	want := golden(t, "response-hello", got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hello encodes\n%x\ngolden\n%x", got, want)
	}
	f := filepath.Join(t.TempDir(), "hello")
	if err := os.WriteFile(f, want, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ op, path, want string }{
		{"stat", "/", "allow"},
		{"stat", "/home", "allow"},
		{"read", "/home", "deny ENOENT"},
		{"stat", "/home/u/p/x.go", "allow"},
		{"stat", "/home/u/p/.env", "redact"},
		{"stat", "/home/u/.env", "deny ENOENT"}, // redact narrows, never widens
		{"stat", "/home/u/.ssh/id_rsa", "deny ENOENT"},
		{"stat", "/usr/secret", "deny EACCES"},
		{"read", "/etc/passwd", "deny ENOENT"},
		{"read", "/tmp/a/b", "allow"},
	}
	var in strings.Builder
	for _, tt := range tests {
		in.WriteString(tt.op + " " + tt.path + "\n")
	}
	got2 := runDriver(t, driver(t), in.String(), "decide", f)
	for i, tt := range tests {
		if got2[i] != tt.want {
			t.Errorf("C: %s %s = %q, want %q", tt.op, tt.path, got2[i], tt.want)
		}
		d := e.Decide(policy.Op(tt.op), tt.path)
		engine := string(d.Action)
		if d.Action == policy.Deny {
			engine += " " + string(d.Errno)
		}
		if engine != tt.want {
			t.Errorf("engine: %s %s = %q, want %q", tt.op, tt.path, engine, tt.want)
		}
	}
}

// TestCDecoderOnCorruptInput feeds the C decoder mutations of the golden
// hello (flipped, cut and repeated bytes): it may refuse them, never crash.
func TestCDecoderOnCorruptInput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "response-hello.golden"))
	if err != nil {
		t.Fatal(err)
	}
	hello, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	add := func(b []byte) {
		f := filepath.Join(dir, fmt.Sprintf("%04d", len(files)))
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	add(hello)
	rng := rand.New(rand.NewPCG(6, 6))
	for i := 0; i < 400; i++ {
		b := append([]byte(nil), hello...)
		switch i % 4 {
		case 0: // flip a few bytes
			for k := 0; k < 1+rng.IntN(4); k++ {
				b[rng.IntN(len(b))] = byte(rng.IntN(256))
			}
		case 1: // cut
			b = b[:rng.IntN(len(b))]
		case 2: // a length byte set to its maximum
			b[rng.IntN(len(b))] = 0xff
		case 3: // a slice repeated
			at := rng.IntN(len(b))
			b = append(b[:at], append(append([]byte(nil), b[at:]...), b[at:]...)...)
		}
		add(b)
	}
	got := runDriver(t, driver(t), "", append([]string{"parse"}, files...)...)
	if got[0] != "ok" {
		t.Errorf("the golden hello itself: %s", got[0])
	}
	for i, g := range got {
		if g == "crash" {
			b, _ := os.ReadFile(files[i])
			t.Errorf("C decoder crashed on %x", b)
		}
	}
}
