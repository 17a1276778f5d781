package notify

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A session cgroup holds every sandboxed process when this machine lets
// the user create one in the cgroup v2 hierarchy: as root, or in a
// delegated subtree (a systemd user session with delegation on). Stage 2
// is placed in it before it may exec the agent, and the kernel keeps every
// descendant there; at the end of the session cgroup.freeze stops them all
// and cgroup.kill kills them all at once, however deep or fast they fork.
// The sandbox cannot leave it: writing to another cgroup's cgroup.procs
// goes through the broker, which refuses every write on a cgroup file
// system whatever the policy says (cgroupfs_linux.go), and clone3 (the
// CLONE_INTO_CGROUP way) is refused by the filter. Without one, the tree
// walk of reaper_linux.go does the job alone.

// sessionCgroup is the cgroup v2 directory of one session.
type sessionCgroup struct {
	dir string
}

// cgroupRoot finds where cgroup v2 is mounted (the unified hierarchy) and
// this process's cgroup in it.
func cgroupRoot() (mount, own string, err error) {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", fmt.Errorf("read mountinfo: %w", err)
	}
	for _, line := range strings.Split(string(mi), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		fields, rest := strings.Fields(pre), strings.Fields(post)
		if ok && len(fields) >= 5 && len(rest) >= 1 && rest[0] == "cgroup2" {
			mount = unescapeMount(fields[4])
			break
		}
	}
	if mount == "" {
		return "", "", errors.New("no cgroup v2 hierarchy is mounted")
	}
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", fmt.Errorf("read own cgroup: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(cg))
	for sc.Scan() {
		if rel, ok := strings.CutPrefix(sc.Text(), "0::"); ok {
			return mount, filepath.Join(mount, filepath.Clean("/"+rel)), nil
		}
	}
	return "", "", errors.New("this process is in no cgroup v2 cgroup")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newSessionCgroup creates the session's cgroup next to nothing: a child
// of this process's own cgroup (moving a process between the two needs
// write access to the common ancestor's cgroup.procs, which is ours). The
// error says why there is none.
func newSessionCgroup() (*sessionCgroup, error) {
	_, own, err := cgroupRoot()
	if err != nil {
		return nil, err
	}
	if err := unix.Access(filepath.Join(own, "cgroup.procs"), unix.W_OK); err != nil {
		return nil, fmt.Errorf("cannot move processes out of %s: %w", own, err)
	}
	dir := filepath.Join(own, fmt.Sprintf("aixbroker-%d-%d", os.Getpid(), time.Now().UnixNano()%1e9))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create a cgroup in %s: %w", own, err)
	}
	cg := &sessionCgroup{dir: dir}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		cg.remove()
		return nil, fmt.Errorf("cgroup v2 at %s has no cgroup.kill (Linux 5.14)", own)
	}
	reapStaleCgroups(own, dir)
	return cg, nil
}

// reapStaleCgroups kills and removes the session cgroups next to ours
// whose supervisor is gone: a session whose supervisor and guardian were
// killed together leaves its cgroup, and maybe processes in it, behind;
// the next session of the user ends them. A cgroup whose creator's pid is
// alive is left alone (it may be a live session, or the pid was reused).
func reapStaleCgroups(parent, mine string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, "aixbroker-")
		if !ok || !e.IsDir() || filepath.Join(parent, name) == mine {
			continue
		}
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid <= 0 || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue
		}
		stale := &sessionCgroup{dir: filepath.Join(parent, name)}
		if stale.kill(time.Now().Add(time.Second)) {
			stale.remove()
		}
	}
}

// place moves pid into the session's cgroup.
func (c *sessionCgroup) place(pid int) error {
	if err := os.WriteFile(filepath.Join(c.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
		return fmt.Errorf("place stage 2 in %s: %w", c.dir, err)
	}
	return nil
}

// kill freezes, then kills every process of the cgroup and waits until it
// is empty or the deadline passes; it reports whether it is empty.
func (c *sessionCgroup) kill(deadline time.Time) bool {
	os.WriteFile(filepath.Join(c.dir, "cgroup.freeze"), []byte("1"), 0)
	for {
		os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0)
		c.killProcs()
		if !c.populated() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// killProcs kills every process listed in cgroup.procs through a pidfd:
// cgroup.kill queues its SIGKILL on a thread-group leader that has exited
// alone (SYS_exit) and no other thread of the process acts on it, while
// kill(2) reaches the whole group. A pid listed and reused meanwhile by a
// process outside is not in the cgroup any more: checked after the pidfd
// is open.
func (c *sessionCgroup) killProcs() {
	data, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return
	}
	suffix := "/" + filepath.Base(c.dir) // unique: pid and time, and the sandbox creates no cgroup
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if inCgroupV2(pid, suffix) {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		unix.Close(fd)
	}
}

// inCgroupV2 reports whether pid's cgroup v2 path ends with suffix.
func inCgroupV2(pid int, suffix string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rel, ok := strings.CutPrefix(line, "0::"); ok {
			return strings.HasSuffix(rel, suffix)
		}
	}
	return false
}

// populated reads cgroup.events: whether a live process is left (zombies
// are not).
func (c *sessionCgroup) populated() bool {
	ev, err := os.ReadFile(filepath.Join(c.dir, "cgroup.events"))
	if err != nil {
		return false // gone
	}
	return !bytes.Contains(ev, []byte("populated 0"))
}

// remove deletes the (empty) cgroup, retrying briefly while the kernel
// finishes releasing it.
func (c *sessionCgroup) remove() {
	for range 50 {
		err := unix.Rmdir(c.dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// ProcessCleanup says how sessions on this machine, as this user, make
// sure no sandboxed process outlives them: "cgroup v2 (cgroup.kill) at
// DIR", or the subreaper tree walk and why no cgroup could be had. It
// creates and removes a probe cgroup.
func ProcessCleanup() (cgroup bool, detail string) {
	cg, err := newSessionCgroup()
	if err != nil {
		return false, "subreaper tree walk (no writable cgroup v2: " + err.Error() + ")"
	}
	parent := filepath.Dir(cg.dir)
	cg.remove()
	return true, "cgroup v2 (cgroup.kill) at " + parent
}
