package notify

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pyTakeover binds an abstract name in the sandbox, releases it, waits
// for the outside to take it over, then connects to it.
const pyTakeover = `import socket,sys,os,time
name, flag, taken = "\0" + sys.argv[1][1:], sys.argv[2], sys.argv[3]
s = socket.socket(socket.AF_UNIX); s.bind(name); s.listen(); s.close()
open(flag, "w").close()
for _ in range(500):
    if os.path.exists(taken): break
    time.sleep(0.01)
c = socket.socket(socket.AF_UNIX)
try:
    c.connect(name); print("reached", c.recv(100).decode())
except OSError as e:
    print("refused", e.errno)
`

// TestUnixAbstractTakeover is the attack of issue 14 item 9: an abstract
// connect was allowed by name, so a name the sandbox bound and released,
// then taken by an outside server, was reached. It is allowed only to the
// very socket the session bound (by inode).
func TestUnixAbstractTakeover(t *testing.T) {
	s := newSandbox(t)
	name := "@aixbroker-takeover-" + strconv.Itoa(os.Getpid())
	flag, taken := filepath.Join(s.project, "released"), filepath.Join(s.project, "taken")
	done := make(chan struct{})
	reached := make(chan bool, 1)
	go func() {
		defer close(done)
		for i := 0; i < 1000; i++ {
			if _, err := os.Stat(flag); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		l, err := net.Listen("unix", name)
		if err != nil {
			t.Errorf("outside listen %s: %v", name, err)
			os.WriteFile(taken, nil, 0o644)
			return
		}
		defer l.Close()
		os.WriteFile(taken, nil, 0o644)
		l.(*net.UnixListener).SetDeadline(time.Now().Add(time.Second))
		c, err := l.Accept()
		if err != nil {
			return
		}
		reached <- true
		c.Write([]byte("OUTSIDE-SECRET"))
		c.Close()
	}()
	got := s.run(t, "/usr/bin/python3", "-c", pyTakeover, name, flag, taken)
	<-done
	if strings.Contains(got.stdout, "OUTSIDE-SECRET") || len(reached) > 0 {
		t.Errorf("the outside server that took over the released name was reached: %q", got.stdout)
	}
	if !strings.Contains(got.stdout, "refused") {
		t.Errorf("stdout %q stderr %q, want the connect refused", got.stdout, got.stderr)
	}
}

// pyBind tries to bind and listen on each name and prints the outcome.
const pyBind = `import socket,sys
for a in sys.argv[1:]:
    n = "\0" + a[1:] if a.startswith("@") else a
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(n); s.listen(); print("bound", a)
    except OSError as e:
        print("refused", e.errno, a)
`

// TestUnixBindServiceNames: binding a name an outside client looks for
// (an X display, the ICE and D-Bus abstract names, tmux, ssh-agent, a
// D-Bus bus, the runtime directory) lets it connect in to the agent: they
// are refused, whatever the filesystem rules say; names of the project or
// of a private directory, and autobind, still work.
func TestUnixBindServiceNames(t *testing.T) {
	s := newSandbox(t)
	s.policy.Write = append(s.policy.Write, "/tmp")
	pid := strconv.Itoa(os.Getpid())
	uid := strconv.Itoa(os.Getuid())
	for _, d := range []string{"/tmp/.X11-unix", "/tmp/.ICE-unix"} {
		if err := os.Mkdir(d, 0o1777); err == nil {
			os.Chmod(d, 0o1777)
			t.Cleanup(func() { os.Remove(d) })
		}
	}
	private := t.TempDir()
	os.Chmod(private, 0o777)
	for _, d := range []string{"/tmp/tmux-" + uid, "/tmp/ssh-aixtest" + pid, filepath.Join(s.project, "dbus")} {
		os.Mkdir(d, 0o700)
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	refused := []string{
		"/tmp/.X11-unix/X7" + pid, "@/tmp/.X11-unix/X7" + pid,
		"/tmp/.ICE-unix/" + pid, "@/tmp/.ICE-unix/" + pid,
		"@/tmp/dbus-aixtest" + pid, "/tmp/dbus-aixtest" + pid,
		"/tmp/tmux-" + uid + "/aixtest" + pid, "/tmp/ssh-aixtest" + pid + "/agent." + pid,
		filepath.Join(s.project, "dbus", "bus"),
		"@/etc/aixtest-" + pid + ".sock", // an abstract path-like name outside the writable roots
	}
	for _, a := range refused {
		if !strings.HasPrefix(a, "@") {
			t.Cleanup(func() { os.Remove(a) })
		}
	}
	allowed := []string{
		filepath.Join(s.project, "server.sock"),
		filepath.Join(private, "s.sock"),
		"@aixbroker-inside-" + pid,
		"@" + filepath.Join(s.project, "abstract.sock"),
	}
	got := s.run(t, append([]string{"/usr/bin/python3", "-c", pyBind}, append(refused, allowed...)...)...)
	for _, a := range refused {
		if !strings.Contains(got.stdout, "refused 13 "+a+"\n") {
			t.Errorf("bind %s: want refused with EACCES; stdout %q", a, got.stdout)
		}
	}
	for _, a := range allowed {
		if !strings.Contains(got.stdout, "bound "+a+"\n") {
			t.Errorf("bind %s: want bound; stdout %q stderr %q", a, got.stdout, got.stderr)
		}
	}
}
