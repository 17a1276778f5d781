package main

// End-to-end tests of `aixbroker exec`: the real binary, the built-in
// profiles, the real kernel. Each case runs as the current user and, when
// the tests run as root, again as an unprivileged user, because real users
// are not root.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// e2eUser is the unprivileged account the suite creates when run as root.
const e2eUser = "aixbroker-e2e"

var e2eBinary string // built once by buildBinary

// buildBinary builds cmd/aixbroker into a world-readable temp dir.
func buildBinary(t *testing.T) string {
	t.Helper()
	if e2eBinary != "" {
		return e2eBinary
	}
	dir, err := os.MkdirTemp("", "aixbroker-bin-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "aixbroker")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build aixbroker: %v\n%s", err, out)
	}
	e2eBinary = bin
	return bin
}

// account is who runs the sandbox in one subtest.
type account struct {
	name     string
	uid, gid int // -1: the current user, no switch
}

// accounts returns the current user and, as root, an unprivileged one.
func accounts(t *testing.T) []account {
	t.Helper()
	list := []account{{name: "self", uid: -1, gid: -1}}
	if os.Geteuid() != 0 {
		return list
	}
	u, err := user.Lookup(e2eUser)
	if err != nil {
		if out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/bin/sh", e2eUser).CombinedOutput(); err != nil {
			t.Fatalf("useradd %s: %v\n%s", e2eUser, err, out)
		}
		if u, err = user.Lookup(e2eUser); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return append(list, account{name: "unprivileged", uid: uid, gid: gid})
}

// world is a fake HOME with canary secrets and a project inside it.
type world struct {
	home, project string
	canaries      map[string]string // path → secret content
}

func newWorld(t *testing.T, who account) world {
	t.Helper()
	root, err := os.MkdirTemp(e2eParent(t), "aixbroker-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	w := world{home: filepath.Join(root, "home"), canaries: map[string]string{}}
	w.project = filepath.Join(w.home, "proj")
	tag := strconv.FormatInt(time.Now().UnixNano(), 36)
	files := map[string]string{
		".ssh/id_rsa":           "CANARY-SSH-" + tag,
		".ssh/id_ed25519":       "CANARY-ED-" + tag,
		".aws/credentials":      "[default]\naws_secret_access_key = CANARY-AWS-" + tag + "\n",
		"Documents/notes.txt":   "CANARY-DOC-" + tag,
		"other-project/.env":    "TOKEN=CANARY-OTHER-" + tag,
		"proj/.env":             "DATABASE_URL=postgres://CANARY-ENV-" + tag + "\n",
		"proj/README.md":        "hello from the project\n",
		".ssh/known_hosts":      "github.com ssh-ed25519 AAAA\n",
		".gitconfig":            "[user]\n\tname = e2e\n\temail = e2e@example.invalid\n",
		"proj/src/main.c":       "int main(void){return 0;}\n",
		"proj/tools/secret.pem": "-----BEGIN PRIVATE KEY-----\nCANARY-PEM-" + tag + "\n-----END PRIVATE KEY-----\n",
	}
	for rel, content := range files {
		p := filepath.Join(w.home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(content, "CANARY") {
			w.canaries[p] = content
		}
	}
	// Hard links made before the session to denied files, one named by a
	// literal glob and one below a denied folder (~/.aws/**).
	for link, target := range map[string]string{"proj/keylink": ".ssh/id_rsa", "proj/awslink": ".aws/credentials"} {
		if err := os.Link(filepath.Join(w.home, target), filepath.Join(w.home, link)); err != nil {
			t.Fatal(err)
		}
	}
	if who.uid >= 0 {
		if err := os.Chmod(root, 0o755); err != nil {
			t.Fatal(err)
		}
		err := filepath.Walk(w.home, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, who.uid, who.gid)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return w
}

type runResult struct {
	stdout, stderr string
	code           int
}

// run executes `aixbroker exec --quiet ARGS` as who, in the world.
func (w world) run(t *testing.T, who account, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bin := buildBinary(t)
	full := append([]string{bin, "exec", "--quiet", "--audit", filepath.Join(w.home, ".aixgate", "audit.jsonl"), "--"}, args...)
	cmd := exec.CommandContext(ctx, full[0], full[1:]...)
	cmd.Dir = w.project
	cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/go/bin", "LANG=C.UTF-8", "TMPDIR=/tmp"}
	if who.uid >= 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(who.uid), Gid: uint32(who.gid)}}
	}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %v: %v", args, err)
	}
	return runResult{stdout: so.String(), stderr: se.String(), code: code}
}

// noCanary fails if any canary secret shows in the output.
func (w world) noCanary(t *testing.T, r runResult) {
	t.Helper()
	for path, secret := range w.canaries {
		for _, line := range strings.Split(secret, "\n") {
			if i := strings.Index(line, "CANARY"); i >= 0 {
				c := line[i:]
				if strings.Contains(r.stdout, c) || strings.Contains(r.stderr, c) {
					t.Errorf("secret of %s leaked:\nstdout: %s\nstderr: %s", path, r.stdout, r.stderr)
				}
			}
		}
	}
}

