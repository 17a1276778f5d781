package adversarial

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// e2eUser is the unprivileged account the suite runs as when the tests
// run as root (the same one cmd/aixbroker's end-to-end tests create).
const e2eUser = "aixbroker-e2e"

// TestFastSubset runs the cases marked "fast: yes" against a freshly built
// aixbroker, as the current user or, as root, as an unprivileged user. A
// leak or a failing legitimate operation fails the test unless FINDINGS.md
// records it ("known:"); `make test-adversarial` runs everything.
func TestFastSubset(t *testing.T) {
	if testing.Short() {
		t.Skip("the adversarial suite starts a sandbox per case; skipped with -short")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is needed to build the C attacks")
	}
	var cases []Case
	for _, k := range []Kind{Attack, Legit} {
		all, err := Load(".", k)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			if c.Fast {
				cases = append(cases, c)
			}
		}
	}
	r := &Runner{Bin: buildBroker(t), Dir: mustAbs(t, ".")}
	if err := r.Compile(cases, sharedTempDir(t)); err != nil {
		t.Fatal(err)
	}
	for _, who := range accounts(t) {
		name := "self"
		if who != nil {
			name = "unprivileged"
		}
		t.Run(name, func(t *testing.T) {
			r.User = who
			parent, err := WorldParent(who)
			if err != nil {
				t.Fatal(err)
			}
			r.Parent = parent
			var results []Result
			for _, c := range cases {
				res := r.Run(c)
				results = append(results, res)
				switch {
				case res.Failed() && c.Known != "":
					t.Logf("%s: %s (%s)", c.Name, res.Verdict, res.Detail)
				case res.Failed():
					t.Errorf("%s: %s: %s: %s", c.Name, res.Verdict, c.Technique, res.Detail)
				}
			}
			var b strings.Builder
			Report(&b, results)
			t.Log("\n" + b.String())
		})
	}
}

// buildBroker builds cmd/aixbroker into a directory every user can read.
func buildBroker(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(sharedTempDir(t), "aixbroker")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/aixbroker").CombinedOutput()
	if err != nil {
		t.Fatalf("build aixbroker: %v\n%s", err, out)
	}
	return bin
}

// sharedTempDir is a temporary directory the unprivileged user can read
// (t.TempDir's parent is private).
func sharedTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "aixadv-bin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// accounts is who runs the sandboxes: the current user, or as root an
// unprivileged one (real users are not root; the full suite runs as both).
func accounts(t *testing.T) []*Account {
	t.Helper()
	if os.Geteuid() != 0 {
		return []*Account{nil}
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
	return []*Account{{Name: e2eUser, UID: uid, GID: gid}}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
