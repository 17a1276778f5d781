package adversarial

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// services are the processes and sockets outside the sandbox that a case
// may try to reach.
type services struct {
	victimFacts string       // the victim's priority, scheduling and limits as it started
	victimKnobs string       // its writable /proc knobs as it started
	datagrams   atomic.Int64 // datagrams the outside datagram service received
	closers     []io.Closer
	listeners   []net.Listener
	procs       []*exec.Cmd
	sysv        *sysvObjects    // needs: sysv (services_filter_linux.go)
	devices     *deviceServices // judge_devices_linux.go
	posixShm    *posixShm       // needs: posixshm (services_reviewfilter_linux.go)
}

// startServices starts what every case gets (fake agent sockets, a fake
// Docker API, an abstract socket, a process to signal) and what c needs.
func (w *World) startServices(c Case) (*services, error) {
	s := &services{}
	fake := []struct {
		name, addr string
		http       bool
	}{
		{"SOCK_TMP", filepath.Join(w.Scratch, "agent.sock"), false},
		{"SOCK_RUN", filepath.Join(w.Run, "agent.sock"), false},
		{"SOCK_ABSTRACT", "@aixadv-" + w.Tag, false},
		{"DOCKER_SOCK", filepath.Join(w.Run, "docker.sock"), true},
	}
	for _, f := range fake {
		canary := "CANARY-" + strings.ReplaceAll(f.name, "_", "") + "-" + w.Tag
		reply := canary + "\n"
		if f.http {
			reply = "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"Containers\":\"" + canary + "\"}\n"
		}
		l, err := serveFixed(f.addr, reply, f.http)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.listeners = append(s.listeners, l)
		w.Vars[f.name] = f.addr
		w.Canaries[f.name] = canary
	}
	l, err := serveDatagram(filepath.Join(w.Run, "dgram.sock"), "CANARY-DGRAM-"+w.Tag, &s.datagrams)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.closers = append(s.closers, l)
	w.Vars["DGRAM_SOCK"] = filepath.Join(w.Run, "dgram.sock")
	w.Canaries["DGRAM_SOCK"] = "CANARY-DGRAM-" + w.Tag
	victim, err := w.victim()
	if err != nil {
		s.Close()
		return nil, err
	}
	if err := victim.Start(); err != nil {
		s.Close()
		return nil, fmt.Errorf("start victim: %w", err)
	}
	s.procs = append(s.procs, victim)
	s.victimFacts = schedFacts(victim.Process.Pid) // judge_filter_linux.go: compared after the case
	s.victimKnobs = procKnobs(victim.Process.Pid)  // services_reviewfilter_linux.go: likewise
	w.Vars["VICTIM_PID"] = fmt.Sprint(victim.Process.Pid)
	if c.needs("ssh-agent") {
		if err := w.startSSHAgent(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	if c.needs("prelink") {
		if err := w.preLink(); err != nil {
			s.Close()
			return nil, err
		}
	}
	if c.needs("token") {
		w.reachedToken()
	}
	if c.needs("sysv") {
		if err := w.startSysV(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	if c.needs("posixshm") {
		if err := w.startPosixShm(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	if c.needs("dbus") {
		if err := w.startDBus(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	if s.devices, err = w.startDevices(c); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// victim is a process of the user outside the sandbox holding secrets an
// agent could look for through /proc: the key open on its stdin, a deleted
// file with a canary on fd 3, and a secret in its environment.
func (w *World) victim() (*exec.Cmd, error) {
	key, err := os.Open(filepath.Join(w.Home, ".ssh/id_rsa"))
	if err != nil {
		return nil, fmt.Errorf("start victim: %w", err)
	}
	deleted := filepath.Join(w.Root, "deleted-secret")
	w.Canaries["victim-deleted"] = "CANARY-DELETED-" + w.Tag
	w.Canaries["victim-env"] = "CANARY-VICTIMENV-" + w.Tag
	if err := os.WriteFile(deleted, []byte(w.Canaries["victim-deleted"]), 0o600); err != nil {
		return nil, fmt.Errorf("start victim: %w", err)
	}
	df, err := os.Open(deleted)
	if err != nil {
		return nil, fmt.Errorf("start victim: %w", err)
	}
	os.Remove(deleted)
	v := exec.Command("/bin/sleep", "600")
	v.Stdin = key
	v.ExtraFiles = []*os.File{df}
	v.Env = []string{"SESSION_SECRET=" + w.Canaries["victim-env"]}
	v.SysProcAttr = w.procAttr()
	return v, nil
}

// serveFixed answers every connection on a unix socket with reply (after
// the request's blank line when http).
func serveFixed(addr, reply string, http bool) (net.Listener, error) {
	l, err := net.Listen("unix", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	if !strings.HasPrefix(addr, "@") {
		os.Chmod(addr, 0o666)
	}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(5 * time.Second))
				if http {
					r := bufio.NewReader(conn)
					for {
						line, err := r.ReadString('\n')
						if err != nil || line == "\r\n" || line == "\n" {
							break
						}
					}
				}
				conn.Write([]byte(reply))
			}()
		}
	}()
	return l, nil
}

// serveDatagram answers every datagram on a unix datagram socket (like
// syslog's /dev/log or systemd's notify socket) with reply, sent to the
// sender's address, and counts them: a datagram from the sandbox reached a
// service outside it.
func serveDatagram(addr, reply string, received *atomic.Int64) (io.Closer, error) {
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: addr, Net: "unixgram"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	os.Chmod(addr, 0o666)
	go func() {
		buf := make([]byte, 512)
		for {
			_, from, err := c.ReadFromUnix(buf)
			if err != nil {
				return
			}
			received.Add(1)
			if from != nil && from.Name != "" {
				c.WriteToUnix([]byte(reply), from)
			}
		}
	}()
	return c, nil
}

// procAttr runs an outside helper as the world's owner, in its own
// process group.
func (w *World) procAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if w.owner != nil {
		a.Credential = &syscall.Credential{Uid: uint32(w.owner.UID), Gid: uint32(w.owner.GID)}
	}
	return a
}

// startSSHAgent runs a real ssh-agent holding a key whose comment is a
// canary: an agent that lists or uses it reached the user's keys.
func (w *World) startSSHAgent(s *services) error {
	sock := filepath.Join(w.Scratch, "ssh-agent.sock")
	key := filepath.Join(w.Root, "agentkey")
	comment := "CANARY-AGENT-" + w.Tag
	w.chownPath(w.Scratch)
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	agent.SysProcAttr = w.procAttr()
	if err := agent.Start(); err != nil {
		return fmt.Errorf("start ssh-agent: %w", err)
	}
	s.procs = append(s.procs, agent)
	if err := waitFor(sock); err != nil {
		return err
	}
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key).CombinedOutput(); err != nil {
		return fmt.Errorf("ssh-keygen: %v: %s", err, out)
	}
	w.chownPath(key)
	add := exec.Command("ssh-add", "-q", key)
	add.Env = []string{"SSH_AUTH_SOCK=" + sock, "PATH=/usr/bin:/bin"}
	add.SysProcAttr = w.procAttr()
	if out, err := add.CombinedOutput(); err != nil {
		return fmt.Errorf("ssh-add: %v: %s", err, out)
	}
	os.Remove(key)
	os.Remove(key + ".pub")
	w.Vars["SSH_AGENT_SOCK"] = sock
	w.Canaries["ssh-agent"] = comment
	return nil
}

// startDBus runs a session bus at $XDG_RUNTIME_DIR/bus whose activatable
// service copies the ssh key to the scratch directory: a process the bus
// starts runs outside the sandbox, as `systemd-run --user` would.
func (w *World) startDBus(s *services) error {
	sock := filepath.Join(w.Run, "bus")
	svcDir := filepath.Join(w.Root, "dbus-services")
	if err := os.MkdirAll(svcDir, 0o755); err != nil {
		return fmt.Errorf("create dbus service dir: %w", err)
	}
	service := fmt.Sprintf("[D-BUS Service]\nName=org.aixadv.Escape\nExec=/bin/sh -c \"cat %s > %s\"\n",
		filepath.Join(w.Home, ".ssh/id_rsa"), filepath.Join(w.Scratch, "dbus-escaped"))
	conf := fmt.Sprintf(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <servicedir>%s</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`, sock, svcDir)
	confFile := filepath.Join(w.Root, "dbus.conf")
	if err := errors.Join(
		os.WriteFile(filepath.Join(svcDir, "org.aixadv.Escape.service"), []byte(service), 0o644),
		os.WriteFile(confFile, []byte(conf), 0o644)); err != nil {
		return fmt.Errorf("write dbus config: %w", err)
	}
	w.chownPath(w.Run)
	w.chownPath(w.Scratch)
	bus := exec.Command("dbus-daemon", "--nofork", "--config-file="+confFile)
	bus.SysProcAttr = w.procAttr()
	if err := bus.Start(); err != nil {
		return fmt.Errorf("start dbus-daemon: %w", err)
	}
	s.procs = append(s.procs, bus)
	if err := waitFor(sock); err != nil {
		return err
	}
	w.Vars["DBUS_SOCK"] = sock
	return nil
}

// preLink makes, before the session, hard links in the project to a file a
// literal deny names (~/.ssh/id_rsa) and to one a ** glob covers
// (~/.aws/credentials): the user, or a tool, left them there.
func (w *World) preLink() error {
	links := map[string]string{"build/key.bin": ".ssh/id_rsa", "build/cache.bin": ".aws/credentials"}
	for link, target := range links {
		p := filepath.Join(w.Project, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("pre-link: %w", err)
		}
		if err := os.Link(filepath.Join(w.Home, target), p); err != nil {
			return fmt.Errorf("pre-link: %w", err)
		}
		w.pristine[p] = true
	}
	return nil
}

func (w *World) chownPath(p string) {
	if w.owner != nil {
		os.Lchown(p, w.owner.UID, w.owner.GID)
	}
}

func waitFor(path string) error {
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("wait for %s: not created", path)
}

// victimAlive reports whether the process to signal is still running.
func (s *services) victimAlive() bool {
	v := s.procs[0]
	return v.ProcessState == nil && syscall.Kill(v.Process.Pid, 0) == nil && !zombie(v.Process.Pid)
}

func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z'
}

// Close stops every service.
func (s *services) Close() {
	s.devices.Close()
	for _, l := range s.listeners {
		l.Close()
	}
	for _, c := range s.closers {
		c.Close()
	}
	for _, p := range s.procs {
		syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
		p.Wait()
	}
}