func TestExecMilestones(t *testing.T) {
	tests := []struct {
		name       string
		script     string
		wantCode   int
		wantOut    string // substring of stdout
		wantErr    string // substring of stderr
		wantNotOut string
	}{
		{name: "ssh key hidden", script: "cat ~/.ssh/id_rsa", wantCode: 1, wantErr: "No such file or directory"},
		{name: "aws credentials hidden", script: "cat ~/.aws/credentials", wantCode: 1, wantErr: "No such file or directory"},
		{name: "dotenv held in a subshell", script: `bash -c "cat .env"`, wantOut: "DATABASE_URL"},
		{name: "ssh folder hidden", script: "ls -a ~/.ssh", wantCode: 2, wantErr: "No such file or directory"},
		{name: "documents hidden", script: "cat ~/Documents/notes.txt", wantCode: 1, wantErr: "No such file or directory"},
		{name: "other projects hidden", script: "cat ~/other-project/.env", wantCode: 1, wantErr: "No such file or directory"},
		{name: "pem in project redacted", script: "cat tools/secret.pem", wantOut: "redacted by aixbroker"},
		{name: "write outside project refused", script: "echo x > ~/outside.txt", wantCode: 1, wantErr: "Permission denied"},
		{name: "project readable", script: "cat README.md", wantOut: "hello from the project"},
		{name: "own descriptor does not reach the key", script: `exec 9<. && cat /proc/self/fd/9/../.ssh/id_rsa`, wantCode: 1, wantErr: "No such file or directory"},
		{name: "hard link to a denied key", script: "cat keylink", wantCode: 1, wantErr: "No such file or directory"},
		{name: "hard link into a denied folder", script: "cat awslink", wantCode: 1, wantErr: "No such file or directory"},
		{name: "exit status kept", script: "exit 7", wantCode: 7},
		{name: "sandbox marker", script: `echo "active=$AIXGATE_ACTIVE"`, wantOut: "active=1"},
	}
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					r := w.run(t, who, "/bin/bash", "-c", tt.script)
					if r.code != tt.wantCode {
						t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.wantCode, r.stdout, r.stderr)
					}
					if !strings.Contains(r.stdout, tt.wantOut) {
						t.Errorf("stdout %q does not contain %q (stderr %q)", r.stdout, tt.wantOut, r.stderr)
					}
					if !strings.Contains(r.stderr, tt.wantErr) {
						t.Errorf("stderr %q does not contain %q", r.stderr, tt.wantErr)
					}
					if tt.wantNotOut != "" && strings.Contains(r.stdout, tt.wantNotOut) {
						t.Errorf("stdout %q contains %q", r.stdout, tt.wantNotOut)
					}
					w.noCanary(t, r)
				})
			}
		})
	}
}

// TestExecRealWork runs what an agent does all day, in the project.
func TestExecRealWork(t *testing.T) {
	steps := []struct {
		name, script, wantOut string
		needs                 string // a command that must exist on the machine
	}{
		// generic keeps the project's .git, .git/config and hooks read-only,
		// so a repository cannot be created at the project root; one in a
		// subdirectory can.
		{name: "git", needs: "git", script: "git init -q w && cp -r README.md src w && cd w && git add README.md src && git commit -qm first && git status --short && git log --oneline | wc -l", wantOut: "1"},
		{name: "git init at the project root refused", needs: "git", script: "git init -q . 2>/dev/null || echo refused", wantOut: "refused"},
		{name: "edit rename delete", script: "echo a > a.txt && sed -i s/a/b/ a.txt && mv a.txt b.txt && mkdir -p d/e && cp b.txt d/e/c.txt && ln -s b.txt link && cat link d/e/c.txt && rm -r d b.txt link && ls", wantOut: "b\nb\n"},
		{name: "pipes and subshells", script: "(echo one; echo two) | sort -r | head -1 && echo $(echo nested)", wantOut: "two\nnested"},
		{name: "python", needs: "python3", script: `python3 -c "import json,os; open('o.json','w').write(json.dumps({'k':1})); print(open('o.json').read()); os.remove('o.json')"`, wantOut: `{"k": 1}`},
		{name: "node", needs: "node", script: `node -e "const fs=require('fs'); fs.writeFileSync('n.txt','node ok'); console.log(fs.readFileSync('n.txt','utf8')); fs.unlinkSync('n.txt')"`, wantOut: "node ok"},
		{name: "gcc and make", needs: "gcc", script: "printf 'all:\\n\\tgcc -o /tmp/e2e-$$ src/main.c && /tmp/e2e-$$ && echo built && rm /tmp/e2e-$$\\n' > Makefile && make -s && rm Makefile", wantOut: "built"},
		{name: "paths through own descriptors (Bun)", needs: "python3", script: `python3 -c "
import os
d = os.open('.', os.O_RDONLY | os.O_DIRECTORY)
fd = os.open(f'/proc/self/fd/{d}/bun.txt', os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o644)
os.write(fd, b'bun ok'); os.close(fd)
os.mkdir(f'/proc/self/fd/{d}/bundir')
os.rename(f'/proc/self/fd/{d}/bun.txt', f'/dev/fd/{d}/bundir/b.txt')
print(open(f'/proc/thread-self/fd/{d}/bundir/b.txt').read())
os.unlink(f'/proc/self/fd/{d}/bundir/b.txt'); os.rmdir(f'/proc/self/fd/{d}/bundir')
"`, wantOut: "bun ok"},
		{name: "tmp is writable", script: "f=$(mktemp) && echo tmp > $f && cat $f && rm $f", wantOut: "tmp"},
	}
	for _, who := range accounts(t) {
		t.Run(who.name, func(t *testing.T) {
			w := newWorld(t, who)
			for _, s := range steps {
				t.Run(s.name, func(t *testing.T) {
					if s.needs != "" {
						if _, err := exec.LookPath(s.needs); err != nil {
							t.Skipf("%s is not installed on this machine", s.needs)
						}
					}
					r := w.run(t, who, "/bin/bash", "-c", "set -e; "+s.script)
					if r.code != 0 || !strings.Contains(r.stdout, s.wantOut) {
						t.Errorf("exit %d, stdout %q, want %q\nstderr: %s", r.code, r.stdout, s.wantOut, r.stderr)
					}
					w.noCanary(t, r)
				})
			}
		})
	}
}

