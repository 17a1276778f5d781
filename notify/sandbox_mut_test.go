//go:build linux

package notify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/policy"
)

// sandboxDecider is the stand-in policy of the sandboxed tests: reads and
// exec anywhere, changes only under the project and /dev/null, secrets
// (files named id_rsa) denied for everything.
type sandboxDecider struct{ project string }

func (d sandboxDecider) Decide(op policy.Op, path string) policy.Decision {
	if filepath.Base(path) == "id_rsa" {
		return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: policy.Rule{List: "deny", Pattern: "id_rsa"}}
	}
	if op == policy.OpRead || op == policy.OpStat || op == policy.OpExec ||
		path == d.project || strings.HasPrefix(path, d.project+"/") || path == "/dev/null" {
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow"}}
	}
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: policy.Rule{List: "default"}}
}

func (sandboxDecider) DecideExec(string, []string) policy.Decision {
	return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "exec.allow"}}
}

// mutScript runs in the sandbox with $P the project, $S the secret and $O
// a directory outside the project. Each step prints a word the test looks
// for; a step expected to fail prints its word only when it failed.
const mutScript = `
cd "$P" || exit 90
git init -q . && git config user.email t@example.com && git config user.name t && echo git-init
echo hello > a.txt && git add a.txt && git commit -qm first && echo git-commit
test -z "$(git status --porcelain)" && echo git-status-clean
mkdir sub && echo mkdir
mv a.txt sub/b.txt && echo mv
ln sub/b.txt hard && echo ln
ln -s sub/b.txt soft && echo symlink
chmod 600 sub/b.txt && echo chmod
rm hard && echo rm
mkdir empty && rmdir empty && echo rmdir
git add -A && git commit -qm second && echo git-commit-2
mv "$S" "$P/stolen" 2>/dev/null || echo refused-mv-secret
ln "$S" "$P/stolen" 2>/dev/null || echo refused-ln-secret
touch "$O/x" 2>"$P/err"; grep -q "Permission denied" "$P/err" && echo refused-write-outside
mv sub/b.txt "$O/b.txt" 2>/dev/null || echo refused-mv-outside
mkdir -p "$P/deep/er" && echo mkdir-p
rm -f "$O/missing" && echo rm-f-missing
`

func TestSandboxedMutations(t *testing.T) {
	for _, tool := range []string{"git", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, outside, home := filepath.Join(base, "proj"), filepath.Join(base, "outside"), filepath.Join(base, "home")
	for _, d := range []string{proj, outside, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(home, "id_rsa")
	if err := os.WriteFile(secret, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := os.CreateTemp(base, "out")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rec := &eventLog{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	status, err := Run(ctx, Config{
		Argv:   []string{"sh", "-c", mutScript},
		Env:    []string{"PATH=/usr/bin:/bin", "HOME=" + home, "P=" + proj, "S=" + secret, "O=" + outside, "GIT_CONFIG_NOSYSTEM=1"},
		Dir:    proj,
		Stdout: w, Stderr: w,
		Broker: broker.New(sandboxDecider{project: proj}, rec),
		Landlock: landlock.Roots{
			Read: []string{"/"}, Write: []string{proj, "/dev/null"}, Exec: []string{"/"},
		},
	})
	data, _ := os.ReadFile(w.Name())
	out.Write(data)
	if err != nil {
		t.Fatalf("run: %v (status %d)\n%s", err, status, out.String())
	}
	for _, word := range []string{
		"git-init", "git-commit", "git-status-clean", "mkdir", "mv", "ln", "symlink", "chmod", "rm", "rmdir",
		"git-commit-2", "refused-mv-secret", "refused-ln-secret", "refused-write-outside", "refused-mv-outside",
		"mkdir-p", "rm-f-missing",
	} {
		if !strings.Contains(out.String()+"\n", "\n"+word+"\n") && !strings.HasPrefix(out.String(), word+"\n") {
			t.Errorf("step %s did not report success", word)
		}
	}
	if t.Failed() {
		t.Logf("sandbox output (status %d):\n%s", status, out.String())
	}
	if data, err := os.ReadFile(secret); err != nil || string(data) != "KEY" {
		t.Errorf("secret changed: %q, %v", data, err)
	}
	for _, name := range []string{filepath.Join(proj, "stolen"), filepath.Join(outside, "x"), filepath.Join(outside, "b.txt")} {
		if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists after a refused operation (%v)", name, err)
		}
	}
	if ev, ok := rec.find(policy.OpRename, secret); !ok || ev.Decision.Allowed() {
		t.Errorf("audit: no refused rename of the secret recorded")
	}
}
