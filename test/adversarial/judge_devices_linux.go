package adversarial

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Terminals, devices and capabilities (issue 14, items 3, 5 and 6): the
// services a case asks for with "needs: foreign-tty" or "needs: loopdev",
// and the checks every attack gets.

// gainedMarker is what an attack prints when a privileged operation it
// tried succeeded (the clock's time zone set to itself, the hostname set to
// itself, an address added to lo and removed again): the state is restored
// at once, so the judge cannot see it afterwards.
const gainedMarker = "ADV-GAINED:"

// deviceServices is what startDevices set up and the state judgeDevices
// compares against.
type deviceServices struct {
	master   *os.File  // the foreign terminal's master, held outside
	holder   *exec.Cmd // a process whose controlling terminal it is
	winsize  *unix.Winsize
	loop     string          // the loop device with the canary image, "" when none
	setid    map[string]bool // files with set-user-ID or set-group-ID bits before the case
	hostname string
	loAddrs  []string
}

// startDevices starts what c needs and records what the checks compare.
func (w *World) startDevices(c Case) (*deviceServices, error) {
	d := &deviceServices{}
	if c.needs("foreign-tty") {
		if err := w.foreignTTY(d); err != nil {
			d.Close()
			return nil, err
		}
	}
	if c.needs("loopdev") && os.Geteuid() == 0 {
		if err := w.loopDevice(d); err != nil {
			d.Close()
			return nil, err
		}
	}
	if c.needs("devnodes") && os.Geteuid() == 0 {
		if err := w.devNodes(); err != nil {
			d.Close()
			return nil, err
		}
	}
	d.setid = w.setidFiles()
	d.hostname, _ = os.Hostname()
	d.loAddrs = loAddrs()
	return d, nil
}

// foreignTTY opens a pseudo-terminal outside the sandbox, as the user's
// other terminal window: a process (the user's shell) has it as its
// controlling terminal, and a canary has been typed into it and not yet
// read. Echo is off, so any byte on the master side afterwards was written
// by the sandbox.
func (w *World) foreignTTY(d *deviceServices) error {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return fmt.Errorf("open ptmx: %w", err)
	}
	d.master = m
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		return fmt.Errorf("get pty number: %w", err)
	}
	name := "/dev/pts/" + strconv.Itoa(int(n))
	slave, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", name, err)
	}
	defer slave.Close()
	if w.owner != nil {
		os.Chown(name, w.owner.UID, 5) // tty group, as grantpt leaves it
	}
	os.Chmod(name, 0o620)
	tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		return fmt.Errorf("get termios: %w", err)
	}
	tio.Lflag &^= unix.ECHO | unix.ECHONL
	if err := unix.IoctlSetTermios(int(slave.Fd()), unix.TCSETS, tio); err != nil {
		return fmt.Errorf("set termios: %w", err)
	}
	d.winsize = &unix.Winsize{Row: 33, Col: 77}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, d.winsize); err != nil {
		return fmt.Errorf("set winsize: %w", err)
	}
	h := exec.Command("/bin/sleep", "600")
	h.Stdin, h.Stdout, h.Stderr = slave, slave, slave
	h.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if w.owner != nil {
		h.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(w.owner.UID), Gid: uint32(w.owner.GID)}
	}
	if err := h.Start(); err != nil {
		return fmt.Errorf("start terminal holder: %w", err)
	}
	d.holder = h
	canary := "CANARY-TTY-" + w.Tag
	if _, err := m.WriteString(canary + "\n"); err != nil {
		return fmt.Errorf("type into the terminal: %w", err)
	}
	w.Canaries["foreign-tty"] = canary
	w.Vars["FOREIGN_PTS"] = name
	w.Vars["FOREIGN_PTS_NUM"] = strconv.Itoa(int(n))
	w.Vars["FOREIGN_PTS_PID"] = strconv.Itoa(h.Process.Pid)
	return nil
}

// loopDevice attaches an image holding a canary to a loop device and
// leaves, in the project, a device node for it (a copy the user or a
// tool made earlier: a device node outside /dev).
func (w *World) loopDevice(d *deviceServices) error {
	img := filepath.Join(w.Root, "disk.img")
	canary := "CANARY-BLOCK-" + w.Tag
	data := bytes.Repeat([]byte(canary+"\n"), 1<<20/len(canary))
	if err := os.WriteFile(img, data, 0o600); err != nil {
		return fmt.Errorf("write disk image: %w", err)
	}
	w.pristine[img] = true
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		return fmt.Errorf("losetup: %w", err)
	}
	d.loop = strings.TrimSpace(string(out))
	var st unix.Stat_t
	if err := unix.Stat(d.loop, &st); err != nil {
		return fmt.Errorf("stat %s: %w", d.loop, err)
	}
	node := filepath.Join(w.Project, "build", "disk0")
	if err := os.MkdirAll(filepath.Dir(node), 0o755); err != nil {
		return fmt.Errorf("create build dir: %w", err)
	}
	if err := unix.Mknod(node, unix.S_IFBLK|0o666, int(st.Rdev)); err != nil {
		return fmt.Errorf("mknod %s: %w", node, err)
	}
	w.Canaries["block-device"] = canary
	w.Vars["LOOP_DEV"] = d.loop
	w.Vars["LOOP_NODE"] = node
	w.Vars["LOOP_MAJOR"] = strconv.Itoa(int(unix.Major(st.Rdev)))
	w.Vars["LOOP_MINOR"] = strconv.Itoa(int(unix.Minor(st.Rdev)))
	return nil
}