// TestExecAudit checks that a session leaves a verifiable audit log naming
// the denied path and its rule.
func TestExecAudit(t *testing.T) {
	who := account{name: "self", uid: -1, gid: -1}
	w := newWorld(t, who)
	r := w.run(t, who, "/bin/cat", filepath.Join(w.home, ".ssh/id_rsa"))
	if r.code == 0 {
		t.Fatalf("cat of the key succeeded: %s", r.stdout)
	}
	log := filepath.Join(w.home, ".aixgate", "audit.jsonl")
	out, err := exec.Command(buildBinary(t), "audit", "verify", log).CombinedOutput()
	if err != nil {
		t.Fatalf("audit verify: %v\n%s", err, out)
	}
	out, err = exec.Command(buildBinary(t), "audit", "query", "--file", log, "--denied-only", "--json").CombinedOutput()
	if err != nil {
		t.Fatalf("audit query: %v\n%s", err, out)
	}
	want := fmt.Sprintf(`"path":%q`, filepath.Join(w.home, ".ssh/id_rsa"))
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), `"decision":"deny"`) {
		t.Errorf("audit has no denial of the key (%s):\n%s", want, out)
	}
}

func TestOnPseudoFS(t *testing.T) {
	tests := []struct {
		glob string
		want bool
	}{
		{glob: "/proc/*/environ", want: true},
		{glob: "/proc/*/task/*/environ", want: true},
		{glob: "/sys/kernel/*", want: true},
		{glob: "/etc/ssh/ssh_host_*_key", want: false},
		{glob: "/etc/shadow", want: false},
		{glob: "/nonexistent/*/x", want: false},
	}
	for _, tt := range tests {
		if got := onPseudoFS(tt.glob); got != tt.want {
			t.Errorf("onPseudoFS(%q) = %v, want %v", tt.glob, got, tt.want)
		}
	}
}

// TestExecOpenUnderSignals: brokered opens stay correct while the
// supervisor's threads are hit by signals (Go preempts with SIGURG). An
// interrupted SECCOMP_IOCTL_NOTIF_ADDFD with FLAG_SEND used to make the
// target's open return 0, its stdin, instead of the file.
func TestExecOpenUnderSignals(t *testing.T) {
	who := account{name: "self", uid: -1, gid: -1}
	w := newWorld(t, who)
	const n = 300
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		if err := os.WriteFile(filepath.Join(w.project, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf(`import os
bad = 0
for r in range(4):
    for i in range(%d):
        p = f"f{i}"
        fd = os.open(p, os.O_RDONLY)
        if os.read(fd, 64) != p.encode():
            bad += 1
        os.close(fd)
print("bad", bad)
`, n)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed on this machine")
	}
	cmd := exec.Command(buildBinary(t), "exec", "--quiet", "--audit", filepath.Join(w.home, ".aixgate", "audit.jsonl"), "--", "python3", "-c", script)
	cmd.Dir = w.project
	cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pid := cmd.Process.Pid
	for sent := 0; ; sent++ {
		select {
		case err := <-done:
			if err != nil || !strings.Contains(out.String(), "bad 0") {
				t.Fatalf("opens under signals: %v, %s (after %d rounds of SIGURG)", err, out.String(), sent)
			}
			return
		default:
		}
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		for _, task := range tasks {
			if tid, err := strconv.Atoi(task.Name()); err == nil {
				_ = syscall.Tgkill(pid, tid, syscall.SIGURG)
			}
		}
	}
}
