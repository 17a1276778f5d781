package interposer

// End-to-end: the real binary, the generic profile, the library preloaded
// into real programs. The commands of issue 6's "Show" list must agree that
// denied files do not exist, redacted files must show the stub's size, and
// everyday tools must behave exactly as they do without the library.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// sandbox is a throwaway home with a denied key and a redacted .env, and
// the aixbroker binary built from this tree.
type sandbox struct {
	bin, home, project string
}

func newSandbox(t *testing.T) sandbox {
	t.Helper()
	if os.Getenv("AIXBROKER_E2E") == "0" {
		t.Skip("AIXBROKER_E2E=0")
	}
	root := t.TempDir()
	binOnce.Do(func() { binPath, binErr = buildBinary() })
	if binErr != nil {
		t.Fatal(binErr)
	}
	s := sandbox{bin: binPath, home: filepath.Join(root, "home"), project: filepath.Join(root, "home", "p")}
	files := map[string]string{
		".ssh/id_rsa":      "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n",
		".ssh/known_hosts": "example.com ssh-ed25519 AAAA\n",
		"p/.env":           "API_KEY=supersecretvalue123\n",
		"p/main.c":         "int main(void) { return 0; }\n",
		"p/Makefile":       "all:\n\t@echo made\n",
	}
	for name, content := range files {
		p := filepath.Join(s.home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// buildBinary builds cmd/aixbroker once for the package's tests.
func buildBinary() (string, error) {
	dir, err := os.MkdirTemp("", "aixbroker-interposer-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "aixbroker")
	build := exec.Command("go", "build", "-o", bin, "../cmd/aixbroker")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build aixbroker: %w\n%s", err, out)
	}
	return bin, nil
}

// run runs script with bash in the sandbox and returns its output and exit
// status.
func (s sandbox) run(t *testing.T, interposer string, script string) (string, int) {
	t.Helper()
	return s.runFlags(t, []string{"--interposer", interposer}, script)
}

// runFlags is run with other flags for aixbroker exec.
func (s sandbox) runFlags(t *testing.T, flags []string, script string) (string, int) {
	t.Helper()
	argv := append([]string{"exec", "--quiet", "--profile", "generic"}, flags...)
	argv = append(argv, "--audit", filepath.Join(s.home, "..", "audit.jsonl"), "--", "/bin/bash", "-c", script)
	cmd := exec.Command(s.bin, argv...)
	cmd.Dir = s.project
	cmd.Env = []string{"HOME=" + s.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("run %q: %v\n%s", script, err, out.String())
	}
	return out.String(), 0
}

func need(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s not installed", c)
		}
	}
}

func TestShowDeniedFilesDoNotExist(t *testing.T) {
	need(t, "python3", "node")
	s := newSandbox(t)
	key := filepath.Join(s.home, ".ssh", "id_rsa")
	tests := []struct {
		name, script, want string
	}{
		{"ls", "ls -a ~/.ssh", ".\n..\nknown_hosts\n"},
		{"find", "find ~ -name 'id_*'", ""},
		{"test", "test -e ~/.ssh/id_rsa && echo yes || echo no", "no\n"},
		{"python", "python3 -c \"import os; print(os.path.exists('" + key + "'))\"", "False\n"},
		{"node", "node -e \"console.log(require('fs').existsSync('" + key + "'))\"", "false\n"},
		{"stat", "stat " + key + " 2>&1 | grep -c 'No such file'", "1\n"},
		{"read", "cat " + key + " 2>&1 | grep -c 'No such file'", "1\n"},
		{"python child, descriptors closed", "python3 -c \"import os, subprocess; subprocess.run(['ls', '-a', os.environ['HOME'] + '/.ssh'])\"", ".\n..\nknown_hosts\n"},
		{"redacted exists", "test -e .env && echo yes", "yes\n"},
		{"python redacted", "python3 -c \"import os; print(os.path.exists('.env'))\"", "True\n"},
		{"node redacted", "node -e \"console.log(require('fs').existsSync('.env'))\"", "true\n"},
		{"stub size", "[ \"$(stat -c %s .env)\" = \"$(cat .env | wc -c)\" ] && echo same", "same\n"},
		{"ls -la size", "[ \"$(ls -la .env | awk '{print $5}')\" = \"$(cat .env | wc -c)\" ] && echo same", "same\n"},
		{"stat and fstat agree", statFstat, "same\n"},
		{"cp redacted (FINDINGS FP1)", "cp .env envcopy && grep -c supersecret envcopy", "0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := s.run(t, "on", tt.script)
			if got != tt.want {
				t.Errorf("%s:\n got %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// statFstat compares stat of .env with fstat of .env opened: the stub's
// device and inode in both, so cp and rsync do not see a file "replaced
// while being copied".
const statFstat = `[ "$(stat -c %d:%i .env)" = "$(python3 -c "import os; f = open('.env'); s = os.fstat(f.fileno()); print(f'{s.st_dev}:{s.st_ino}')")" ] && echo same`

// TestStatTrap hides denied names with the seccomp stat trap alone (no
// library): a child started without LD_PRELOAD sees the same.
func TestStatTrap(t *testing.T) {
	need(t, "python3")
	s := newSandbox(t)
	key := filepath.Join(s.home, ".ssh", "id_rsa")
	tests := []struct {
		name, script, want string
	}{
		{"test", "test -e " + key + " && echo yes || echo no", "no\n"},
		{"stat", "stat " + key + " 2>&1 | grep -c 'No such file'", "1\n"},
		{"python", "python3 -c \"import os; print(os.path.exists('" + key + "'))\"", "False\n"},
		{"stub size", "[ \"$(stat -c %s .env)\" = \"$(cat .env | wc -c)\" ] && echo same", "same\n"},
		{"stat and fstat agree", statFstat, "same\n"},
		{"cp redacted (FINDINGS FP1)", "cp .env envcopy && grep -c supersecret envcopy", "0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := s.runFlags(t, []string{"--interposer", "off", "--stat-trap", "on"}, tt.script)
			if got != tt.want {
				t.Errorf("%s:\n got %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// TestToolsUnchanged runs everyday tools with and without the library: the
// output and exit status must be the same.
func TestToolsUnchanged(t *testing.T) {
	need(t, "git", "python3", "node", "make", "gcc")
	s := newSandbox(t)
	scripts := []string{
		"git init -q r && cd r && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x && git log --format=%s && git status --short; cd .. && rm -rf r",
		"python3 -c 'import json, os, subprocess; print(json.dumps(sorted(os.listdir(\".\"))), subprocess.run([\"echo\", \"hi\"], capture_output=True).stdout)'",
		"node -e 'const cp = require(\"child_process\"); console.log(require(\"fs\").readdirSync(\".\").sort().join(\",\"), cp.execSync(\"echo hi\").toString())'",
		"bash -c 'for f in *; do echo $f; done; type ls; echo $((6*7))'",
		"make -s",
		"gcc -o /tmp/aixbroker-e2e-hello main.c && /tmp/aixbroker-e2e-hello && echo built; rm -f /tmp/aixbroker-e2e-hello",
	}
	for _, script := range scripts {
		off, offStatus := s.run(t, "off", script)
		on, onStatus := s.run(t, "on", script)
		if on != off || onStatus != offStatus {
			t.Errorf("%s\nwithout library (%d): %q\nwith library    (%d): %q", script, offStatus, off, onStatus, on)
		}
	}
}

// TestSkippingTheLibraryKeepsProtection: a child started without
// LD_PRELOAD, and a static binary, lose the consistent view, never the
// protection: the broker still refuses the key.
func TestSkippingTheLibraryKeepsProtection(t *testing.T) {
	need(t, "gcc")
	s := newSandbox(t)
	src := filepath.Join(s.project, "rd.c")
	prog := `#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int c, char **v) { char b[64]; int fd = open(v[1], O_RDONLY); if (fd < 0) { perror("open"); return 1; }
printf("%d bytes\n", (int)read(fd, b, sizeof b)); return 0; }
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	static := filepath.Join(s.project, "rd")
	if out, err := exec.Command("gcc", "-static", "-o", static, src).CombinedOutput(); err != nil {
		t.Skipf("no static libc: %v\n%s", err, out)
	}
	key := filepath.Join(s.home, ".ssh", "id_rsa")
	// The broker's errno for the key depends on how it matched (name:
	// ENOENT, a known inode: EACCES); either way the open fails.
	refused := "(No such file or directory|Permission denied)"
	tests := []struct {
		name, script, want string
	}{
		{"static binary", "./rd " + key, "^open: " + refused + "\n$"},
		{"unset LD_PRELOAD", "env -u LD_PRELOAD cat " + key, "^cat: " + key + ": " + refused + "\n$"},
		{"unset LD_PRELOAD lists", "env -u LD_PRELOAD ls -a ~/.ssh", "id_rsa"}, // only the view is lost
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := s.run(t, "on", tt.script)
			if !regexp.MustCompile(tt.want).MatchString(got) || strings.Contains(got, "secret") {
				t.Errorf("%s:\n got %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// TestExecHint: the command line a process executes reaches the audit as
// a hint.
func TestExecHint(t *testing.T) {
	s := newSandbox(t)
	if out, status := s.run(t, "on", "/bin/echo hint-marker >/dev/null"); status != 0 {
		t.Fatalf("run: %d %s", status, out)
	}
	log, err := os.ReadFile(filepath.Join(s.home, "..", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `"decision":"hint","agent_cmd":"/bin/bash","cmd":["/bin/echo","hint-marker"]`
	if !strings.Contains(string(log), want) {
		t.Errorf("audit has no hint %s:\n%s", want, log)
	}
}

// TestThreadsAndFork: threads racing the snapshot load and forking get the
// right answer every time, with errno preserved.
func TestThreadsAndFork(t *testing.T) {
	need(t, "gcc")
	s := newSandbox(t)
	prog := filepath.Join(s.project, "threads")
	if out, err := exec.Command("gcc", "-O2", "-pthread", "-o", prog, "testdriver/threads.c").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	got, _ := s.run(t, "on", "./threads "+filepath.Join(s.home, ".ssh", "id_rsa")+" "+filepath.Join(s.project, "main.c"))
	if got != "bad 0\n" {
		t.Errorf("threads: %q, want %q", got, "bad 0\n")
	}
}
