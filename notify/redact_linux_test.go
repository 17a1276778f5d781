package notify

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/redact"
)

// TestRedactKeepsStructure reads redacted files with several tools: a .env
// keeps its keys and loses its values, a PEM under mode stub reads as the
// stub, and the served descriptor behaves like a file (mmap, fstat size).
func TestRedactKeepsStructure(t *testing.T) {
	s := newSandbox(t)
	env := filepath.Join(s.project, ".env")
	pem := filepath.Join(s.project, "key.pem")
	writeFile(t, env, "DATABASE_URL=postgres://CANARY-user:CANARY-pw@db/app\nDEBUG=1\n")
	writeFile(t, pem, "-----BEGIN PRIVATE KEY-----\nQ0FOQVJZ\n-----END PRIVATE KEY-----\n")
	s.policy.Redact = []string{env, pem}
	s.policy.RedactMode = map[string]string{pem: redact.ModeStub}
	stub := string(redact.Stub("redact:" + pem))
	mmap := "import mmap,os; f=open('%s','rb'); m=mmap.mmap(f.fileno(),0,prot=mmap.PROT_READ); print(m[:].decode()); print('size', os.fstat(f.fileno()).st_size)"
	tests := []struct {
		name    string
		argv    []string
		want    []string
		notWant string
	}{
		{name: "cat dotenv", argv: []string{"cat", ".env"}, want: []string{"DATABASE_URL=", "DEBUG="}, notWant: "CANARY"},
		{name: "python dotenv", argv: []string{"/usr/bin/python3", "-c", "print(open('.env').read())"}, want: []string{"DATABASE_URL="}, notWant: "CANARY"},
		{name: "node dotenv", argv: []string{"node", "-e", "process.stdout.write(require('fs').readFileSync('.env','utf8'))"}, want: []string{"DATABASE_URL="}, notWant: "CANARY"},
		{name: "pem stub mode", argv: []string{"cat", "key.pem"}, want: []string{stub}, notWant: "Q0FOQVJZ"},
		{name: "mmap and fstat of stub", argv: []string{"/usr/bin/python3", "-c", strings.ReplaceAll(mmap, "%s", "key.pem")},
			want: []string{stub, "size " + strconv.Itoa(len(stub))}, notWant: "Q0FOQVJZ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.argv[0]); err != nil {
				t.Skipf("needs %s: %v", tt.argv[0], err)
			}
			got := s.run(t, tt.argv...)
			for _, w := range tt.want {
				if !strings.Contains(got.stdout, w) {
					t.Errorf("stdout %q, want it to contain %q (stderr %q)", got.stdout, w, got.stderr)
				}
			}
			if strings.Contains(got.stdout+got.stderr, tt.notWant) {
				t.Errorf("output contains %q: %q %q", tt.notWant, got.stdout, got.stderr)
			}
		})
	}
	got := s.run(t, "bash", "-c", "echo x >> .env")
	if got.code == 0 {
		t.Errorf("append to redacted file succeeded")
	}
}

// TestRedactFIFOServesStub puts a FIFO with no writer at a redacted path:
// the broker must not block reading it, and serves the stub.
func TestRedactFIFOServesStub(t *testing.T) {
	s := newSandbox(t)
	fifo := filepath.Join(s.project, ".env")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	s.policy.Redact = []string{fifo}
	got := s.run(t, "cat", ".env")
	if want := string(redact.Stub("redact:" + fifo)); got.stdout != want {
		t.Errorf("stdout %q, want %q (stderr %q)", got.stdout, want, got.stderr)
	}
}