// devNodes leaves, in the project, copies of dangerous character device
// nodes (as a tool or an earlier root session might have): their numbers
// are what matters, not where they are.
func (w *World) devNodes() error {
	dir := filepath.Join(w.Project, "build", "nodes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create nodes dir: %w", err)
	}
	nodes := map[string]int{"kmsg": int(unix.Mkdev(1, 11)), "mem": int(unix.Mkdev(1, 1)), "port": int(unix.Mkdev(1, 4)),
		"loop-control": int(unix.Mkdev(10, 237)), "tty0": int(unix.Mkdev(4, 0)), "console": int(unix.Mkdev(5, 1))}
	if data, err := os.ReadFile("/sys/class/misc/userfaultfd/dev"); err == nil {
		var maj, mnr uint32
		if _, err := fmt.Sscanf(string(data), "%d:%d", &maj, &mnr); err == nil {
			nodes["userfaultfd"] = int(unix.Mkdev(maj, mnr))
		}
	}
	for name, dev := range nodes {
		if err := unix.Mknod(filepath.Join(dir, name), unix.S_IFCHR|0o666, dev); err != nil {
			return fmt.Errorf("mknod %s: %w", name, err)
		}
	}
	w.Vars["NODES"] = dir
	return nil
}

// judge returns what the case did to terminals, devices and the
// machine, and restores what it can.
func (d *deviceServices) judge(w *World, out string) []string {
	var bad []string
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, gainedMarker); i >= 0 {
			bad = append(bad, "privileged operation succeeded:"+line[i+len(gainedMarker):])
		}
	}
	bad = append(bad, d.judgeTTY()...)
	for p := range w.setidFiles() {
		if !d.setid[p] {
			bad = append(bad, "new set-user-ID or set-group-ID file "+p)
			os.Remove(p)
		}
	}
	if h, _ := os.Hostname(); h != d.hostname {
		bad = append(bad, "hostname changed to "+h)
		unix.Sethostname([]byte(d.hostname))
	}
	now := loAddrs()
	for _, a := range now {
		if !containsStr(d.loAddrs, a) {
			bad = append(bad, "address added to lo: "+a)
			exec.Command("ip", "addr", "del", a, "dev", "lo").Run()
		}
	}
	return bad
}

func (d *deviceServices) judgeTTY() []string {
	if d.master == nil {
		return nil
	}
	var bad []string
	fd := int(d.master.Fd())
	if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil && (ws.Row != d.winsize.Row || ws.Col != d.winsize.Col) {
		bad = append(bad, fmt.Sprintf("the other terminal's size changed to %dx%d", ws.Row, ws.Col))
	}
	unix.SetNonblock(fd, true)
	buf := make([]byte, 512)
	if n, _ := unix.Read(fd, buf); n > 0 {
		bad = append(bad, fmt.Sprintf("%d byte(s) written into the other terminal: %q", n, buf[:n]))
	}
	if d.holder != nil && (syscall.Kill(d.holder.Process.Pid, 0) != nil || zombie(d.holder.Process.Pid)) {
		bad = append(bad, "the process of the other terminal was killed (hang-up)")
	}
	return bad
}

// Close stops the terminal holder and detaches the loop device.
func (d *deviceServices) Close() {
	if d == nil {
		return
	}
	if d.holder != nil {
		d.holder.Process.Kill()
		d.holder.Wait()
	}
	if d.master != nil {
		d.master.Close()
	}
	if d.loop != "" {
		exec.Command("losetup", "-d", d.loop).Run()
	}
}

// setidFiles lists the files with a set-user-ID or set-group-ID bit (on a
// non-directory) in the world, its scratch directory and the top level of
// the shared temporary directories.
func (w *World) setidFiles() map[string]bool {
	out := map[string]bool{}
	add := func(p string, d fs.DirEntry) {
		if d.IsDir() {
			return
		}
		if info, err := d.Info(); err == nil && info.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
			out[p] = true
		}
	}
	for _, top := range []string{w.Root, w.Scratch} {
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				add(p, d)
			}
			return nil
		})
	}
	for _, dir := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			add(filepath.Join(dir, e.Name()), e)
		}
	}
	return out
}

// loAddrs lists the addresses of the loopback interface.
func loAddrs() []string {
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		return nil
	}
	addrs, err := lo.Addrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		out = append(out, a.String())
	}
	sort.Strings(out)
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
