package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// callerWalkScript drops to uid/gid 65534 and tries every kind of path
// operation through a root-owned 0700 directory (argv[1]), printing each
// errno. The same script runs natively and sandboxed.
const callerWalkScript = `import os, sys
d = sys.argv[1]
out = sys.argv[2]
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
def attempt(label, f):
    try:
        f()
        print(label, "ok")
    except OSError as e:
        print(label, "errno=%d" % e.errno)
attempt("open", lambda: os.close(os.open(d + "/file", os.O_RDONLY)))
attempt("open write", lambda: os.close(os.open(d + "/open-file", os.O_WRONLY)))
attempt("open dot-dot", lambda: os.close(os.open(d + "/sub/../file", os.O_RDONLY)))
attempt("open O_PATH", lambda: os.close(os.open(d + "/file", os.O_PATH)))
attempt("open relative", lambda: os.close(os.open(os.path.basename(d) + "/file", os.O_RDONLY)))
attempt("creat", lambda: os.close(os.open(d + "/new", os.O_WRONLY | os.O_CREAT, 0o666)))
attempt("creat nested", lambda: os.close(os.open(d + "/sub/new", os.O_WRONLY | os.O_CREAT, 0o666)))
attempt("stat", lambda: os.stat(d + "/file"))
attempt("access", lambda: os.access(d + "/file", os.R_OK) or (_ for _ in ()).throw(OSError(13, "no")))
attempt("readlink", lambda: os.readlink(d + "/link"))
attempt("getxattr", lambda: os.getxattr(d + "/file", "user.a"))
attempt("listxattr", lambda: os.listxattr(d + "/file"))
attempt("mkdir", lambda: os.mkdir(d + "/sub/newdir"))
attempt("unlink", lambda: os.unlink(d + "/sub/victim"))
attempt("rmdir", lambda: os.rmdir(d + "/sub/emptydir"))
attempt("rename out", lambda: os.rename(d + "/sub/victim", out + "/stolen"))
attempt("rename in", lambda: os.rename(out + "/mine", d + "/sub/planted"))
attempt("link out", lambda: os.link(d + "/sub/victim", out + "/linked"))
attempt("symlink in", lambda: os.symlink("x", d + "/sub/sym"))
attempt("chmod", lambda: os.chmod(d + "/sub/victim", 0o777))
attempt("truncate", lambda: os.truncate(d + "/sub/victim", 0))
attempt("utime", lambda: os.utime(d + "/sub/victim"))
attempt("chdir", lambda: os.chdir(d + "/sub"))
attempt("rename in sticky", lambda: os.rename(out + "/sticky/rootfile", out + "/sticky/moved"))
attempt("rename out of sticky", lambda: os.rename(out + "/sticky/rootfile", out + "/moved"))
attempt("unlink in sticky", lambda: os.unlink(out + "/sticky/rootfile"))
attempt("rename over in sticky", lambda: os.rename(out + "/mine", out + "/sticky/rootfile"))
attempt("exec", lambda: os.execv(d + "/tool", [d + "/tool"]))
`

// TestCallerWalkRights (issue 14 item 12): once a sandboxed thread has
// dropped to another user, every component of every path is searched with
// its credentials, not the broker's: each operation through a root-owned
// 0700 directory answers EACCES exactly as natively, run side by side
// (pjdfstest open/05.t test 7, rename/21.t test 5 show the same class).
func TestCallerWalkRights(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("dropping to another user needs root")
	}
	s := newSandbox(t)
	// Everyone may reach the project and write in out/; only root may
	// search private/.
	for p := s.project; p != "/"; p = filepath.Dir(p) {
		if strings.HasPrefix(p, os.TempDir()+"/") {
			os.Chmod(p, 0o755)
		}
	}
	priv := filepath.Join(s.project, "private")
	out := filepath.Join(s.project, "out")
	for _, d := range []string{priv, filepath.Join(priv, "sub"), filepath.Join(priv, "sub", "emptydir"), out} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
	}
	os.Chmod(priv, 0o700)
	for _, f := range []string{"file", "open-file", "sub/victim"} {
		writeFile(t, filepath.Join(priv, f), "private\n")
		os.Chmod(filepath.Join(priv, f), 0o666)
	}
	writeFile(t, filepath.Join(priv, "tool"), "#!/bin/sh\necho ran\n")
	os.Chmod(filepath.Join(priv, "tool"), 0o755)
	os.Symlink("file", filepath.Join(priv, "link"))
	sticky := filepath.Join(out, "sticky")
	os.Mkdir(sticky, 0o777)
	unix.Chmod(sticky, 0o1777) // os.Chmod takes os.ModeSticky, not 0o1000
	writeFile(t, filepath.Join(sticky, "rootfile"), "root's\n")
	os.Chmod(filepath.Join(sticky, "rootfile"), 0o666)
	reset := func() {
		writeFile(t, filepath.Join(out, "mine"), "mine\n")
		os.Chmod(filepath.Join(out, "mine"), 0o666)
		os.Chown(filepath.Join(out, "mine"), 65534, 65534)
	}
	reset()
	s.execRoots = []string{priv}
	control := exec.Command("/usr/bin/python3", "-c", callerWalkScript, priv, out)
	control.Dir = s.project
	want, err := control.CombinedOutput()
	if err != nil {
		t.Fatalf("native run: %v\n%s", err, want)
	}
	if strings.Contains(strings.ReplaceAll(string(want), "access ok", ""), " ok\n") {
		t.Fatalf("natively, uid 65534 got through a 0700 directory:\n%s", want)
	}
	reset()
	got := s.run(t, "/usr/bin/python3", "-c", callerWalkScript, priv, out)
	if got.stdout != string(want) {
		t.Errorf("sandboxed answers differ from native ones\nsandboxed:\n%s\nnative:\n%s\nstderr: %s", got.stdout, want, got.stderr)
	}
}
